// The route executor's routes as data: splits of hops over the venues' pools,
// each hop naming what the executor needs to find its pool. Which entry takes
// which kind: execute (exact input) kinds 1 to 5, executeExactOutput kinds 1, 2,
// 3, 6 and 7. The packed format and its checks are in chain/route-encoding.ts.
import type { Address, Hex } from "viem"
import type { TradeType } from "./quote.ts"

export const HOP_KIND = { v2: 1, v3: 2, v4: 3, external: 4, stable: 5, stableExactOutput: 6, externalExactOutput: 7 } as const
export type HopKind = keyof typeof HOP_KIND

interface HopBase {
  readonly tokenIn: Address
  readonly tokenOut: Address
}
/** A Uniswap V2 pair of venue `venue`, derived on chain from the venue's factory and the two tokens. */
export interface V2Hop extends HopBase {
  readonly kind: "v2"
  /** the executor's venue id (0..255) of a registered Uniswap V2 deployment */
  readonly venue: number
}
/** A Uniswap V3 pool of venue `venue`, derived on chain from the venue's pool deployer, the two tokens and the fee. */
export interface V3Hop extends HopBase {
  readonly kind: "v3"
  /** the executor's venue id (0..255) of a registered Uniswap V3 deployment */
  readonly venue: number
  /** fee in hundredths of a bip (500 = 0.05%) */
  readonly fee: number
}
/** A Uniswap V4 pool in venue `venue`'s PoolManager, by its key (the pool id is keccak256 of the key). */
export interface V4Hop extends HopBase {
  readonly kind: "v4"
  /** the executor's venue id (0..255) of a registered PoolManager */
  readonly venue: number
  readonly fee: number
  readonly tickSpacing: number
  readonly hooks: Address
}
/** A Curve-style stable pool the executor's owner registered; both tokens must be among its coins. */
export interface StableHop extends HopBase {
  readonly kind: "stable"
  readonly pool: Address
}
/**
 * A Curve-style stable pool the executor's owner registered, in an exact-output route: the
 * executor starts from `dxHint` (the least input that pays the hop's output, as computed off
 * chain) and raises it while the pool's get_dy falls short.
 */
export interface StableExactOutputHop extends HopBase {
  readonly kind: "stableExactOutput"
  readonly pool: Address
  /** the least input for the hop's output at the quote's block, tokenIn's smallest unit; 1 to 2^128 - 1 */
  readonly dxHint: bigint
}
/** An allowlisted external router, called with `data` after an exact approval of the hop's input. */
export interface ExternalHop extends HopBase {
  readonly kind: "external"
  readonly router: Address
  readonly data: Hex
}
/**
 * An allowlisted external router in an exact-output route, called with `data` that buys exactly
 * the split's output for the executor (0x's buyAmount, the executor as taker and recipient): the
 * executor takes `maxAmountIn` from the payer (counted against the sender's maxAmountIn),
 * approves the router for exactly that, and returns what it did not spend. Only as the first
 * hop of a split (alone, or before a stableExactOutput hop).
 */
export interface ExternalExactOutputHop extends HopBase {
  readonly kind: "externalExactOutput"
  readonly router: Address
  /** the most the router may take (the aggregator's maxSellAmount), tokenIn's smallest unit; 1 to 2^128 - 1 */
  readonly maxAmountIn: bigint
  readonly data: Hex
}
/** One hop of a route as the executor runs it. */
export type ExecutorHop = V2Hop | V3Hop | V4Hop | ExternalHop | StableHop | StableExactOutputHop | ExternalExactOutputHop

/** The hop kinds each entry takes. */
export const TRADE_HOP_KINDS: Readonly<Record<TradeType, readonly HopKind[]>> = {
  exactInput: ["v2", "v3", "v4", "external", "stable"],
  exactOutput: ["v2", "v3", "v4", "stableExactOutput", "externalExactOutput"],
}

export interface ExecutorSplit {
  /** share of the input in basis points; the shares of a route sum to 10000 */
  readonly shareBps: number
  readonly hops: readonly ExecutorHop[]
}
/** A route as the executor runs it (RouteCodec's packed format, in chain/route-encoding.ts). */
export type ExecutorRoute = readonly ExecutorSplit[]
