// Access control: the API key store (SQLite or Postgres) and the per-key and
// per-IP limits (in process, or shared through Redis), together as AccessLive.
export {
  ApiKeys,
  DEFAULT_CONCURRENCY,
  DEFAULT_RPM,
  KeyInputError,
  KEY_RECHECK_MS,
  KeyNotFound,
  KeyRejected,
  KeyStoreError,
  keyStoreOver,
  makeApiKeys,
  type ApiKeysShape,
  type KeyRow,
  type KeyRows,
  type KeyRecord,
  type NewKeyInput,
} from "./api-keys.ts"
export { lastingSecret, secretFileFor } from "./hash-secret.ts"
export {
  BadKeyLimits,
  InFlight,
  InFlightFull,
  LimitStoreUnavailable,
  makeInFlight,
  makeTokenBuckets,
  RateLimits,
  type InFlightShape,
  type RateDecision,
  type TokenBucketsShape,
} from "./limits.ts"
export { MIGRATIONS, MIGRATIONS_TABLE } from "./key-table.ts"
export { makeRedisTokenBuckets } from "./redis-buckets.ts"
export { makeRedisInFlight, type RedisInFlightShape } from "./redis-leases.ts"
export { LimitStoreMetrics, makeLimitStore, RedisCallError, type LimitStore } from "./redis-store.ts"
export { AccessLive, ApiKeysLive, LimitsLive, MemoryLimitsLive, RedisLimitsLive, SharedLimitStore } from "./live.ts"
