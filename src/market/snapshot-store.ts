// Where the market actor keeps its snapshot between runs: one SQLite file
// (bun:sqlite, WAL), one row per chain id holding the document (see
// snapshot-codec.ts), when it was saved, and the HMAC of the three under the
// snapshot key (snapshot-key.ts). A save replaces the row in one transaction, so
// an interrupted write leaves the previous document; a row whose tag does not
// verify (edited, or written under another secret) is refused on load. Whether a
// document belongs to this node (chain, venues, format) is the codec's question.
import { Database } from "bun:sqlite"
import { Clock, Data, Effect, Option } from "effect"
import { chmodSync, closeSync, mkdirSync, openSync } from "node:fs"
import { dirname } from "node:path"
import { snapshotMac, verifySnapshotMac } from "./snapshot-key.ts"

/** The store cannot be opened, read or written, or a stored document does not verify ("unauthenticated"). */
export class SnapshotStoreError extends Data.TaggedError("SnapshotStoreError")<{
  readonly reason: "open" | "read" | "write" | "unauthenticated"
  readonly message: string
}> {}

export interface StoredSnapshot {
  /** the document, to decode with decodeSnapshot */
  readonly text: string
  /** when it was saved, ms since the epoch */
  readonly savedAt: number
}

export interface SnapshotStore {
  /** the stored document for this chain id, if any (the text, to decode), once its tag verifies */
  readonly load: (chainId: number) => Effect.Effect<Option.Option<StoredSnapshot>, SnapshotStoreError>
  /** replaces the stored document atomically (one transaction); an interrupted write leaves the previous one */
  readonly save: (chainId: number, text: string) => Effect.Effect<void, SnapshotStoreError>
  /** closes the database; the store answers nothing afterwards (each call fails) */
  readonly close: Effect.Effect<void>
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS market_snapshot (
  chain_id INTEGER PRIMARY KEY,
  saved_at INTEGER NOT NULL,
  document TEXT NOT NULL,
  mac TEXT NOT NULL
);`

/** A table from before snapshots were authenticated (a plain checksum): nothing in it can be verified. */
const dropUnauthenticated = (db: Database): void => {
  const columns = db.query<{ name: string }, []>("SELECT name FROM pragma_table_info('market_snapshot')").all()
  if (columns.length > 0 && !columns.some((c) => c.name === "mac")) db.exec("DROP TABLE market_snapshot")
}

const describe = (e: unknown): string => (e instanceof Error ? e.message : String(e))

interface Row {
  saved_at: number
  document: string
  mac: string
}

/** Creates the file for the store, readable by its owner only, unless it exists. */
const createPrivateFile = (path: string): void => {
  let fd: number
  try {
    fd = openSync(path, "wx", 0o600)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return
    throw e
  }
  closeSync(fd)
  chmodSync(path, 0o600) // whatever the umask
}

/**
 * Opens (creating the file and table if needed) the snapshot store at `path`, whose documents are
 * signed and verified with `key` (snapshotKey); a new file has mode 0600, a new folder 0700.
 */
export const openSnapshotStore = (path: string, key: Uint8Array): Effect.Effect<SnapshotStore, SnapshotStoreError> =>
  Effect.try({
    try: () => {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 })
      createPrivateFile(path)
      const db = new Database(path, { create: true, strict: true })
      try {
        db.exec("PRAGMA busy_timeout = 5000")
        db.exec("PRAGMA journal_mode = WAL")
        // a document is tens of MB: let the WAL shrink back after each checkpoint
        db.exec("PRAGMA journal_size_limit = 4194304")
        dropUnauthenticated(db)
        db.exec(SCHEMA)
      } catch (e) {
        db.close()
        throw e
      }
      return db
    },
    catch: (e) => new SnapshotStoreError({ reason: "open", message: `cannot open the snapshot store ${path}: ${describe(e)}` }),
  }).pipe(Effect.map((db) => storeOver(db, path, key)))

const storeOver = (db: Database, path: string, key: Uint8Array): SnapshotStore => {
  const select = db.query<Row, [number]>("SELECT saved_at, document, mac FROM market_snapshot WHERE chain_id = ?")
  const upsert = db.query<unknown, [number, number, string, string]>(
    `INSERT INTO market_snapshot (chain_id, saved_at, document, mac) VALUES (?, ?, ?, ?)
     ON CONFLICT (chain_id) DO UPDATE SET saved_at = excluded.saved_at, document = excluded.document, mac = excluded.mac`,
  )
  const replace = db.transaction((chainId: number, savedAt: number, text: string, mac: string) => {
    upsert.run(chainId, savedAt, text, mac)
  })
  let closed = false

  const load = Effect.fn("SnapshotStore.load")(function* (chainId: number) {
    const row = yield* Effect.try({
      try: () => select.get(chainId),
      catch: (e) => new SnapshotStoreError({ reason: "read", message: `cannot read the snapshot of chain ${chainId} from ${path}: ${describe(e)}` }),
    })
    if (row === null) return Option.none<StoredSnapshot>()
    const verified = typeof row.document === "string" && Number.isSafeInteger(row.saved_at) && verifySnapshotMac(key, chainId, row.saved_at, row.document, row.mac)
    if (!verified) {
      return yield* new SnapshotStoreError({
        reason: "unauthenticated",
        message: `the snapshot of chain ${chainId} in ${path} does not verify: it was edited, or written under another secret`,
      })
    }
    return Option.some<StoredSnapshot>({ text: row.document, savedAt: row.saved_at })
  })

  const save = Effect.fn("SnapshotStore.save")(function* (chainId: number, text: string) {
    const savedAt = yield* Clock.currentTimeMillis
    const mac = snapshotMac(key, chainId, savedAt, text)
    yield* Effect.try({
      try: () => replace(chainId, savedAt, text, mac),
      catch: (e) => new SnapshotStoreError({ reason: "write", message: `cannot save the snapshot of chain ${chainId} to ${path}: ${describe(e)}` }),
    })
  })

  const close = Effect.sync(() => {
    if (closed) return
    closed = true
    db.close()
  })

  return { load, save, close }
}

/** The store, closed when the scope closes. */
export const snapshotStoreScoped = (path: string, key: Uint8Array) => Effect.acquireRelease(openSnapshotStore(path, key), (store) => store.close)
