// Answers kept per key for a while, each computed once: a key asked again
// answers its kept value at once; concurrent first askings of a key share one
// computation; one that fails, or whose answer says it should not be kept (a
// token not yet verified), is made again next time; past the capacity the
// oldest kept goes first. A request's token pair's checks, a token's metadata,
// routability and permit domain, and its storage slots are kept so.
//
// Effect's Cache did this; a hit through it cost ~3.4 µs, ~6 KB of allocation and
// ~15 Effect steps, a fifth of a fresh /quote's program in process and a tenth
// of a /swap's steps. Here a hit is a Map look-up and Effect.succeed.
import { Deferred, Effect, Exit, FiberId } from "effect"

export interface KeptAnswersOptions<A> {
  /** answers kept at most; the oldest kept goes first */
  readonly capacity: number
  /** how long an answer is kept, ms (Infinity: until the capacity lets it go) */
  readonly ttlMs: number
  /** whether an answer may be kept (every one when not given) */
  readonly keep?: (answer: A) => boolean
  /** the clock, ms (performance.now when not given) */
  readonly now?: () => number
}

export interface KeptAnswers<A, E> {
  /** the kept answer of `key`, or `check` run once for every concurrent asker of `key` */
  readonly get: (key: string, check: () => Effect.Effect<A, E>) => Effect.Effect<A, E>
}

interface Kept<A> {
  readonly value: A
  readonly until: number
}

export const makeKeptAnswers = <A, E>(options: KeptAnswersOptions<A>): KeptAnswers<A, E> => {
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
          if (Exit.isSuccess(exit) && (options.keep === undefined || options.keep(exit.value))) {
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
