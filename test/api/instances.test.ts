// Three API instances, separate processes on their own ports, sharing one key
// store (the machine's Postgres, a schema of this run) and one limit store (the
// machine's Redis, a prefix of this run), as an operator runs them behind a load
// balancer. A key's requests a minute and in flight hold exactly across them; a
// crashed instance's slot comes back within the lease; a key revoked with
// `bun run keys` is refused by every instance within one second.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { resolve } from "node:path"
import { startInstance, type Instance } from "../support/instances.ts"
import { freshPrefix, freshSchema, REDIS_URL, TEST_KEY_HASH_SECRET } from "../support/services.ts"
import { answer, expectError, quoteBody, swapBody, type Answer } from "./support.ts"

const ROOT = resolve(import.meta.dir, "../..")
const LEASE_MS = 1_000
const SWAP_DELAY_MS = 800

let schema: Awaited<ReturnType<typeof freshSchema>>
let redis: Awaited<ReturnType<typeof freshPrefix>>
let env: Record<string, string>
let instances: Instance[] = []

beforeAll(async () => {
  ;[schema, redis] = await Promise.all([freshSchema(), freshPrefix()])
  env = {
    DATABASE_URL: schema.databaseUrl,
    KEY_HASH_SECRET: TEST_KEY_HASH_SECRET,
    REDIS_URL,
    REDIS_PREFIX: redis.prefix,
    INFLIGHT_LEASE_MS: String(LEASE_MS),
    TEST_SWAP_DELAY_MS: String(SWAP_DELAY_MS),
  }
  instances = await Promise.all([startInstance(env), startInstance(env), startInstance(env)])
}, 60_000)

afterAll(async () => {
  // a graceful stop of each: exit code 0
  const codes = await Promise.all(instances.map((i) => i.stop()))
  await Promise.all([schema.drop(), redis.cleanup()])
  expect(codes).toEqual([0, 0, 0])
})

const keysCli = async (args: string[], over: Record<string, string | undefined> = {}) => {
  const proc = Bun.spawn([process.execPath, "run", "--silent", "keys", ...args], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: env.DATABASE_URL, KEY_HASH_SECRET: env.KEY_HASH_SECRET, ...over },
    stdout: "pipe",
    stderr: "pipe",
  })
  const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
  return { stdout, stderr, code }
}

const newKey = async (rpm: number, concurrency: number) => {
  const created = await keysCli(["create", "--name", `rpm ${rpm} x${concurrency}`, "--rpm", String(rpm), "--concurrency", String(concurrency)])
  expect(created.code).toBe(0)
  const key = created.stdout.trim().split("\n").at(-1)!
  return { key, id: key.slice(4, 20) }
}

const call = async (instance: Instance, path: "/quote" | "/swap", key: string): Promise<Answer> =>
  answer(
    await fetch(instance.url(path), {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": key },
      body: JSON.stringify(path === "/quote" ? quoteBody() : swapBody()),
    }),
  )

const codeOf = (a: Answer) => (a.status === 200 ? "OK" : a.body.error.code)
const tally = (answers: Answer[]) => {
  const counts: Record<string, number> = {}
  for (const a of answers) counts[codeOf(a)] = (counts[codeOf(a)] ?? 0) + 1
  return counts
}

describe("three instances, one key", () => {
  test("60 a minute: exactly 60 requests pass over the three; the 61st is 429 wherever it lands", async () => {
    const { key } = await newKey(60, 1_000)
    const started = performance.now()
    const burst = await Promise.all(Array.from({ length: 75 }, (_, i) => call(instances[i % 3]!, "/quote", key)))
    // the bucket refills one request a second: a burst slowed past a second by a loaded machine earns that many more
    const refilled = Math.floor((performance.now() - started) / 1000)
    const { OK: passed = 0, RATE_LIMITED: limited = 0 } = tally(burst)
    expect(passed + limited).toBe(75)
    expect(passed).toBeGreaterThanOrEqual(60)
    expect(passed).toBeLessThanOrEqual(60 + refilled)
    if (refilled > 0) return
    // one shared bucket: each remaining count from 59 to 0 given exactly once, whichever instance answered
    const remaining = burst.filter((a) => a.status === 200).map((a) => Number(a.headers.get("x-ratelimit-remaining")))
    expect(remaining.sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, i) => i))
    for (const instance of instances) {
      const next = await call(instance, "/quote", key)
      expectError(next, 429, "RATE_LIMITED", "over this API key's limit of 60 requests a minute")
      expect(next.headers.get("retry-after")).toBe("1")
      expect(next.headers.get("x-ratelimit-limit")).toBe("60")
      expect(next.headers.get("x-ratelimit-remaining")).toBe("0")
    }
  })

  test("2 in flight: of 9 slow requests at once over the three, exactly 2 run; the slots come back when they end", async () => {
    const { key, id } = await newKey(1_000, 2)
    const burst = await Promise.all(Array.from({ length: 9 }, (_, i) => call(instances[i % 3]!, "/swap", key)))
    expect(tally(burst)).toEqual({ OK: 2, CONCURRENCY_LIMITED: 7 })
    for (const refused of burst.filter((a) => a.status === 429)) {
      expectError(refused, 429, "CONCURRENCY_LIMITED", "more than 2 requests in flight on this API key; wait for one to finish")
    }
    // released when they ended, not left to expire
    expect(Number(await redis.client.send("ZCARD", [`${redis.prefix}inflight:${id}`]))).toBe(0)
    const again = await Promise.all([call(instances[1]!, "/swap", key), call(instances[2]!, "/swap", key)])
    expect(again.map((a) => a.status)).toEqual([200, 200])
  })

  test("a key revoked with bun run keys is refused by every instance within one second", async () => {
    const { key, id } = await newKey(100, 2)
    for (const instance of instances) expect((await call(instance, "/quote", key)).status).toBe(200)
    const listed = await keysCli(["list", "--json"])
    expect(JSON.parse(listed.stdout).find((r: { id: string }) => r.id === id)).toMatchObject({ id, rpm: 100, concurrency: 2, revokedAt: null })
    const revoked = await keysCli(["revoke", id])
    expect(revoked.code).toBe(0)
    // an instance answers a key it accepted from memory for KEY_RECHECK_MS (500 ms) at most
    const revokedAt = performance.now()
    for (const instance of instances) {
      let last = await call(instance, "/quote", key)
      while (last.status === 200 && performance.now() - revokedAt < 3_000) last = await call(instance, "/quote", key)
      expectError(last, 401, "UNAUTHORIZED", "API key revoked")
    }
    expect(performance.now() - revokedAt).toBeLessThan(1_000)
  })

  test("bun run keys against Postgres needs the shared KEY_HASH_SECRET", async () => {
    const without = await keysCli(["list"], { KEY_HASH_SECRET: undefined })
    expect(without.code).toBe(1)
    expect(without.stderr).toContain("KEY_HASH_SECRET: required with a postgres:// DATABASE_URL")
  })

  test("bad keys from one address: one shared count over the three", async () => {
    // a fresh bucket for this address (earlier tests sent revoked keys from it)
    const buckets = (await redis.client.send("KEYS", [`${redis.prefix}badkey:*`])) as string[]
    if (buckets.length > 0) await redis.client.send("DEL", buckets)
    const bad = `arc_0000000000000000_${"x".repeat(43)}`
    const answers: Answer[] = []
    for (let i = 0; i < 20; i++) answers.push(await call(instances[i % 3]!, "/quote", bad))
    expect(tally(answers)).toEqual({ UNAUTHORIZED: 20 })
    for (const instance of instances) expectError(await call(instance, "/quote", bad), 429, "RATE_LIMITED", "too many requests with a missing or bad API key from this address")
  })
})

describe("an instance that crashes", () => {
  test("killed in the middle of a request: its slot comes back within the lease", async () => {
    const victim = await startInstance({ ...env, TEST_SWAP_DELAY_MS: "60000" })
    try {
      const { key, id } = await newKey(1_000, 1)
      const set = `${redis.prefix}inflight:${id}`
      const held = call(victim, "/swap", key).catch((e: Error) => e)
      for (let t = 0; t < 200 && Number(await redis.client.send("ZCARD", [set])) === 0; t++) await Bun.sleep(10)
      expect(Number(await redis.client.send("ZCARD", [set]))).toBe(1)
      expectError(await call(instances[0]!, "/quote", key), 429, "CONCURRENCY_LIMITED")

      await victim.kill()
      const killedAt = performance.now()
      expect(await held).toBeInstanceOf(Error)
      // nobody released it: still held right after the crash
      expectError(await call(instances[1]!, "/quote", key), 429, "CONCURRENCY_LIMITED")
      let freedAfter = Number.POSITIVE_INFINITY
      while (performance.now() - killedAt < LEASE_MS + 1_000) {
        const a = await call(instances[2]!, "/quote", key)
        if (a.status === 200) {
          freedAfter = performance.now() - killedAt
          break
        }
        expectError(a, 429, "CONCURRENCY_LIMITED")
        await Bun.sleep(25)
      }
      // the lease ends at most LEASE_MS after its last renewal, which came before the kill
      expect(freedAfter).toBeLessThanOrEqual(LEASE_MS + 400)
    } finally {
      await victim.kill()
    }
  }, 30_000)
})
