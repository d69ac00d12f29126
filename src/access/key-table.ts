// The keys' tables in the SQL database (database room: SQLite embedded, or
// Postgres shared by many instances), one implementation for both: the schema
// brought up to date by numbered migrations at open, the secret the stored
// hashes were made with checked, then the rows read and written through one
// SqlClient. On Postgres every query runs under a time limit, so an unreachable
// database answers 503 rather than hanging a request; a SQLite query runs in
// process, synchronously, and has none.
import * as SqlClient from "@effect/sql/SqlClient"
import { Duration, Effect } from "effect"
import { migrate, type Migrations, type SqlDatabase } from "../database/index.ts"
import { KeyStoreError, SECRET_CHECK, secretCheck, type KeyRow, type KeyRows } from "./key-rows.ts"

/** The table that records which migrations have run. */
export const MIGRATIONS_TABLE = "api_key_store_migrations"
/** Instances migrating one Postgres database take turns under this advisory lock. */
const MIGRATION_LOCK = "arc-swap api key store migrations"

/**
 * The schema, one step per entry; a step never changes once released, a change is a new step.
 * Times are timestamptz on Postgres, ms since the epoch (INTEGER) on SQLite; the order keys were
 * created in is `seq` on Postgres, the rowid on SQLite.
 */
export const MIGRATIONS: Migrations = {
  "1_api_keys": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql.onDialectOrElse({
      pg: () =>
        Effect.zipRight(
          sql`CREATE TABLE api_keys (
            seq         bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
            id          text PRIMARY KEY,
            name        text NOT NULL,
            hash        bytea NOT NULL,
            rpm         integer NOT NULL CHECK (rpm > 0),
            concurrency integer NOT NULL CHECK (concurrency > 0),
            created_at  timestamptz NOT NULL,
            revoked_at  timestamptz
          )`,
          sql`CREATE TABLE key_store_meta (
            name  text PRIMARY KEY,
            value text NOT NULL
          )`,
        ),
      // a SQLite file from before migrations were recorded holds these very tables: adopted as they are
      orElse: () =>
        Effect.zipRight(
          sql`CREATE TABLE IF NOT EXISTS api_keys (
            id          TEXT PRIMARY KEY,
            name        TEXT NOT NULL,
            hash        BLOB NOT NULL,
            rpm         INTEGER NOT NULL,
            concurrency INTEGER NOT NULL,
            created_at  INTEGER NOT NULL,
            revoked_at  INTEGER
          )`,
          sql`CREATE TABLE IF NOT EXISTS key_store_meta (
            name  TEXT PRIMARY KEY,
            value TEXT NOT NULL
          )`,
        ),
    })
  }),
}

interface Row {
  readonly id: string
  readonly name: string
  readonly hash: Uint8Array
  readonly rpm: number
  readonly concurrency: number
  readonly created_at: number | Date
  readonly revoked_at: number | Date | null
}

const millis = (at: number | Date): number => (typeof at === "number" ? at : at.getTime())

const fromRow = (row: Row): KeyRow => ({
  id: row.id,
  name: row.name,
  hash: row.hash,
  rpm: row.rpm,
  concurrency: row.concurrency,
  createdAt: millis(row.created_at),
  revokedAt: row.revoked_at === null ? null : millis(row.revoked_at),
})

const describe = (e: unknown): string => {
  if (!(e instanceof Error)) return String(e)
  const cause = (e as { cause?: unknown }).cause
  return cause instanceof Error && cause.message !== "" && cause.message !== e.message ? `${e.message}: ${cause.message}` : e.message
}

export interface KeyTableOptions {
  readonly kind: KeyRows["kind"]
  /** the store's secret, read once the database is open */
  readonly secret: Effect.Effect<string, KeyStoreError>
  /** how long one Postgres query may take */
  readonly timeoutMs: number
  /** the words before an error while opening ("cannot open the key store …") */
  readonly opening: string
  /** the words before an error while migrating */
  readonly migrating: string
  /** the error when the stored keys were made under another secret */
  readonly wrongSecret: () => string
}

/** Migrates, checks the secret and answers the rows, in `database`. */
export const keyTable = (database: SqlDatabase, options: KeyTableOptions): Effect.Effect<KeyRows, KeyStoreError> =>
  Effect.gen(function* () {
    const { sql } = database
    const postgres = sql.onDialectOrElse({ pg: () => true, orElse: () => false })
    const { timeoutMs } = options
    const storeError = (what: string) => (e: unknown) => new KeyStoreError({ message: `${what}: ${describe(e)}` })
    const within = <A, E>(what: string, self: Effect.Effect<A, E>): Effect.Effect<A, KeyStoreError> => {
      const failed = Effect.mapError(self, storeError(what))
      return postgres
        ? Effect.timeoutFail(failed, {
            duration: Duration.millis(timeoutMs),
            onTimeout: () => new KeyStoreError({ message: `${what}: the key store did not answer within ${timeoutMs} ms` }),
          })
        : failed
    }
    /** a time as the column holds it */
    const at = (ms: number): number | Date => (postgres ? new Date(ms) : ms)

    yield* migrate({ table: MIGRATIONS_TABLE, lock: MIGRATION_LOCK, migrations: MIGRATIONS }).pipe(
      Effect.provideService(SqlClient.SqlClient, sql),
      Effect.mapError((e) => new KeyStoreError({ message: `${options.migrating}: ${describe(e)}` })),
    )
    const secret = yield* options.secret
    // a store created under one secret refuses another: every key would fail otherwise
    const check = secretCheck(secret)
    const stored = yield* within(
      options.opening,
      Effect.zipRight(
        sql`INSERT INTO key_store_meta (name, value) VALUES (${SECRET_CHECK}, ${check}) ON CONFLICT (name) DO NOTHING`,
        sql<{ value: string }>`SELECT value FROM key_store_meta WHERE name = ${SECRET_CHECK}`,
      ),
    )
    if (stored[0]?.value !== check) return yield* new KeyStoreError({ message: options.wrongSecret() })

    // the look-up every request makes
    const selectById = database.prepare(sql<Row>`SELECT id, name, hash, rpm, concurrency, created_at, revoked_at FROM api_keys WHERE id = ${"id"}`)
    const unreadable = storeError("cannot read the key store")
    const found = (row: Row | undefined) => (row === undefined ? undefined : fromRow(row))
    const byId = postgres
      ? (id: string) => within("cannot read the key store", Effect.map(selectById.first([id]), found))
      : (id: string) => selectById.first([id], { row: found, error: unreadable })
    const order = sql.literal(postgres ? "seq" : "rowid")

    return {
      kind: options.kind,
      secret,
      byId,
      all: within(
        "cannot list keys",
        Effect.map(sql<Row>`SELECT id, name, hash, rpm, concurrency, created_at, revoked_at FROM api_keys ORDER BY ${order}`, (rows) => rows.map(fromRow)),
      ),
      insert: (row) =>
        within(
          "cannot store the key",
          sql`INSERT INTO api_keys (id, name, hash, rpm, concurrency, created_at, revoked_at)
              VALUES (${row.id}, ${row.name}, ${row.hash}, ${row.rpm}, ${row.concurrency}, ${at(row.createdAt)}, NULL)`,
        ),
      revoke: (id, revokedAt) =>
        Effect.zipRight(
          within("cannot revoke the key", sql`UPDATE api_keys SET revoked_at = ${at(revokedAt)} WHERE id = ${id} AND revoked_at IS NULL`),
          byId(id),
        ),
      ping: Effect.asVoid(within("cannot read the key store", sql`SELECT 1`)),
    } satisfies KeyRows
  })
