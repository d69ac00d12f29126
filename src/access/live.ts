// The access side as one layer over AppConfig: the key store DATABASE_URL
// names, and the per-key and per-IP limits, kept in process, or shared by
// every instance through Redis when REDIS_URL is set.
import { Context, Effect, Layer, Option } from "effect"
import { AppConfig, type SharedLimitsConfig } from "../config/index.ts"
import { ApiKeys, type KeyStoreError } from "./api-keys.ts"
import { BadKeyLimits, InFlight, RateLimits } from "./limits.ts"
import { makeRedisTokenBuckets } from "./redis-buckets.ts"
import { makeRedisInFlight } from "./redis-leases.ts"
import { makeLimitStore, type LimitStore } from "./redis-store.ts"

/** The shared limit store (Redis), when limits are shared; none when each instance keeps its own. */
export class SharedLimitStore extends Context.Tag("access/SharedLimitStore")<SharedLimitStore, Option.Option<LimitStore>>() {}

type Limits = RateLimits | BadKeyLimits | InFlight | SharedLimitStore

/** The limits in this process's memory. */
export const MemoryLimitsLive: Layer.Layer<Limits> = Layer.mergeAll(
  RateLimits.layer,
  BadKeyLimits.layer,
  InFlight.layer,
  Layer.succeed(SharedLimitStore, Option.none()),
)

/**
 * The limits in Redis, each with this instance's in-process limits as its
 * fallback while Redis cannot be reached. Closing gives back the in-flight
 * slots still held, then closes the connection.
 */
export const RedisLimitsLive = (config: SharedLimitsConfig): Layer.Layer<Limits> =>
  Layer.scopedContext(
    Effect.gen(function* () {
      const store = yield* makeLimitStore(config)
      return Context.make(RateLimits, yield* makeRedisTokenBuckets(store, "rate")).pipe(
        Context.add(BadKeyLimits, yield* makeRedisTokenBuckets(store, "badkey")),
        Context.add(InFlight, yield* makeRedisInFlight(store)),
        Context.add(SharedLimitStore, Option.some(store)),
      )
    }),
  )

/** The limits AppConfig chooses: shared through Redis when REDIS_URL is set, else in process. */
export const LimitsLive: Layer.Layer<Limits, never, AppConfig> = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) => Option.match(config.sharedLimits, { onNone: () => MemoryLimitsLive, onSome: RedisLimitsLive })),
)

/** The key store AppConfig names (SQLite or Postgres), open for the life of the layer. */
export const ApiKeysLive: Layer.Layer<ApiKeys, KeyStoreError, AppConfig> = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) => ApiKeys.layer(config.keyStore)),
)

/** ApiKeys, RateLimits, BadKeyLimits, InFlight and the shared store, as AppConfig sets them. */
export const AccessLive: Layer.Layer<ApiKeys | Limits, KeyStoreError, AppConfig> = Layer.merge(ApiKeysLive, LimitsLive)
