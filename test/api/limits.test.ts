// Limits over real HTTP: per-key rate (429 RATE_LIMITED), per-key in-flight
// (429 CONCURRENCY_LIMITED), bad keys per IP (429 RATE_LIMITED), the server's own
// in-flight cap (503 OVERLOADED), the program budget (504 TIMEOUT), the switch
// (404 API_DISABLED).
import { afterEach, describe, expect, test } from "bun:test"
import { Effect } from "effect"
import { syntheticPrograms, syntheticQuote } from "../../src/api/index.ts"
import { expectError, makeGate, post, quoteBody, startTestApi, until, type TestApi } from "./support.ts"

const apis: TestApi[] = []
afterEach(async () => {
  for (const api of apis.splice(0)) await api.close()
})
const start = async (options: Parameters<typeof startTestApi>[0] = {}) => {
  const api = await startTestApi(options)
  apis.push(api)
  return api
}

/** Whole seconds until a bucket of `capacity` a minute is full, `missing` tokens short: ceil(missing / (capacity / 60 a second)). */
const secondsToFull = (capacity: number, missing: number) => Math.ceil((missing * 60) / capacity)

describe("per-key rate: 429 RATE_LIMITED", () => {
  test("a key's requests per minute, counted down in X-RateLimit-Remaining, then Retry-After", async () => {
    const api = await start()
    const { key } = await api.newKey({ rpm: 3 })
    const remaining: string[] = []
    const reset: string[] = []
    for (let i = 0; i < 3; i++) {
      const a = await post(api, "/api/v1/quote", quoteBody(), { "x-api-key": key })
      expect(a.status).toBe(200)
      expect(a.headers.get("x-ratelimit-limit")).toBe("3")
      remaining.push(a.headers.get("x-ratelimit-remaining")!)
      reset.push(a.headers.get("x-ratelimit-reset")!)
    }
    expect(remaining).toEqual(["2", "1", "0"])
    // a token every 20 s: n requests within the first second leave the bucket 20·n s from full
    // (less under a second of refill, rounded up; exact refills on a test clock in test/access/limits.test.ts)
    expect(reset).toEqual([1, 2, 3].map((n) => String(secondsToFull(3, n))))
    expect(reset).toEqual(["20", "40", "60"])
    const limited = await post(api, "/api/v1/quote", quoteBody(), { "x-api-key": key })
    expectError(limited, 429, "RATE_LIMITED", "over this API key's limit of 3 requests a minute")
    expect(limited.headers.get("x-ratelimit-limit")).toBe("3")
    expect(limited.headers.get("x-ratelimit-remaining")).toBe("0")
    expect(limited.headers.get("x-ratelimit-reset")).toBe(String(secondsToFull(3, 3)))
    // one request comes back every 20 s at 3 a minute (less the time the first three took;
    // exact values are checked on a test clock in test/access/limits.test.ts)
    expect(Number(limited.headers.get("retry-after"))).toBeWithin(15, 21)
    // another key is not affected
    const other = await api.newKey({ rpm: 3 })
    expect((await post(api, "/api/v1/quote", quoteBody(), { "x-api-key": other.key })).status).toBe(200)
  })

  test("a key created without --rpm gets the spec's 60 a minute; both endpoints share it", async () => {
    const api = await start()
    const { key } = await Effect.runPromise(api.keys.create({ name: "default" })).then((r) => ({ key: r.key }))
    const a = await post(api, "/api/v1/quote", quoteBody(), { "x-api-key": key })
    expect(a.headers.get("x-ratelimit-limit")).toBe("60")
    expect(a.headers.get("x-ratelimit-remaining")).toBe("59")
    expect(a.headers.get("x-ratelimit-reset")).toBe(String(secondsToFull(60, 1)))
    const b = await post(api, "/api/v1/swap", { ...quoteBody(), sender: "0x1111111111111111111111111111111111111111" }, { "x-api-key": key })
    expect(b.headers.get("x-ratelimit-remaining")).toBe("58")
    expect(b.headers.get("x-ratelimit-reset")).toBe(String(secondsToFull(60, 2)))
    expect(b.headers.get("x-ratelimit-reset")).toBe("2")
  })
})

describe("per-key in flight: 429 CONCURRENCY_LIMITED", () => {
  test("a third request while two are in flight on the key", async () => {
    const gate = makeGate()
    const api = await start({ programs: syntheticPrograms({ quote: (r) => Effect.as(gate.wait, syntheticQuote(r)) }) })
    const { key } = await api.newKey({ rpm: 100 })
    const first = post(api, "/api/v1/quote", quoteBody(), { "x-api-key": key })
    const second = post(api, "/api/v1/quote", quoteBody(), { "x-api-key": key })
    await until(() => gate.waiting() === 2)
    const third = await post(api, "/api/v1/quote", quoteBody(), { "x-api-key": key })
    expectError(third, 429, "CONCURRENCY_LIMITED", "more than 2 requests in flight on this API key; wait for one to finish")
    expect(third.headers.get("retry-after")).toBe("1")
    expect(third.headers.get("x-ratelimit-limit")).toBe("100")
    // the third request used its token too: 3 of 100 missing, 1.8 s → 2
    expect(third.headers.get("x-ratelimit-reset")).toBe(String(secondsToFull(100, 3)))
    // another key still gets through while those two wait
    const other = await api.newKey()
    const otherCall = post(api, "/api/v1/quote", quoteBody(), { "x-api-key": other.key })
    await until(() => gate.waiting() === 3)
    gate.open()
    expect((await first).status).toBe(200)
    expect((await second).status).toBe(200)
    expect((await otherCall).status).toBe(200)
    // slots are given back: the key works again
    expect((await post(api, "/api/v1/quote", quoteBody(), { "x-api-key": key })).status).toBe(200)
  })

  test("a key's own concurrency setting", async () => {
    const gate = makeGate()
    const api = await start({ programs: syntheticPrograms({ quote: (r) => Effect.as(gate.wait, syntheticQuote(r)) }) })
    const { key } = await api.newKey({ concurrency: 1 })
    const first = post(api, "/api/v1/quote", quoteBody(), { "x-api-key": key })
    await until(() => gate.waiting() === 1)
    expectError(await post(api, "/api/v1/quote", quoteBody(), { "x-api-key": key }), 429, "CONCURRENCY_LIMITED", "more than 1 requests in flight on this API key; wait for one to finish")
    gate.open()
    expect((await first).status).toBe(200)
  })

  test("a client that goes away gives its slot back", async () => {
    const api = await start({ env: { QUOTE_TIMEOUT_MS: "1500" }, programs: syntheticPrograms({ quote: () => Effect.never }) })
    const { key } = await api.newKey({ concurrency: 1 })
    const controller = new AbortController()
    const gone = fetch(api.url("/api/v1/quote"), { method: "POST", headers: { "content-type": "application/json", "x-api-key": key }, body: JSON.stringify(quoteBody()), signal: controller.signal }).catch(() => "aborted")
    await Bun.sleep(100)
    controller.abort()
    expect(await gone).toBe("aborted")
    // the program is interrupted and the slot freed: the next call reaches the program
    // (and waits there) instead of being refused at the limit
    const deadline = Date.now() + 5000
    let outcome: number | string = "not tried"
    while (Date.now() < deadline) {
      outcome = await Promise.race([
        post(api, "/api/v1/quote", quoteBody(), { "x-api-key": key }).then((a) => a.status),
        Bun.sleep(300).then(() => "reached the program"),
      ])
      if (outcome !== 429) break
      await Bun.sleep(50)
    }
    expect(outcome).toBe("reached the program")
  })
})

describe("bad keys per IP: 429 RATE_LIMITED", () => {
  test("past the threshold, bad-key requests from the address get 429; a good key still works", async () => {
    const api = await start({ env: { BAD_KEY_LIMIT_PER_MINUTE: "3" } })
    const { key } = await api.newKey()
    expectError(await post(api, "/api/v1/quote", quoteBody(), {}), 401, "UNAUTHORIZED")
    expectError(await post(api, "/api/v1/quote", quoteBody(), { "x-api-key": "wrong" }), 401, "UNAUTHORIZED")
    expectError(await post(api, "/api/v1/quote", quoteBody(), { authorization: "Bearer wrong" }), 401, "UNAUTHORIZED")
    const limited = await post(api, "/api/v1/quote", quoteBody(), { "x-api-key": "wrong" })
    expectError(limited, 429, "RATE_LIMITED", "too many requests with a missing or bad API key from this address")
    expect(Number(limited.headers.get("retry-after"))).toBeWithin(15, 21)
    expect(limited.headers.get("x-ratelimit-limit")).toBeNull()
    expect(limited.headers.get("x-ratelimit-reset")).toBeNull()
    expect((await post(api, "/api/v1/quote", quoteBody(), { "x-api-key": key })).status).toBe(200)
  })

  test("the default threshold is 20 a minute", async () => {
    const api = await start()
    for (let i = 0; i < 20; i++) expect((await post(api, "/api/v1/quote", quoteBody(), { "x-api-key": `bad${i}` })).status).toBe(401)
    expectError(await post(api, "/api/v1/quote", quoteBody(), { "x-api-key": "bad" }), 429, "RATE_LIMITED")
  })
})

describe("the server's own cap: 503 OVERLOADED", () => {
  test("past MAX_IN_FLIGHT requests, before any key is checked", async () => {
    const gate = makeGate()
    const api = await start({ env: { MAX_IN_FLIGHT: "2" }, programs: syntheticPrograms({ quote: (r) => Effect.as(gate.wait, syntheticQuote(r)) }) })
    const [a, b, c] = [await api.newKey(), await api.newKey(), await api.newKey()]
    const first = post(api, "/api/v1/quote", quoteBody(), { "x-api-key": a.key })
    const second = post(api, "/api/v1/quote", quoteBody(), { "x-api-key": b.key })
    await until(() => gate.waiting() === 2)
    const busy = await post(api, "/api/v1/quote", quoteBody(), { "x-api-key": c.key })
    expectError(busy, 503, "OVERLOADED", "the API is busy")
    expect(busy.headers.get("retry-after")).toBe("1")
    expect(busy.headers.get("x-ratelimit-limit")).toBeNull()
    expect(busy.headers.get("x-ratelimit-reset")).toBeNull()
    expectError(await post(api, "/api/v1/quote", quoteBody(), {}), 503, "OVERLOADED")
    gate.open()
    expect((await first).status).toBe(200)
    expect((await second).status).toBe(200)
    expect((await post(api, "/api/v1/quote", quoteBody(), { "x-api-key": c.key })).status).toBe(200)
  })
})

describe("the program's budget: 504 TIMEOUT", () => {
  test("a quote past QUOTE_TIMEOUT_MS is answered 504 and the program interrupted", async () => {
    let interrupted = 0
    const api = await start({
      env: { QUOTE_TIMEOUT_MS: "150", SWAP_TIMEOUT_MS: "300" },
      programs: syntheticPrograms({
        quote: () => Effect.never.pipe(Effect.onInterrupt(() => Effect.sync(() => interrupted++))),
        swap: () => Effect.never,
      }),
    })
    const { key } = await api.newKey()
    const started = Date.now()
    expectError(await post(api, "/api/v1/quote", quoteBody(), { "x-api-key": key }), 504, "TIMEOUT", "routing took too long")
    const took = Date.now() - started
    expect(took).toBeGreaterThanOrEqual(140)
    expect(took).toBeLessThan(2000)
    await until(() => interrupted === 1)
    const swapStarted = Date.now()
    expectError(await post(api, "/api/v1/swap", { ...quoteBody(), sender: "0x1111111111111111111111111111111111111111" }, { "x-api-key": key }), 504, "TIMEOUT")
    expect(Date.now() - swapStarted).toBeGreaterThanOrEqual(290)
  })

  test("a slow program within its budget answers normally", async () => {
    const api = await start({
      env: { QUOTE_TIMEOUT_MS: "2000" },
      programs: syntheticPrograms({ quote: (r) => Effect.as(Effect.sleep("50 millis"), syntheticQuote(r)) }),
    })
    const { key } = await api.newKey()
    expect((await post(api, "/api/v1/quote", quoteBody(), { "x-api-key": key })).status).toBe(200)
  })
})

describe("the switch: 404 API_DISABLED", () => {
  test("API_DISABLED=true answers every endpoint 404 API_DISABLED, before keys and methods", async () => {
    const api = await start({ env: { API_DISABLED: "true" } })
    const { key } = await api.newKey()
    expectError(await post(api, "/api/v1/quote", quoteBody(), { "x-api-key": key }), 404, "API_DISABLED", "the API is temporarily switched off; retry later")
    expectError(await post(api, "/api/v1/swap", quoteBody(), {}), 404, "API_DISABLED")
    const get = await fetch(api.url("/api/v1/quote"))
    expect(get.status).toBe(404)
    expect(((await get.json()) as { error: { code: string } }).error.code).toBe("API_DISABLED")
    // unknown paths stay unknown
    expectError(await post(api, "/api/v1/nope", quoteBody(), {}), 404, "NOT_FOUND")
  })

  test("switched off and on in a running server", async () => {
    const api = await start()
    const { key } = await api.newKey()
    expect((await post(api, "/api/v1/quote", quoteBody(), { "x-api-key": key })).status).toBe(200)
    await Effect.runPromise(api.setDisabled(true))
    expectError(await post(api, "/api/v1/quote", quoteBody(), { "x-api-key": key }), 404, "API_DISABLED")
    await Effect.runPromise(api.setDisabled(false))
    expect((await post(api, "/api/v1/quote", quoteBody(), { "x-api-key": key })).status).toBe(200)
  })
})
