// Token buckets (requests per minute per key or IP) and in-flight slots, on a test clock.
import { describe, expect, test } from "bun:test"
import { Deferred, Effect, Exit, Fiber, TestClock, TestContext, type Scope } from "effect"
import { makeInFlight, makeTokenBuckets } from "../../src/access/index.ts"

const run = <A, E>(effect: Effect.Effect<A, E, Scope.Scope>) =>
  Effect.runPromise(Effect.scoped(effect).pipe(Effect.provide(TestContext.TestContext)))

/**
 * The bucket's seconds to full, ceil((capacity − tokens) / (capacity / 60 a second)),
 * in exact integers: the bucket holds `whole` tokens plus what `refilledMs` of refill gave.
 */
const secondsToFull = (capacity: number, whole: number, refilledMs = 0) =>
  Math.ceil((60_000 * (capacity - whole) - refilledMs * capacity) / (1_000 * capacity))

describe("token buckets", () => {
  test("60 a minute: a burst of 60, then one a second", () =>
    run(Effect.gen(function* () {
      const buckets = yield* makeTokenBuckets()
      const remaining: number[] = []
      for (let i = 0; i < 60; i++) {
        const d = yield* buckets.take("key", 60)
        expect(d.allowed).toBe(true)
        expect(d.limit).toBe(60)
        remaining.push(d.remaining)
      }
      expect(remaining).toEqual(Array.from({ length: 60 }, (_, i) => 59 - i))
      expect(yield* buckets.take("key", 60)).toEqual({ allowed: false, limit: 60, remaining: 0, retryAfterSeconds: 1, resetSeconds: 60 })
      yield* TestClock.adjust("999 millis")
      expect((yield* buckets.take("key", 60)).allowed).toBe(false)
      yield* TestClock.adjust("1 millis")
      expect(yield* buckets.take("key", 60)).toEqual({ allowed: true, limit: 60, remaining: 0, retryAfterSeconds: 0, resetSeconds: 60 })
      yield* TestClock.adjust("60 seconds")
      expect((yield* buckets.take("key", 60)).remaining).toBe(59)
    })))

  test("Retry-After is the whole seconds until the next token", () =>
    run(Effect.gen(function* () {
      const buckets = yield* makeTokenBuckets()
      expect((yield* buckets.take("k", 1)).allowed).toBe(true)
      expect((yield* buckets.take("k", 1)).retryAfterSeconds).toBe(60)
      yield* TestClock.adjust("58500 millis")
      // 1.5 s left → 2
      expect((yield* buckets.take("k", 1)).retryAfterSeconds).toBe(2)
      yield* TestClock.adjust("1500 millis")
      expect((yield* buckets.take("k", 1)).allowed).toBe(true)
      // 3 a minute: a token every 20 s
      for (let i = 0; i < 3; i++) expect((yield* buckets.take("three", 3)).allowed).toBe(true)
      expect((yield* buckets.take("three", 3)).retryAfterSeconds).toBe(20)
    })))

  test("X-RateLimit-Reset: whole seconds until the bucket is full again, this request counted", () =>
    run(Effect.gen(function* () {
      const buckets = yield* makeTokenBuckets()
      // 60 a minute, one back a second: after n requests in a burst, n seconds
      for (let n = 1; n <= 60; n++) expect((yield* buckets.take("sixty", 60)).resetSeconds).toBe(secondsToFull(60, 60 - n))
      expect(secondsToFull(60, 0)).toBe(60)
      // refused: the bucket is as it was (0 tokens, plus what 999 ms gave back)
      expect((yield* buckets.take("sixty", 60)).resetSeconds).toBe(60)
      yield* TestClock.adjust("999 millis")
      expect((yield* buckets.take("sixty", 60)).resetSeconds).toBe(secondsToFull(60, 0, 999))
      // part of a second rounds up: 2.5 s of refill since it was empty, one taken: 1.5 tokens, 58.5 s → 59
      yield* TestClock.adjust("1501 millis")
      expect((yield* buckets.take("sixty", 60)).resetSeconds).toBe(secondsToFull(60, -1, 2_500))
      expect(secondsToFull(60, -1, 2_500)).toBe(59)

      // 3 a minute, a token every 20 s
      expect((yield* buckets.take("three", 3)).resetSeconds).toBe(secondsToFull(3, 2))
      expect(secondsToFull(3, 2)).toBe(20)
      // taken at 0, 36 ms and 2 s: 0 whole tokens and 2 s of refill (0.1 token) left, 58 s from full;
      // the float sum of those refills is a hair under 0.1, and the answer is still 58
      yield* TestClock.adjust("36 millis")
      yield* buckets.take("three", 3)
      yield* TestClock.adjust("1964 millis")
      const third = yield* buckets.take("three", 3)
      expect(third.allowed).toBe(true)
      expect(third.resetSeconds).toBe(secondsToFull(3, 0, 2_000))
      expect(secondsToFull(3, 0, 2_000)).toBe(58)
      // refused 7 s later: 0.45 token, (3 − 0.45) / 0.05 = 51 s
      yield* TestClock.adjust("7 seconds")
      const refused = yield* buckets.take("three", 3)
      expect(refused.allowed).toBe(false)
      expect(refused.resetSeconds).toBe(secondsToFull(3, 0, 9_000))
      expect(secondsToFull(3, 0, 9_000)).toBe(51)
      // full again a minute after the first request: the next one leaves 2 tokens, 20 s from full
      yield* TestClock.adjust("51 seconds")
      expect((yield* buckets.take("three", 3)).resetSeconds).toBe(secondsToFull(3, 2))

      // a lowered limit: capacity and rate are the new ones
      yield* buckets.take("lowered", 100)
      expect((yield* buckets.take("lowered", 10)).resetSeconds).toBe(secondsToFull(10, 9))
      expect(secondsToFull(10, 9)).toBe(6)
    })))

  test("keys are independent; refused requests do not use tokens", () =>
    run(Effect.gen(function* () {
      const buckets = yield* makeTokenBuckets()
      expect((yield* buckets.take("a", 1)).allowed).toBe(true)
      for (let i = 0; i < 5; i++) expect((yield* buckets.take("a", 1)).allowed).toBe(false)
      expect((yield* buckets.take("b", 1)).allowed).toBe(true)
      yield* TestClock.adjust("60 seconds")
      expect((yield* buckets.take("a", 1)).allowed).toBe(true)
    })))

  test("a limit raised or lowered applies at once, capped at the new capacity", () =>
    run(Effect.gen(function* () {
      const buckets = yield* makeTokenBuckets()
      expect((yield* buckets.take("k", 100)).remaining).toBe(99)
      expect((yield* buckets.take("k", 10)).remaining).toBe(9)
    })))

  test("idle keys are dropped once their bucket is full again, by the sweeper", () =>
    run(Effect.gen(function* () {
      const buckets = yield* makeTokenBuckets("1 minute")
      yield* buckets.take("a", 60)
      yield* buckets.take("b", 2)
      expect(yield* buckets.size).toBe(2)
      yield* buckets.sweep
      expect(yield* buckets.size).toBe(2)
      yield* TestClock.adjust("2 seconds")
      yield* buckets.sweep
      // "a" refilled its one token in a second; "b" needs 30 s
      expect(yield* buckets.size).toBe(1)
      yield* TestClock.adjust("1 minute")
      // the scheduled sweep ran
      expect(yield* buckets.size).toBe(0)
    })))
})

describe("in-flight slots", () => {
  test("at most max at once; a slot is given back on success, failure and interruption", () =>
    run(Effect.gen(function* () {
      const slots = makeInFlight()
      const latch = yield* Deferred.make<void>()
      const a = yield* Effect.fork(slots.withSlot("k", 2, Deferred.await(latch)))
      const b = yield* Effect.fork(slots.withSlot("k", 2, Deferred.await(latch)))
      yield* Effect.yieldNow()
      expect(yield* slots.count("k")).toBe(2)
      const third = yield* Effect.exit(slots.withSlot("k", 2, Effect.void))
      expect(Exit.isFailure(third) && third.cause._tag === "Fail" && third.cause.error._tag === "InFlightFull" && third.cause.error.max === 2).toBe(true)
      // another key has its own slots
      expect(yield* slots.withSlot("other", 2, Effect.succeed("ok"))).toBe("ok")
      yield* Fiber.interrupt(a)
      expect(yield* slots.count("k")).toBe(1)
      yield* Deferred.succeed(latch, undefined)
      yield* Fiber.join(b)
      expect(yield* slots.count("k")).toBe(0)
      yield* Effect.exit(slots.withSlot("k", 2, Effect.fail("boom")))
      yield* Effect.exit(slots.withSlot("k", 2, Effect.die("bug")))
      expect(yield* slots.count("k")).toBe(0)
      // nothing held: no entries kept
      expect(yield* slots.size).toBe(0)
    })))
})
