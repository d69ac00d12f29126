// Requests a minute shared through Redis (per API key, and bad keys per IP):
// the same token bucket as the in-process one, decided on Redis, with this
// instance's in-process buckets deciding while Redis cannot answer.
import { Effect, type Scope } from "effect"
import { makeTokenBuckets, type LimitStoreUnavailable, type RateDecision, type TokenBucketsShape } from "./limits.ts"
import { takeToken } from "./redis-scripts.ts"
import type { LimitStore } from "./redis-store.ts"

/**
 * Token buckets in Redis under `<prefix><namespace>:<key>`, with this instance's
 * in-process buckets as the fallback.
 */
export const makeRedisTokenBuckets = (store: LimitStore, namespace: string): Effect.Effect<TokenBucketsShape, never, Scope.Scope> =>
  Effect.map(makeTokenBuckets(), (local) => {
    const prefix = `${store.config.prefix}${namespace}:`
    const take = (key: string, perMinute: number): Effect.Effect<RateDecision, LimitStoreUnavailable> =>
      Effect.catchAll(takeToken(store, prefix + key, perMinute), (e) => store.degrade(namespace, e, local.take(key, perMinute)))
    return { take, size: local.size, sweep: local.sweep } satisfies TokenBucketsShape
  })
