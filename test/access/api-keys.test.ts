// The key store on real SQLite files: keys exist in clear only when issued; the
// database holds an HMAC under a secret kept elsewhere; revocation and new keys
// are seen by every connection on its next check; the files are the user's
// alone, and a secret file that is not is refused.
import { Database } from "bun:sqlite"
import { afterEach, describe, expect, test } from "bun:test"
import { Effect, Either, Option, Redacted, type Scope } from "effect"
import { createHmac } from "node:crypto"
import { chmodSync, chownSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { makeApiKeys, secretFileFor, type ApiKeysShape } from "../../src/access/index.ts"
import { startApiServer, syntheticPrograms } from "../../src/api/index.ts"
import type { KeyStoreConfig } from "../../src/config/index.ts"

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})
const tempDb = () => {
  const dir = mkdtempSync(join(tmpdir(), "keys-test-"))
  dirs.push(dir)
  return join(dir, "nested", "keys.sqlite")
}
const config = (path: string, secret?: string): KeyStoreConfig => ({
  database: { kind: "sqlite", path },
  keyHashSecret: secret === undefined ? Option.none() : Option.some(Redacted.make(secret)),
})
const withStore = <A, E>(cfg: KeyStoreConfig, f: (keys: ApiKeysShape) => Effect.Effect<A, E, Scope.Scope>) =>
  Effect.runPromise(Effect.scoped(Effect.flatMap(makeApiKeys(cfg), f)))

describe("issuing and checking keys", () => {
  test("a new key: its format, its defaults, and it verifies", async () => {
    const path = tempDb()
    await withStore(config(path), (keys) =>
      Effect.gen(function* () {
        const before = Date.now()
        const { key, record } = yield* keys.create({ name: "  Acme swap widget  " })
        expect(key).toMatch(/^arc_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/)
        expect(key.slice(4, 20)).toBe(record.id)
        expect(record).toMatchObject({ name: "Acme swap widget", rpm: 60, concurrency: 2, revokedAt: null })
        expect(record.createdAt.getTime()).toBeGreaterThanOrEqual(before)
        expect(yield* keys.verify(key)).toEqual(record)
        const custom = yield* keys.create({ name: "big", rpm: 600, concurrency: 8 })
        expect(custom.record).toMatchObject({ rpm: 600, concurrency: 8 })
      }))
  })

  test("the database holds only HMAC-SHA256(secret, key); the secret lives beside it, mode 0600", async () => {
    const path = tempDb()
    const { key, id } = await withStore(config(path), (keys) => Effect.map(keys.create({ name: "n" }), (r) => ({ key: r.key, id: r.record.id })))
    const secretFile = secretFileFor(path)
    expect(secretFile).toBe(`${path}.hash-secret`)
    expect(statSync(secretFile).mode & 0o777).toBe(0o600)
    const secret = readFileSync(secretFile, "utf8").trim()
    expect(secret).toMatch(/^[0-9a-f]{64}$/)
    const db = new Database(path, { readonly: true })
    const row = db.query<{ hash: Uint8Array }, [string]>("SELECT hash FROM api_keys WHERE id = ?").get(id)!
    expect(Buffer.from(row.hash).toString("hex")).toBe(createHmac("sha256", secret).update(key).digest("hex"))
    const everything = JSON.stringify(db.query("SELECT * FROM api_keys").all(), (_, v) => (v instanceof Uint8Array ? Buffer.from(v).toString("hex") : v))
    db.close()
    expect(everything).not.toContain(key.slice(21))
    expect(readFileSync(path).includes(Buffer.from(key.slice(21)))).toBe(false)
  })

  test("wrong, malformed, padded and revoked keys are refused", async () => {
    await withStore(config(tempDb()), (keys) =>
      Effect.gen(function* () {
        const { key, record } = yield* keys.create({ name: "n" })
        const reason = (presented: string) => Effect.map(Effect.flip(keys.verify(presented)), (e) => (e._tag === "KeyRejected" ? e.reason : e._tag))
        const otherSecret = key.slice(0, 21) + (key[21] === "A" ? "B" : "A") + key.slice(22)
        expect(yield* reason(otherSecret)).toBe("wrong")
        expect(yield* reason(`arc_ffffffffffffffff_${key.slice(21)}`)).toBe("wrong")
        expect(yield* reason(` ${key}`)).toBe("wrong")
        expect(yield* reason(`${key}\n`)).toBe("wrong")
        expect(yield* reason(key.toUpperCase())).toBe("wrong")
        expect(yield* reason("")).toBe("wrong")
        yield* keys.revoke(record.id)
        expect(yield* reason(key)).toBe("revoked")
      }))
  })

  test("list shows records, never keys; revoke is idempotent; an unknown id is an error", async () => {
    await withStore(config(tempDb()), (keys) =>
      Effect.gen(function* () {
        const a = yield* keys.create({ name: "a" })
        const b = yield* keys.create({ name: "b", rpm: 5 })
        const listed = yield* keys.list
        expect(listed.map((r) => r.name)).toEqual(["a", "b"])
        expect(JSON.stringify(listed)).not.toContain(a.key.slice(21))
        const revoked = yield* keys.revoke(b.record.id)
        expect(revoked.revokedAt).toBeInstanceOf(Date)
        expect((yield* keys.revoke(b.record.id)).revokedAt).toEqual(revoked.revokedAt)
        const missing = yield* Effect.flip(keys.revoke("0000000000000000"))
        expect(missing._tag).toBe("KeyNotFound")
        expect(missing.message).toBe("no key with id 0000000000000000")
        expect((yield* keys.list).find((r) => r.id === b.record.id)?.revokedAt).toEqual(revoked.revokedAt)
      }))
  })

  test("bad input to create names the problem", async () => {
    await withStore(config(tempDb()), (keys) =>
      Effect.gen(function* () {
        expect((yield* Effect.flip(keys.create({ name: " " }))).message).toBe("name must be 1 to 200 printable characters")
        expect((yield* Effect.flip(keys.create({ name: "x", rpm: 0 }))).message).toBe("rpm must be an integer from 1 to 1000000000, got 0")
        expect((yield* Effect.flip(keys.create({ name: "x", concurrency: 1.5 }))).message).toBe("concurrency must be an integer from 1 to 100000, got 1.5")
      }))
  })
})

describe("one database, several connections and restarts", () => {
  test("a key created or revoked on one connection counts on the other's next check", async () => {
    const path = tempDb()
    await withStore(config(path), (server) =>
      Effect.gen(function* () {
        const { key, id } = yield* withStoreInner(config(path), (cli) => Effect.map(cli.create({ name: "cli" }), (r) => ({ key: r.key, id: r.record.id })))
        expect((yield* server.verify(key)).id).toBe(id)
        yield* withStoreInner(config(path), (cli) => cli.revoke(id))
        expect((yield* Effect.flip(server.verify(key)))._tag).toBe("KeyRejected")
      }))
  })

  test("keys survive a restart (same secret file)", async () => {
    const path = tempDb()
    const key = await withStore(config(path), (keys) => Effect.map(keys.create({ name: "n" }), (r) => r.key))
    await withStore(config(path), (keys) => Effect.map(keys.verify(key), (r) => expect(r.name).toBe("n")))
  })

  test("KEY_HASH_SECRET: used instead of a file; another secret is refused at open, by name", async () => {
    const path = tempDb()
    const secret = "s".repeat(40)
    const key = await withStore(config(path, secret), (keys) => Effect.map(keys.create({ name: "n" }), (r) => r.key))
    await withStore(config(path, secret), (keys) => keys.verify(key))
    const opened = await Effect.runPromise(Effect.scoped(Effect.either(makeApiKeys(config(path, "t".repeat(40))))))
    expect(Either.isLeft(opened) && opened.left.message).toBe(`cannot open the key store ${path}: KEY_HASH_SECRET is not the secret the keys in ${path} were stored with`)
    // and the generated file is not silently used for a store made with KEY_HASH_SECRET
    const withFile = await Effect.runPromise(Effect.scoped(Effect.either(makeApiKeys(config(path)))))
    expect(Either.isLeft(withFile)).toBe(true)
  })

  test("an in-memory store works and forgets", async () => {
    const memory: KeyStoreConfig = { database: { kind: "memory" }, keyHashSecret: Option.none() }
    const key = await withStore(memory, (keys) => Effect.flatMap(keys.create({ name: "m" }), (r) => Effect.as(keys.verify(r.key), r.key)))
    const again = await withStore(memory, (keys) => Effect.either(keys.verify(key)))
    expect(Either.isLeft(again)).toBe(true)
  })

  test("a database that cannot be opened is a KeyStoreError naming the file", async () => {
    const result = await Effect.runPromise(Effect.scoped(Effect.either(makeApiKeys(config("/proc/forbidden/keys.sqlite")))))
    expect(Either.isLeft(result) && result.left._tag).toBe("KeyStoreError")
    expect(Either.isLeft(result) && result.left.message).toStartWith("cannot open the key store /proc/forbidden/keys.sqlite")
  })
})

describe("a key database from before migrations were recorded", () => {
  // the tables as the store wrote them before its schema had migrations
  const OLD_SCHEMA = `
    CREATE TABLE api_keys (id TEXT PRIMARY KEY, name TEXT NOT NULL, hash BLOB NOT NULL, rpm INTEGER NOT NULL, concurrency INTEGER NOT NULL, created_at INTEGER NOT NULL, revoked_at INTEGER);
    CREATE TABLE key_store_meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);`
  const SECRET = "5e".repeat(32)
  const hmac = (text: string) => createHmac("sha256", SECRET).update(text).digest()
  const keyFor = (id: string) => `arc_${id}_${"K".repeat(43)}`

  /** A file as the earlier store left it: two keys (the second revoked), the secret's check, the secret file beside it. */
  const oldFile = () => {
    const path = tempDb()
    mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
    writeFileSync(secretFileFor(path), `${SECRET}\n`, { mode: 0o600 })
    const db = new Database(path, { create: true, strict: true })
    db.exec("PRAGMA journal_mode = WAL")
    db.exec(OLD_SCHEMA)
    const insert = db.query("INSERT INTO api_keys VALUES (?, ?, ?, ?, ?, ?, ?)")
    insert.run("00000000000000a1", "kept", hmac(keyFor("00000000000000a1")), 120, 3, 1_700_000_000_000, null)
    insert.run("00000000000000b2", "revoked", hmac(keyFor("00000000000000b2")), 60, 2, 1_700_000_001_000, 1_700_000_002_000)
    db.run("INSERT INTO key_store_meta VALUES ('secret_check', ?)", [hmac("key store secret check").toString("hex")])
    db.close()
    chmodSync(path, 0o640)
    return path
  }

  test("opens with its keys, revocations and order as they were; the first migration is recorded; the file keeps its mode", async () => {
    const path = oldFile()
    const listed = await withStore(config(path), (keys) =>
      Effect.gen(function* () {
        expect(yield* keys.verify(keyFor("00000000000000a1"))).toEqual({
          id: "00000000000000a1", name: "kept", rpm: 120, concurrency: 3, createdAt: new Date(1_700_000_000_000), revokedAt: null,
        })
        const refused = yield* Effect.flip(keys.verify(keyFor("00000000000000b2")))
        expect(refused._tag === "KeyRejected" && refused.reason).toBe("revoked")
        yield* keys.create({ name: "new" })
        return (yield* keys.list).map((r) => [r.name, r.revokedAt?.getTime() ?? null])
      }))
    expect(listed).toEqual([["kept", null], ["revoked", 1_700_000_002_000], ["new", null]])
    const db = new Database(path, { readonly: true })
    expect(db.query("SELECT migration_id, name FROM api_key_store_migrations").all()).toEqual([{ migration_id: 1, name: "api_keys" }])
    db.close()
    expect(statSync(path).mode & 0o777).toBe(0o640)
    // and again, the migration already recorded
    await withStore(config(path), (keys) => keys.verify(keyFor("00000000000000a1")))
  })

  test("made under another secret, it is still refused", async () => {
    const path = oldFile()
    const opened = await Effect.runPromise(Effect.scoped(Effect.either(makeApiKeys(config(path, "t".repeat(40))))))
    expect(Either.isLeft(opened) && opened.left.message).toBe(`cannot open the key store ${path}: KEY_HASH_SECRET is not the secret the keys in ${path} were stored with`)
  })
})

describe("the files: this user's alone", () => {
  const modeOf = (file: string) => (existsSync(file) ? statSync(file).mode & 0o777 : "missing")

  test("a new store: its folder 0700; the database, its -wal and -shm and the secret 0600", async () => {
    const path = tempDb()
    const modes = await withStore(config(path), (keys) =>
      Effect.map(keys.create({ name: "n" }), () => [dirname(path), path, `${path}-wal`, `${path}-shm`, secretFileFor(path)].map(modeOf)))
    expect(modes).toEqual([0o700, 0o600, 0o600, 0o600, 0o600])
    // a folder that exists is left as its owner made it
    const shared = join(dirname(dirname(path)), "shared")
    mkdirSync(shared, { mode: 0o755 })
    chmodSync(shared, 0o755)
    await withStore(config(join(shared, "keys.sqlite")), (keys) => keys.list)
    expect([modeOf(shared), modeOf(join(shared, "keys.sqlite"))]).toEqual([0o755, 0o600])
  })

  /** A store whose secret file is put in place by `plant` before the first open; the error, or "opened". */
  const openWith = async (plant: (secretFile: string, dir: string) => void) => {
    const path = tempDb()
    mkdirSync(dirname(path), { recursive: true })
    plant(secretFileFor(path), dirname(path))
    const opened = await Effect.runPromise(Effect.scoped(Effect.either(makeApiKeys(config(path)))))
    return { path, secretFile: secretFileFor(path), outcome: Either.isLeft(opened) ? opened.left.message : "opened" }
  }
  const SECRET = `${"5e".repeat(32)}\n`
  const secretWithMode = (mode: number) => (file: string) => {
    writeFileSync(file, SECRET)
    chmodSync(file, mode)
  }

  test("an existing secret file of this user with mode 0600 (or 0400) is used", async () => {
    for (const mode of [0o600, 0o400]) expect((await openWith(secretWithMode(mode))).outcome).toBe("opened")
  })

  test("a secret file that others can read or change is refused at start, naming the file and its mode", async () => {
    for (const [mode, shown] of [[0o644, "0644"], [0o640, "0640"], [0o604, "0604"], [0o620, "0620"], [0o602, "0602"]] as const) {
      const { path, secretFile, outcome } = await openWith(secretWithMode(mode))
      expect(outcome).toBe(`cannot open the key store ${path}: the key hash secret file ${secretFile} has mode ${shown}: other users may read or change it (chmod 600 it, or replace it)`)
    }
  })

  test("a symbolic link, a folder, another user's file: refused", async () => {
    const link = await openWith((file, dir) => {
      secretWithMode(0o600)(join(dir, "elsewhere"))
      symlinkSync(join(dir, "elsewhere"), file)
    })
    expect(link.outcome).toBe(`cannot open the key store ${link.path}: the key hash secret file ${link.secretFile} is a symbolic link: it must be a regular file (mode 0600)`)
    const folder = await openWith((file) => mkdirSync(file))
    expect(folder.outcome).toBe(`cannot open the key store ${folder.path}: the key hash secret file ${folder.secretFile} is not a regular file: it must be a regular file (mode 0600)`)
    const uid = process.getuid!()
    if (uid === 0) {
      // only root can give a file away
      const foreign = await openWith((file) => {
        secretWithMode(0o600)(file)
        chownSync(file, 65534, 65534)
      })
      expect(foreign.outcome).toBe(`cannot open the key store ${foreign.path}: the key hash secret file ${foreign.secretFile} belongs to user 65534, not to this process's user 0`)
    }
  })

  test("the API's start is refused with the same message", async () => {
    const path = tempDb()
    mkdirSync(dirname(path), { recursive: true })
    secretWithMode(0o644)(secretFileFor(path))
    const start = startApiServer({ programs: syntheticPrograms(), env: { PORT: "0", DATABASE_URL: path, LOG_LEVEL: "error" } })
    await expect(start).rejects.toThrow(`cannot open the key store ${path}: the key hash secret file ${secretFileFor(path)} has mode 0644`)
  })
})

const withStoreInner = <A, E>(cfg: KeyStoreConfig, f: (keys: ApiKeysShape) => Effect.Effect<A, E, Scope.Scope>) =>
  Effect.scoped(Effect.flatMap(makeApiKeys(cfg), f))
