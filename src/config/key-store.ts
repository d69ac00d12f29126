// Where the API keys live (DATABASE_URL), the secret of their stored hashes
// (KEY_HASH_SECRET) and how long one query may take.
import { Config, ConfigError, Either, Option, Redacted } from "effect"
import { isAbsolute, resolve } from "node:path"
import { integerIn } from "./values.ts"

const KEY_STORE_DEFAULTS = {
  databaseUrl: ".data/keys.sqlite",
  databaseTimeoutMs: 2_000,
} as const

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
    Config.withDefault<DatabaseLocation>(Either.getOrThrow(parseDatabaseUrl(KEY_STORE_DEFAULTS.databaseUrl))),
  ),
  keyHashSecret: Config.string("KEY_HASH_SECRET").pipe(
    Config.mapOrFail((text) =>
      text.length >= 32
        ? Either.right(Option.some(Redacted.make(text)))
        : Either.left(ConfigError.InvalidData([], `must be at least 32 characters, got ${text.length}`))),
    Config.withDefault(Option.none<Redacted.Redacted<string>>()),
  ),
  timeoutMs: integerIn("DATABASE_TIMEOUT_MS", KEY_STORE_DEFAULTS.databaseTimeoutMs, 1, 600_000),
}).pipe(
  // a file secret beside the database cannot be shared by instances on other machines
  Config.mapOrFail((config) =>
    config.database.kind === "postgres" && Option.isNone(config.keyHashSecret)
      ? Either.left(ConfigError.InvalidData(["KEY_HASH_SECRET"], "required with a postgres:// DATABASE_URL: every instance and bun run keys must use the same secret"))
      : Either.right(config)),
)
