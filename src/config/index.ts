// The configuration room's door: every setting the service and its commands
// read, from the environment (and from a devnet manifest for the chain side),
// checked once at start with a message naming each bad variable.
export { AppConfig, appConfig, loadAppConfig, loadKeyStoreConfig, type AppConfigShape } from "./app-config.ts"
export { adminConfig, type AdminListen } from "./admin.ts"
export { keyStoreConfig, parseDatabaseUrl, type DatabaseLocation, type KeyStoreConfig } from "./key-store.ts"
export { sharedLimitsConfig, type LimitFailureMode, type SharedLimitsConfig } from "./shared-limits.ts"
export { serverConfig, type ServerConfig } from "./server.ts"
export { logFormatConfig, logLevelConfig, type LogFormat } from "./logging.ts"
export {
  ChainConfig,
  chainSettings,
  chainSettingsConfig,
  DEFAULT_MARKET_SNAPSHOT,
  loadChainSettings,
  type ChainSettings,
} from "./chain.ts"
export { VENUE_KINDS, Venue, venueContract, type ServedVenue, type VenueKind } from "./dexes.ts"
export { AGGREGATOR_KINDS, DEFAULT_AGGREGATOR_TIMEOUT_MS, type AggregatorSettings } from "./aggregators.ts"
export type { PriceFeedSettings } from "./price-feeds.ts"
export { manifestProvider, manifestVariables, withManifest, type ManifestSource } from "./manifest-source.ts"
export { ServiceConfigLive } from "./service-config.ts"
export { ConfigurationError, formatConfigError, loadConfig, variablesProvider } from "./values.ts"
export { DEFAULT_RELAYER_FEE_MARGIN_BPS, parsePrivateKey, relayerConfig, type RelayerSettings } from "./relayer.ts"
