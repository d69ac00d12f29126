// Schema migrations through @effect/sql's Migrator: numbered steps ("1_name"),
// each run once and recorded in the store's own table, the whole run in one
// transaction that instances starting together take in turn (Postgres: an
// advisory lock; SQLite: BEGIN IMMEDIATE, see sqlite-client.ts).
import * as Migrator from "@effect/sql/Migrator"
import * as SqlClient from "@effect/sql/SqlClient"
import { Cause, Data, Effect } from "effect"

/** The steps of one schema: "<id>_<name>" to the step; a released step never changes, a change is a new step. */
export type Migrations = Record<string, Effect.Effect<void, unknown, SqlClient.SqlClient>>

/** A migration did not complete: the step and the database's reason. */
export class MigrationFailed extends Data.TaggedError("MigrationFailed")<{ readonly message: string }> {}

const describe = (e: unknown): string => {
  if (!(e instanceof Error)) return String(e)
  const cause = (e as { cause?: unknown }).cause
  return cause instanceof Error && cause.message !== "" ? `${e.message}: ${cause.message}` : e.message
}

/**
 * Brings the schema up to date: runs the steps past the last one recorded in `table`. `lock` names
 * the run for Postgres's advisory lock, so that instances migrating one database take turns.
 */
export const migrate = (options: {
  readonly table: string
  readonly lock: string
  readonly migrations: Migrations
}): Effect.Effect<ReadonlyArray<readonly [id: number, name: string]>, MigrationFailed, SqlClient.SqlClient> =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const { table } = options
    const run = Migrator.make({})({ loader: Migrator.fromRecord(options.migrations), table })
    return yield* sql.withTransaction(
      Effect.gen(function* () {
        // the migrator creates its table outside any lock; created here first, under the lock
        yield* sql.onDialectOrElse({
          pg: () =>
            Effect.zipRight(
              sql`SELECT pg_advisory_xact_lock(hashtext(${options.lock}))`,
              sql`CREATE TABLE IF NOT EXISTS ${sql(table)} (
                migration_id integer PRIMARY KEY,
                created_at   timestamptz NOT NULL DEFAULT now(),
                name         text NOT NULL
              )`,
            ),
          orElse: () =>
            sql`CREATE TABLE IF NOT EXISTS ${sql(table)} (
              migration_id integer PRIMARY KEY NOT NULL,
              created_at   datetime NOT NULL DEFAULT current_timestamp,
              name         VARCHAR(255) NOT NULL
            )`,
        })
        return yield* run
      }),
    )
  }).pipe(
    // the migrator dies when a step fails: a failure here, with the step's own error
    Effect.catchAllCause((cause): Effect.Effect<never, MigrationFailed> =>
      Cause.isInterruptedOnly(cause) ? Effect.failCause(cause as Cause.Cause<never>) : Effect.fail(new MigrationFailed({ message: describe(Cause.squash(cause)) }))),
  )
