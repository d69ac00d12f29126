// A circuit breaker per external source: after `failureThreshold` failures in a
// row the source is not asked for `cooldownMs`; then one call goes through as a
// probe (others are still refused) and its outcome closes or reopens the circuit.
import { Clock, Effect, Exit } from "effect"

export interface CircuitBreakerOptions {
  /** consecutive failures that open the circuit */
  readonly failureThreshold: number
  /** how long an open circuit refuses calls before one probe */
  readonly cooldownMs: number
}

export type CircuitState = "closed" | "open" | "half-open"

type Internal =
  | { readonly tag: "closed"; readonly failures: number }
  | { readonly tag: "open"; readonly until: number }
  | { readonly tag: "half-open" }

export interface CircuitBreaker {
  readonly state: Effect.Effect<CircuitState>
  /**
   * Runs `self` when the circuit lets it: a success closes the circuit, a failure counts (and
   * reopens it from half-open); when the circuit is open, fails with `onOpen()` without running.
   */
  readonly protect: <A, E, R, E2>(self: Effect.Effect<A, E, R>, onOpen: () => E2) => Effect.Effect<A, E | E2, R>
  /** counts a failure found after the call (a route the simulation refused, say) */
  readonly recordFailure: Effect.Effect<void>
}

export const makeCircuitBreaker = (options: CircuitBreakerOptions): CircuitBreaker => {
  const threshold = Math.max(1, options.failureThreshold)
  let state: Internal = { tag: "closed", failures: 0 }

  const failed = (now: number) => {
    if (state.tag === "half-open") state = { tag: "open", until: now + options.cooldownMs }
    else if (state.tag === "closed") {
      const failures = state.failures + 1
      state = failures >= threshold ? { tag: "open", until: now + options.cooldownMs } : { tag: "closed", failures }
    }
  }

  const stateAt = (now: number): CircuitState =>
    state.tag === "open" ? (now >= state.until ? "half-open" : "open") : state.tag === "half-open" ? "half-open" : "closed"

  return {
    state: Effect.map(Clock.currentTimeMillis, stateAt),
    recordFailure: Effect.flatMap(Clock.currentTimeMillis, (now) => Effect.sync(() => failed(now))),
    protect: <A, E, R, E2>(self: Effect.Effect<A, E, R>, onOpen: () => E2) =>
      Effect.flatMap(Clock.currentTimeMillis, (now): Effect.Effect<A, E | E2, R> => {
        if (state.tag === "half-open" || (state.tag === "open" && now < state.until)) return Effect.fail(onOpen())
        const probe = state.tag === "open"
        if (probe) state = { tag: "half-open" }
        return self.pipe(
          Effect.onExit((exit) =>
            Effect.flatMap(Clock.currentTimeMillis, (end) =>
              Effect.sync(() => {
                if (Exit.isSuccess(exit)) state = { tag: "closed", failures: 0 }
                else if (Exit.isInterrupted(exit)) {
                  // the caller went away: an unfinished probe leaves the circuit ready for the next one
                  if (probe && state.tag === "half-open") state = { tag: "open", until: end }
                } else failed(end)
              }),
            ),
          ),
        )
      }),
  }
}
