// Each request's program on its own fiber, interrupted when its client goes away.
// The fiber is uninterruptible but where the program opens an interruptible region
// (the edge: the request's admission and exchange), so that an interrupted request
// can still answer (504 when its program's budget ran out: budget.ts).
// Bun makes a request's AbortSignal on first use, at a cost (with its listener, ~3%
// of a fresh /quote's CPU in a profile under load); most requests are answered
// within a millisecond, long before a client's leaving could matter. So a request's
// signal is asked for only when it is still running at a sweep, every WATCH_EVERY_MS:
// a client that leaves interrupts its request within that time, and its slots come back.
// A request's fiber, and the fibers it forks, are resumed by requestScheduler.
import { Cause, Effect, Exit, FiberId, FiberRef, FiberRefs, Runtime, RuntimeFlags, type Fiber, type Scope } from "effect"
import { requestScheduler } from "./request-scheduler.ts"

export const WATCH_EVERY_MS = 50

/** Runs requests on `runtime` while the scope lives (the sweep stops with it). */
export const makeRequestRunner = (runtime: Runtime.Runtime<never>): Effect.Effect<(request: Request, self: Effect.Effect<Response>) => Promise<Response>, never, Scope.Scope> =>
  Effect.gen(function* () {
    const uninterruptible = Runtime.make({
      context: runtime.context,
      fiberRefs: FiberRefs.updateAs(runtime.fiberRefs, { fiberId: FiberId.none, fiberRef: FiberRef.currentScheduler, value: requestScheduler }),
      runtimeFlags: RuntimeFlags.disable(runtime.runtimeFlags, RuntimeFlags.Interruption),
    })
    const fork = Runtime.runFork(uninterruptible)
    // requests running whose signal has not been asked for yet
    let unwatched = new Map<Fiber.RuntimeFiber<Response>, Request>()
    const interrupt = (fiber: Fiber.RuntimeFiber<Response>) => () => fiber.unsafeInterruptAsFork(FiberId.none)
    const watch = (fiber: Fiber.RuntimeFiber<Response>, request: Request) => {
      const signal = request.signal
      if (signal.aborted) return interrupt(fiber)()
      const onAbort = interrupt(fiber)
      signal.addEventListener("abort", onAbort, { once: true })
      fiber.addObserver(() => signal.removeEventListener("abort", onAbort))
    }
    const sweep = () => {
      if (unwatched.size === 0) return
      const due = unwatched
      unwatched = new Map()
      for (const [fiber, request] of due) watch(fiber, request)
    }
    yield* Effect.acquireRelease(
      Effect.sync(() => setInterval(sweep, WATCH_EVERY_MS)),
      (timer) => Effect.sync(() => clearInterval(timer)),
    )
    return (request, self) =>
      new Promise<Response>((resolve, reject) => {
        const fiber = fork(self)
        unwatched.set(fiber, request)
        fiber.addObserver((exit) => {
          unwatched.delete(fiber)
          // a defect, or an interruption other than a budget's: Bun's error handler answers 502 INTERNAL
          if (Exit.isSuccess(exit)) resolve(exit.value)
          else reject(Cause.squash(exit.cause))
        })
      })
  })
