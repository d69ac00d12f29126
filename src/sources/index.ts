// The sources room's door: the Source interface, the own router and the external aggregators.
export {
  Sources,
  SourceError,
  betterRoute,
  isExternalRoute,
  rankRoutes,
  type DisplayHop,
  type Source,
  type SourceRequest,
  type SourceRoute,
} from "./source.ts"
export { routerSource, ROUTER_SOURCE } from "./router-source.ts"
export {
  AGGREGATOR_DEFAULTS,
  AGGREGATOR_KINDS,
  DEFAULT_AGGREGATOR_GAS,
  EXTERNAL_HOP_OVERHEAD_GAS,
  externalRouteGas,
  externalSource,
  RouterCheckFailed,
  type AggregatorConfig,
  type AggregatorKind,
  type ExternalAnswer,
  type ExternalContext,
  type ExternalSource,
} from "./external.ts"
export { checkAggregatorConfig, externalSources } from "./configure.ts"
export { zeroExSource, ZEROEX_QUOTE_PATH } from "./zeroex.ts"
export { kyberSwapSource, KYBERSWAP_BUILD_PATH, KYBERSWAP_DEFAULT_CLIENT_ID, KYBERSWAP_ROUTES_PATH } from "./kyberswap.ts"
export { makeRouterAllowlist, ALLOWLIST_TTL_MS } from "./router-allowlist.ts"
export { makeCircuitBreaker, type CircuitBreaker, type CircuitBreakerOptions, type CircuitState } from "./circuit-breaker.ts"
export { countSource, sourceCounts, SourceMetrics, type SourceCounts, type SourceMetricName } from "./metrics.ts"
