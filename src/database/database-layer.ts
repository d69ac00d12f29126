// One database for every store of a process (API keys, gasless orders): a layer
// that opens the location DATABASE_URL names once — a SQLite file, memory, or a
// Postgres pool — and gives it both as the stores' SqlDatabase and as the plain
// @effect/sql SqlClient. Each store migrates its own tables on it.
import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { Context, Effect, Layer, type Redacted } from "effect"
import { openPostgres } from "./postgres-client.ts"
import type { SqlDatabase } from "./sql-database.ts"
import { openSqliteFile, openSqliteMemory } from "./sqlite-file.ts"

/** Where the database is: config's DatabaseLocation (DATABASE_URL) has this very shape. */
export type DatabasePlace =
  | { readonly kind: "sqlite"; readonly path: string }
  | { readonly kind: "memory" }
  | { readonly kind: "postgres"; readonly url: Redacted.Redacted<string> }

/** The process's database, opened once and shared by its stores. */
export class Database extends Context.Tag("database/Database")<Database, SqlDatabase>() {
  /**
   * The database at `location`, open for the life of the layer, as Database and as SqlClient.
   * `connectTimeoutMs` bounds opening a Postgres connection (default 2000).
   */
  static readonly layer = (location: DatabasePlace, connectTimeoutMs = 2_000): Layer.Layer<Database | SqlClient.SqlClient, SqlError> =>
    Layer.scopedContext(
      Effect.map(
        location.kind === "postgres" ? openPostgres(location.url, connectTimeoutMs) : location.kind === "sqlite" ? openSqliteFile(location.path) : openSqliteMemory,
        (database) => Context.make(Database, database).pipe(Context.add(SqlClient.SqlClient, database.sql)),
      ),
    )
}
