// A time budget for a program: 504 TIMEOUT when it runs past `ms`.
//
// The program runs on the request's own fiber. Racing it against a timer needs a
// second fiber (Effect.timeout forks the program and a sleeping fiber; running the
// program on a fiber of its own still costs one), and a fiber per request was a
// large share of the edge's cost. Instead a budget that runs out notes its Timeout
// on the request's exchange and interrupts the request's fiber: the program is
// interrupted, the request's slots are given back as on any exit, and the edge
// answers the Timeout from that interruption (edge.ts). The request's fiber is
// uninterruptible outside the edge's own interruptible region (the request runner
// forks it so), so that it can still answer.
//
// The deadlines of one budget are kept in the order they were set (they all run
// for the same time, so that is the order they fall due), behind one timer armed
// for the first that is still running: a program that finishes costs one entry,
// and no timer of its own. Programs mostly finish in the order they started, so
// the finished ones at the front leave the queue as they finish: a deadline is
// not kept for the budget's whole length (kept, every request's would outlive the
// collector's young generation).
import { Effect, FiberId, type Fiber } from "effect"
import type { ApiError } from "./errors.ts"
import type { Exchange } from "./respond.ts"

/** One program's deadline; `fiber` is undefined once the program has finished or the deadline has passed. */
class Deadline {
  constructor(
    readonly at: number,
    public fiber: Fiber.RuntimeFiber<unknown, unknown> | undefined,
    public exchange: Exchange | undefined,
  ) {}
}

export interface Budget {
  /** deadlines set and not yet fallen due or passed over (finished programs behind a running one among them) */
  readonly pending: () => number
  /** sets the deadline of a program running on `fiber` for the request `exchange` */
  readonly start: (fiber: Fiber.RuntimeFiber<unknown, unknown>, exchange: Exchange) => Deadline
  /** the program of `deadline` has finished: its deadline falls due into nothing */
  readonly finish: (deadline: Deadline) => void
}

/** Entries passed over before the queue is compacted (it is also emptied whenever no deadline is left). */
const COMPACT_AFTER = 1_024

/** A budget of `ms` milliseconds; a program past it fails its request with `onTimeout()`. */
export const makeBudget = (ms: number, onTimeout: () => ApiError): Budget => {
  // entries before `head` have left (undefined)
  let queue: Array<Deadline | undefined> = []
  let head = 0
  let timer: ReturnType<typeof setTimeout> | undefined

  /** moves past the finished programs at the front; true when a deadline is left */
  const skipFinished = (): boolean => {
    while (head < queue.length && queue[head]!.fiber === undefined) queue[head++] = undefined
    if (head === queue.length) {
      queue = []
      head = 0
      return false
    }
    if (head >= COMPACT_AFTER && head * 2 >= queue.length) {
      queue = queue.slice(head)
      head = 0
    }
    return true
  }

  const arm = () => {
    // the finished programs at the front need no timer
    if (!skipFinished()) return
    timer = setTimeout(fire, Math.max(0, queue[head]!.at - performance.now()))
    // a budget never holds the process open: the server does, while it has requests
    timer.unref()
  }

  function fire() {
    timer = undefined
    const now = performance.now()
    while (head < queue.length) {
      const deadline = queue[head]!
      const { fiber, exchange } = deadline
      if (fiber !== undefined && deadline.at > now) break
      queue[head++] = undefined
      if (fiber === undefined || exchange === undefined) continue
      deadline.fiber = undefined
      deadline.exchange = undefined
      exchange.timedOut = onTimeout()
      fiber.unsafeInterruptAsFork(FiberId.none)
    }
    arm()
  }

  return {
    pending: () => queue.length - head,
    start: (fiber, exchange) => {
      const deadline = new Deadline(performance.now() + ms, fiber, exchange)
      queue.push(deadline)
      if (timer === undefined) arm()
      return deadline
    },
    finish: (deadline) => {
      deadline.fiber = undefined
      deadline.exchange = undefined
      // an armed timer finds its deadline gone when it fires, and arms for the next
      if (queue[head] === deadline) skipFinished()
    },
  }
}

/**
 * Runs `self` under `budget` on the calling fiber (the request's), then `then` with its answer.
 * Past the budget the request's fiber is interrupted with `exchange.timedOut` set.
 */
export const withBudget = <A, E, B, E2>(
  self: Effect.Effect<A, E>,
  budget: Budget,
  exchange: Exchange,
  then: (a: A) => Effect.Effect<B, E2>,
): Effect.Effect<B, E | E2> =>
  Effect.withFiberRuntime((fiber) => {
    const deadline = budget.start(fiber, exchange)
    // an interrupted program skips these (its fiber is interrupted): its deadline, if still set, falls due into nothing
    return Effect.matchCauseEffect(self, {
      onFailure: (cause) => {
        budget.finish(deadline)
        return Effect.failCause(cause)
      },
      onSuccess: (a) => {
        budget.finish(deadline)
        return then(a)
      },
    })
  })
