// Gasless orders: the EIP-712 SwapOrder a sender signs for the route executor, which
// checks it on chain (RouteExecutor.executeOrder). Terms, never a route: the relayer
// routes anew when it sends. viem's signTypedData / hashTypedData take the typed data
// as it is; the order's tradeHash is its EIP-712 digest.
import type { Address } from "viem"

/** The EIP-712 domain name and version of the route executor's orders. */
export const ORDER_DOMAIN_NAME = "Arc Route Executor"
export const ORDER_DOMAIN_VERSION = "1"

/** The SwapOrder type, field order as the executor hashes it. */
export const SWAP_ORDER_TYPES = {
  SwapOrder: [
    { name: "sender", type: "address" },
    { name: "recipient", type: "address" },
    { name: "tokenIn", type: "address" },
    { name: "tokenOut", type: "address" },
    { name: "exactOutput", type: "bool" },
    { name: "amountIn", type: "uint256" },
    { name: "amountOut", type: "uint256" },
    { name: "maxRelayerFee", type: "uint256" },
    { name: "feeBps", type: "uint16" },
    { name: "feeRecipient", type: "address" },
    { name: "nonce", type: "uint256" },
    { name: "deadline", type: "uint256" },
  ],
} as const

/**
 * A signed order's terms. Exact input (exactOutput false): the sender pays exactly
 * amountIn and the recipient receives at least amountOut. Exact output: the sender pays
 * at most amountIn and the recipient receives exactly amountOut (api-1.2's rounding
 * rule: at most one unit more). Both amounts are net of every fee, the relayer's
 * included; the relayer takes at most maxRelayerFee of tokenOut. ERC-20 tokens only on
 * the input side; tokenOut may be native USDC (0xEeee…).
 */
export interface SwapOrder {
  readonly sender: Address
  readonly recipient: Address
  readonly tokenIn: Address
  readonly tokenOut: Address
  readonly exactOutput: boolean
  readonly amountIn: bigint
  readonly amountOut: bigint
  readonly maxRelayerFee: bigint
  /** the partner fee, 0..100 bps, and who receives it (0x0 when feeBps is 0) */
  readonly feeBps: number
  readonly feeRecipient: Address
  /** unordered: any unused value; the sender may cancel one before it is used */
  readonly nonce: bigint
  /** unix seconds */
  readonly deadline: bigint
}

export interface SwapOrderTypedData {
  readonly domain: { readonly name: string; readonly version: string; readonly chainId: number; readonly verifyingContract: Address }
  readonly types: typeof SWAP_ORDER_TYPES
  readonly primaryType: "SwapOrder"
  readonly message: SwapOrder
}

/** The typed data of an order for the executor at `executor` on `chainId`. */
export const swapOrderTypedData = (chainId: number, executor: Address, order: SwapOrder): SwapOrderTypedData => ({
  domain: { name: ORDER_DOMAIN_NAME, version: ORDER_DOMAIN_VERSION, chainId, verifyingContract: executor },
  types: SWAP_ORDER_TYPES,
  primaryType: "SwapOrder",
  message: order,
})
