// Where the market actor keeps its snapshot between runs: one private SQLite
// file in WAL mode (database room), its schema under migrations, one row per
// chain id holding the document (see snapshot-codec.ts), when it was saved, and
// the HMAC of the three under the snapshot key (snapshot-key.ts). A save replaces the row in one transaction, so
// an interrupted write leaves the previous document; a row whose tag does not
// verify (edited, or written under another secret) is refused on load. Whether a
// document belongs to this node (chain, venues, format) is the codec's question.
import * as SqlClient from "@effect/sql/SqlClient"
import { Clock, Data, Effect, Exit, Option, Scope } from "effect"
import { migrate, openSqliteFile, type Migrations } from "../database/index.ts"
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

/** The table that records which migrations have run. */
export const SNAPSHOT_MIGRATIONS_TABLE = "market_snapshot_migrations"

/** The schema, one step per entry; a step never changes once released, a change is a new step. */
export const SNAPSHOT_MIGRATIONS: Migrations = {
  "1_market_snapshot": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    // a table from before snapshots were authenticated (a plain checksum): nothing in it can be verified
    const columns = yield* sql<{ name: string }>`SELECT name FROM pragma_table_info('market_snapshot')`
    if (columns.length > 0 && !columns.some((c) => c.name === "mac")) yield* sql`DROP TABLE market_snapshot`
    // a file from before migrations were recorded holds this very table: adopted as it is
    yield* sql`CREATE TABLE IF NOT EXISTS market_snapshot (
      chain_id INTEGER PRIMARY KEY,
      saved_at INTEGER NOT NULL,
      document TEXT NOT NULL,
      mac TEXT NOT NULL
    )`
  }),
}

const describe = (e: unknown): string => {
  if (!(e instanceof Error)) return String(e)
  const cause = (e as { cause?: unknown }).cause
  return cause instanceof Error && cause.message !== "" && cause.message !== e.message ? `${e.message}: ${cause.message}` : e.message
}

interface Row {
  saved_at: number
  document: string
  mac: string
}

/**
 * Opens (creating the file and table if needed) the snapshot store at `path`, whose documents are
 * signed and verified with `key` (snapshotKey); a new file has mode 0600, a new folder 0700.
 */
export const openSnapshotStore = (path: string, key: Uint8Array): Effect.Effect<SnapshotStore, SnapshotStoreError> =>
  Effect.gen(function* () {
    const scope = yield* Scope.make()
    const opened = yield* Effect.exit(
      Effect.gen(function* () {
        // a document is tens of MB: let the WAL shrink back after each checkpoint
        const { sql } = yield* openSqliteFile(path, ["PRAGMA journal_size_limit = 4194304"])
        yield* migrate({ table: SNAPSHOT_MIGRATIONS_TABLE, lock: "arc-swap market snapshot migrations", migrations: SNAPSHOT_MIGRATIONS }).pipe(
          Effect.provideService(SqlClient.SqlClient, sql),
        )
        return sql
      }).pipe(Scope.extend(scope)),
    )
    if (Exit.isFailure(opened)) {
      yield* Scope.close(scope, opened)
      return yield* Effect.failCause(opened.cause).pipe(
        Effect.mapError((e) => new SnapshotStoreError({ reason: "open", message: `cannot open the snapshot store ${path}: ${describe(e)}` })),
      )
    }
    return storeOver(opened.value, Scope.close(scope, Exit.void), path, key)
  })

const storeOver = (sql: SqlClient.SqlClient, closeDatabase: Effect.Effect<void>, path: string, key: Uint8Array): SnapshotStore => {
  let closed = false

  const load = Effect.fn("SnapshotStore.load")(function* (chainId: number) {
    const rows = yield* Effect.mapError(
      sql<Row>`SELECT saved_at, document, mac FROM market_snapshot WHERE chain_id = ${chainId}`,
      (e) => new SnapshotStoreError({ reason: "read", message: `cannot read the snapshot of chain ${chainId} from ${path}: ${describe(e)}` }),
    )
    const row = rows[0]
    if (row === undefined) return Option.none<StoredSnapshot>()
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
    yield* sql
      .withTransaction(
        sql`INSERT INTO market_snapshot (chain_id, saved_at, document, mac) VALUES (${chainId}, ${savedAt}, ${text}, ${mac})
            ON CONFLICT (chain_id) DO UPDATE SET saved_at = excluded.saved_at, document = excluded.document, mac = excluded.mac`,
      )
      .pipe(Effect.mapError((e) => new SnapshotStoreError({ reason: "write", message: `cannot save the snapshot of chain ${chainId} to ${path}: ${describe(e)}` })))
  })

  const close = Effect.suspend(() => {
    if (closed) return Effect.void
    closed = true
    return closeDatabase
  })

  return { load, save, close }
}

/** The store, closed when the scope closes. */
export const snapshotStoreScoped = (path: string, key: Uint8Array) => Effect.acquireRelease(openSnapshotStore(path, key), (store) => store.close)
