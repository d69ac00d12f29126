// Per-key (and per-IP) limits as keyed actors in process memory: each keeps its
// state in a map that only its own operations touch, one synchronous step at a
// time, and drops entries that carry no information (a full bucket, a count of
// zero), so idle keys and addresses cost nothing. These are the default; the
// same shapes over Redis (redis-buckets.ts, redis-leases.ts) share the limits
// between instances.
import { Clock, Context, Data, Duration, Effect, Layer, Schedule } from "effect"

const MINUTE_MS = 60_000

export interface RateDecision {
  readonly allowed: boolean
  /** requests per minute */
  readonly limit: number
  /** requests left now (this one counted) */
  readonly remaining: number
  /** whole seconds until one more request is allowed; 0 when allowed */
  readonly retryAfterSeconds: number
  /** whole seconds, rounded up, until the bucket is full again (this request counted); 0 when full */
  readonly resetSeconds: number
}

/** The shared limit store cannot be reached and the service is set to refuse rather than decide alone. */
export class LimitStoreUnavailable extends Data.TaggedError("LimitStoreUnavailable")<{ readonly message: string }> {}

/** Token buckets per key: `perMinute` tokens of capacity, refilled continuously at `perMinute` a minute. */
export interface TokenBucketsShape {
  /** Takes one token for `key` if there is one. */
  readonly take: (key: string, perMinute: number) => Effect.Effect<RateDecision, LimitStoreUnavailable>
  /** Entries held (for tests and metrics). */
  readonly size: Effect.Effect<number>
  /** Drops the entries whose bucket has refilled completely. */
  readonly sweep: Effect.Effect<void>
}

interface Bucket {
  tokens: number
  at: number
  perMinute: number
}

// one token is 1 − ε so that float refill (x · 60000 / 60000) never falls a hair short
const EPSILON = 1e-9

/**
 * Whole seconds until a bucket of `perMinute` holding `tokens` is full again:
 * ceil((capacity − tokens) / (perMinute / 60 a second)); a whole number of
 * seconds that float arithmetic overshoots by a hair stays that number.
 */
const secondsToFull = (tokens: number, perMinute: number): number =>
  Math.max(0, Math.ceil(((perMinute - tokens) * 60) / perMinute - EPSILON))

/** Token buckets; swept every `sweepEvery` while the scope lives. */
export const makeTokenBuckets = (sweepEvery: Duration.DurationInput = "1 minute") =>
  Effect.gen(function* () {
    const clock = yield* Effect.clock
    const buckets = new Map<string, Bucket>()
    const refill = (bucket: Bucket, now: number, perMinute: number) => {
      const elapsed = Math.max(0, now - bucket.at)
      bucket.tokens = Math.min(perMinute, bucket.tokens + (elapsed * perMinute) / MINUTE_MS)
      bucket.at = now
      bucket.perMinute = perMinute
    }
    // the clock read and the decision in one step (this runs on every request)
    const take = (key: string, perMinute: number): Effect.Effect<RateDecision> =>
      Effect.sync(() => decide(key, perMinute, clock.unsafeCurrentTimeMillis()))
    const decide = (key: string, perMinute: number, now: number): RateDecision => {
      let bucket = buckets.get(key)
      if (bucket === undefined) {
        bucket = { tokens: perMinute, at: now, perMinute }
        buckets.set(key, bucket)
      } else {
        refill(bucket, now, perMinute)
      }
      if (bucket.tokens >= 1 - EPSILON) {
        bucket.tokens = Math.max(0, bucket.tokens - 1)
        const resetSeconds = secondsToFull(bucket.tokens, perMinute)
        return { allowed: true, limit: perMinute, remaining: Math.floor(bucket.tokens + EPSILON), retryAfterSeconds: 0, resetSeconds }
      }
      const waitMs = ((1 - bucket.tokens) * MINUTE_MS) / perMinute
      const resetSeconds = secondsToFull(bucket.tokens, perMinute)
      return { allowed: false, limit: perMinute, remaining: 0, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)), resetSeconds }
    }
    const sweep = Effect.map(Clock.currentTimeMillis, (now) => {
      for (const [key, bucket] of buckets) {
        refill(bucket, now, bucket.perMinute)
        if (bucket.tokens >= bucket.perMinute - EPSILON) buckets.delete(key)
      }
    })
    yield* Effect.forkScoped(Effect.repeat(sweep, Schedule.spaced(sweepEvery)))
    return { take, size: Effect.sync(() => buckets.size), sweep }
  })

/** A request over the in-flight limit. */
export class InFlightFull extends Data.TaggedError("InFlightFull")<{ readonly max: number }> {}

/** Counts of requests in flight per key. */
export interface InFlightShape {
  /** Runs `self` holding one of `max` slots of `key`, or fails at once with InFlightFull. */
  readonly withSlot: <A, E, R>(key: string, max: number, self: Effect.Effect<A, E, R>) => Effect.Effect<A, E | InFlightFull | LimitStoreUnavailable, R>
  /** Slots held on `key` now. */
  readonly count: (key: string) => Effect.Effect<number>
  /** Keys with slots held. */
  readonly size: Effect.Effect<number>
}

export const makeInFlight = () => {
  const counts = new Map<string, number>()
  const release = (key: string) => {
    const n = (counts.get(key) ?? 1) - 1
    if (n <= 0) counts.delete(key)
    else counts.set(key, n)
  }
  // taken and given back in one uninterruptible region with the release on either exit, written
  // out rather than with acquireUseRelease: this runs twice a request (server and key slots)
  const withSlot = <A, E, R>(key: string, max: number, self: Effect.Effect<A, E, R>): Effect.Effect<A, E | InFlightFull, R> =>
    Effect.uninterruptibleMask((restore): Effect.Effect<A, E | InFlightFull, R> => {
      const n = counts.get(key) ?? 0
      if (n >= max) return Effect.fail(new InFlightFull({ max }))
      counts.set(key, n + 1)
      return Effect.matchCauseEffect(restore(self), {
        onFailure: (cause) => {
          release(key)
          return Effect.failCause(cause)
        },
        onSuccess: (value) => {
          release(key)
          return Effect.succeed(value)
        },
      })
    })
  return {
    withSlot,
    count: (key: string) => Effect.sync(() => counts.get(key) ?? 0),
    size: Effect.sync(() => counts.size),
  }
}

/** Requests per minute per API key. */
export class RateLimits extends Context.Tag("access/RateLimits")<RateLimits, TokenBucketsShape>() {
  static readonly layer: Layer.Layer<RateLimits> = Layer.scoped(RateLimits, makeTokenBuckets())
}

/** Requests with a missing or bad key, per client IP. */
export class BadKeyLimits extends Context.Tag("access/BadKeyLimits")<BadKeyLimits, TokenBucketsShape>() {
  static readonly layer: Layer.Layer<BadKeyLimits> = Layer.scoped(BadKeyLimits, makeTokenBuckets())
}

/** Requests in flight per API key. */
export class InFlight extends Context.Tag("access/InFlight")<InFlight, InFlightShape>() {
  static readonly layer: Layer.Layer<InFlight> = Layer.sync(InFlight, makeInFlight)
}
