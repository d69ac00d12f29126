// Access control: the API key store and the per-key and per-IP limits.
export {
  ApiKeys,
  DEFAULT_CONCURRENCY,
  DEFAULT_RPM,
  KeyInputError,
  KeyNotFound,
  KeyRejected,
  KeyStoreError,
  makeApiKeys,
  type ApiKeysShape,
  type KeyRecord,
  type NewKeyInput,
} from "./api-keys.ts"
export { secretFileFor } from "./hash-secret.ts"
export {
  BadKeyLimits,
  InFlight,
  InFlightFull,
  makeInFlight,
  makeTokenBuckets,
  RateLimits,
  type InFlightShape,
  type RateDecision,
  type TokenBucketsShape,
} from "./limits.ts"
