// Arc's USDC at its two scales: the native currency (18 decimals, addressed by
// the zero address or the 0xEeee… placeholder) and the ERC-20 at 0x3600…
// (6 decimals) are one balance. Pools hold the ERC-20; native amounts are
// converted at 10^12 native units per ERC-20 unit.
import type { Address } from "viem"

export const USDC_ERC20_ADDRESS: Address = "0x3600000000000000000000000000000000000000"
export const USDC_SYMBOL = "USDC"
export const USDC_ERC20_DECIMALS = 6
export const USDC_NATIVE_DECIMALS = 18
/** native units per ERC-20 unit */
export const USDC_NATIVE_SCALE = 10n ** 12n

export const NATIVE_ZERO_PLACEHOLDER: Address = "0x0000000000000000000000000000000000000000"
export const NATIVE_EEEE_PLACEHOLDER: Address = "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE"

const ZERO = NATIVE_ZERO_PLACEHOLDER.toLowerCase()
const EEEE = NATIVE_EEEE_PLACEHOLDER.toLowerCase()

/** True for the two native placeholders, in any letter case (no checksum rule applies to them). */
export const isNativePlaceholder = (address: string): boolean => {
  const lower = address.toLowerCase()
  return lower === ZERO || lower === EEEE
}

/** True for the USDC ERC-20 at 0x3600… (any letter case). */
export const isUsdcErc20 = (address: string): boolean => address.toLowerCase() === USDC_ERC20_ADDRESS

/** True for USDC in either form. */
export const isUsdc = (address: string): boolean => isNativePlaceholder(address) || isUsdcErc20(address)

/**
 * A native amount (18 decimals) as ERC-20 units (6 decimals), rounded down; `dust` is the
 * native remainder below one ERC-20 unit, which the executor refunds.
 */
export const nativeToErc20 = (nativeAmount: bigint): { readonly amount: bigint; readonly dust: bigint } => ({
  amount: nativeAmount / USDC_NATIVE_SCALE,
  dust: nativeAmount % USDC_NATIVE_SCALE,
})

/** ERC-20 USDC units (6 decimals) as native units (18 decimals); exact. */
export const erc20ToNative = (erc20Amount: bigint): bigint => erc20Amount * USDC_NATIVE_SCALE
