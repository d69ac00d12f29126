// The tokens room's door: the token registry service and USDC's two scales.
export {
  Tokens,
  TokenError,
  PROBE_RECEIVER,
  makeTokens,
  parseTokenAddress,
  type NormalizedToken,
  type Routability,
  type TokenMetadata,
  type TokensConfig,
  type TokensService,
  type UnroutableReason,
} from "./tokens.ts"
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
