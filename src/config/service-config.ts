// Everything `bun run serve` reads, checked together: one message names every
// bad variable, the API's and the chain's.
import { Config, Context, Effect, Layer, type ConfigProvider } from "effect"
import { AppConfig, appConfig } from "./app-config.ts"
import { ChainConfig, chainSettingsConfig } from "./chain.ts"
import { loadConfig, type ConfigurationError } from "./values.ts"

/** AppConfig and ChainConfig from the environment (or the ConfigProvider in effect), or from `source`. */
export const ServiceConfigLive = (
  source?: Readonly<Record<string, string | undefined>> | ConfigProvider.ConfigProvider,
): Layer.Layer<AppConfig | ChainConfig, ConfigurationError> =>
  Layer.effectContext(
    Effect.map(loadConfig(Config.all({ app: appConfig, chain: chainSettingsConfig }), source), ({ app, chain }) =>
      Context.make(AppConfig, app).pipe(Context.add(ChainConfig, chain))),
  )
