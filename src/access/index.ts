// Access control: the API key store (SQLite or Postgres) and the per-key and
// per-IP limits (in process, or shared through Redis).
export {
  ApiKeys,
  DEFAULT_CONCURRENCY,
  DEFAULT_RPM,
  KeyInputError,
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
export { secretFileFor } from "./hash-secret.ts"
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
export { MIGRATIONS, MIGRATIONS_TABLE } from "./pg-key-store.ts"
export {
  LimitStoreMetrics,
  makeAccessLimits,
  makeLimitStore,
  makeRedisInFlight,
  makeRedisTokenBuckets,
  RedisCallError,
  type AccessLimits,
  type LimitStore,
  type RedisInFlightShape,
} from "./redis-limits.ts"
