// One database layer for the stores of a process: the location DATABASE_URL
// names (a SQLite file, memory, Postgres), opened once, given as Database and as
// SqlClient over the same connection, closed with the layer.
import * as SqlClient from "@effect/sql/SqlClient"
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Effect, Layer, Redacted } from "effect"
import { mkdtempSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Database, type DatabasePlace } from "../../src/database/index.ts"
import { freshSchema } from "../support/services.ts"

let dir: string
let schema: Awaited<ReturnType<typeof freshSchema>>
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "database-layer-"))
  schema = await freshSchema()
})
afterAll(async () => {
  rmSync(dir, { recursive: true, force: true })
  await schema?.drop()
})

/** Writes through Database, reads through SqlClient, in one layer. */
const roundTrip = (place: DatabasePlace) =>
  Effect.runPromise(
    Effect.gen(function* () {
      const database = yield* Database
      const sql = yield* SqlClient.SqlClient
      yield* database.sql`CREATE TABLE shared_probe (n integer NOT NULL)`
      yield* database.sql`INSERT INTO shared_probe (n) VALUES (${41}), (${1})`
      const rows = yield* sql<{ total: number | string }>`SELECT SUM(n) AS total FROM shared_probe`
      return { total: Number(rows[0]!.total), same: sql === database.sql, dialect: sql.onDialectOrElse({ pg: () => "pg", orElse: () => "sqlite" }) }
    }).pipe(Effect.provide(Layer.fresh(Database.layer(place)))),
  )

describe("Database.layer", () => {
  test("a SQLite file, created private", async () => {
    const path = join(dir, "nested", "app.sqlite")
    expect(await roundTrip({ kind: "sqlite", path })).toEqual({ total: 42, same: true, dialect: "sqlite" })
    expect(statSync(path).mode & 0o777).toBe(0o600)
  })

  test("memory", async () => {
    expect(await roundTrip({ kind: "memory" })).toEqual({ total: 42, same: true, dialect: "sqlite" })
  })

  test("Postgres", async () => {
    expect(await roundTrip({ kind: "postgres", url: Redacted.make(schema.databaseUrl) })).toEqual({ total: 42, same: true, dialect: "pg" })
  })
})
