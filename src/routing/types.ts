// The route search's request and answer, and the market it searches.
import type { Address } from "viem"
import type { PoolKind, PoolState } from "../amm/index.ts"

/** What the route search reads of a market: its pools at one block and the gas price then. */
export interface RoutingMarket {
  /** every routable pool by id (lower-case) */
  readonly pools: ReadonlyMap<string, PoolState>
  /** pool ids touching each token (lower-case token address) */
  readonly poolsByToken: ReadonlyMap<string, readonly string[]>
  /** base fee + priority fee a transaction pays, in native wei (18-decimal USDC) */
  readonly gasPriceWei: bigint
  /** the pools whose state may differ from `refreshedFrom`'s (a block step's World) */
  readonly refreshed?: readonly string[]
  /** the pools of the snapshot before, when `refreshed` names every pool whose state differs from them */
  readonly refreshedFrom?: ReadonlyMap<string, PoolState>
}

export interface FindRouteParams {
  /** ERC-20 address of the token paid (native USDC already mapped to the ERC-20 USDC) */
  readonly tokenIn: string
  /** ERC-20 address of the token received */
  readonly tokenOut: string
  /** exact input, in tokenIn's smallest unit */
  readonly amountIn: bigint
  /** longest path, 1 to 3 hops (default 3) */
  readonly maxHops?: number
  /** most paths the input is split across, 1 to 8 (default 4) */
  readonly maxSplits?: number
  /**
   * Converts an amount of native USDC in wei (18 decimals) into tokenOut's
   * smallest unit, from reference prices or pool prices. Without it, or when
   * it returns undefined, routes are compared by gross output.
   */
  readonly nativeToTokenOut?: (weiAmount: bigint) => bigint | undefined
  /** only pools of these venues (by name) are used; every pool when absent */
  readonly venues?: ReadonlySet<string>
}

/** One swap through one pool. */
export interface RouteHop {
  readonly kind: PoolKind
  /** the pool's venue, as the API names it */
  readonly venue: string
  /** V2 pair, V3 pool or stable pool address, or the 32-byte V4 pool id */
  readonly pool: string
  readonly tokenIn: Address
  readonly tokenOut: Address
  /** pairs: true when tokenIn is the pool's token0; stable pools: false */
  readonly zeroForOne: boolean
  /** V3/V4: LP fee in hundredths of a bip */
  readonly fee?: number
  /** V3/V4: tick spacing */
  readonly tickSpacing?: number
  /** V4: hooks address of the pool key */
  readonly hooks?: Address
}

/** One path carrying a share of the input. */
export interface RouteSplit {
  /** share of amountIn in basis points; all splits add up to 10000 */
  readonly shareBps: number
  /**
   * exact input of this split: floor(amountIn * shareBps / 10000) for every
   * split but the last, which takes the remainder (the executor's rule)
   */
  readonly amountIn: bigint
  /** exact output: the hops simulated in order, each taking the previous output */
  readonly amountOut: bigint
  readonly hops: readonly RouteHop[]
}

export interface Route {
  readonly amountIn: bigint
  /** gross output in tokenOut (sum of the splits' outputs), exact */
  readonly amountOut: bigint
  /** estimated gas units of the executor call (see gas.ts) */
  readonly gasEstimate: bigint
  /** gasEstimate x gas price in tokenOut units; undefined when no conversion was available */
  readonly gasCostInTokenOut: bigint | undefined
  /** amountOut minus gasCostInTokenOut (amountOut when no conversion): what the search maximised */
  readonly netAmountOut: bigint
  readonly splits: readonly RouteSplit[]
}

/** An exact-output request: the least input that delivers `amountOut`. */
export interface FindExactOutputParams {
  /** ERC-20 address of the token paid (native USDC already mapped to the ERC-20 USDC) */
  readonly tokenIn: string
  /** ERC-20 address of the token received */
  readonly tokenOut: string
  /** the gross output the route must deliver, in tokenOut's smallest unit */
  readonly amountOut: bigint
  /** longest path, 1 to 3 hops (default 3) */
  readonly maxHops?: number
  /** most paths the output is split across, 1 to 8 (default 4) */
  readonly maxSplits?: number
  /**
   * Converts an amount of native USDC in wei (18 decimals) into tokenIn's
   * smallest unit (gas priced in tokenIn). Without it, or when it returns
   * undefined, routes are compared by input alone.
   */
  readonly nativeToTokenIn?: (weiAmount: bigint) => bigint | undefined
  /** only pools of these venues (by name) are used; every pool when absent */
  readonly venues?: ReadonlySet<string>
}

/** One path delivering a share of the output. */
export interface ExactOutputSplit {
  /** share of the OUTPUT in basis points; all splits add up to 10000 */
  readonly shareBps: number
  /**
   * output of this split: floor(amountOut * shareBps / 10000) for every split
   * but the last, which takes the remainder (the executor's rule)
   */
  readonly amountOut: bigint
  /** the exact input this split needs: its hops inverted backward with the exact pool math */
  readonly amountIn: bigint
  /** in forward order */
  readonly hops: readonly RouteHop[]
  /** per hop, forward order: the input each hop takes (for a stable hop the least dx, the executor's hint) */
  readonly hopAmountsIn: readonly bigint[]
  /** per hop: what a stable hop pays above what the next hop (or the split's output) needs; 0n for other kinds */
  readonly hopSurplus: readonly bigint[]
}

export interface ExactOutputRoute {
  /** the requested gross output */
  readonly amountOut: bigint
  /** sum of the splits' inputs, exact */
  readonly amountIn: bigint
  /** estimated gas units of the executor call (see gas.ts) */
  readonly gasEstimate: bigint
  /** gasEstimate x gas price in tokenIn units; undefined when no conversion was available */
  readonly gasCostInTokenIn: bigint | undefined
  /** amountIn plus gasCostInTokenIn (amountIn when no conversion): what the search minimised */
  readonly totalCost: bigint
  readonly splits: readonly ExactOutputSplit[]
}
