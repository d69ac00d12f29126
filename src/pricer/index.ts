// The pricer room's door: pure functions from one World, the request's tokens
// and the sources' answers to a priced quote or a refusal. No Effect, no I/O.
export type { DisplayHop, SourceRequest, SourceRoute } from "./route.ts"
export { ownRoute, ownRouteExactOutput, OWN_ROUTER, type OwnRouteOptions } from "./own-route.ts"
export { betterRoute, rankRoutes } from "./rank.ts"
export { gasCostOf, price, sourceRequest, type PriceOptions, type PricingTokens, type Priced, type Refusal } from "./price.ts"
export { fixedAmount, type GasCost, type QuoteFees, type QuoteRequest, type QuoteResponse, type QuoteTerms, type RouteEntry, type RouteHop, type TradeAmount, type TradeType } from "./quote.ts"
