// The SQLite SqlClient over bun:sqlite: statements and their parameters, a
// transaction that no other fiber's statement can slip into, prepared
// statements on the same terms, and migrations that run once even when two
// connections start together.
import * as SqlClient from "@effect/sql/SqlClient"
import { afterEach, describe, expect, test } from "bun:test"
import { Effect, Either, Fiber } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { makeSqliteDatabase, migrate, openSqliteFile, type Migrations, type SqlDatabase } from "../../src/database/index.ts"

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})
const tempFile = () => {
  const dir = mkdtempSync(join(tmpdir(), "sqlite-client-"))
  dirs.push(dir)
  return join(dir, "db.sqlite")
}

describe("statements", () => {
  test("parameters of every kind go in and come back; the dialect is sqlite", async () => {
    const rows = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const { sql } = yield* makeSqliteDatabase({ path: ":memory:" })
          expect(sql.onDialectOrElse({ sqlite: () => "sqlite", orElse: () => "other" })).toBe("sqlite")
          yield* sql`CREATE TABLE t (s TEXT, n INTEGER, b BLOB, z INTEGER)`
          yield* sql`INSERT INTO t ${sql.insert({ s: "ü'; DROP TABLE t; --", n: 2 ** 40, b: new Uint8Array([0, 255, 7]), z: null })}`
          return yield* sql<{ s: string; n: number; b: Uint8Array; z: null }>`SELECT s, n, b, z FROM t WHERE n = ${2 ** 40}`
        }),
      ),
    )
    expect(rows).toEqual([{ s: "ü'; DROP TABLE t; --", n: 2 ** 40, b: new Uint8Array([0, 255, 7]), z: null }])
  })

  test("a prepared statement: every row, the first, none; mapped in the same step when asked", async () => {
    const answers = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const { sql, prepare } = yield* makeSqliteDatabase({ path: ":memory:" })
          yield* sql`CREATE TABLE t (n INTEGER)`
          yield* sql`INSERT INTO t VALUES (1), (2), (3)`
          const above = prepare(sql<{ n: number }>`SELECT n FROM t WHERE n > ${0} ORDER BY n`)
          const as = { row: (row: { n: number } | undefined) => row?.n ?? "none", error: () => "failed" as const }
          const broken = prepare(sql<{ n: number }>`SELECT n FROM t WHERE n > ${0}`)
          const read = [yield* above.all([1]), yield* above.first([1]), yield* above.first([3]), yield* above.first([2], as), yield* above.first([9], as)]
          yield* sql`DROP TABLE t`
          return [...read, yield* Effect.flip(broken.first([0], as))]
        }),
      ),
    )
    expect(answers).toEqual([[{ n: 2 }, { n: 3 }], { n: 2 }, undefined, 3, "none", "failed"])
  })

  test("an error names SQLite's reason and is a SqlError", async () => {
    const result = await Effect.runPromise(Effect.scoped(Effect.flatMap(makeSqliteDatabase({ path: ":memory:" }), ({ sql }) => Effect.either(sql`SELECT * FROM missing`))))
    expect(Either.isLeft(result) && result.left._tag).toBe("SqlError")
    expect(Either.isLeft(result) && result.left.message).toContain("no such table: missing")
  })
})

describe("transactions", () => {
  /** A transaction that writes, waits, writes again; while it waits, another fiber counts the rows with `count`. */
  const countDuringTransaction = (count: (db: SqlDatabase) => Effect.Effect<number, unknown>) =>
    Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const db = yield* makeSqliteDatabase({ path: ":memory:" })
          yield* db.sql`CREATE TABLE t (n INTEGER)`
          const writer = yield* Effect.fork(
            db.sql.withTransaction(Effect.gen(function* () {
              yield* db.sql`INSERT INTO t VALUES (1)`
              yield* Effect.sleep("50 millis")
              yield* db.sql`INSERT INTO t VALUES (2)`
            })),
          )
          yield* Effect.sleep("10 millis")
          const seen = yield* count(db)
          yield* Fiber.join(writer)
          return seen
        }),
      ),
    )

  test("another fiber's statement waits for the commit: it never runs inside the transaction", async () => {
    expect(await countDuringTransaction((db) => Effect.map(db.sql<{ n: number }>`SELECT count(*) AS n FROM t`, (r) => r[0]!.n))).toBe(2)
  })

  test("so does a prepared statement", async () => {
    expect(await countDuringTransaction((db) => Effect.map(db.prepare(db.sql<{ n: number }>`SELECT count(*) AS n FROM t WHERE n > ${0}`).first([0]), (r) => r!.n))).toBe(2)
  })

  test("a prepared statement inside the transaction runs on it and sees its writes", async () => {
    const seen = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const { sql, prepare } = yield* makeSqliteDatabase({ path: ":memory:" })
          yield* sql`CREATE TABLE t (n INTEGER)`
          const count = prepare(sql<{ n: number }>`SELECT count(*) AS n FROM t WHERE n > ${0}`)
          const counted = { row: (row: { n: number } | undefined) => row?.n, error: (e: unknown) => e }
          return yield* sql.withTransaction(Effect.zipRight(sql`INSERT INTO t VALUES (1)`, Effect.all([count.all([0]), count.first([0]), count.first([0], counted)])))
        }),
      ),
    )
    expect(seen).toEqual([[{ n: 1 }], { n: 1 }, 1])
  })

  test("a failure rolls the whole transaction back", async () => {
    const rows = await Effect.runPromise(
      Effect.scoped(
        Effect.gen(function* () {
          const { sql } = yield* makeSqliteDatabase({ path: ":memory:" })
          yield* sql`CREATE TABLE t (n INTEGER)`
          yield* Effect.either(sql.withTransaction(Effect.zipRight(sql`INSERT INTO t VALUES (1)`, Effect.fail("refused"))))
          return yield* sql`SELECT n FROM t`
        }),
      ),
    )
    expect(rows).toEqual([])
  })
})

describe("migrations", () => {
  const steps = (log: string[]): Migrations => ({
    "1_first": Effect.flatMap(SqlClient.SqlClient, (sql) => Effect.zipRight(Effect.sync(() => log.push("first")), sql`CREATE TABLE a (n INTEGER)`)),
    "2_second": Effect.flatMap(SqlClient.SqlClient, (sql) => Effect.zipRight(Effect.sync(() => log.push("second")), sql`INSERT INTO a VALUES (2)`)),
  })
  const run = (path: string, migrations: Migrations) =>
    Effect.scoped(Effect.flatMap(openSqliteFile(path), ({ sql }) => Effect.provideService(migrate({ table: "m", lock: "m", migrations }), SqlClient.SqlClient, sql)))

  test("each step runs once, recorded by id and name; a later step runs alone", async () => {
    const path = tempFile()
    const log: string[] = []
    const { "1_first": first } = steps(log)
    expect(await Effect.runPromise(run(path, { "1_first": first! }))).toEqual([[1, "first"]])
    expect(await Effect.runPromise(run(path, steps(log)))).toEqual([[2, "second"]])
    expect(await Effect.runPromise(run(path, steps(log)))).toEqual([])
    expect(log).toEqual(["first", "second"])
  })

  test("two processes migrating one file at once: both open, every step runs exactly once", async () => {
    const path = tempFile()
    const log = `${path}.log`
    // the step holds the transaction for 300 ms, so the second process arrives while it is open
    const script = `
      import * as SqlClient from "@effect/sql/SqlClient"
      import { Effect } from "effect"
      import { appendFileSync } from "node:fs"
      import { migrate, openSqliteFile } from ${JSON.stringify(join(import.meta.dir, "../../src/database/index.ts"))}
      const step = Effect.flatMap(SqlClient.SqlClient, (sql) =>
        Effect.all([Effect.sync(() => appendFileSync(${JSON.stringify(log)}, "ran\\n")), Effect.sleep("300 millis"), sql\`CREATE TABLE a (n INTEGER)\`]))
      const ran = await Effect.runPromise(Effect.scoped(Effect.flatMap(openSqliteFile(${JSON.stringify(path)}), ({ sql }) =>
        Effect.provideService(migrate({ table: "m", lock: "m", migrations: { "1_slow": step } }), SqlClient.SqlClient, sql))))
      console.log(JSON.stringify(ran))
    `
    const spawn = () => Bun.spawn(["bun", "-e", script], { cwd: join(import.meta.dir, "../.."), stdout: "pipe", stderr: "pipe" })
    const processes = [spawn(), spawn()]
    const outcomes = await Promise.all(processes.map(async (p) => ({ code: await p.exited, out: await new Response(p.stdout).text(), err: await new Response(p.stderr).text() })))
    expect(outcomes.map((o) => [o.code, o.err])).toEqual([[0, ""], [0, ""]])
    expect(outcomes.map((o) => o.out.trim()).sort()).toEqual(["[[1,\"slow\"]]", "[]"])
    expect(await Bun.file(log).text()).toBe("ran\n")
  })

  test("a failing step is a failure naming the step and SQLite's reason, and records nothing", async () => {
    const path = tempFile()
    const broken: Migrations = { "1_broken": Effect.flatMap(SqlClient.SqlClient, (sql) => sql`CREATE TABLE (`) }
    const result = await Effect.runPromise(Effect.either(run(path, broken)))
    expect(Either.isLeft(result) && result.left.message).toMatch(/^Migration "1_broken" failed: .*syntax error/)
    expect(await Effect.runPromise(run(path, steps([])))).toEqual([[1, "first"], [2, "second"]])
  })
})
