// AppConfig: defaults, every variable read, and one clear line per bad value.
import { describe, expect, test } from "bun:test"
import { Effect, Either, LogLevel, Option, Redacted } from "effect"
import { resolve } from "node:path"
import { loadAppConfig, loadKeyStoreConfig, parseDatabaseUrl } from "../src/config/index.ts"

const load = (env: Record<string, string>) => Effect.runPromise(Effect.either(loadAppConfig(env)))

describe("AppConfig", () => {
  test("defaults", async () => {
    const config = Either.getOrThrow(await load({}))
    expect(config).toEqual({
      host: "127.0.0.1",
      port: 8080,
      keyStore: { database: { kind: "sqlite", path: resolve(".data/keys.sqlite") }, keyHashSecret: Option.none(), timeoutMs: 2000 },
      apiDisabled: false,
      quoteTimeoutMs: 5000,
      swapTimeoutMs: 10000,
      bodyTimeoutMs: 5000,
      maxInFlight: 256,
      badKeyLimitPerMinute: 20,
      shutdownTimeoutMs: 10000,
      logLevel: LogLevel.Info,
      logFormat: "json",
      sharedLimits: Option.none(),
      admin: Option.none(),
      marketStaleAfterMs: 10000,
      trustedProxies: new Set(),
    })
  })

  test("every variable", async () => {
    const config = Either.getOrThrow(await load({
      HOST: "0.0.0.0",
      PORT: "0",
      DATABASE_URL: "sqlite:///var/lib/arc/keys.db",
      KEY_HASH_SECRET: "k".repeat(32),
      API_DISABLED: "yes",
      QUOTE_TIMEOUT_MS: "2500",
      SWAP_TIMEOUT_MS: "7000",
      BODY_TIMEOUT_MS: "1200",
      MAX_IN_FLIGHT: "64",
      BAD_KEY_LIMIT_PER_MINUTE: "5",
      SHUTDOWN_TIMEOUT_MS: "0",
      LOG_LEVEL: "warn",
      DATABASE_TIMEOUT_MS: "1500",
      LOG_FORMAT: "text",
      REDIS_URL: "redis://:pw@cache.internal:6380/2",
      REDIS_PREFIX: "swap-eu:",
      REDIS_TIMEOUT_MS: "100",
      INFLIGHT_LEASE_MS: "5000",
      LIMITS_ON_REDIS_FAILURE: "closed",
      ADMIN_PORT: "9090",
      ADMIN_HOST: "0.0.0.0",
      ADMIN_TOKEN: "admin-token-of-this-test",
      MARKET_STALE_AFTER_MS: "3000",
      TRUSTED_PROXIES: "10.0.0.5, [fd00::1]",
    }))
    expect(config.host).toBe("0.0.0.0")
    expect(config.port).toBe(0)
    expect(config.keyStore.database).toEqual({ kind: "sqlite", path: "/var/lib/arc/keys.db" })
    expect(Option.map(config.keyStore.keyHashSecret, Redacted.value)).toEqual(Option.some("k".repeat(32)))
    expect(config.apiDisabled).toBe(true)
    expect([config.quoteTimeoutMs, config.swapTimeoutMs, config.bodyTimeoutMs, config.maxInFlight, config.badKeyLimitPerMinute, config.shutdownTimeoutMs]).toEqual([2500, 7000, 1200, 64, 5, 0])
    expect(config.logLevel).toBe(LogLevel.Warning)
    expect(config.keyStore.timeoutMs).toBe(1500)
    expect(config.logFormat).toBe("text")
    const shared = Option.getOrThrow(config.sharedLimits)
    expect(Redacted.value(shared.url)).toBe("redis://:pw@cache.internal:6380/2")
    expect({ ...shared, url: undefined }).toEqual({ url: undefined, prefix: "swap-eu:", timeoutMs: 100, leaseMs: 5000, onFailure: "closed" })
    const admin = Option.getOrThrow(config.admin)
    expect({ ...admin, token: Option.map(admin.token, Redacted.value) }).toEqual({ host: "0.0.0.0", port: 9090, token: Option.some("admin-token-of-this-test") })
    expect(config.marketStaleAfterMs).toBe(3000)
    expect(config.trustedProxies).toEqual(new Set(["10.0.0.5", "[fd00::1]"]))
    // the secrets never print
    expect(String(Option.getOrThrow(config.keyStore.keyHashSecret))).not.toContain("kkkk")
    expect(String(shared.url)).not.toContain("pw@")
    expect(String(Option.getOrThrow(admin.token))).not.toContain("admin-token")
  })

  test("bad values: one line each, naming the variable", async () => {
    const result = await load({ PORT: "65536", API_DISABLED: "maybe", QUOTE_TIMEOUT_MS: "0", LOG_LEVEL: "verbose", DATABASE_URL: "mysql://db", KEY_HASH_SECRET: "short" })
    expect(Either.isLeft(result)).toBe(true)
    const lines = Either.isLeft(result) ? result.left.message.split("\n") : []
    expect(lines[0]).toBe("invalid configuration:")
    expect(lines).toContain('PORT: must be an integer from 0 to 65535, got "65536"')
    expect(lines).toContain('API_DISABLED: must be true or false, got "maybe"')
    expect(lines).toContain('QUOTE_TIMEOUT_MS: must be an integer from 1 to 600000, got "0"')
    expect(lines).toContain('DATABASE_URL: unsupported scheme in "mysql://db": use a file path, a sqlite: URL or a postgres:// URL')
    expect(lines).toContain("KEY_HASH_SECRET: must be at least 32 characters, got 5")
    expect(lines.some((l) => l.startsWith("LOG_LEVEL: "))).toBe(true)
  })

  test("shared limits, admin listener, log format: bad values named", async () => {
    const result = await load({ REDIS_URL: "http://cache", INFLIGHT_LEASE_MS: "50", LIMITS_ON_REDIS_FAILURE: "maybe", ADMIN_PORT: "x", LOG_FORMAT: "xml", TRUSTED_PROXIES: "10.0.0.1,lb.internal" })
    const lines = Either.isLeft(result) ? result.left.message.split("\n") : []
    expect(lines).toContain('REDIS_URL: must be a redis:// or rediss:// URL, got scheme "http:"')
    expect(lines).toContain('INFLIGHT_LEASE_MS: must be an integer from 100 to 3600000, got "50"')
    expect(lines).toContain('ADMIN_PORT: must be an integer from 0 to 65535, got "x"')
    expect(lines.some((l) => l.startsWith("LIMITS_ON_REDIS_FAILURE: "))).toBe(true)
    expect(lines.some((l) => l.startsWith("LOG_FORMAT: "))).toBe(true)
    expect(lines).toContain('TRUSTED_PROXIES: must be a comma-separated list of IP addresses, got "lb.internal"')
  })

  test("an admin listener off loopback needs ADMIN_TOKEN; on loopback it is optional; an empty one is refused", async () => {
    const lines = async (env: Record<string, string>) => {
      const result = await load(env)
      return Either.isLeft(result) ? result.left.message.split("\n") : []
    }
    const required = (host: string) => `ADMIN_TOKEN: required when ADMIN_HOST is not loopback (got "${host}"): admin requests must then carry Authorization: Bearer <ADMIN_TOKEN>`
    for (const host of ["0.0.0.0", "::", "10.1.2.3", "admin.internal", "127.0.0.1.example"]) {
      expect(await lines({ ADMIN_PORT: "9090", ADMIN_HOST: host })).toEqual(["invalid configuration:", required(host)])
    }
    for (const host of ["127.0.0.1", "127.8.9.10", "localhost", "::1", "[::1]"]) {
      const config = Either.getOrThrow(await load({ ADMIN_PORT: "9090", ADMIN_HOST: host }))
      expect(config.admin).toEqual(Option.some({ host, port: 9090, token: Option.none() }))
    }
    // no listener, nothing to protect
    expect(Either.getOrThrow(await load({ ADMIN_HOST: "0.0.0.0" })).admin).toEqual(Option.none())
    expect(await lines({ ADMIN_PORT: "9090", ADMIN_HOST: "0.0.0.0", ADMIN_TOKEN: "" })).toContain("ADMIN_TOKEN: must not be empty or hold spaces")
    expect(await lines({ ADMIN_PORT: "9090", ADMIN_TOKEN: "two words" })).toContain("ADMIN_TOKEN: must not be empty or hold spaces")
  })

  test("a postgres:// key store needs KEY_HASH_SECRET (instances and bun run keys must share it)", async () => {
    const without = await load({ DATABASE_URL: "postgres://app@db.internal:5432/keys" })
    expect(Either.isLeft(without) ? without.left.message.split("\n") : []).toEqual([
      "invalid configuration:",
      "KEY_HASH_SECRET: required with a postgres:// DATABASE_URL: every instance and bun run keys must use the same secret",
    ])
    const config = Either.getOrThrow(await load({ DATABASE_URL: "postgres://app@db.internal:5432/keys", KEY_HASH_SECRET: "s".repeat(40) }))
    expect(config.keyStore.database.kind).toBe("postgres")
  })

  test("DATABASE_URL forms", () => {
    expect(parseDatabaseUrl("keys.sqlite", "/srv")).toEqual(Either.right({ kind: "sqlite", path: "/srv/keys.sqlite" }))
    expect(parseDatabaseUrl("sqlite:data/k.db", "/srv")).toEqual(Either.right({ kind: "sqlite", path: "/srv/data/k.db" }))
    expect(parseDatabaseUrl("sqlite://data/k.db", "/srv")).toEqual(Either.right({ kind: "sqlite", path: "/srv/data/k.db" }))
    expect(parseDatabaseUrl("sqlite:///abs/k.db", "/srv")).toEqual(Either.right({ kind: "sqlite", path: "/abs/k.db" }))
    expect(parseDatabaseUrl(":memory:")).toEqual(Either.right({ kind: "memory" }))
    expect(parseDatabaseUrl("sqlite::memory:")).toEqual(Either.right({ kind: "memory" }))
    for (const url of ["postgres://u@h/db", "postgresql://u:p@h:5433/db?options=-c%20search_path%3Dkeys"]) {
      const parsed = Either.getOrThrow(parseDatabaseUrl(url))
      expect(parsed.kind === "postgres" && Redacted.value(parsed.url)).toBe(url)
    }
    expect(parseDatabaseUrl("postgres://")).toEqual(Either.left("a postgres:// URL must name a host"))
    expect(parseDatabaseUrl("")).toEqual(Either.left("must not be empty"))
  })

  test("the key store settings alone (for bun run keys)", async () => {
    const config = await Effect.runPromise(loadKeyStoreConfig({ DATABASE_URL: ":memory:", PORT: "not read here" }))
    expect(config).toEqual({ database: { kind: "memory" }, keyHashSecret: Option.none(), timeoutMs: 2000 })
  })
})
