// The shared limit store: one connection to Redis, with a time limit on every
// call, a down-state, and the policy for decisions while Redis cannot answer.
//
// Redis unreachable or slow: every call has a time limit (REDIS_TIMEOUT_MS) and
// a failed call marks Redis down for a second, during which no call is tried.
// Meanwhile each decision is made by this instance's in-process limits
// (LIMITS_ON_REDIS_FAILURE=open, the default: the key's limits then hold per
// instance) or refused with LimitStoreUnavailable (=closed: 503 UNAVAILABLE).
// Changes of state are logged once each, not per request. A call that timed out
// may still run on Redis later: it then counts against the key (a token taken),
// never in its favour, and a slot it took expires with its lease.
//
// Client: Bun's built-in RedisClient (RESP3, auto-reconnect), with the offline
// queue off so that a call while disconnected fails at once instead of waiting.
import { RedisClient } from "bun"
import { Effect, Metric, Redacted, type Scope } from "effect"
import { createHash } from "node:crypto"
import type { SharedLimitsConfig } from "../config/index.ts"
import { LimitStoreUnavailable } from "./limits.ts"

/** After a failed call, how long Redis is left alone before it is tried again. */
const RETRY_AFTER_MS = 1_000

const sha1 = (text: string) => createHash("sha1").update(text).digest("hex")

export const LimitStoreMetrics = {
  errors: Metric.counter("limit_store_errors_total", { description: "calls to the shared limit store (Redis) that failed or timed out", incremental: true }),
  reachable: Metric.gauge("limit_store_reachable", { description: "1 while the shared limit store (Redis) answers, 0 while it does not" }),
  fallbacks: Metric.counter("limit_store_fallbacks_total", {
    description: "limit decisions made in process (or refused) because the shared limit store was unreachable",
    incremental: true,
  }),
} as const

/** A Redis call that failed: unreachable, refused, timed out, or an error reply. */
export class RedisCallError extends Error {
  override readonly name = "RedisCallError"
}

/** One connection to the shared limit store, with time limits and a down-state. */
export interface LimitStore {
  readonly config: SharedLimitsConfig
  /** Runs a script (EVALSHA, loading it on NOSCRIPT); fails fast while Redis is marked down. */
  readonly script: (source: string, keys: readonly string[], args: readonly (string | number)[]) => Effect.Effect<unknown, RedisCallError>
  /** Sends one command under the time limit. */
  readonly command: (name: string, args: readonly string[]) => Effect.Effect<unknown, RedisCallError>
  /** True while Redis is considered reachable. */
  readonly reachable: () => boolean
  /** One PING under the time limit (health checks); does not wait out the down-state. */
  readonly ping: Effect.Effect<void, RedisCallError>
  /** What to do with a decision when a call failed: the fallback, or LimitStoreUnavailable. */
  readonly degrade: <A, E, R>(operation: string, error: RedisCallError, fallback: Effect.Effect<A, E, R>) => Effect.Effect<A, E | LimitStoreUnavailable, R>
}

/** Connects (without waiting for Redis to be up: an instance starts, degraded, while Redis is down). */
export const makeLimitStore = (config: SharedLimitsConfig): Effect.Effect<LimitStore, never, Scope.Scope> =>
  Effect.gen(function* () {
    // set once the store closes: late calls (a request interrupted at shutdown) fail quietly
    let closed = false
    const client = yield* Effect.acquireRelease(
      Effect.sync(
        () =>
          new RedisClient(Redacted.value(config.url), {
            connectionTimeout: Math.max(config.timeoutMs, 1_000),
            enableOfflineQueue: false,
            autoReconnect: true,
            maxRetries: 1_000_000_000,
          }),
      ),
      (c) =>
        Effect.sync(() => {
          closed = true
          c.close()
        }),
    )
    let downUntil = 0
    let down = false
    yield* Metric.set(LimitStoreMetrics.reachable, 1)

    const markDown = (operation: string, error: RedisCallError) =>
      Effect.suspend(() => {
        downUntil = Date.now() + RETRY_AFTER_MS
        const changed = !down
        down = true
        const counted = Metric.increment(Metric.tagged(LimitStoreMetrics.errors, "operation", operation))
        if (!changed) return counted
        return Effect.zipRight(
          Effect.zipRight(counted, Metric.set(LimitStoreMetrics.reachable, 0)),
          Effect.logWarning(
            `shared limits: Redis unreachable (${operation}: ${error.message}); ` +
              (config.onFailure === "open"
                ? "each instance decides with its own in-process limits until Redis answers"
                : "requests are refused with 503 UNAVAILABLE until Redis answers"),
          ),
        )
      })
    const markUp = Effect.suspend(() => {
      if (!down) return Effect.void
      down = false
      return Effect.zipRight(Metric.set(LimitStoreMetrics.reachable, 1), Effect.logInfo("shared limits: Redis answers again; limits are shared"))
    })

    const withinTime = <A>(promise: Promise<A>): Promise<A> =>
      new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new RedisCallError(`no answer within ${config.timeoutMs} ms`)), config.timeoutMs)
        promise.then(
          (value) => {
            clearTimeout(timer)
            resolve(value)
          },
          (e: unknown) => {
            clearTimeout(timer)
            reject(new RedisCallError(e instanceof Error ? e.message : String(e)))
          },
        )
      })
    let connecting: Promise<void> | undefined
    const connect = (): Promise<void> => {
      connecting ??= client.connect().finally(() => {
        connecting = undefined
      })
      return connecting
    }
    const raw = (name: string, args: string[]): Promise<unknown> => {
      // the client reconnects by itself; a nudge covers one that gave up. The call does not wait for it.
      if (!client.connected) connect().catch(() => {})
      return withinTime(client.send(name, args))
    }

    const call = (operation: string, f: () => Promise<unknown>): Effect.Effect<unknown, RedisCallError> =>
      Effect.suspend(() => {
        if (closed) return Effect.fail(new RedisCallError("the limit store is closed"))
        if (down && Date.now() < downUntil) return Effect.fail(new RedisCallError("marked down after a recent failure"))
        return Effect.tryPromise({ try: f, catch: (e) => (e instanceof RedisCallError ? e : new RedisCallError(String(e))) }).pipe(
          Effect.tap(() => markUp),
          Effect.tapError((e) => markDown(operation, e)),
        )
      })

    const script: LimitStore["script"] = (source, keys, args) => {
      const sha = sha1(source)
      const rest = [String(keys.length), ...keys, ...args.map(String)]
      return call("script", () =>
        raw("EVALSHA", [sha, ...rest]).catch((e: unknown) => {
          if (e instanceof RedisCallError && e.message.includes("NOSCRIPT")) return raw("EVAL", [source, ...rest])
          throw e
        }))
    }

    const degrade: LimitStore["degrade"] = <A, E, R>(operation: string, error: RedisCallError, fallback: Effect.Effect<A, E, R>) => {
      const decided: Effect.Effect<A, E | LimitStoreUnavailable, R> =
        config.onFailure === "open"
          ? fallback
          : Effect.fail(new LimitStoreUnavailable({ message: `shared limits unavailable (${operation}): ${error.message}` }))
      return Effect.zipRight(Metric.increment(Metric.tagged(LimitStoreMetrics.fallbacks, "operation", operation)), decided)
    }

    // connect now so the first requests find the client connected; an instance still starts while Redis is down
    yield* call("connect", () => withinTime(connect())).pipe(Effect.ignore)

    return {
      config,
      script,
      command: (name, args) => call(name.toLowerCase(), () => raw(name, [...args])),
      reachable: () => !down,
      ping: Effect.tryPromise({ try: () => raw("PING", []), catch: (e) => (e instanceof RedisCallError ? e : new RedisCallError(String(e))) }).pipe(
        Effect.tap(() => markUp),
        Effect.tapError((e) => markDown("ping", e)),
        Effect.asVoid,
      ),
      degrade,
    } satisfies LimitStore
  })
