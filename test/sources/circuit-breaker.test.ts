// The circuit breaker on its own, on a test clock: consecutive failures open
// it, an open circuit refuses without running, one probe after the cooldown
// closes or reopens it, and an abandoned probe does not leave it stuck.
import { expect, test } from "bun:test"
import { Deferred, Effect, Fiber, Ref, TestClock, TestContext } from "effect"
import { makeCircuitBreaker } from "../../src/sources/index.ts"

const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(Effect.provide(effect, TestContext.TestContext))

test("three failures in a row open it; the cooldown lets one probe through; its outcome decides", () =>
  run(
    Effect.gen(function* () {
      const breaker = makeCircuitBreaker({ failureThreshold: 3, cooldownMs: 1_000 })
      const calls = yield* Ref.make(0)
      const ok = breaker.protect(Ref.update(calls, (n) => n + 1), () => "open" as const)
      const bad = breaker.protect(Effect.zipRight(Ref.update(calls, (n) => n + 1), Effect.fail("boom" as const)), () => "open" as const)

      // two failures, then a success: the count starts again
      yield* Effect.flip(bad)
      yield* Effect.flip(bad)
      yield* ok
      expect(yield* breaker.state).toBe("closed")
      yield* Effect.flip(bad)
      yield* Effect.flip(bad)
      expect(yield* breaker.state).toBe("closed")
      expect(yield* Effect.flip(bad)).toBe("boom")
      expect(yield* breaker.state).toBe("open")
      expect(yield* Ref.get(calls)).toBe(6)

      // open: refused without running
      expect(yield* Effect.flip(ok)).toBe("open")
      yield* TestClock.adjust("999 millis")
      expect(yield* Effect.flip(ok)).toBe("open")
      expect(yield* Ref.get(calls)).toBe(6)

      // the cooldown is over: one probe; it fails, so the circuit opens for another cooldown
      yield* TestClock.adjust("1 millis")
      expect(yield* breaker.state).toBe("half-open")
      expect(yield* Effect.flip(bad)).toBe("boom")
      expect(yield* breaker.state).toBe("open")
      expect(yield* Effect.flip(ok)).toBe("open")
      expect(yield* Ref.get(calls)).toBe(7)

      // the next probe succeeds: closed
      yield* TestClock.adjust("1 second")
      yield* ok
      expect(yield* breaker.state).toBe("closed")
      expect(yield* Ref.get(calls)).toBe(8)
    }),
  ))

test("while a probe is in flight every other call is refused; an interrupted probe leaves room for the next", () =>
  run(
    Effect.gen(function* () {
      const breaker = makeCircuitBreaker({ failureThreshold: 1, cooldownMs: 100 })
      yield* Effect.flip(breaker.protect(Effect.fail("boom"), () => "open"))
      yield* TestClock.adjust("100 millis")

      const started = yield* Deferred.make<void>()
      const probe = yield* Effect.fork(breaker.protect(Effect.zipRight(Deferred.succeed(started, undefined), Effect.never), () => "open"))
      yield* Deferred.await(started)
      expect(yield* breaker.state).toBe("half-open")
      expect(yield* Effect.flip(breaker.protect(Effect.succeed(1), () => "open"))).toBe("open")

      // the caller gives up on the probe: the next call probes at once
      yield* Fiber.interrupt(probe)
      expect(yield* breaker.protect(Effect.succeed(2), () => "open")).toBe(2)
      expect(yield* breaker.state).toBe("closed")
    }),
  ))

test("a failure found after the call counts like a failed call", () =>
  run(
    Effect.gen(function* () {
      const breaker = makeCircuitBreaker({ failureThreshold: 2, cooldownMs: 100 })
      yield* breaker.recordFailure
      expect(yield* breaker.state).toBe("closed")
      yield* Effect.flip(breaker.protect(Effect.fail("boom"), () => "open"))
      expect(yield* breaker.state).toBe("open")
    }),
  ))
