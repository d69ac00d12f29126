// The program budget's deadlines: programs that finish leave (at once when no
// running program was started before them), a program past its budget has its
// fiber interrupted with the Timeout noted on its exchange, at its own deadline,
// however many finished before it. (504 TIMEOUT over HTTP: limits.test.ts.)
import { describe, expect, test } from "bun:test"
import { Effect, Exit, Fiber } from "effect"
import { makeBudget, withBudget } from "../../src/api/budget.ts"
import type { Exchange } from "../../src/api/respond.ts"
import { Timeout } from "../../src/swap/index.ts"

const exchange = (): Exchange => ({ requestId: "r", rate: undefined, code: "OK" })
const timeout = () => new Timeout({ detail: "over budget" })
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe("a budget's deadlines", () => {
  test("a program past its budget is interrupted at its deadline, with the Timeout on its exchange", async () => {
    const budget = makeBudget(80, timeout)
    const x = exchange()
    const started = performance.now()
    const fiber = Effect.runFork(withBudget(Effect.never, budget, x, Effect.succeed))
    const exit = await Effect.runPromise(Fiber.await(fiber))
    const took = performance.now() - started
    expect(Exit.isInterrupted(exit)).toBe(true)
    expect(x.timedOut).toBeInstanceOf(Timeout)
    expect(took).toBeGreaterThanOrEqual(75)
    expect(took).toBeLessThan(1_000)
    expect(budget.pending()).toBe(0)
  })

  test("programs that finish leave at once: only the one still running is interrupted, at its own time", async () => {
    const budget = makeBudget(100, timeout)
    // 5,000 programs that answer at once, each setting its deadline and leaving with its answer
    const finished = Array.from({ length: 5_000 }, () => exchange())
    for (const x of finished) {
      expect(Effect.runSync(withBudget(Effect.succeed(1), budget, x, (n) => Effect.succeed(n + 1)))).toBe(2)
      expect(budget.pending()).toBe(0)
    }
    await sleep(40)
    // one that waits, started 40 ms later: its deadline is 100 ms after its own start
    const slow = exchange()
    const started = performance.now()
    const fiber = Effect.runFork(withBudget(Effect.never, budget, slow, Effect.succeed))
    // one that waits less than its budget
    const quick = exchange()
    const answered = Effect.runFork(withBudget(Effect.as(Effect.sleep("30 millis"), "ok"), budget, quick, Effect.succeed))
    expect(await Effect.runPromise(Fiber.join(answered))).toBe("ok")
    const exit = await Effect.runPromise(Fiber.await(fiber))
    const took = performance.now() - started
    expect(Exit.isInterrupted(exit)).toBe(true)
    expect(took).toBeGreaterThanOrEqual(95)
    expect(slow.timedOut).toBeInstanceOf(Timeout)
    expect(quick.timedOut).toBeUndefined()
    for (const x of finished) expect(x.timedOut).toBeUndefined()
    // the queue is emptied once no deadline is left
    expect(budget.pending()).toBe(0)
  })

  test("a program that fails passes its failure on and leaves nothing to fall due", async () => {
    const budget = makeBudget(50, timeout)
    const x = exchange()
    const exit = Effect.runSyncExit(withBudget(Effect.fail("no route"), budget, x, Effect.succeed))
    expect(exit).toEqual(Exit.fail("no route"))
    await sleep(80)
    expect(x.timedOut).toBeUndefined()
    expect(budget.pending()).toBe(0)
  })

  test("programs finishing behind one still running stay queued until it leaves, then go with it", async () => {
    const budget = makeBudget(60, timeout)
    const slow = exchange()
    const fiber = Effect.runFork(withBudget(Effect.never, budget, slow, Effect.succeed))
    await sleep(5)
    const behind = Array.from({ length: 100 }, () => exchange())
    for (const x of behind) Effect.runSync(withBudget(Effect.succeed(1), budget, x, Effect.succeed))
    expect(budget.pending()).toBe(101)
    const exit = await Effect.runPromise(Fiber.await(fiber))
    expect(Exit.isInterrupted(exit)).toBe(true)
    expect(slow.timedOut).toBeInstanceOf(Timeout)
    for (const x of behind) expect(x.timedOut).toBeUndefined()
    expect(budget.pending()).toBe(0)
  })
})
