// The domain room's door: the vocabulary every room shares, as plain data and
// pure functions (no Effect, no I/O): Arc's chains and USDC at its two scales,
// EIP-55 checksums, tokens as a request names them, the World a request is
// priced on, the route executor's routes, quote requests and answers, and
// reference prices, and the EIP-712 typed data of EIP-2612 permits and of gasless
// swap orders.
export {
  USDC_ERC20_ADDRESS,
  USDC_ERC20_DECIMALS,
  USDC_NATIVE_DECIMALS,
  USDC_NATIVE_SCALE,
  USDC_SYMBOL,
  NATIVE_ZERO_PLACEHOLDER,
  NATIVE_EEEE_PLACEHOLDER,
  isNativePlaceholder,
  isUsdc,
  isUsdcErc20,
  nativeToErc20,
  erc20ToNative,
} from "./usdc.ts"
export { checksum } from "./checksum.ts"
export { ARC_CHAIN_ID, ARC_CHAIN_IDS, ARC_CHAINS_TEXT, ARC_TESTNET_CHAIN_ID, arcChainName, describeArcChain, isArcChainId, type ArcChainId } from "./chains.ts"
export type { NormalizedToken, Routability, UnroutableReason } from "./token.ts"
export type { PriceFeedConfig, UsdPrice } from "./usd-price.ts"
export type { ExecutorSettings, World } from "./world.ts"
export {
  fixedAmount,
  type GasCost,
  type QuoteFees,
  type QuoteRequest,
  type QuoteResponse,
  type QuoteTerms,
  type RouteEntry,
  type RouteHop,
  type TradeAmount,
  type TradeType,
} from "./quote.ts"
export {
  HOP_KIND,
  TRADE_HOP_KINDS,
  type ExecutorHop,
  type ExecutorRoute,
  type ExecutorSplit,
  type ExternalExactOutputHop,
  type ExternalHop,
  type HopKind,
  type StableExactOutputHop,
  type StableHop,
  type V2Hop,
  type V3Hop,
  type V4Hop,
} from "./route.ts"
export { PERMIT_TYPES, permitTypedData, type PermitTypedData, type PermitTypedDataParams } from "./permit.ts"
export {
  ORDER_DOMAIN_NAME,
  ORDER_DOMAIN_VERSION,
  SWAP_ORDER_TYPES,
  swapOrderTypedData,
  type SwapOrder,
  type SwapOrderTypedData,
} from "./order.ts"
