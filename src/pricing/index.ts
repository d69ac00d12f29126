// The pricing room's door: reference prices and what they measure.
export { nativeToToken, priceImpactBps } from "./impact.ts"
export type { PriceFeedConfig, UsdPrice } from "./usd-price.ts"
