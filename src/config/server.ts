// The API listener and its edge: where it listens, what it admits, how long a
// request may take, how a stop waits, which proxies name the client.
import { Config, ConfigError, Either } from "effect"
import { isIP } from "node:net"
import { flag, integerIn, nonBlank } from "./values.ts"

export const SERVER_DEFAULTS = {
  host: "127.0.0.1",
  port: 8080,
  quoteTimeoutMs: 5_000,
  swapTimeoutMs: 10_000,
  bodyTimeoutMs: 5_000,
  maxInFlight: 256,
  badKeyLimitPerMinute: 20,
  shutdownTimeoutMs: 10_000,
} as const

export interface ServerConfig {
  readonly host: string
  /** 0 picks a free port */
  readonly port: number
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
  /** load balancers whose X-Forwarded-For names the client (for the per-IP bad-key limit) */
  readonly trustedProxies: ReadonlySet<string>
}

/** QUOTE_TIMEOUT_MS: the time budget of one /quote, which every source's own budget must sit inside. */
export const quoteTimeoutConfig: Config.Config<number> = integerIn("QUOTE_TIMEOUT_MS", SERVER_DEFAULTS.quoteTimeoutMs, 1, 600_000)

const trustedProxies: Config.Config<ReadonlySet<string>> = Config.string("TRUSTED_PROXIES").pipe(
  Config.mapOrFail((text) => {
    const entries = text.split(",").map((e) => e.trim()).filter((e) => e !== "")
    const bad = entries.find((e) => !isIP(e.replace(/^\[|\]$/g, "")))
    return bad === undefined
      ? Either.right<ReadonlySet<string>>(new Set(entries))
      : Either.left(ConfigError.InvalidData([], `must be a comma-separated list of IP addresses, got "${bad}"`))
  }),
  Config.withDefault<ReadonlySet<string>>(new Set()),
)

export const serverConfig: Config.Config<ServerConfig> = Config.all({
  host: nonBlank("HOST", SERVER_DEFAULTS.host),
  port: integerIn("PORT", SERVER_DEFAULTS.port, 0, 65_535),
  apiDisabled: flag("API_DISABLED"),
  quoteTimeoutMs: quoteTimeoutConfig,
  swapTimeoutMs: integerIn("SWAP_TIMEOUT_MS", SERVER_DEFAULTS.swapTimeoutMs, 1, 600_000),
  bodyTimeoutMs: integerIn("BODY_TIMEOUT_MS", SERVER_DEFAULTS.bodyTimeoutMs, 1, 600_000),
  maxInFlight: integerIn("MAX_IN_FLIGHT", SERVER_DEFAULTS.maxInFlight, 1, 1_000_000),
  badKeyLimitPerMinute: integerIn("BAD_KEY_LIMIT_PER_MINUTE", SERVER_DEFAULTS.badKeyLimitPerMinute, 1, 1_000_000),
  shutdownTimeoutMs: integerIn("SHUTDOWN_TIMEOUT_MS", SERVER_DEFAULTS.shutdownTimeoutMs, 0, 600_000),
  trustedProxies,
})
