// The pieces every settings file reads with: integers in a range, true/false
// flags, one line per problem, and the error that stops a start.
import { Config, ConfigError, ConfigProvider, Effect, Either } from "effect"

/** An integer from `min` to `max`, written in decimal digits. */
export const integerFrom = (name: string, min: number, max: number): Config.Config<number> =>
  Config.string(name).pipe(
    Config.mapOrFail((text) =>
      /^\d+$/.test(text) && Number(text) >= min && Number(text) <= max
        ? Either.right(Number(text))
        : Either.left(ConfigError.InvalidData([], `must be an integer from ${min} to ${max}, got "${text}"`)),
    ),
  )

export const integerIn = (name: string, fallback: number, min: number, max: number): Config.Config<number> =>
  integerFrom(name, min, max).pipe(Config.withDefault(fallback))

/** true/false, yes/no, on/off, 1/0; unset or empty is false. */
export const flag = (name: string): Config.Config<boolean> =>
  Config.string(name).pipe(
    Config.mapOrFail((text) => {
      const t = text.trim().toLowerCase()
      if (["1", "true", "yes", "on"].includes(t)) return Either.right(true)
      if (["", "0", "false", "no", "off"].includes(t)) return Either.right(false)
      return Either.left(ConfigError.InvalidData([], `must be true or false, got "${text}"`))
    }),
    Config.withDefault(false),
  )

/** A string that must not be blank. */
export const nonBlank = (name: string, fallback: string): Config.Config<string> =>
  Config.string(name).pipe(
    Config.validate({ message: "must not be empty", validation: (s) => s.trim() !== "" }),
    Config.withDefault(fallback),
  )

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

/** Variables as a ConfigProvider (unset names are missing; the process environment is not read). */
export const variablesProvider = (env: Readonly<Record<string, string | undefined>>): ConfigProvider.ConfigProvider =>
  ConfigProvider.fromMap(new Map(Object.entries(env).filter((kv): kv is [string, string] => kv[1] !== undefined)))

/**
 * Reads `config` from the current ConfigProvider (the process environment unless
 * one was set), or from `source`: variables, or a ConfigProvider.
 */
export const loadConfig = <A>(
  config: Config.Config<A>,
  source?: Readonly<Record<string, string | undefined>> | ConfigProvider.ConfigProvider,
): Effect.Effect<A, ConfigurationError> => {
  const effect = Effect.mapError(config, (e) => new ConfigurationError(`invalid configuration:\n${formatConfigError(e)}`))
  if (source === undefined) return effect
  return Effect.withConfigProvider(effect, ConfigProvider.ConfigProviderTypeId in source ? (source as ConfigProvider.ConfigProvider) : variablesProvider(source as Readonly<Record<string, string | undefined>>))
}
