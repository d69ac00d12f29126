// The pricer room's door: pure functions from one World, the request's tokens
// and the sources' answers to a priced quote or a refusal, with the two kinds
// of arithmetic it prices with: the fee formulas (fees.ts) and what reference
// prices measure (impact.ts). No Effect, no I/O.
export { isExactOutputRequest, type AnySourceRequest, type DisplayHop, type ExactOutputSourceRequest, type SourceRequest, type SourceRoute } from "./route.ts"
export { ownRoute, ownRouteExactOutput, OWN_ROUTER, type OwnRouteOptions } from "./own-route.ts"
export { betterRoute, rankRoutes, rankRoutesExactOutput } from "./rank.ts"
export { gasCostOf, price, relayerFeeOf, sourceRequest, type PriceOptions, type PricingTokens, type Priced, type Refusal } from "./price.ts"
export { BPS, bpsOf, grossForNet, maxAmountIn, minAmountOut, splitFees, type FeeRates, type FeeSplit } from "./fees.ts"
export { nativeToToken, priceImpactBps } from "./impact.ts"
