// An @effect/sql SqlClient over bun:sqlite: the embedded database behind the
// key store and the market's snapshot, on @effect/sql's own Client.make and its
// SQLite statement compiler. (The published @effect/sql-sqlite-bun 0.50 is built
// for @effect/sql 0.49 and @effect/platform 0.94, not the 0.52 / 0.97 used here.)
//
// One connection per database. bun:sqlite runs a statement synchronously, so a
// single query never interleaves with another; a transaction spans fibers'
// turns, so it holds the connection's one permit from BEGIN to COMMIT and a
// query outside it waits for the permit (only then: the key look-up on every
// request runs straight through). Transactions begin IMMEDIATE: the
// write lock is taken up front, so two processes writing one file (a server and
// `bun run keys`, two starting servers migrating) wait for each other under
// busy_timeout instead of failing on a lock upgrade.
import * as Reactivity from "@effect/experimental/Reactivity"
import * as SqlClient from "@effect/sql/SqlClient"
import type { Connection } from "@effect/sql/SqlConnection"
import { SqlError } from "@effect/sql/SqlError"
import * as Statement from "@effect/sql/Statement"
import { Database } from "bun:sqlite"
import { Effect, Option, type Scope, Stream } from "effect"
import type { FirstRow, Prepared, SqlDatabase } from "./sql-database.ts"

export interface SqliteOptions {
  /** the file, or ":memory:" */
  readonly path: string
  /** statements run once the file is open, before anything else (PRAGMAs) */
  readonly pragmas?: ReadonlyArray<string>
}

const describe = (e: unknown): string => (e instanceof Error ? e.message : String(e))
const failed = (cause: unknown) => new SqlError({ cause, message: describe(cause) })

type TransformRows = (<A extends object>(rows: ReadonlyArray<A>) => ReadonlyArray<A>) | undefined
type Params = ReadonlyArray<unknown>

/** Opens the database (created when missing): a SqlClient over it and its prepared statements; closed with the scope. */
export const makeSqliteDatabase = (options: SqliteOptions): Effect.Effect<SqlDatabase, SqlError, Scope.Scope> =>
  Effect.gen(function* () {
    let closed = false
    const db = yield* Effect.acquireRelease(
      Effect.try({
        try: () => {
          const db = new Database(options.path, { create: true, strict: true })
          try {
            for (const pragma of options.pragmas ?? []) db.exec(pragma)
          } catch (e) {
            db.close()
            throw e
          }
          return db
        },
        catch: failed,
      }),
      (db) =>
        Effect.sync(() => {
          closed = true
          db.close()
        }),
    )

    // db.query keeps each statement prepared, keyed by its text
    const rows = (sql: string, params: Params, transformRows: TransformRows) => {
      const rows = db.query(sql).all(...(params as never[])) as ReadonlyArray<object>
      return transformRows === undefined ? rows : transformRows(rows)
    }
    const all = (sql: string, params: Params, transformRows: TransformRows) =>
      Effect.try({ try: () => rows(sql, params, transformRows), catch: failed })
    const direct: Connection = {
      execute: all,
      executeRaw: (sql, params) => Effect.try({ try: () => db.query(sql).run(...(params as never[])), catch: failed }),
      executeValues: (sql, params) => Effect.try({ try: () => db.query(sql).values(...(params as never[])) as ReadonlyArray<ReadonlyArray<unknown>>, catch: failed }),
      executeUnprepared: (sql, params, transformRows) =>
        Effect.try({
          try: () => {
            const statement = db.prepare(sql)
            try {
              const rows = statement.all(...(params as never[])) as ReadonlyArray<object>
              return transformRows === undefined ? rows : transformRows(rows)
            } finally {
              statement.finalize()
            }
          },
          catch: failed,
        }),
      executeStream: (sql, params, transformRows) => Stream.flatMap(Stream.fromEffect(all(sql, params, transformRows)), Stream.fromIterable),
    }

    const permit = yield* Effect.makeSemaphore(1)
    let inTransaction = false
    // outside a transaction: a statement runs at once, unless a transaction holds the connection, then
    // it waits for the permit; the check and the statement are one synchronous step, so no
    // transaction can begin between them
    const whenFree =
      <A>(run: () => A) =>
      (): Effect.Effect<A, SqlError> => {
        if (inTransaction) return permit.withPermits(1)(Effect.try({ try: run, catch: failed }))
        try {
          return Effect.succeed(run())
        } catch (e) {
          return Effect.fail(failed(e))
        }
      }
    const outside: Connection = {
      execute: (sql, params, transformRows) => Effect.suspend(whenFree(() => rows(sql, params, transformRows))),
      executeRaw: (sql, params) => Effect.suspend(whenFree(() => db.query(sql).run(...(params as never[])))),
      executeValues: (sql, params) => Effect.suspend(whenFree(() => db.query(sql).values(...(params as never[])) as ReadonlyArray<ReadonlyArray<unknown>>)),
      executeUnprepared: (sql, params, transformRows) => permit.withPermits(1)(direct.executeUnprepared(sql, params, transformRows)),
      executeStream: (sql, params, transformRows) => Stream.fromIterableEffect(Effect.suspend(whenFree(() => rows(sql, params, transformRows)))),
    }
    const holdConnection = Effect.acquireRelease(
      Effect.tap(permit.take(1), () => (inTransaction = true)),
      () => Effect.zipRight(Effect.sync(() => (inTransaction = false)), permit.release(1)),
    )

    const sql = yield* SqlClient.make({
      acquirer: Effect.succeed(outside),
      // the permit, held for the transaction's scope (BEGIN to COMMIT or ROLLBACK); refused on a closed
      // database before BEGIN, since its ROLLBACK would fail too and a failed ROLLBACK is a defect
      transactionAcquirer: Effect.suspend(() => (closed ? Effect.fail(failed(new Error("Cannot use a closed database"))) : Effect.as(holdConnection, direct))),
      compiler: Statement.makeCompilerSqlite(),
      spanAttributes: [["db.system.name", "sqlite"]],
      beginTransaction: "BEGIN IMMEDIATE",
    }).pipe(Effect.provideServiceEffect(Reactivity.Reactivity, Reactivity.make))

    const prepare = <A extends object>(statement: Statement.Statement<A>): Prepared<A> => {
      const [text] = statement.compile()
      // prepared on first use, so that a statement that cannot be fails as a SqlError, not at once
      let prepared: ReturnType<typeof db.query> | undefined
      const compiled = () => (prepared ??= db.query(text))
      /** `read` at once when no transaction holds the connection; else on the transaction's connection, or after it */
      const run = <B, C, E>(read: (params: Params) => B, onConnection: (rows: ReadonlyArray<A>) => B, as: FirstRow<B, C, E> | undefined, params: Params) =>
        Effect.suspend((): Effect.Effect<C, E> => {
          if (!inTransaction) {
            let value: B
            try {
              value = read(params)
            } catch (e) {
              return Effect.fail(as === undefined ? (failed(e) as E) : as.error(failed(e)))
            }
            return Effect.succeed(as === undefined ? (value as unknown as C) : as.row(value))
          }
          // inside this fiber's own transaction (on this database), on its connection; else after it
          const rows = Effect.flatMap(Effect.serviceOption(SqlClient.TransactionConnection), (held) =>
            Option.isSome(held) && held.value[0] === direct
              ? Effect.map(direct.execute(text, params, undefined), onConnection)
              : permit.withPermits(1)(Effect.try({ try: () => read(params), catch: failed })))
          return as === undefined ? (rows as Effect.Effect<unknown, unknown> as Effect.Effect<C, E>) : Effect.mapBoth(rows, { onFailure: as.error, onSuccess: as.row })
        })
      const all = (params: Params) => compiled().all(...(params as never[])) as ReadonlyArray<A>
      const first = (params: Params) => (compiled().get(...(params as never[])) as A | null) ?? undefined
      return {
        all: (params) => run(all, (rows) => rows, undefined, params),
        first: (<B, E>(params: Params, as?: FirstRow<A | undefined, B, E>) => run(first, (rows) => rows[0], as, params)) as Prepared<A>["first"],
      }
    }
    return { sql, prepare }
  })
