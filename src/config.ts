// AppConfig: the service's settings, read from the environment once at start and
// checked there; a bad value stops the start with a message naming the variable.
import { Config, ConfigError, ConfigProvider, Context, Effect, Either, Layer, LogLevel, Option, Redacted } from "effect"
import { isIP } from "node:net"
import { isAbsolute, resolve } from "node:path"

/** Where the API keys live. */
export type DatabaseLocation =
  | { readonly kind: "sqlite"; readonly path: string }
  | { readonly kind: "memory" }
  /** shared by every instance; the URL may carry credentials, so it stays redacted */
  | { readonly kind: "postgres"; readonly url: Redacted.Redacted<string> }

export interface KeyStoreConfig {
  readonly database: DatabaseLocation
  /** HMAC key for stored key hashes; when absent, a secret generated once and kept beside the database */
  readonly keyHashSecret: Option.Option<Redacted.Redacted<string>>
  /** how long one key-store query may take before the request is answered 503 UNAVAILABLE (default 2000) */
  readonly timeoutMs?: number
}

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

export type LogFormat = "json" | "text"

export interface AppConfigShape {
  readonly host: string
  /** 0 picks a free port */
  readonly port: number
  readonly keyStore: KeyStoreConfig
  /** every endpoint answers 404 API_DISABLED */
  readonly apiDisabled: boolean
  /** budget of one /quote program before 504 TIMEOUT */
  readonly quoteTimeoutMs: number
  /** budget of one /swap program (pricing and simulation) before 504 TIMEOUT */
  readonly swapTimeoutMs: number
  /** how long reading one request body may take before 400 INVALID_REQUEST (its slots are given back) */
  readonly bodyTimeoutMs: number
  /** requests the server handles at once; past it, 503 OVERLOADED */
  readonly maxInFlight: number
  /** requests with a missing or bad key one IP may make per minute before 429 RATE_LIMITED */
  readonly badKeyLimitPerMinute: number
  /** how long a stop waits for requests in flight before closing their connections */
  readonly shutdownTimeoutMs: number
  readonly logLevel: LogLevel.LogLevel
  /** json: one JSON object per line (timestamp, level, message, requestId, …); text: logfmt */
  readonly logFormat: LogFormat
  /** shared limits; none: each instance keeps its own in process */
  readonly sharedLimits: Option.Option<SharedLimitsConfig>
  /** the admin listener (/metrics, /health); none: not started */
  readonly admin: Option.Option<{ readonly host: string; readonly port: number }>
  /** /health answers 503 when the market has not been refreshed for longer than this */
  readonly marketStaleAfterMs: number
  /** load balancers whose X-Forwarded-For names the client (for the per-IP bad-key limit) */
  readonly trustedProxies: ReadonlySet<string>
}

export const DEFAULTS = {
  host: "127.0.0.1",
  port: 8080,
  databaseUrl: ".data/keys.sqlite",
  quoteTimeoutMs: 5_000,
  swapTimeoutMs: 10_000,
  bodyTimeoutMs: 5_000,
  maxInFlight: 256,
  badKeyLimitPerMinute: 20,
  shutdownTimeoutMs: 10_000,
  databaseTimeoutMs: 2_000,
  logFormat: "json",
  redisPrefix: "arc-swap:",
  redisTimeoutMs: 250,
  inFlightLeaseMs: 15_000,
  limitsOnRedisFailure: "open",
  adminHost: "127.0.0.1",
  marketStaleAfterMs: 10_000,
} as const

const integerFrom = (name: string, min: number, max: number): Config.Config<number> =>
  Config.string(name).pipe(
    Config.mapOrFail((text) =>
      /^\d+$/.test(text) && Number(text) >= min && Number(text) <= max
        ? Either.right(Number(text))
        : Either.left(ConfigError.InvalidData([], `must be an integer from ${min} to ${max}, got "${text}"`)),
    ),
  )

const integerIn = (name: string, fallback: number, min: number, max: number): Config.Config<number> =>
  integerFrom(name, min, max).pipe(Config.withDefault(fallback))

const flag = (name: string): Config.Config<boolean> =>
  Config.string(name).pipe(
    Config.mapOrFail((text) => {
      const t = text.trim().toLowerCase()
      if (["1", "true", "yes", "on"].includes(t)) return Either.right(true)
      if (["", "0", "false", "no", "off"].includes(t)) return Either.right(false)
      return Either.left(ConfigError.InvalidData([], `must be true or false, got "${text}"`))
    }),
    Config.withDefault(false),
  )

/**
 * DATABASE_URL: a file path, `sqlite:PATH` / `sqlite://PATH` (relative to the working
 * directory unless absolute), `:memory:` (keys live and die with the process), or
 * `postgres://` / `postgresql://` (libpq form; `?options=-c%20search_path%3DNAME` picks a schema).
 */
export const parseDatabaseUrl = (text: string, cwd = process.cwd()): Either.Either<DatabaseLocation, string> => {
  const value = text.trim()
  if (value === "") return Either.left("must not be empty")
  if (/^postgres(ql)?:\/\//i.test(value)) {
    try {
      const url = new URL(value)
      if (url.hostname === "" && !url.searchParams.has("host")) return Either.left("a postgres:// URL must name a host")
    } catch {
      return Either.left("not a valid postgres:// URL")
    }
    return Either.right({ kind: "postgres", url: Redacted.make(value) })
  }
  let path = value
  if (/^sqlite:/i.test(value)) {
    path = value.slice("sqlite:".length)
    if (path.startsWith("//")) path = path.slice(2)
    if (path === "") return Either.left(`names no file: "${text}"`)
  } else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    return Either.left(`unsupported scheme in "${text}": use a file path, a sqlite: URL or a postgres:// URL`)
  }
  if (path === ":memory:") return Either.right({ kind: "memory" })
  return Either.right({ kind: "sqlite", path: isAbsolute(path) ? path : resolve(cwd, path) })
}

export const keyStoreConfig: Config.Config<KeyStoreConfig> = Config.all({
  database: Config.string("DATABASE_URL").pipe(
    Config.mapOrFail((text) => Either.mapLeft(parseDatabaseUrl(text), (message) => ConfigError.InvalidData([], message))),
    Config.withDefault<DatabaseLocation>(Either.getOrThrow(parseDatabaseUrl(DEFAULTS.databaseUrl))),
  ),
  keyHashSecret: Config.string("KEY_HASH_SECRET").pipe(
    Config.mapOrFail((text) =>
      text.length >= 32
        ? Either.right(Option.some(Redacted.make(text)))
        : Either.left(ConfigError.InvalidData([], `must be at least 32 characters, got ${text.length}`))),
    Config.withDefault(Option.none<Redacted.Redacted<string>>()),
  ),
  timeoutMs: integerIn("DATABASE_TIMEOUT_MS", DEFAULTS.databaseTimeoutMs, 1, 600_000),
}).pipe(
  // a file secret beside the database cannot be shared by instances on other machines
  Config.mapOrFail((config) =>
    config.database.kind === "postgres" && Option.isNone(config.keyHashSecret)
      ? Either.left(ConfigError.InvalidData(["KEY_HASH_SECRET"], "required with a postgres:// DATABASE_URL: every instance and bun run keys must use the same secret"))
      : Either.right(config)),
)

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
    Config.withDefault(DEFAULTS.redisPrefix),
  ),
  timeoutMs: integerIn("REDIS_TIMEOUT_MS", DEFAULTS.redisTimeoutMs, 1, 60_000),
  leaseMs: integerIn("INFLIGHT_LEASE_MS", DEFAULTS.inFlightLeaseMs, 100, 3_600_000),
  onFailure: Config.literal("open", "closed")("LIMITS_ON_REDIS_FAILURE").pipe(Config.withDefault(DEFAULTS.limitsOnRedisFailure)),
}).pipe(
  Config.map(({ url, ...rest }) => Option.map(url, (u): SharedLimitsConfig => ({ url: u, ...rest }))),
)

const adminConfig = Config.all({
  port: Config.option(integerFrom("ADMIN_PORT", 0, 65_535)),
  host: Config.string("ADMIN_HOST").pipe(
    Config.validate({ message: "must not be empty", validation: (s) => s.trim() !== "" }),
    Config.withDefault(DEFAULTS.adminHost),
  ),
}).pipe(Config.map(({ port, host }) => Option.map(port, (p) => ({ host, port: p }))))

export const appConfig: Config.Config<AppConfigShape> = Config.all({
  host: Config.string("HOST").pipe(
    Config.validate({ message: "must not be empty", validation: (s) => s.trim() !== "" }),
    Config.withDefault(DEFAULTS.host),
  ),
  port: integerIn("PORT", DEFAULTS.port, 0, 65_535),
  keyStore: keyStoreConfig,
  apiDisabled: flag("API_DISABLED"),
  quoteTimeoutMs: integerIn("QUOTE_TIMEOUT_MS", DEFAULTS.quoteTimeoutMs, 1, 600_000),
  swapTimeoutMs: integerIn("SWAP_TIMEOUT_MS", DEFAULTS.swapTimeoutMs, 1, 600_000),
  bodyTimeoutMs: integerIn("BODY_TIMEOUT_MS", DEFAULTS.bodyTimeoutMs, 1, 600_000),
  maxInFlight: integerIn("MAX_IN_FLIGHT", DEFAULTS.maxInFlight, 1, 1_000_000),
  badKeyLimitPerMinute: integerIn("BAD_KEY_LIMIT_PER_MINUTE", DEFAULTS.badKeyLimitPerMinute, 1, 1_000_000),
  shutdownTimeoutMs: integerIn("SHUTDOWN_TIMEOUT_MS", DEFAULTS.shutdownTimeoutMs, 0, 600_000),
  logLevel: Config.literal("debug", "info", "warn", "error")("LOG_LEVEL").pipe(
    Config.map((level) => LogLevel.fromLiteral(level === "warn" ? "Warning" : level === "debug" ? "Debug" : level === "info" ? "Info" : "Error")),
    Config.withDefault(LogLevel.Info),
  ),
  logFormat: Config.literal("json", "text")("LOG_FORMAT").pipe(Config.withDefault<LogFormat>(DEFAULTS.logFormat)),
  sharedLimits: sharedLimitsConfig,
  admin: adminConfig,
  marketStaleAfterMs: integerIn("MARKET_STALE_AFTER_MS", DEFAULTS.marketStaleAfterMs, 1, 86_400_000),
  trustedProxies: Config.string("TRUSTED_PROXIES").pipe(
    Config.mapOrFail((text) => {
      const entries = text.split(",").map((e) => e.trim()).filter((e) => e !== "")
      const bad = entries.find((e) => !isIP(e.replace(/^\[|\]$/g, "")))
      return bad === undefined
        ? Either.right<ReadonlySet<string>>(new Set(entries))
        : Either.left(ConfigError.InvalidData([], `must be a comma-separated list of IP addresses, got "${bad}"`))
    }),
    Config.withDefault<ReadonlySet<string>>(new Set()),
  ),
})

/** One line per problem: `PORT: must be an integer from 0 to 65535, got "x"`. */
export const formatConfigError = (error: ConfigError.ConfigError): string => {
  const lines: string[] = []
  const walk = (e: ConfigError.ConfigError): void => {
    switch (e._op) {
      case "And":
      case "Or":
        walk(e.left)
        walk(e.right)
        return
      case "MissingData":
      case "InvalidData":
      case "SourceUnavailable":
      case "Unsupported":
        lines.push(`${e.path.length > 0 ? `${e.path.join(".")}: ` : ""}${e.message}`)
    }
  }
  walk(error)
  return [...new Set(lines)].join("\n")
}

/** A configuration that cannot start the service; the message names each bad variable. */
export class ConfigurationError extends Error {
  override readonly name = "ConfigurationError"
  readonly _tag = "ConfigurationError"
}

const load = <A>(config: Config.Config<A>, env?: Readonly<Record<string, string | undefined>>) => {
  const effect = Effect.mapError(config, (e) => new ConfigurationError(`invalid configuration:\n${formatConfigError(e)}`))
  if (env === undefined) return effect
  const entries = Object.entries(env).filter((kv): kv is [string, string] => kv[1] !== undefined)
  return Effect.withConfigProvider(effect, ConfigProvider.fromMap(new Map(entries)))
}

/** Reads the key-store settings (for `bun run keys`) from the environment, or from `env` when given. */
export const loadKeyStoreConfig = (env?: Readonly<Record<string, string | undefined>>): Effect.Effect<KeyStoreConfig, ConfigurationError> =>
  load(keyStoreConfig, env)

/** Reads every setting from the environment, or from `env` when given. */
export const loadAppConfig = (env?: Readonly<Record<string, string | undefined>>): Effect.Effect<AppConfigShape, ConfigurationError> =>
  load(appConfig, env)

export class AppConfig extends Context.Tag("config/AppConfig")<AppConfig, AppConfigShape>() {
  /** from the process environment */
  static readonly layer: Layer.Layer<AppConfig, ConfigurationError> = Layer.effect(AppConfig, loadAppConfig())
  /** from the given variables only (tests, embedding); unset names take their defaults */
  static readonly layerFrom = (env: Readonly<Record<string, string | undefined>>): Layer.Layer<AppConfig, ConfigurationError> =>
    Layer.effect(AppConfig, loadAppConfig(env))
}
