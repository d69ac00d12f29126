// The per-key and per-IP limits shared by every instance through Redis.
//
// Each decision is one atomic Lua script on Redis's own clock (TIME), so
// instances never disagree and their clocks do not matter:
// - requests a minute: the same token bucket as the in-process one (capacity
//   `perMinute`, refilled continuously), kept in a hash that expires once the
//   bucket would be full again;
// - requests in flight: a sorted set of slots per key, each slot a lease scored
//   by its expiry. A slot is taken only when fewer than `max` unexpired leases
//   exist; the instance renews its leases (one batched call every lease/3) while
//   the requests run and removes them when they end, so a crashed instance's
//   slots free themselves within one lease.
//
// Redis unreachable or slow: every call has a time limit (REDIS_TIMEOUT_MS) and
// a failed call marks Redis down for a second, during which no call is tried.
// Meanwhile each decision is made by this instance's in-process limits
// (LIMITS_ON_REDIS_FAILURE=open, the default: the key's limits then hold per
// instance) or refused with LimitStoreUnavailable (=closed: 503 UNAVAILABLE).
// Changes of state are logged once each, not per request. A call that timed out
// may still run on Redis later: it then counts against the key (a token taken),
// never in its favour, and a slot it took expires with its lease.
// One Redis primary: lease renewal touches several keys in one script, which
// Redis Cluster would refuse.
//
// Client: Bun's built-in RedisClient (RESP3, auto-reconnect), with the offline
// queue off so that a call while disconnected fails at once instead of waiting.
import { RedisClient } from "bun"
import { Effect, Metric, Redacted, Schedule, type Scope } from "effect"
import { createHash, randomBytes } from "node:crypto"
import { hostname } from "node:os"
import type { SharedLimitsConfig } from "../config/index.ts"
import {
  InFlightFull,
  LimitStoreUnavailable,
  makeInFlight,
  makeTokenBuckets,
  type InFlightShape,
  type RateDecision,
  type TokenBucketsShape,
} from "./limits.ts"

/** After a failed call, how long Redis is left alone before it is tried again. */
const RETRY_AFTER_MS = 1_000

const TOKEN_BUCKET = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local per = tonumber(ARGV[1])
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1])
local at = tonumber(state[2])
if tokens == nil or at == nil then
  tokens = per
  at = now
end
local elapsed = now - at
if elapsed < 0 then elapsed = 0 end
tokens = math.min(per, tokens + elapsed * per / 60000)
local eps = 1e-9
local allowed, remaining, retry = 0, 0, 0
if tokens >= 1 - eps then
  tokens = math.max(0, tokens - 1)
  allowed = 1
  remaining = math.floor(tokens + eps)
else
  retry = math.max(1, math.ceil(((1 - tokens) * 60000 / per) / 1000))
end
redis.call('HSET', KEYS[1], 'tokens', string.format('%.17g', tokens), 'at', string.format('%.17g', now))
redis.call('PEXPIRE', KEYS[1], math.ceil((per - tokens) * 60000 / per) + 1000)
return {allowed, remaining, retry}
`

const now_ms = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`

const ACQUIRE_SLOT = `${now_ms}
local lease = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + lease, ARGV[2])
if redis.call('PTTL', KEYS[1]) < lease then redis.call('PEXPIRE', KEYS[1], lease) end
return 1
`

// KEYS: the slots' sets; ARGV[1]: lease; ARGV[1 + i]: the slot in KEYS[i]. Answers how many were gone.
const RENEW_SLOTS = `${now_ms}
local lease = tonumber(ARGV[1])
local lost = 0
for i, key in ipairs(KEYS) do
  local slot = ARGV[i + 1]
  if redis.call('ZSCORE', key, slot) then
    redis.call('ZADD', key, 'XX', now + lease, slot)
    if redis.call('PTTL', key) < lease then redis.call('PEXPIRE', key, lease) end
  else
    lost = lost + 1
  end
end
return lost
`

const COUNT_SLOTS = `${now_ms}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
return redis.call('ZCARD', KEYS[1])
`

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

/**
 * Token buckets in Redis under `<prefix><namespace>:<key>`, with this instance's
 * in-process buckets as the fallback.
 */
export const makeRedisTokenBuckets = (store: LimitStore, namespace: string): Effect.Effect<TokenBucketsShape, never, Scope.Scope> =>
  Effect.map(makeTokenBuckets(), (local) => {
    const prefix = `${store.config.prefix}${namespace}:`
    const take = (key: string, perMinute: number): Effect.Effect<RateDecision, LimitStoreUnavailable> =>
      Effect.matchEffect(store.script(TOKEN_BUCKET, [prefix + key], [perMinute]), {
        onFailure: (e) => store.degrade(namespace, e, local.take(key, perMinute)),
        onSuccess: (reply) => {
          const [allowed, remaining, retry] = reply as [number, number, number]
          return Effect.succeed({ allowed: allowed === 1, limit: perMinute, remaining, retryAfterSeconds: retry })
        },
      })
    return { take, size: local.size, sweep: local.sweep } satisfies TokenBucketsShape
  })

export interface RedisInFlightShape extends InFlightShape {
  /** Renews every lease this instance holds (run on a schedule; exposed for tests). */
  readonly renew: Effect.Effect<void>
  /** Leases this instance holds now. */
  readonly held: Effect.Effect<number>
}

/**
 * In-flight slots as leases in Redis under `<prefix>inflight:<key>`, with this
 * instance's in-process slots as the fallback. Leases are renewed every
 * lease/3 while the scope lives; on close, the leases still held are removed.
 */
export const makeRedisInFlight = (store: LimitStore): Effect.Effect<RedisInFlightShape, never, Scope.Scope> =>
  Effect.gen(function* () {
    const local = makeInFlight()
    const prefix = `${store.config.prefix}inflight:`
    const instance = `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`
    let counter = 0
    /** slot → its set */
    const held = new Map<string, string>()

    type Outcome =
      | { readonly kind: "held"; readonly set: string; readonly slot: string }
      | { readonly kind: "full" }
      | { readonly kind: "local"; readonly error: RedisCallError }
    const FULL: Outcome = { kind: "full" }

    const acquire = (key: string, max: number): Effect.Effect<Outcome> => {
      const set = prefix + key
      const slot = `${instance}:${++counter}`
      return Effect.match(store.script(ACQUIRE_SLOT, [set], [max, slot, store.config.leaseMs]), {
        onFailure: (error): Outcome => ({ kind: "local", error }),
        onSuccess: (reply): Outcome => {
          if (reply !== 1) return FULL
          held.set(slot, set)
          return { kind: "held", set, slot }
        },
      })
    }

    const release = (outcome: Outcome): Effect.Effect<void> => {
      if (outcome.kind !== "held") return Effect.void
      held.delete(outcome.slot)
      // when this fails the lease expires by itself
      return Effect.ignore(store.command("ZREM", [outcome.set, outcome.slot]))
    }

    const withSlot = <A, E, R>(key: string, max: number, self: Effect.Effect<A, E, R>): Effect.Effect<A, E | InFlightFull | LimitStoreUnavailable, R> =>
      Effect.acquireUseRelease(
        acquire(key, max),
        (outcome): Effect.Effect<A, E | InFlightFull | LimitStoreUnavailable, R> => {
          switch (outcome.kind) {
            case "held":
              return self
            case "full":
              return Effect.fail(new InFlightFull({ max }))
            case "local":
              return store.degrade("inflight", outcome.error, local.withSlot(key, max, self))
          }
        },
        release,
      )

    const renew: Effect.Effect<void> = Effect.suspend(() => {
      if (held.size === 0) return Effect.void
      const slots = [...held.entries()]
      return store.script(RENEW_SLOTS, slots.map(([, set]) => set), [store.config.leaseMs, ...slots.map(([slot]) => slot)]).pipe(
        Effect.flatMap((lost) =>
          typeof lost === "number" && lost > 0
            ? Effect.logWarning(`shared limits: ${lost} in-flight lease(s) expired before their requests ended (Redis unreachable for longer than INFLIGHT_LEASE_MS?)`)
            : Effect.void),
        Effect.ignore,
      )
    })
    yield* Effect.forkScoped(Effect.repeat(renew, Schedule.spaced(Math.max(1, Math.floor(store.config.leaseMs / 3)))))
    // on close: whatever is still held goes back at once rather than at lease expiry
    yield* Effect.addFinalizer(() =>
      Effect.suspend(() => {
        const slots = [...held.entries()]
        held.clear()
        return Effect.forEach(slots, ([slot, set]) => Effect.ignore(store.command("ZREM", [set, slot])), { discard: true, concurrency: "unbounded" })
      }))

    const count = (key: string): Effect.Effect<number> =>
      Effect.matchEffect(store.script(COUNT_SLOTS, [prefix + key], []), {
        onFailure: () => local.count(key),
        onSuccess: (n) => Effect.succeed(Number(n)),
      })

    return {
      withSlot,
      count,
      size: Effect.sync(() => new Set(held.values()).size),
      renew,
      held: Effect.sync(() => held.size),
    } satisfies RedisInFlightShape
  })
