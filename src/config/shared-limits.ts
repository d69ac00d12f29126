// Limits shared by every instance through Redis (REDIS_URL and its tuning);
// unset, each instance keeps its own in process.
import { Config, ConfigError, Either, Option, Redacted } from "effect"
import { integerIn } from "./values.ts"

const SHARED_LIMITS_DEFAULTS = {
  redisPrefix: "arc-swap:",
  redisTimeoutMs: 250,
  inFlightLeaseMs: 15_000,
  limitsOnRedisFailure: "open",
} as const

/** What an instance does with a request when the shared limit store (Redis) cannot be reached. */
export type LimitFailureMode =
  /** decide with this instance's in-process limits (each instance then enforces the key's limits alone) */
  | "open"
  /** refuse with 503 UNAVAILABLE */
  | "closed"

/** Limits shared by every instance through Redis. */
export interface SharedLimitsConfig {
  readonly url: Redacted.Redacted<string>
  /** prefix of every Redis key this service writes */
  readonly prefix: string
  /** how long one Redis call may take before it counts as unreachable */
  readonly timeoutMs: number
  /** lifetime of an in-flight slot's lease; renewed while the request runs, so a crashed instance frees its slots within it */
  readonly leaseMs: number
  readonly onFailure: LimitFailureMode
}

const redisUrl = (text: string): Either.Either<Redacted.Redacted<string>, ConfigError.ConfigError> => {
  try {
    const url = new URL(text.trim())
    if (!["redis:", "rediss:", "valkey:", "valkeys:", "redis+unix:", "redis+tls:"].includes(url.protocol)) {
      return Either.left(ConfigError.InvalidData([], `must be a redis:// or rediss:// URL, got scheme "${url.protocol}"`))
    }
    return Either.right(Redacted.make(text.trim()))
  } catch {
    return Either.left(ConfigError.InvalidData([], "must be a redis:// or rediss:// URL"))
  }
}

export const sharedLimitsConfig: Config.Config<Option.Option<SharedLimitsConfig>> = Config.all({
  url: Config.option(Config.string("REDIS_URL").pipe(Config.mapOrFail(redisUrl))),
  prefix: Config.string("REDIS_PREFIX").pipe(
    Config.validate({ message: "must be 1 to 100 characters without spaces", validation: (s) => /^[^\s]{1,100}$/.test(s) }),
    Config.withDefault(SHARED_LIMITS_DEFAULTS.redisPrefix),
  ),
  timeoutMs: integerIn("REDIS_TIMEOUT_MS", SHARED_LIMITS_DEFAULTS.redisTimeoutMs, 1, 60_000),
  leaseMs: integerIn("INFLIGHT_LEASE_MS", SHARED_LIMITS_DEFAULTS.inFlightLeaseMs, 100, 3_600_000),
  onFailure: Config.literal("open", "closed")("LIMITS_ON_REDIS_FAILURE").pipe(Config.withDefault(SHARED_LIMITS_DEFAULTS.limitsOnRedisFailure)),
}).pipe(
  Config.map(({ url, ...rest }) => Option.map(url, (u): SharedLimitsConfig => ({ url: u, ...rest }))),
)
