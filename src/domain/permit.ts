// EIP-2612 permits: the EIP-712 typed data an owner signs to let a spender take its tokens
// (viem's signTypedData / hashTypedData take it as it is).
import type { Address } from "viem"

export interface PermitTypedDataParams {
  /** the token, the domain's verifyingContract */
  readonly token: Address
  /** the token's EIP-712 domain name and version (the devnet's and Arc's USDC: "USDC", "2") */
  readonly name: string
  readonly version: string
  readonly chainId: number
  readonly owner: Address
  readonly spender: Address
  /** the allowance the permit sets, token's smallest unit */
  readonly value: bigint
  /** the owner's current nonces(owner) on the token */
  readonly nonce: bigint
  /** unix seconds */
  readonly deadline: bigint
}

/** EIP-2612's Permit type. */
export const PERMIT_TYPES = {
  Permit: [
    { name: "owner", type: "address" },
    { name: "spender", type: "address" },
    { name: "value", type: "uint256" },
    { name: "nonce", type: "uint256" },
    { name: "deadline", type: "uint256" },
  ],
} as const

export interface PermitTypedData {
  readonly domain: { readonly name: string; readonly version: string; readonly chainId: number; readonly verifyingContract: Address }
  readonly types: typeof PERMIT_TYPES
  readonly primaryType: "Permit"
  readonly message: { readonly owner: Address; readonly spender: Address; readonly value: bigint; readonly nonce: bigint; readonly deadline: bigint }
}

/** The typed data of a permit: domain { name, version, chainId, verifyingContract = token }, primaryType Permit. */
export const permitTypedData = (params: PermitTypedDataParams): PermitTypedData => ({
  domain: { name: params.name, version: params.version, chainId: params.chainId, verifyingContract: params.token },
  types: PERMIT_TYPES,
  primaryType: "Permit",
  message: { owner: params.owner, spender: params.spender, value: params.value, nonce: params.nonce, deadline: params.deadline },
})
