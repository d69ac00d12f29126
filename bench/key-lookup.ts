// One API key check (ApiKeys.verify: the row read by id, the HMAC, the
// constant-time compare), the work every request does before anything else: in
// a SQLite file, and in Postgres when it answers on 127.0.0.1:5432.
import { Effect, Option, Redacted } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { makeApiKeys, type ApiKeysShape } from "../src/access/index.ts"
import type { KeyStoreConfig } from "../src/config/index.ts"
import { percentile, type Measurement } from "./measurement.ts"

const KEYS = 1_000
const SECRET = "a key hash secret for the benchmark, 32+ chars"

/** Median and p99 of one verify, in µs, over `rounds` checks of keys in turn. */
const timeVerify = async (keys: ApiKeysShape, presented: readonly string[], rounds: number) => {
  const once = (i: number) => Effect.runPromise(keys.verify(presented[i % presented.length]!))
  for (let i = 0; i < 2_000; i++) await once(i)
  const sample: number[] = []
  for (let i = 0; i < rounds; i++) {
    const started = performance.now()
    await once(i)
    sample.push((performance.now() - started) * 1_000)
  }
  // and back to back in one fiber, without a promise per check
  const started = performance.now()
  await Effect.runPromise(Effect.forEach(sample, (_, i) => keys.verify(presented[i % presented.length]!), { discard: true }))
  const mean = ((performance.now() - started) * 1_000) / sample.length
  return { p50: percentile(sample, 50), p99: percentile(sample, 99), mean }
}

const measure = async (label: string, config: KeyStoreConfig, rounds: number): Promise<Measurement[]> =>
  Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const keys = yield* makeApiKeys(config)
        const presented: string[] = []
        for (let i = 0; i < KEYS; i++) presented.push((yield* keys.create({ name: `bench ${i}` })).key)
        const { p50, p99, mean } = yield* Effect.promise(() => timeVerify(keys, presented, rounds))
        return [
          { name: `${label} key check p50`, value: p50, unit: "µs" },
          { name: `${label} key check p99`, value: p99, unit: "µs" },
          { name: `${label} key check, back to back`, value: mean, unit: "µs" },
        ]
      }),
    ),
  )

const postgresAnswers = async (url: string): Promise<boolean> => {
  try {
    const sql = new Bun.SQL(url, { max: 1, connectionTimeout: 2 })
    await sql`SELECT 1`
    await sql.close()
    return true
  } catch {
    return false
  }
}

export async function run(): Promise<Measurement[]> {
  const dir = mkdtempSync(join(tmpdir(), "key-lookup-bench-"))
  try {
    const results = await measure("sqlite", { database: { kind: "sqlite", path: join(dir, "keys.sqlite") }, keyHashSecret: Option.some(Redacted.make(SECRET)) }, 50_000)
    const pg = process.env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test"
    if (await postgresAnswers(pg)) {
      const schema = `key_lookup_bench_${process.pid}`
      const admin = new Bun.SQL(pg, { max: 1 })
      await admin.unsafe(`CREATE SCHEMA ${schema}`)
      try {
        const url = `${pg}?options=${encodeURIComponent(`-c search_path=${schema}`)}`
        results.push(...(await measure("postgres", { database: { kind: "postgres", url: Redacted.make(url) }, keyHashSecret: Option.some(Redacted.make(SECRET)), timeoutMs: 2_000 }, 10_000)))
      } finally {
        await admin.unsafe(`DROP SCHEMA ${schema} CASCADE`)
        await admin.close()
      }
    }
    return results
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.main) {
  for (const m of await run()) console.log(`${m.name}: ${m.value.toFixed(2)} ${m.unit}`)
}
