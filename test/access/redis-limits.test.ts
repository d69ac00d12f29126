// Limits shared through the machine's real Redis: two stores stand for two
// instances. Token buckets and in-flight leases decided atomically on Redis's
// clock; leases renewed while held and expiring when their holder is gone; and
// Redis unreachable, refused or hung: decided in process (open) or refused
// (closed), always within the time limit, never a hang.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Deferred, Effect, Either, Exit, Fiber, Logger, LogLevel, Metric, Redacted, Scope } from "effect"
import {
  LimitStoreMetrics,
  makeLimitStore,
  makeRedisInFlight,
  makeRedisTokenBuckets,
  type LimitStore,
  type RedisInFlightShape,
} from "../../src/access/index.ts"
import type { TokenBucketsShape } from "../../src/access/index.ts"
import type { SharedLimitsConfig } from "../../src/config/index.ts"
import { expectError, post, quoteBody, startTestApi } from "../api/support.ts"
import { blackHole, closedPort, freshPrefix, REDIS_URL } from "../support/services.ts"

let redis: Awaited<ReturnType<typeof freshPrefix>>
beforeAll(async () => {
  redis = await freshPrefix()
})
afterAll(async () => {
  await redis.cleanup()
})

const settings = (over: Partial<SharedLimitsConfig> = {}): SharedLimitsConfig => ({
  url: Redacted.make(REDIS_URL),
  prefix: redis.prefix,
  timeoutMs: 250,
  leaseMs: 15_000,
  onFailure: "open",
  ...over,
})

interface Instance {
  readonly store: LimitStore
  readonly rates: TokenBucketsShape
  readonly inFlight: RedisInFlightShape
  readonly run: <A, E>(effect: Effect.Effect<A, E>) => Promise<A>
  readonly close: () => Promise<void>
}

// the state changes these tests cause are logged as warnings: not shown here
const quiet = <A, E, R>(effect: Effect.Effect<A, E, R>) => Logger.withMinimumLogLevel(effect, LogLevel.None)

/** One instance's shared limits, open until `close`. */
const instance = async (over: Partial<SharedLimitsConfig> = {}): Promise<Instance> => {
  const scope = Effect.runSync(Scope.make())
  const parts = await Effect.runPromise(
    Effect.gen(function* () {
      const store = yield* makeLimitStore(settings(over))
      return { store, rates: yield* makeRedisTokenBuckets(store, "rate"), inFlight: yield* makeRedisInFlight(store) }
    }).pipe(Scope.extend(scope), quiet),
  )
  return { ...parts, run: (effect) => Effect.runPromise(quiet(effect)), close: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
}

/**
 * The bucket's seconds to full, ceil((capacity − tokens) / (capacity / 60 a second)),
 * in exact integers: the bucket holds `whole` tokens plus what `refilledMs` of refill gave.
 */
const secondsToFull = (capacity: number, whole: number, refilledMs = 0) =>
  Math.ceil((60_000 * (capacity - whole) - refilledMs * capacity) / (1_000 * capacity))

/** The same formula over the tokens the bucket in Redis holds now (after the last take). */
const storedSecondsToFull = async (key: string, capacity: number) => {
  const tokens = Number(await redis.client.send("HGET", [`${redis.prefix}rate:${key}`, "tokens"]))
  return Math.ceil((capacity - tokens) / (capacity / 60))
}

const fallbacks = () => Effect.runPromise(Metric.value(LimitStoreMetrics.fallbacks.pipe(Metric.tagged("operation", "rate")))).then((s) => s.count)

describe("requests a minute, shared", () => {
  test("60 a minute over two instances: exactly 60, remaining counted down across both, then Retry-After", async () => {
    const [a, b] = [await instance(), await instance()]
    try {
      const remaining: number[] = []
      for (let i = 0; i < 60; i++) {
        const d = await (i % 2 === 0 ? a : b).run((i % 2 === 0 ? a : b).rates.take("key-60", 60))
        expect(d.allowed).toBe(true)
        expect(d.limit).toBe(60)
        remaining.push(d.remaining)
        // seconds to full of the bucket this take left; within the burst's first second, i + 1
        expect(d.resetSeconds).toBe(await storedSecondsToFull("key-60", 60))
        expect(d.resetSeconds).toBe(Math.ceil((i + 1) / (60 / 60)))
      }
      expect(remaining).toEqual(Array.from({ length: 60 }, (_, i) => 59 - i))
      expect(await a.run(a.rates.take("key-60", 60))).toEqual({ allowed: false, limit: 60, remaining: 0, retryAfterSeconds: 1, resetSeconds: 60 })
      expect(await b.run(b.rates.take("key-60", 60))).toEqual({ allowed: false, limit: 60, remaining: 0, retryAfterSeconds: 1, resetSeconds: 60 })
      // 3 a minute: a token every 20 s
      for (let i = 0; i < 3; i++) expect((await a.run(a.rates.take("key-3", 3))).allowed).toBe(true)
      expect(await b.run(b.rates.take("key-3", 3))).toEqual({ allowed: false, limit: 3, remaining: 0, retryAfterSeconds: 20, resetSeconds: 60 })
      // another key is independent
      expect((await b.run(b.rates.take("key-other", 3))).remaining).toBe(2)
      // one token back after a second (60 a minute)
      await Bun.sleep(1_050)
      expect((await b.run(b.rates.take("key-60", 60))).allowed).toBe(true)
      expect((await a.run(a.rates.take("key-60", 60))).allowed).toBe(false)
    } finally {
      await a.close()
      await b.close()
    }
  })

  test("X-RateLimit-Reset: decided in the take's own script, by the bucket's arithmetic", async () => {
    const a = await instance()
    try {
      const bucket = `${redis.prefix}rate:held`
      // a bucket whose `at` is a minute ahead of Redis's clock is not refilled until then: its state is exact
      const hold = async (tokens: string) => {
        const [seconds, micros] = (await redis.client.send("TIME", [])) as [string, string]
        const ahead = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000) + 60_000
        await redis.client.send("HSET", [bucket, "tokens", tokens, "at", String(ahead)])
      }
      // 3 a minute, 30.5 s of refill (1.525 tokens): one taken leaves 0.525, (3 − 0.525) / 0.05 = 49.5 → 50
      await hold("1.525")
      expect(await a.run(a.rates.take("held", 3))).toEqual({ allowed: true, limit: 3, remaining: 0, retryAfterSeconds: 0, resetSeconds: secondsToFull(3, -1, 30_500) })
      expect(secondsToFull(3, -1, 30_500)).toBe(50)
      // refused with 7 s of refill (0.35 token): nothing taken, (3 − 0.35) / 0.05 = 53
      await hold("0.35")
      const refused = await a.run(a.rates.take("held", 3))
      expect(refused.allowed).toBe(false)
      expect(refused.resetSeconds).toBe(secondsToFull(3, 0, 7_000))
      expect(secondsToFull(3, 0, 7_000)).toBe(53)
      // the float state a bucket of 3 reaches after takes at 0, 36 ms and 2 s: 0.1 token less a hair, 58 s from full
      await hold("0.09999999999999987")
      expect((await a.run(a.rates.take("held", 3))).resetSeconds).toBe(secondsToFull(3, 0, 2_000))
      expect(secondsToFull(3, 0, 2_000)).toBe(58)
      // full (a limit lowered below what the bucket holds): one taken leaves 9 of 10, 6 s from full
      await hold("100")
      expect((await a.run(a.rates.take("held", 10))).resetSeconds).toBe(secondsToFull(10, 9))
      expect(secondsToFull(10, 9)).toBe(6)
    } finally {
      await a.close()
    }
  })

  test("a bucket is kept only until it would be full again", async () => {
    const a = await instance()
    try {
      await a.run(a.rates.take("ttl-3", 3))
      // one token used of 3 a minute: full again in 20 s (+1 s margin)
      const ttl = Number(await redis.client.send("PTTL", [`${redis.prefix}rate:ttl-3`]))
      expect(ttl).toBeGreaterThan(20_000)
      expect(ttl).toBeLessThanOrEqual(21_000)
      expect(await redis.client.send("HGET", [`${redis.prefix}rate:ttl-3`, "tokens"])).toBe("2")
    } finally {
      await a.close()
    }
  })
})

describe("requests in flight, shared", () => {
  test("at most max over two instances; given back on success, failure and interruption", async () => {
    const [a, b] = [await instance(), await instance()]
    try {
      const hold = await Effect.runPromise(Deferred.make<void>())
      const holding = [a, b].map((i) => Effect.runFork(i.inFlight.withSlot("k2", 2, Deferred.await(hold))))
      const set = `${redis.prefix}inflight:k2`
      for (let t = 0; t < 100 && Number(await redis.client.send("ZCARD", [set])) < 2; t++) await Bun.sleep(10)
      expect(Number(await redis.client.send("ZCARD", [set]))).toBe(2)
      expect(await a.run(a.inFlight.count("k2"))).toBe(2)
      for (const i of [a, b]) {
        const refused = await i.run(Effect.either(i.inFlight.withSlot("k2", 2, Effect.succeed("ran"))))
        expect(Either.isLeft(refused) && refused.left._tag).toBe("InFlightFull")
      }
      // a key with a higher limit is another set
      expect(await a.run(a.inFlight.withSlot("k3", 3, Effect.succeed("ran")))).toBe("ran")
      await Effect.runPromise(Deferred.succeed(hold, undefined))
      for (const f of holding) await Effect.runPromise(Fiber.join(f))
      expect(Number(await redis.client.send("ZCARD", [set]))).toBe(0)
      // failure and interruption give the slot back too
      expect(Either.isLeft(await a.run(Effect.either(a.inFlight.withSlot("k1", 1, Effect.fail("boom")))))).toBe(true)
      const stuck = Effect.runFork(b.inFlight.withSlot("k1", 1, Effect.never))
      for (let t = 0; t < 100 && (await b.run(b.inFlight.held)) === 0; t++) await Bun.sleep(10)
      expect(Either.isLeft(await a.run(Effect.either(a.inFlight.withSlot("k1", 1, Effect.void))))).toBe(true)
      await Effect.runPromise(Fiber.interrupt(stuck))
      expect(await a.run(a.inFlight.withSlot("k1", 1, Effect.succeed("ran")))).toBe("ran")
      expect(await b.run(b.inFlight.held)).toBe(0)
    } finally {
      await a.close()
      await b.close()
    }
  })

  test("a lease is renewed while its request runs, and a holder's lease that is not renewed expires", async () => {
    const [a, b] = [await instance({ leaseMs: 300 }), await instance({ leaseMs: 300 })]
    try {
      const hold = await Effect.runPromise(Deferred.make<void>())
      const long = Effect.runFork(a.inFlight.withSlot("lease", 1, Deferred.await(hold)))
      await Bun.sleep(900)
      // three leases long: still held, renewed every 100 ms
      expect(Either.isLeft(await b.run(Effect.either(b.inFlight.withSlot("lease", 1, Effect.void))))).toBe(true)
      await Effect.runPromise(Deferred.succeed(hold, undefined))
      await Effect.runPromise(Fiber.join(long))
      expect(await b.run(b.inFlight.withSlot("lease", 1, Effect.succeed("ran")))).toBe("ran")

      // a holder that vanished: its lease (300 ms) is never renewed nor removed
      const set = `${redis.prefix}inflight:gone`
      const time = (await redis.client.send("TIME", [])) as [string, string]
      const now = Number(time[0]) * 1000 + Math.floor(Number(time[1]) / 1000)
      await redis.client.send("ZADD", [set, String(now + 300), "crashed-instance:1"])
      expect(Either.isLeft(await b.run(Effect.either(b.inFlight.withSlot("gone", 1, Effect.void))))).toBe(true)
      await Bun.sleep(350)
      expect(await b.run(b.inFlight.withSlot("gone", 1, Effect.succeed("ran")))).toBe("ran")
    } finally {
      await a.close()
      await b.close()
    }
  })

  test("closing an instance removes the leases it still holds", async () => {
    const a = await instance()
    const fiber = Effect.runFork(a.inFlight.withSlot("closing", 2, Effect.never))
    const set = `${redis.prefix}inflight:closing`
    for (let t = 0; t < 100 && Number(await redis.client.send("ZCARD", [set])) === 0; t++) await Bun.sleep(10)
    expect(Number(await redis.client.send("ZCARD", [set]))).toBe(1)
    await a.close()
    expect(Number(await redis.client.send("ZCARD", [set]))).toBe(0)
    await Effect.runPromise(Fiber.interrupt(fiber))
  })
})

describe("Redis unreachable: decided in process (open) or refused (closed), never a hang", () => {
  test("nothing listening, open: each decision in process, at once; the limit still holds per instance", async () => {
    const a = await instance({ url: Redacted.make(`redis://127.0.0.1:${closedPort()}`) })
    try {
      const before = await fallbacks()
      const started = performance.now()
      const decisions = [] as boolean[]
      for (let i = 0; i < 3; i++) decisions.push((await a.run(a.rates.take("offline", 2))).allowed)
      expect(performance.now() - started).toBeLessThan(300)
      expect(decisions).toEqual([true, true, false])
      expect(a.store.reachable()).toBe(false)
      expect((await fallbacks()) - before).toBe(3)
      expect(await a.run(a.inFlight.withSlot("offline", 1, Effect.succeed("local slot")))).toBe("local slot")
    } finally {
      await a.close()
    }
  })

  test("a Redis that accepts connections and never answers: decided in process at once", async () => {
    const hole = blackHole()
    const started = performance.now()
    const a = await instance({ url: Redacted.make(`redis://127.0.0.1:${hole.port}`), timeoutMs: 150 })
    try {
      expect((await a.run(a.rates.take("hole", 5))).remaining).toBe(4)
      expect(performance.now() - started).toBeLessThan(500)
      expect(a.store.reachable()).toBe(false)
    } finally {
      await a.close()
      hole.stop()
    }
  })

  test("a Redis that stops answering mid-way: one call waits REDIS_TIMEOUT_MS, the next ones do not wait; shared again when it answers", async () => {
    const port = closedPort()
    const server = Bun.spawn(["redis-server", "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdout: "ignore", stderr: "ignore" })
    try {
      await Bun.sleep(200)
      const a = await instance({ url: Redacted.make(`redis://127.0.0.1:${port}`), timeoutMs: 150 })
      try {
        expect((await a.run(a.rates.take("stopped", 5))).remaining).toBe(4)
        process.kill(server.pid, "SIGSTOP")
        let started = performance.now()
        // in process: a fresh local bucket
        expect((await a.run(a.rates.take("stopped", 5))).remaining).toBe(4)
        const first = performance.now() - started
        expect(first).toBeGreaterThanOrEqual(140)
        expect(first).toBeLessThan(600)
        started = performance.now()
        expect((await a.run(a.rates.take("stopped", 5))).remaining).toBe(3)
        expect(performance.now() - started).toBeLessThan(50)
        process.kill(server.pid, "SIGCONT")
        await Bun.sleep(1_050)
        // Redis kept its bucket, and ran the call that timed out once it could (one token):
        // a late call errs on the side of counting. 2 left after this one.
        expect((await a.run(a.rates.take("stopped", 5))).remaining).toBe(2)
        expect(a.store.reachable()).toBe(true)
      } finally {
        await a.close()
      }
    } finally {
      process.kill(server.pid, "SIGCONT")
      server.kill(9)
      await server.exited
    }
  })

  test("closed: refused with LimitStoreUnavailable", async () => {
    const a = await instance({ url: Redacted.make(`redis://127.0.0.1:${closedPort()}`), onFailure: "closed" })
    try {
      const rate = await a.run(Effect.either(a.rates.take("k", 10)))
      expect(Either.isLeft(rate) && rate.left._tag).toBe("LimitStoreUnavailable")
      const slot = await a.run(Effect.either(a.inFlight.withSlot("k", 1, Effect.succeed("ran"))))
      expect(Either.isLeft(slot) && slot.left._tag).toBe("LimitStoreUnavailable")
    } finally {
      await a.close()
    }
  })

  test("Redis killed and restarted: decisions in process meanwhile, shared again once it answers", async () => {
    const port = closedPort()
    const start = () => Bun.spawn(["redis-server", "--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], { stdout: "ignore", stderr: "ignore" })
    let server = start()
    try {
      await Bun.sleep(200)
      const a = await instance({ url: Redacted.make(`redis://127.0.0.1:${port}`), timeoutMs: 200 })
      try {
        expect((await a.run(a.rates.take("restart", 100))).remaining).toBe(99)
        expect(a.store.reachable()).toBe(true)
        server.kill(9)
        await server.exited
        // in process now: a fresh local bucket
        expect((await a.run(a.rates.take("restart", 100))).remaining).toBe(99)
        expect(a.store.reachable()).toBe(false)
        server = start()
        let shared = false
        for (let t = 0; t < 40 && !shared; t++) {
          await Bun.sleep(100)
          await a.run(a.rates.take("restart-probe", 100))
          shared = a.store.reachable()
        }
        expect(shared).toBe(true)
        // the new server starts empty: the bucket is in Redis again
        expect((await a.run(a.rates.take("restart", 100))).remaining).toBe(99)
        expect((await a.run(a.rates.take("restart", 100))).remaining).toBe(98)
      } finally {
        await a.close()
      }
    } finally {
      server.kill(9)
      await server.exited
    }
  })
})

describe("at the edge", () => {
  const hungApi = async (mode: "open" | "closed") => {
    const hole = blackHole()
    const api = await startTestApi({
      env: { REDIS_URL: `redis://127.0.0.1:${hole.port}`, REDIS_PREFIX: redis.prefix, REDIS_TIMEOUT_MS: "200", LIMITS_ON_REDIS_FAILURE: mode },
    })
    return { api, hole }
  }

  test("Redis answering: X-RateLimit-Reset from the shared bucket, on 200 and on 429", async () => {
    const api = await startTestApi({ env: { REDIS_URL, REDIS_PREFIX: redis.prefix } })
    try {
      const { key, id } = await api.newKey({ rpm: 60 })
      for (let n = 1; n <= 3; n++) {
        const a = await post(api, "/api/v1/quote", quoteBody(), { "x-api-key": key })
        expect(a.status).toBe(200)
        expect(a.headers.get("x-ratelimit-remaining")).toBe(String(60 - n))
        expect(a.headers.get("x-ratelimit-reset")).toBe(String(await storedSecondsToFull(id, 60)))
        // n requests within a second on 60 a minute: ceil(n / (60 / 60)) = n
        expect(a.headers.get("x-ratelimit-reset")).toBe(String(Math.ceil(n / (60 / 60))))
      }
      const one = await api.newKey({ rpm: 1 })
      expect((await post(api, "/api/v1/quote", quoteBody(), { "x-api-key": one.key })).headers.get("x-ratelimit-reset")).toBe("60")
      const limited = await post(api, "/api/v1/quote", quoteBody(), { "x-api-key": one.key })
      expectError(limited, 429, "RATE_LIMITED")
      expect(limited.headers.get("x-ratelimit-reset")).toBe(String(await storedSecondsToFull(one.id, 1)))
      expect(limited.headers.get("x-ratelimit-reset")).toBe("60")
    } finally {
      await api.close()
    }
  })

  test("Redis hung, open (the default): answered 200 within the time limit, limits from this instance", async () => {
    const { api, hole } = await hungApi("open")
    try {
      const { key } = await api.newKey({ rpm: 2 })
      const started = performance.now()
      const statuses = [] as number[]
      for (let i = 0; i < 3; i++) statuses.push((await post(api, "/api/v1/quote", quoteBody(), { "x-api-key": key })).status)
      expect(performance.now() - started).toBeLessThan(2_000)
      expect(statuses).toEqual([200, 200, 429])
    } finally {
      await api.close()
      hole.stop()
    }
  })

  test("Redis hung, closed: 503 UNAVAILABLE with Retry-After, within the time limit", async () => {
    const { api, hole } = await hungApi("closed")
    try {
      const { key } = await api.newKey()
      const started = performance.now()
      const a = await post(api, "/api/v1/quote", quoteBody(), { "x-api-key": key })
      expect(performance.now() - started).toBeLessThan(1_500)
      expectError(a, 503, "UNAVAILABLE", "routing is briefly unavailable")
      expect(a.headers.get("retry-after")).toBe("1")
      // a bad key: the per-IP limit is shared too, and refused the same way
      expectError(await post(api, "/api/v1/quote", quoteBody(), { "x-api-key": "nope" }), 503, "UNAVAILABLE")
    } finally {
      await api.close()
      hole.stop()
    }
  })
})


