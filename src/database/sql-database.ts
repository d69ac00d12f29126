// A database as the stores see it: the @effect/sql SqlClient, and statements
// compiled once and run again with new parameters.
import type * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import type * as Statement from "@effect/sql/Statement"
import type { Effect } from "effect"

export interface SqlDatabase {
  readonly sql: SqlClient.SqlClient
  /**
   * `statement` compiled once (its values only stand for the parameters), run with `params` in their
   * place. On SQLite it runs straight on the connection, without the span and scope a SqlClient
   * statement opens (a third of the key look-up every request makes); elsewhere through `sql.unsafe`.
   */
  readonly prepare: <A extends object>(statement: Statement.Statement<A>) => (params: ReadonlyArray<unknown>) => Effect.Effect<ReadonlyArray<A>, SqlError>
}

/** A database whose prepared statements are the client's own. */
export const overClient = (sql: SqlClient.SqlClient): SqlDatabase => ({
  sql,
  prepare: <A extends object>(statement: Statement.Statement<A>) => {
    const [text] = statement.compile()
    return (params: ReadonlyArray<unknown>) => sql.unsafe<A>(text, params)
  },
})
