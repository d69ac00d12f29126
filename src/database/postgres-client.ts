// The shared database: a Postgres pool through @effect/sql-pg for the life of the
// scope. The schema is the connection's search_path (libpq's
// `options=-c search_path=…` in the URL picks another one than `public`).
import * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import { PgClient } from "@effect/sql-pg"
import { Context, Duration, Effect, Layer, type Redacted, type Scope } from "effect"
import { overClient, type SqlDatabase } from "./sql-database.ts"

/** A pool on `url`; a connection that takes longer than `connectTimeoutMs` (at least 1 s) to open fails. */
export const openPostgres = (url: Redacted.Redacted<string>, connectTimeoutMs: number): Effect.Effect<SqlDatabase, SqlError, Scope.Scope> =>
  Effect.map(
    Layer.build(
      PgClient.layer({
        url,
        applicationName: "arc-swap",
        connectTimeout: Duration.millis(Math.max(connectTimeoutMs, 1_000)),
        maxConnections: 10,
      }),
    ),
    (context) => overClient(Context.get(context, SqlClient.SqlClient)),
  )
