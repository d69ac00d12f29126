// A database as the stores see it: the @effect/sql SqlClient, and statements
// compiled once and run again with new parameters.
import type * as SqlClient from "@effect/sql/SqlClient"
import type { SqlError } from "@effect/sql/SqlError"
import type * as Statement from "@effect/sql/Statement"
import { Effect } from "effect"

/** What to make of a prepared statement's first row, or of its failure. */
export interface FirstRow<A, B, E> {
  readonly row: (row: A | undefined) => B
  readonly error: (error: SqlError) => E
}

/** A statement compiled once, run with new parameters in the places of its values. */
export interface Prepared<A> {
  readonly all: (params: ReadonlyArray<unknown>) => Effect.Effect<ReadonlyArray<A>, SqlError>
  /**
   * The first row, if any, through `as` when given: on SQLite read, mapped and answered in one step
   * (a look-up on every request pays for no more).
   */
  readonly first: {
    (params: ReadonlyArray<unknown>): Effect.Effect<A | undefined, SqlError>
    <B, E>(params: ReadonlyArray<unknown>, as: FirstRow<A, B, E>): Effect.Effect<B, E>
  }
}

export interface SqlDatabase {
  readonly sql: SqlClient.SqlClient
  /**
   * `statement` compiled once (its values only stand for the parameters). On SQLite it runs straight
   * on the connection, without the span and scope each SqlClient statement opens (two thirds of the
   * time of the key look-up every request makes); elsewhere through `sql.unsafe`.
   */
  readonly prepare: <A extends object>(statement: Statement.Statement<A>) => Prepared<A>
}

/** A database whose prepared statements are the client's own. */
export const overClient = (sql: SqlClient.SqlClient): SqlDatabase => ({
  sql,
  prepare: <A extends object>(statement: Statement.Statement<A>): Prepared<A> => {
    const [text] = statement.compile()
    const all = (params: ReadonlyArray<unknown>) => sql.unsafe<A>(text, params)
    const first = <B, E>(params: ReadonlyArray<unknown>, as?: FirstRow<A, B, E>) =>
      as === undefined ? Effect.map(all(params), (rows) => rows[0]) : Effect.mapBoth(all(params), { onFailure: as.error, onSuccess: (rows) => as.row(rows[0]) })
    return { all, first: first as Prepared<A>["first"] }
  },
})
