// Graceful stop of an instance started as `bun run serve` starts it (a child
// process; SIGTERM): it stops accepting at once, lets the request in flight
// finish, gives back its shared slot, closes the admin listener, exits 0. A
// request longer than SHUTDOWN_TIMEOUT_MS is cut there, and its slot still goes back.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Effect } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { makeApiKeys } from "../../src/access/index.ts"
import { loadKeyStoreConfig } from "../../src/config/index.ts"
import { startInstance } from "../support/instances.ts"
import { freshPrefix, REDIS_URL } from "../support/services.ts"
import { answer, swapBody } from "../api/support.ts"

let dir: string
let redis: Awaited<ReturnType<typeof freshPrefix>>
let env: Record<string, string>

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "shutdown-"))
  redis = await freshPrefix()
  env = { DATABASE_URL: join(dir, "keys.sqlite"), REDIS_URL, REDIS_PREFIX: redis.prefix, ADMIN_PORT: "0", LOG_LEVEL: "info" }
})
afterAll(async () => {
  await redis.cleanup()
  rmSync(dir, { recursive: true, force: true })
})

const newKey = () =>
  Effect.runPromise(
    Effect.scoped(
      Effect.flatMap(loadKeyStoreConfig({ DATABASE_URL: env.DATABASE_URL }), (config) =>
        Effect.flatMap(makeApiKeys(config), (keys) => keys.create({ name: "shutdown", rpm: 100, concurrency: 2 })),
      ),
    ),
  )

const refused = (url: string) =>
  fetch(url, { method: "POST", body: "{}" }).then(
    () => false,
    () => true,
  )

const slots = async (id: string) => Number(await redis.client.send("ZCARD", [`${redis.prefix}inflight:${id}`]))

describe("SIGTERM", () => {
  test("no new connections; the request in flight finishes with 200; its slot goes back; exit 0", async () => {
    const instance = await startInstance({ ...env, TEST_SWAP_DELAY_MS: "1000" })
    const { key, record } = await newKey()
    const inFlight = fetch(instance.url("/swap"), {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": key },
      body: JSON.stringify(swapBody()),
    }).then(answer)
    for (let t = 0; t < 200 && (await slots(record.id)) === 0; t++) await Bun.sleep(10)
    expect(await slots(record.id)).toBe(1)

    const signalled = performance.now()
    instance.proc.kill("SIGTERM")
    await Bun.sleep(150)
    expect(await refused(instance.url("/quote"))).toBe(true)
    expect(await refused(`http://127.0.0.1:${instance.adminPort}/health`)).toBe(true)

    const finished = await inFlight
    expect(finished.status).toBe(200)
    expect(finished.body.simulated).toBe(true)
    expect(await instance.proc.exited).toBe(0)
    expect(performance.now() - signalled).toBeLessThan(5_000)
    expect(await slots(record.id)).toBe(0)
    // its JSON log says it listened
    expect(instance.lines.some((l) => l.startsWith("{") && JSON.parse(l).message.startsWith("API listening on"))).toBe(true)
  }, 30_000)

  test("a request longer than SHUTDOWN_TIMEOUT_MS is cut there; the slot still goes back; exit 0", async () => {
    const instance = await startInstance({ ...env, TEST_SWAP_DELAY_MS: "60000", SHUTDOWN_TIMEOUT_MS: "300" })
    const { key, record } = await newKey()
    const inFlight = fetch(instance.url("/swap"), {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": key },
      body: JSON.stringify(swapBody()),
    }).then(
      (r) => r.status,
      () => "connection closed",
    )
    for (let t = 0; t < 200 && (await slots(record.id)) === 0; t++) await Bun.sleep(10)
    expect(await slots(record.id)).toBe(1)
    const signalled = performance.now()
    instance.proc.kill("SIGTERM")
    expect(await inFlight).toBe("connection closed")
    expect(await instance.proc.exited).toBe(0)
    expect(performance.now() - signalled).toBeLessThan(3_000)
    expect(await slots(record.id)).toBe(0)
  }, 30_000)
})
