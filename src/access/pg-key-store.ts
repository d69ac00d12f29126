// The key store's Postgres backend, for many instances sharing one set of keys.
// Through @effect/sql-pg: a connection pool for the store's life, the schema
// brought up to date by numbered migrations at open (serialised by an advisory
// lock, so instances starting together agree), every query under a time limit so
// an unreachable database answers 503 rather than hanging a request.
// The schema is the connection's search_path (libpq's `options=-c search_path=…`
// in the URL picks another one than `public`).
import * as Migrator from "@effect/sql/Migrator"
import * as SqlClient from "@effect/sql/SqlClient"
import { PgClient } from "@effect/sql-pg"
import { Context, Duration, Effect, Layer, Option, Redacted, type Scope } from "effect"
import type { KeyStoreConfig } from "../config/index.ts"
import { KeyStoreError, SECRET_CHECK, secretCheck, type KeyRow, type KeyRows } from "./key-rows.ts"

/** The table that records which migrations have run. */
export const MIGRATIONS_TABLE = "api_key_store_migrations"
const DEFAULT_TIMEOUT_MS = 2_000

/** The schema, one step per entry; a step never changes once released, a change is a new step. */
export const MIGRATIONS: Record<string, Effect.Effect<void, unknown, SqlClient.SqlClient>> = {
  "1_api_keys": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE api_keys (
      seq         bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
      id          text PRIMARY KEY,
      name        text NOT NULL,
      hash        bytea NOT NULL,
      rpm         integer NOT NULL CHECK (rpm > 0),
      concurrency integer NOT NULL CHECK (concurrency > 0),
      created_at  timestamptz NOT NULL,
      revoked_at  timestamptz
    )`
    yield* sql`CREATE TABLE key_store_meta (
      name  text PRIMARY KEY,
      value text NOT NULL
    )`
  }),
}

interface PgRow {
  readonly id: string
  readonly name: string
  readonly hash: Uint8Array
  readonly rpm: number
  readonly concurrency: number
  readonly created_at: Date
  readonly revoked_at: Date | null
}

const fromPg = (row: PgRow): KeyRow => ({
  id: row.id,
  name: row.name,
  hash: new Uint8Array(row.hash),
  rpm: row.rpm,
  concurrency: row.concurrency,
  createdAt: row.created_at.getTime(),
  revokedAt: row.revoked_at === null ? null : row.revoked_at.getTime(),
})

const describe = (e: unknown): string => {
  if (!(e instanceof Error)) return String(e)
  const cause = (e as { cause?: unknown }).cause
  return cause instanceof Error && cause.message !== "" ? `${e.message}: ${cause.message}` : e.message
}

/** Brings the schema up to date; safe when several instances start at once. */
export const migrate = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const run = Migrator.make({})({ loader: Migrator.fromRecord(MIGRATIONS), table: MIGRATIONS_TABLE })
  return yield* sql.withTransaction(
    Effect.gen(function* () {
      yield* sql`SELECT pg_advisory_xact_lock(hashtext('arc-swap api key store migrations'))`
      // the migrator creates its table outside any lock; created here first, under the lock
      yield* sql`CREATE TABLE IF NOT EXISTS ${sql(MIGRATIONS_TABLE)} (
        migration_id integer PRIMARY KEY,
        created_at   timestamptz NOT NULL DEFAULT now(),
        name         text NOT NULL
      )`
      return yield* run
    }),
  )
})

/** Opens the pool, migrates, checks the secret; the pool closes with the scope. */
export const postgresRows = (config: KeyStoreConfig): Effect.Effect<KeyRows, KeyStoreError, Scope.Scope> =>
  Effect.gen(function* () {
    if (config.database.kind !== "postgres") return yield* new KeyStoreError({ message: "not a postgres:// key store" })
    const secret = yield* Option.match(config.keyHashSecret, {
      onSome: (s) => Effect.succeed(Redacted.value(s)),
      onNone: () => Effect.fail(new KeyStoreError({ message: "KEY_HASH_SECRET is required with a postgres:// key store" })),
    })
    const timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS
    const within = <A, E, R>(what: string, self: Effect.Effect<A, E, R>): Effect.Effect<A, KeyStoreError, R> =>
      self.pipe(
        Effect.timeoutFail({
          duration: Duration.millis(timeoutMs),
          onTimeout: () => new KeyStoreError({ message: `${what}: the key store did not answer within ${timeoutMs} ms` }),
        }),
        Effect.mapError((e) => (e instanceof KeyStoreError ? e : new KeyStoreError({ message: `${what}: ${describe(e)}` }))),
      )

    const context = yield* Layer.build(
      PgClient.layer({
        url: config.database.url,
        applicationName: "arc-swap",
        connectTimeout: Duration.millis(Math.max(timeoutMs, 1_000)),
        maxConnections: 10,
      }),
    ).pipe(Effect.mapError((e) => new KeyStoreError({ message: `cannot open the key store: ${describe(e)}` })))
    const sql = Context.get(context, SqlClient.SqlClient)

    yield* migrate.pipe(
      Effect.provideService(SqlClient.SqlClient, sql),
      Effect.mapError((e) => new KeyStoreError({ message: `cannot migrate the key store: ${describe(e)}` })),
    )
    // a store created under one secret refuses another: every key would fail otherwise
    const check = secretCheck(secret)
    const stored = yield* within(
      "cannot open the key store",
      Effect.zipRight(
        sql`INSERT INTO key_store_meta (name, value) VALUES (${SECRET_CHECK}, ${check}) ON CONFLICT (name) DO NOTHING`,
        sql<{ value: string }>`SELECT value FROM key_store_meta WHERE name = ${SECRET_CHECK}`,
      ),
    )
    if (stored[0]?.value !== check) {
      return yield* new KeyStoreError({ message: "KEY_HASH_SECRET is not the secret the keys in this Postgres key store were stored with" })
    }

    const columns = sql`id, name, hash, rpm, concurrency, created_at, revoked_at`
    const byId = (id: string) =>
      within("cannot read the key store", Effect.map(sql<PgRow>`SELECT ${columns} FROM api_keys WHERE id = ${id}`, (rows) => (rows[0] === undefined ? undefined : fromPg(rows[0]))))

    return {
      kind: "postgres",
      secret,
      byId,
      all: within("cannot list keys", Effect.map(sql<PgRow>`SELECT ${columns} FROM api_keys ORDER BY seq`, (rows) => rows.map(fromPg))),
      insert: (row) =>
        within(
          "cannot store the key",
          sql`INSERT INTO api_keys (id, name, hash, rpm, concurrency, created_at, revoked_at)
              VALUES (${row.id}, ${row.name}, ${row.hash}, ${row.rpm}, ${row.concurrency}, ${new Date(row.createdAt)}, NULL)`,
        ),
      revoke: (id, at) =>
        Effect.zipRight(
          within("cannot revoke the key", sql`UPDATE api_keys SET revoked_at = ${new Date(at)} WHERE id = ${id} AND revoked_at IS NULL`),
          byId(id),
        ),
      ping: Effect.asVoid(within("cannot read the key store", sql`SELECT 1`)),
    } satisfies KeyRows
  })
