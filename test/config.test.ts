// AppConfig: defaults, every variable read, and one clear line per bad value.
import { describe, expect, test } from "bun:test"
import { Effect, Either, LogLevel, Option, Redacted } from "effect"
import { resolve } from "node:path"
import { loadAppConfig, loadKeyStoreConfig, parseDatabaseUrl } from "../src/config.ts"

const load = (env: Record<string, string>) => Effect.runPromise(Effect.either(loadAppConfig(env)))

describe("AppConfig", () => {
  test("defaults", async () => {
    const config = Either.getOrThrow(await load({}))
    expect(config).toEqual({
      host: "127.0.0.1",
      port: 8080,
      keyStore: { database: { kind: "sqlite", path: resolve(".data/keys.sqlite") }, keyHashSecret: Option.none() },
      apiDisabled: false,
      quoteTimeoutMs: 5000,
      swapTimeoutMs: 10000,
      maxInFlight: 256,
      badKeyLimitPerMinute: 20,
      shutdownTimeoutMs: 10000,
      logLevel: LogLevel.Info,
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
      MAX_IN_FLIGHT: "64",
      BAD_KEY_LIMIT_PER_MINUTE: "5",
      SHUTDOWN_TIMEOUT_MS: "0",
      LOG_LEVEL: "warn",
    }))
    expect(config.host).toBe("0.0.0.0")
    expect(config.port).toBe(0)
    expect(config.keyStore.database).toEqual({ kind: "sqlite", path: "/var/lib/arc/keys.db" })
    expect(Option.map(config.keyStore.keyHashSecret, Redacted.value)).toEqual(Option.some("k".repeat(32)))
    expect(config.apiDisabled).toBe(true)
    expect([config.quoteTimeoutMs, config.swapTimeoutMs, config.maxInFlight, config.badKeyLimitPerMinute, config.shutdownTimeoutMs]).toEqual([2500, 7000, 64, 5, 0])
    expect(config.logLevel).toBe(LogLevel.Warning)
    // the secret never prints
    expect(String(Option.getOrThrow(config.keyStore.keyHashSecret))).not.toContain("kkkk")
  })

  test("bad values: one line each, naming the variable", async () => {
    const result = await load({ PORT: "65536", API_DISABLED: "maybe", QUOTE_TIMEOUT_MS: "0", LOG_LEVEL: "verbose", DATABASE_URL: "mysql://db", KEY_HASH_SECRET: "short" })
    expect(Either.isLeft(result)).toBe(true)
    const lines = Either.isLeft(result) ? result.left.message.split("\n") : []
    expect(lines[0]).toBe("invalid configuration:")
    expect(lines).toContain('PORT: must be an integer from 0 to 65535, got "65536"')
    expect(lines).toContain('API_DISABLED: must be true or false, got "maybe"')
    expect(lines).toContain('QUOTE_TIMEOUT_MS: must be an integer from 1 to 600000, got "0"')
    expect(lines).toContain('DATABASE_URL: unsupported scheme in "mysql://db": use a file path or sqlite: URL')
    expect(lines).toContain("KEY_HASH_SECRET: must be at least 32 characters, got 5")
    expect(lines.some((l) => l.startsWith("LOG_LEVEL: "))).toBe(true)
  })

  test("DATABASE_URL forms", () => {
    expect(parseDatabaseUrl("keys.sqlite", "/srv")).toEqual(Either.right({ kind: "sqlite", path: "/srv/keys.sqlite" }))
    expect(parseDatabaseUrl("sqlite:data/k.db", "/srv")).toEqual(Either.right({ kind: "sqlite", path: "/srv/data/k.db" }))
    expect(parseDatabaseUrl("sqlite://data/k.db", "/srv")).toEqual(Either.right({ kind: "sqlite", path: "/srv/data/k.db" }))
    expect(parseDatabaseUrl("sqlite:///abs/k.db", "/srv")).toEqual(Either.right({ kind: "sqlite", path: "/abs/k.db" }))
    expect(parseDatabaseUrl(":memory:")).toEqual(Either.right({ kind: "memory" }))
    expect(parseDatabaseUrl("sqlite::memory:")).toEqual(Either.right({ kind: "memory" }))
    expect(parseDatabaseUrl("postgres://u@h/db")).toEqual(Either.left("a postgres:// key store is not part of this build; use a file path or sqlite: URL"))
    expect(parseDatabaseUrl("")).toEqual(Either.left("must not be empty"))
  })

  test("the key store settings alone (for bun run keys)", async () => {
    const config = await Effect.runPromise(loadKeyStoreConfig({ DATABASE_URL: ":memory:", PORT: "not read here" }))
    expect(config).toEqual({ database: { kind: "memory" }, keyHashSecret: Option.none() })
  })
})
