// The addresses room's door: Arc's chains, Arc's USDC at its two scales and EIP-55 checksums.
// Pure: no Effect, no I/O.
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
