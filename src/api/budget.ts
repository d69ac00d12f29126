// A time budget for a program: 504 TIMEOUT when it runs past `ms`.
//
// Effect.timeout forks the program and a sleeping fiber and races them: about
// 20 µs per request here, a large share of the edge's cost. This runs the program
// on its own fiber started synchronously; a program that finishes without
// waiting (a quote from an in-memory snapshot) costs one fiber and no timer, and
// one that waits gets one timer. Interrupting the caller interrupts the program.
import { Effect, FiberId, Runtime } from "effect"

export const makeBudgetRunner = <R>(runtime: Runtime.Runtime<R>) => {
  const fork = Runtime.runFork(runtime)
  return <A, E, E2>(self: Effect.Effect<A, E, R>, ms: number, onTimeout: () => E2): Effect.Effect<A, E | E2> =>
    Effect.suspend(() => {
      const fiber = fork(self, { immediate: true })
      const finished = fiber.unsafePoll()
      if (finished !== null) return finished
      return Effect.async<A, E | E2>((resume) => {
        let settled = false
        const timer = setTimeout(() => {
          if (settled) return
          settled = true
          fiber.unsafeInterruptAsFork(FiberId.none)
          resume(Effect.fail(onTimeout()))
        }, ms)
        fiber.addObserver((exit) => {
          if (settled) return
          settled = true
          clearTimeout(timer)
          resume(exit)
        })
        // the request itself was interrupted (client gone, server stopping)
        return Effect.sync(() => {
          settled = true
          clearTimeout(timer)
          fiber.unsafeInterruptAsFork(FiberId.none)
        })
      })
    })
}
