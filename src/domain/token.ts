// What a token is to a request: its ERC-20 form and scale, and whether the
// service routes it (and why not).
import type { Address } from "viem"

/** A token as a request names it, mapped onto the ERC-20 the pools hold. */
export interface NormalizedToken {
  /** the address as given (checksummed; a native placeholder as given) */
  readonly input: string
  /** true for native USDC (0x000…0 or 0xEeee…) */
  readonly native: boolean
  /** the ERC-20 pools hold: 0x3600… for USDC in either form, else the token itself (checksummed) */
  readonly erc20Address: Address
  /** units of the given form per ERC-20 unit: 10^12 for native USDC, 1 otherwise */
  readonly scale: bigint
  /** decimals of the given form (native USDC 18, ERC-20 USDC 6) */
  readonly decimals: number
  readonly symbol: string
}

/** Why a token is not routed. */
export type UnroutableReason =
  /** a transfer delivers less than it debits */
  | "fee-on-transfer"
  /** balances change without transfers */
  | "rebasing"
  /** a plain transfer reverts */
  | "transfer-restricted"
  /** a transfer debits or credits something other than the amount */
  | "irregular-transfer"
  /** no ERC-20 answers at the address */
  | "not-a-token"
  /** no known account holds the token, so nothing could be checked (not cached) */
  | "unverified"

export type Routability =
  | { readonly routable: true }
  | { readonly routable: false; readonly reason: UnroutableReason; readonly detail: string }
