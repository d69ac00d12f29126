// requestScheduler: a request's fiber resumed by a promise continues in that
// promise's own callback, not a microtask later; a fiber resumed by another fiber
// waits its turn; a long program still yields to the event loop, without nesting
// its runs.
import { describe, expect, test } from "bun:test"
import { Cause, Deferred, Effect, Exit, type Scheduler } from "effect"
import { requestScheduler } from "../../src/api/request-scheduler.ts"

/** `program` on its own fiber under `scheduler`, its end observed from outside any fiber (as the request runner does) */
const runOn = <A, E>(program: Effect.Effect<A, E>, scheduler: Scheduler.Scheduler = requestScheduler): Promise<A> =>
  new Promise((resolve, reject) => {
    const fiber = Effect.runFork(Effect.withScheduler(program, scheduler))
    fiber.addObserver((exit) => (Exit.isSuccess(exit) ? resolve(exit.value) : reject(Cause.squash(exit.cause))))
  })

describe("a request's fiber resumed", () => {
  test("by a promise: the program goes on in the promise's callback, before a microtask queued after it", async () => {
    const order: string[] = []
    let open!: () => void
    const gate = new Promise<void>((resolve) => (open = resolve))
    const ran = runOn(Effect.promise(() => gate).pipe(Effect.map(() => void order.push("program"))))
    open()
    queueMicrotask(() => void order.push("microtask after"))
    await ran
    expect(order).toEqual(["program", "microtask after"])
  })

  test("by another fiber: it waits for that fiber's run to end", async () => {
    const order: string[] = []
    const done = Effect.runSync(Deferred.make<void>())
    const waiter = runOn(Deferred.await(done).pipe(Effect.map(() => void order.push("waiter"))))
    const opener = runOn(
      Effect.promise(() => Promise.resolve()).pipe(
        Effect.zipRight(Deferred.succeed(done, undefined)),
        Effect.map(() => void order.push("opener's run ends")),
      ),
    )
    await opener
    await waiter
    expect(order).toEqual(["opener's run ends", "waiter"])
  })

  test("a program of 200,000 yields, resumed by a promise: no run nests in another, and a timer set before it fires while it runs", async () => {
    let depth = 0
    let deepest = 0
    let timerFiredAt: number | undefined
    let step = 0
    const yields = 200_000
    setTimeout(() => (timerFiredAt = step), 0)
    const tracked: typeof requestScheduler = {
      scheduleTask: (task, priority, fiber) =>
        requestScheduler.scheduleTask(
          () => {
            depth++
            deepest = Math.max(deepest, depth)
            try {
              task()
            } finally {
              depth--
            }
          },
          priority,
          fiber,
        ),
      shouldYield: requestScheduler.shouldYield,
    }
    const program = Effect.promise(() => Promise.resolve()).pipe(
      Effect.zipRight(Effect.repeatN(Effect.zipRight(Effect.sync(() => void step++), Effect.yieldNow()), yields - 1)),
    )
    await runOn(program, tracked)
    expect(step).toBe(yields)
    expect(deepest).toBe(1)
    expect(timerFiredAt).toBeDefined()
    expect(timerFiredAt!).toBeLessThan(yields)
  })
})
