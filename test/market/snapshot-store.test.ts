// The snapshot store: one SQLite row per chain id, replaced whole, its HMAC
// under the snapshot key checked when loaded; a private file.
import { Database } from "bun:sqlite"
import { afterEach, beforeEach, describe, expect, test } from "bun:test"
import { Effect, Exit, Option, TestClock, TestContext } from "effect"
import { createHmac } from "node:crypto"
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync, chmodSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { snapshotKey } from "../../src/market/snapshot-key.ts"
import { openSnapshotStore, snapshotStoreScoped, SnapshotStoreError, type SnapshotStore } from "../../src/market/snapshot-store.ts"

const SECRET = "the key store's secret: 32 characters or more"
const KEY = snapshotKey(SECRET)
const OTHER_KEY = snapshotKey("another key store's secret, 32 characters or more")

let dir: string
let path: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "snapshot-store-"))
  path = join(dir, "nested", "market.sqlite")
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** Runs `use` with a store at `path`, closed afterwards. */
const withStore = <A, E>(use: (store: SnapshotStore) => Effect.Effect<A, E>, key = KEY): Promise<A> =>
  Effect.runPromise(Effect.scoped(Effect.flatMap(snapshotStoreScoped(path, key), use)).pipe(Effect.provide(TestContext.TestContext)))

const failureOf = async <A>(effect: Effect.Effect<A, SnapshotStoreError>): Promise<SnapshotStoreError> => {
  const exit = await Effect.runPromiseExit(effect)
  if (Exit.isSuccess(exit)) throw new Error("the effect succeeded")
  const failure = exit.cause._tag === "Fail" ? exit.cause.error : undefined
  if (!(failure instanceof SnapshotStoreError)) throw new Error(`not a SnapshotStoreError: ${String(exit.cause)}`)
  return failure
}

/** The raw table, read or edited with SQL, as another process would. */
const raw = <A>(use: (db: Database) => A): A => {
  const db = new Database(path, { strict: true })
  try {
    return use(db)
  } finally {
    db.close()
  }
}

describe("saving and loading", () => {
  test("an empty store has no snapshot", async () => {
    expect(await withStore((store) => store.load(5042))).toEqual(Option.none())
  })

  test("a saved document comes back with the time it was saved", async () => {
    const text = JSON.stringify({ format: 1, chainId: 5042, venue: "xylonet ✓", block: "123" })
    const loaded = await withStore((store) =>
      Effect.gen(function* () {
        yield* TestClock.setTime(1_700_000_000_000)
        yield* store.save(5042, text)
        return yield* store.load(5042)
      }),
    )
    expect(loaded).toEqual(Option.some({ text, savedAt: 1_700_000_000_000 }))
  })

  test("the document outlives the store: closed and opened again, it is there", async () => {
    await withStore((store) => store.save(5042, "first run"))
    const loaded = await withStore((store) => store.load(5042))
    expect(Option.map(loaded, (s) => s.text)).toEqual(Option.some("first run"))
  })

  test("a save replaces the document: one row per chain", async () => {
    const loaded = await withStore((store) =>
      Effect.gen(function* () {
        yield* TestClock.setTime(1_000)
        yield* store.save(5042, "old")
        yield* TestClock.setTime(2_000)
        yield* store.save(5042, "new")
        return yield* store.load(5042)
      }),
    )
    expect(loaded).toEqual(Option.some({ text: "new", savedAt: 2_000 }))
    expect(raw((db) => db.query<{ n: number }, []>("SELECT count(*) AS n FROM market_snapshot").get()!.n)).toBe(1)
  })

  test("two chain ids are kept apart", async () => {
    const [a, b, c] = await withStore((store) =>
      Effect.gen(function* () {
        yield* store.save(1, "mainnet")
        yield* store.save(5042, "arc")
        yield* store.save(1, "mainnet again")
        return [yield* store.load(1), yield* store.load(5042), yield* store.load(7)] as const
      }),
    )
    expect(Option.map(a, (s) => s.text)).toEqual(Option.some("mainnet again"))
    expect(Option.map(b, (s) => s.text)).toEqual(Option.some("arc"))
    expect(c).toEqual(Option.none())
  })

  test("a document of several MB round-trips byte for byte", async () => {
    const text = JSON.stringify({ ticks: Array.from({ length: 300_000 }, (_, i) => `${i * 7919}${i % 10}`) })
    expect(text.length).toBeGreaterThan(2_000_000)
    const loaded = await withStore((store) => Effect.zipRight(store.save(5042, text), store.load(5042)))
    expect(Option.getOrThrow(loaded).text === text).toBe(true)
  })

  test("the row holds the document and its HMAC-SHA256 under a key derived from the secret, never the secret's own", async () => {
    await withStore((store) => Effect.zipRight(TestClock.setTime(1_234), store.save(5042, "abc")))
    const row = raw((db) => db.query<{ document: string; mac: string }, []>("SELECT document, mac FROM market_snapshot WHERE chain_id = 5042").get())
    // the key: HMAC-SHA256(secret, label); the tag: HMAC-SHA256(key, chain id, time saved, document)
    const key = createHmac("sha256", SECRET).update("arc-dex-aggregator/market-snapshot/v1").digest()
    const expected = createHmac("sha256", key).update("5042\n1234\nabc").digest("hex")
    expect(row).toEqual({ document: "abc", mac: expected })
    expect(row!.mac).not.toBe(createHmac("sha256", SECRET).update("5042\n1234\nabc").digest("hex"))
  })
})

describe("damage and tampering", () => {
  const loadFails = () => failureOf(Effect.scoped(Effect.flatMap(snapshotStoreScoped(path, KEY), (store) => store.load(5042))))

  test("a document edited in the database, its plain sha256 recomputed beside it: it does not verify", async () => {
    await withStore((store) => store.save(5042, '{"balances":["100"]}'))
    raw((db) => db.run("UPDATE market_snapshot SET document = ? WHERE chain_id = 5042", ['{"balances":["900"]}']))
    const error = await loadFails()
    expect(error._tag).toBe("SnapshotStoreError")
    expect(error.reason).toBe("unauthenticated")
    expect(error.message).toContain("chain 5042")
    expect(error.message).toContain("does not verify")
  })

  test("a tag edited, or moved from another row, or the time saved changed: it does not verify; the other chain's row still loads", async () => {
    await withStore((store) => Effect.zipRight(store.save(5042, "arc"), store.save(1, "mainnet")))
    raw((db) => db.run("UPDATE market_snapshot SET mac = ? WHERE chain_id = 5042", ["0".repeat(64)]))
    expect((await loadFails()).reason).toBe("unauthenticated")
    expect(Option.map(await withStore((store) => store.load(1)), (s) => s.text)).toEqual(Option.some("mainnet"))

    // the same document under chain 1's tag
    raw((db) => db.run("UPDATE market_snapshot SET document = 'mainnet', mac = (SELECT mac FROM market_snapshot WHERE chain_id = 1) WHERE chain_id = 5042"))
    expect((await loadFails()).reason).toBe("unauthenticated")
    await withStore((store) => store.save(5042, "arc"))
    raw((db) => db.run("UPDATE market_snapshot SET saved_at = saved_at + 1 WHERE chain_id = 5042"))
    expect((await loadFails()).reason).toBe("unauthenticated")
  })

  test("a snapshot written under another secret does not verify under this one", async () => {
    await withStore((store) => store.save(5042, "written elsewhere"), OTHER_KEY)
    expect(Option.map(await withStore((store) => store.load(5042), OTHER_KEY), (s) => s.text)).toEqual(Option.some("written elsewhere"))
    expect((await loadFails()).reason).toBe("unauthenticated")
  })

  test("a store from before snapshots were signed (a plain checksum column) is emptied on open: nothing in it can be verified", async () => {
    mkdirSync(dirname(path), { recursive: true })
    raw((db) => {
      db.exec("CREATE TABLE market_snapshot (chain_id INTEGER PRIMARY KEY, saved_at INTEGER NOT NULL, document TEXT NOT NULL, checksum TEXT NOT NULL)")
      db.run("INSERT INTO market_snapshot VALUES (5042, 1, 'old', 'ba78')")
    })
    expect(await withStore((store) => store.load(5042))).toEqual(Option.none())
    expect(Option.map(await withStore((store) => Effect.zipRight(store.save(5042, "new"), store.load(5042))), (s) => s.text)).toEqual(Option.some("new"))
  })

  test("a save that fails half-way leaves the previous document", async () => {
    await withStore((store) => store.save(5042, "previous"))
    // the write is refused inside the transaction, after the row was touched
    raw((db) =>
      db.exec(`CREATE TRIGGER refuse AFTER UPDATE ON market_snapshot WHEN NEW.document = 'next' BEGIN SELECT RAISE(ABORT, 'disk full'); END`),
    )
    const store = await Effect.runPromise(openSnapshotStore(path, KEY))
    const error = await failureOf(store.save(5042, "next"))
    expect(error.reason).toBe("write")
    expect(error.message).toContain("disk full")
    expect(Option.map(await Effect.runPromise(store.load(5042)), (s) => s.text)).toEqual(Option.some("previous"))
    await Effect.runPromise(store.close)
  })

  test("a closed store answers with errors, not a crash; closing twice is harmless", async () => {
    const store = await Effect.runPromise(openSnapshotStore(path, KEY))
    await Effect.runPromise(store.close)
    await Effect.runPromise(store.close)
    expect((await failureOf(store.load(5042))).reason).toBe("read")
    expect((await failureOf(store.save(5042, "x"))).reason).toBe("write")
  })

  test("a path that cannot be a database: open fails with the path in the message", async () => {
    const notADatabase = join(dir, "garbage.sqlite")
    writeFileSync(notADatabase, "this is not a SQLite file, it is long enough to have a header and then some more bytes".repeat(10))
    const error = await failureOf(openSnapshotStore(notADatabase, KEY))
    expect(error.reason).toBe("open")
    expect(error.message).toContain(notADatabase)
    const aDirectory = await failureOf(openSnapshotStore(dir, KEY))
    expect(aDirectory.reason).toBe("open")
  })
})

describe("a snapshot file from before migrations were recorded", () => {
  test("its snapshot still loads; the first migration is recorded", async () => {
    mkdirSync(dirname(path), { recursive: true })
    // the table as the store wrote it before its schema had migrations, and a row signed as it signed them
    const key = createHmac("sha256", SECRET).update("arc-dex-aggregator/market-snapshot/v1").digest()
    raw((db) => {
      db.exec("PRAGMA journal_mode = WAL")
      db.exec("CREATE TABLE market_snapshot (chain_id INTEGER PRIMARY KEY, saved_at INTEGER NOT NULL, document TEXT NOT NULL, mac TEXT NOT NULL)")
      db.run("INSERT INTO market_snapshot VALUES (5042, 1234, 'kept', ?)", [createHmac("sha256", key).update("5042\n1234\nkept").digest("hex")])
    })
    expect(await withStore((store) => store.load(5042))).toEqual(Option.some({ text: "kept", savedAt: 1234 }))
    expect(raw((db) => db.query("SELECT migration_id, name FROM market_snapshot_migrations").all())).toEqual([{ migration_id: 1, name: "market_snapshot" }])
    expect(await withStore((store) => store.load(5042))).toEqual(Option.some({ text: "kept", savedAt: 1234 }))
  })
})

describe("the file", () => {
  test("a new file, and its write-ahead log, are readable by their owner only (0600)", async () => {
    const modes = await withStore((store) =>
      Effect.gen(function* () {
        yield* store.save(5042, "secret-ish")
        // while the store is open: the WAL and its index exist, made with the database file's permissions
        return [path, `${path}-wal`, `${path}-shm`].map((file) => (existsSync(file) ? statSync(file).mode & 0o777 : "missing"))
      }),
    )
    expect(modes).toEqual([0o600, 0o600, 0o600])
    expect(statSync(path).mode & 0o777).toBe(0o600)
  })

  test("a folder it creates is its owner's alone (0700); one that exists keeps its mode", async () => {
    await withStore((store) => store.save(5042, "x"))
    expect(statSync(dirname(path)).mode & 0o777).toBe(0o700)
    chmodSync(dir, 0o755)
    path = join(dir, "market.sqlite")
    await withStore((store) => store.save(5042, "x"))
    expect(statSync(dir).mode & 0o777).toBe(0o755)
  })

  test("an existing file keeps the mode its owner gave it", async () => {
    await withStore((store) => store.save(5042, "x"))
    chmodSync(path, 0o640)
    await withStore((store) => store.save(5042, "y"))
    expect(statSync(path).mode & 0o777).toBe(0o640)
  })

  test("the database is in WAL mode", async () => {
    await withStore((store) => store.save(5042, "x"))
    expect(raw((db) => db.query<{ journal_mode: string }, []>("PRAGMA journal_mode").get()!.journal_mode)).toBe("wal")
  })
})
