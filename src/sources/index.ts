// The sources room's door: the external aggregators behind one Source interface.
export { Sources, SourceError, isExternalRoute, type Source } from "./source.ts"
export {
  AGGREGATOR_DEFAULTS,
  DEFAULT_AGGREGATOR_GAS,
  EXTERNAL_EXACT_OUTPUT_EXTRA_GAS,
  EXTERNAL_HOP_OVERHEAD_GAS,
  externalRouteGas,
  externalSource,
  type AggregatorClient,
  type AggregatorConfig,
  type AggregatorKind,
  type ExternalAnswer,
  type ExternalBuyAnswer,
  type ExternalContext,
  type ExternalSource,
} from "./external.ts"
export { externalSources } from "./configure.ts"
export { zeroExSource, ZEROEX_QUOTE_PATH } from "./zeroex.ts"
export { kyberSwapSource, KYBERSWAP_BUILD_PATH, KYBERSWAP_DEFAULT_CLIENT_ID, KYBERSWAP_ROUTES_PATH } from "./kyberswap.ts"
export { makeCircuitBreaker, type CircuitBreaker, type CircuitBreakerOptions, type CircuitState } from "./circuit-breaker.ts"
export { countSource, sourceCounts, SourceMetrics, type SourceCounts, type SourceMetricName } from "./metrics.ts"
