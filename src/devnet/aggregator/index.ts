// The devnet aggregator's door: a local aggregator API over liquidity only it knows.
export {
  DEVNET_AGGREGATOR_API_KEY,
  DEVNET_AGGREGATOR_KIND,
  DEVNET_AGGREGATOR_NAME,
  startDevnetAggregator,
  type AggregatorMode,
  type DevnetAggregator,
  type DevnetAggregatorOptions,
} from "./server.ts"
export { makeAggregatorLiquidity, ROUTER_TX_OVERHEAD_GAS, type AggregatorLiquidity, type AggregatorPool, type LiquidityBuyQuote, type LiquidityQuote } from "./liquidity.ts"
