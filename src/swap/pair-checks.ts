// The checks of a request's token pair (each token normalized, its routability
// probed against the pools that hold it), kept per pair for a while: a pair
// asked again answers its kept check at once; concurrent first askings of a
// pair share one check; a check that fails, or whose answer says it should not
// be kept (a token not yet verified), is made again next time.
//
// Effect's Cache did this; a hit through it cost ~3.4 µs and ~6 KB of
// allocation per /quote, a fifth of a fresh /quote's program in process. Here a
// hit is a Map look-up and Effect.succeed.
import { Deferred, Effect, Exit, FiberId } from "effect"

export interface PairChecksOptions<A> {
  /** pairs kept at most; the oldest kept goes first */
  readonly capacity: number
  /** how long a check is kept, ms */
  readonly ttlMs: number
  /** whether a successful check may be kept */
  readonly keep: (checked: A) => boolean
  /** the clock, ms (performance.now when not given) */
  readonly now?: () => number
}

export interface PairChecks<A, E> {
  /** the kept check of `key`, or `check` run once for every concurrent asker of `key` */
  readonly get: (key: string, check: () => Effect.Effect<A, E>) => Effect.Effect<A, E>
}

interface Kept<A> {
  readonly value: A
  readonly until: number
}

export const makePairChecks = <A, E>(options: PairChecksOptions<A>): PairChecks<A, E> => {
  const now = options.now ?? (() => performance.now())
  const kept = new Map<string, Kept<A>>()
  // checks under way, each with the askers waiting for it (an interrupted check wakes them to check themselves)
  const running = new Map<string, Deferred.Deferred<Exit.Exit<A, E>>>()

  const keptValue = (key: string): A | undefined => {
    const hit = kept.get(key)
    if (hit === undefined) return undefined
    if (hit.until > now()) return hit.value
    kept.delete(key)
    return undefined
  }

  // when it runs: the check may have been kept or started since the effect was made
  const miss = (key: string, check: () => Effect.Effect<A, E>): Effect.Effect<A, E> => {
    const value = keptValue(key)
    if (value !== undefined) return Effect.succeed(value)
    const underWay = running.get(key)
    if (underWay !== undefined) {
      return Effect.flatMap(Deferred.await(underWay), (exit) => (Exit.isInterrupted(exit) ? miss(key, check) : exit))
    }
    // the check is registered and its end hook set in one uninterruptible step: a check under way always ends
    return Effect.uninterruptibleMask((restore) => {
      const done = Deferred.unsafeMake<Exit.Exit<A, E>>(FiberId.none)
      running.set(key, done)
      return Effect.onExit(restore(Effect.suspend(check)), (exit) =>
        Effect.sync(() => {
          running.delete(key)
          if (Exit.isSuccess(exit) && options.keep(exit.value)) {
            if (kept.size >= options.capacity) kept.delete(kept.keys().next().value!)
            kept.set(key, { value: exit.value, until: now() + options.ttlMs })
          }
          Deferred.unsafeDone(done, Effect.succeed(exit))
        }),
      )
    })
  }

  const get = (key: string, check: () => Effect.Effect<A, E>): Effect.Effect<A, E> => {
    const value = keptValue(key)
    return value !== undefined ? Effect.succeed(value) : Effect.suspend(() => miss(key, check))
  }

  return { get }
}
