// The pricing room's door: reference prices and what they measure.
export { ReferencePrices, type PriceFeedConfig, type ReferencePricesShape, type UsdPrice } from "./reference-prices.ts"
export { nativeToToken, priceImpactBps } from "./impact.ts"
