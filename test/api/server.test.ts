// The server's life: a free port when asked for port 0, a clean stop (no new
// connections, requests in flight finish, key store closed), start-up errors
// that name the problem.
import { describe, expect, test } from "bun:test"
import { Effect, Fiber, Layer } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { ApiServer, ApiServerLive, startApiServer, syntheticPrograms, syntheticQuote } from "../../src/api/index.ts"
import { ApiKeys } from "../../src/access/index.ts"
import { AppConfig } from "../../src/config/index.ts"
import { makeGate, post, quoteBody, startTestApi, until } from "./support.ts"

const refused = (url: string) => fetch(url, { method: "POST" }).then(() => false, () => true)

describe("server life", () => {
  test("port 0 binds a free port; the base URL names it", async () => {
    const api = await startTestApi()
    try {
      expect(api.port).toBeGreaterThan(0)
      expect(api.baseUrl).toBe(`http://127.0.0.1:${api.port}/api/v1`)
      expect(api.hostname).toBe("127.0.0.1")
    } finally {
      await api.close()
    }
  })

  test("stop: no new connections, the request in flight finishes, the key store closes", async () => {
    const gate = makeGate()
    const api = await startTestApi({ programs: syntheticPrograms({ quote: (r) => Effect.as(gate.wait, syntheticQuote(r)) }) })
    const { key } = await api.newKey()
    const inFlight = post(api, "/api/v1/quote", quoteBody(), { "x-api-key": key })
    await until(() => gate.waiting() === 1)
    let stopped = false
    const stopping = api.stop().then(() => (stopped = true))
    await Bun.sleep(100)
    expect(stopped).toBe(false)
    expect(await refused(api.url("/api/v1/quote"))).toBe(true)
    gate.open()
    expect((await inFlight).status).toBe(200)
    await stopping
    expect(stopped).toBe(true)
    const listed = await Effect.runPromise(Effect.either(api.keys.list))
    expect(listed._tag).toBe("Left")
    rmSync(api.dir, { recursive: true, force: true })
  })

  test("as a layer: interrupting the program that holds it stops the server", async () => {
    const dir = mkdtempSync(join(tmpdir(), "api-layer-"))
    try {
      let port = 0
      const program = Layer.launch(
        Layer.effectDiscard(Effect.flatMap(ApiServer, (s) => Effect.sync(() => (port = s.port)))).pipe(
          Layer.provideMerge(ApiServerLive),
          Layer.provide(syntheticPrograms()),
          Layer.provide(AppConfig.layerFrom({ PORT: "0", DATABASE_URL: join(dir, "k.sqlite"), LOG_LEVEL: "error" })),
        ),
      )
      const fiber = Effect.runFork(program)
      await until(() => port !== 0)
      expect((await fetch(`http://127.0.0.1:${port}/`, { method: "POST" })).status).toBe(404)
      await Effect.runPromise(Fiber.interrupt(fiber))
      expect(await refused(`http://127.0.0.1:${port}/`)).toBe(true)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test("the layer also gives the key store (for issuing a demo key at start)", async () => {
    const dir = mkdtempSync(join(tmpdir(), "api-layer-"))
    try {
      const status = await Effect.runPromise(
        Effect.scoped(
          Effect.gen(function* () {
            const server = yield* ApiServer
            const keys = yield* ApiKeys
            const { key } = yield* keys.create({ name: "demo" })
            return yield* Effect.promise(() =>
              fetch(`${server.baseUrl}/quote`, { method: "POST", headers: { "content-type": "application/json", "x-api-key": key }, body: JSON.stringify(quoteBody()) }).then((r) => r.status))
          }).pipe(
            Effect.provide(ApiServerLive.pipe(Layer.provide(syntheticPrograms()), Layer.provide(AppConfig.layerFrom({ PORT: "0", DATABASE_URL: join(dir, "k.sqlite"), LOG_LEVEL: "error" })))),
          ),
        ),
      )
      expect(status).toBe(200)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  test("a bad setting stops the start with a message naming the variable", async () => {
    const attempt = startApiServer({ programs: syntheticPrograms(), env: { PORT: "80a", MAX_IN_FLIGHT: "0", LOG_LEVEL: "loud", DATABASE_URL: ":memory:" } })
    const error = await attempt.then(() => undefined, (e: Error) => e)
    expect(error?.message).toContain('PORT: must be an integer from 0 to 65535, got "80a"')
    expect(error?.message).toContain('MAX_IN_FLIGHT: must be an integer from 1 to 1000000, got "0"')
    expect(error?.message).toContain("LOG_LEVEL")
  })

  test("a port in use is a start-up error naming the address", async () => {
    const first = await startTestApi()
    try {
      const error = await startApiServer({ programs: syntheticPrograms(), env: { PORT: String(first.port), DATABASE_URL: ":memory:", LOG_LEVEL: "error" } }).then(
        async (s) => {
          await s.stop()
          return undefined
        },
        (e: Error) => e,
      )
      expect(error?.message).toStartWith(`cannot listen on 127.0.0.1:${first.port}`)
    } finally {
      await first.close()
    }
  })
})
