// AppConfig: the API service's settings, read once at start and checked there;
// a bad value stops the start with a message naming the variable.
import { Config, Context, Effect, Layer, type ConfigProvider, type LogLevel, type Option } from "effect"
import { adminConfig, marketStaleAfterConfig, type AdminListen } from "./admin.ts"
import { keyStoreConfig, type KeyStoreConfig } from "./key-store.ts"
import { logFormatConfig, logLevelConfig, type LogFormat } from "./logging.ts"
import { serverConfig, type ServerConfig } from "./server.ts"
import { sharedLimitsConfig, type SharedLimitsConfig } from "./shared-limits.ts"
import { loadConfig, type ConfigurationError } from "./values.ts"

export interface AppConfigShape extends ServerConfig {
  readonly keyStore: KeyStoreConfig
  readonly logLevel: LogLevel.LogLevel
  /** json: one JSON object per line (timestamp, level, message, requestId, …); text: logfmt */
  readonly logFormat: LogFormat
  /** shared limits; none: each instance keeps its own in process */
  readonly sharedLimits: Option.Option<SharedLimitsConfig>
  /** the admin listener (/metrics, /health); none: not started */
  readonly admin: Option.Option<AdminListen>
  /** /health answers 503 when the market has not been refreshed for longer than this */
  readonly marketStaleAfterMs: number
}

export const appConfig: Config.Config<AppConfigShape> = Config.all({
  server: serverConfig,
  keyStore: keyStoreConfig,
  logLevel: logLevelConfig,
  logFormat: logFormatConfig,
  sharedLimits: sharedLimitsConfig,
  admin: adminConfig,
  marketStaleAfterMs: marketStaleAfterConfig,
}).pipe(Config.map(({ server, ...rest }): AppConfigShape => ({ ...server, ...rest })))

type Variables = Readonly<Record<string, string | undefined>>

/** Reads the key-store settings (for `bun run keys`) from the environment, or from `source` when given. */
export const loadKeyStoreConfig = (source?: Variables | ConfigProvider.ConfigProvider): Effect.Effect<KeyStoreConfig, ConfigurationError> =>
  loadConfig(keyStoreConfig, source)

/** Reads every setting from the environment, or from `source` when given. */
export const loadAppConfig = (source?: Variables | ConfigProvider.ConfigProvider): Effect.Effect<AppConfigShape, ConfigurationError> =>
  loadConfig(appConfig, source)

export class AppConfig extends Context.Tag("config/AppConfig")<AppConfig, AppConfigShape>() {
  /** from the process environment (or the ConfigProvider in effect) */
  static readonly layer: Layer.Layer<AppConfig, ConfigurationError> = Layer.effect(AppConfig, loadAppConfig())
  /** from the given variables only (tests, embedding); unset names take their defaults */
  static readonly layerFrom = (source: Variables | ConfigProvider.ConfigProvider): Layer.Layer<AppConfig, ConfigurationError> =>
    Layer.effect(AppConfig, loadAppConfig(source))
}
