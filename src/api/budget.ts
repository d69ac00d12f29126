// A time budget for a program: 504 TIMEOUT when it runs past `ms`.
//
// Effect.timeout forks the program and a sleeping fiber and races them: about
// 20 µs per request here, a large share of the edge's cost. This runs the program
// on its own fiber started synchronously, with the request fiber's context and
// log annotations (the request id among them); a program that finishes without
// waiting (a quote from the World in memory) costs one fiber and no timer, and
// one that waits gets one timer. Interrupting the caller interrupts the program.
// `then` continues with the answer in the same step when the program finished at once.
import { Effect, Exit, FiberId, Runtime } from "effect"

export const withBudget = <A, E, E2, B, E3>(
  self: Effect.Effect<A, E>,
  ms: number,
  onTimeout: () => E2,
  then: (a: A) => Effect.Effect<B, E3>,
): Effect.Effect<B, E | E2 | E3> =>
  Effect.withFiberRuntime((parent, status) => {
    const runtime = Runtime.make({ context: parent.currentContext, fiberRefs: parent.getFiberRefs(), runtimeFlags: status.runtimeFlags })
    const fiber = Runtime.runFork(runtime, self, { immediate: true })
    const finished = fiber.unsafePoll()
    if (finished !== null) return Exit.isSuccess(finished) ? then(finished.value) : Effect.failCause(finished.cause)
    const budgeted = Effect.async<A, E | E2>((resume) => {
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
    return Effect.flatMap(budgeted, then)
  })
