// What every route source is asked and answers: the own router and each
// external aggregator answer the same question the same way, so the pricer can
// take the best after gas.
import type { Address } from "viem"
import type { ExecutorRoute } from "../domain/index.ts"
import type { World } from "../domain/index.ts"

export interface SourceRequest {
  /** ERC-20 tokens as pools hold them (native USDC already mapped to the ERC-20) */
  readonly tokenIn: Address
  readonly tokenOut: Address
  /** exact input in tokenIn's ERC-20 units */
  readonly amountIn: bigint
  /** the market the request is priced on */
  readonly snapshot: World
  /** gas in native wei → tokenOut units; undefined when no price converts it */
  readonly nativeToTokenOut: (wei: bigint) => bigint | undefined
  /** the request's slippage: an aggregator may build its own minimum from it (the executor enforces ours) */
  readonly slippageBps?: number
  /** who will send the transaction (/swap only): an aggregator's txOrigin */
  readonly sender?: Address
}

/**
 * What every source is asked for an exact output: the own router, and the aggregators whose API
 * takes one (0x's buyAmount); the others do not compete on it.
 */
export interface ExactOutputSourceRequest {
  /** ERC-20 tokens as pools hold them (native USDC already mapped to the ERC-20) */
  readonly tokenIn: Address
  readonly tokenOut: Address
  /** the gross output the route must deliver, in tokenOut's ERC-20 units (fees are taken from it) */
  readonly amountOut: bigint
  readonly snapshot: World
  /** gas in native wei → tokenIn units; undefined when no price converts it */
  readonly nativeToTokenIn: (wei: bigint) => bigint | undefined
  /** the request's slippage: an aggregator builds its input ceiling from it (the executor enforces maxAmountIn) */
  readonly slippageBps?: number
  /** who will send the transaction (/swap only): an aggregator's txOrigin */
  readonly sender?: Address
}

/** A question put to the sources: exact input, or exact output. */
export type AnySourceRequest = SourceRequest | ExactOutputSourceRequest

export const isExactOutputRequest = (request: AnySourceRequest): request is ExactOutputSourceRequest => "amountOut" in request

export interface DisplayHop {
  readonly dex: string
  /** pool address (checksummed), 32-byte V4 pool id, or null when the source does not say */
  readonly pool: string | null
  /** checksummed, as the answer shows it */
  readonly tokenIn: Address
  /** checksummed, as the answer shows it */
  readonly tokenOut: Address
}

export interface SourceRoute {
  /** "router" for our own, else the aggregator's configured name */
  readonly source: string
  /** gross output in tokenOut's ERC-20 units, before fees */
  readonly amountOut: bigint
  /** exact output only: the input the route needs, in tokenIn's ERC-20 units */
  readonly amountIn?: bigint
  /**
   * exact output through an aggregator only: the most its calldata may take (its maxSellAmount,
   * tokenIn's ERC-20 units), which the executor takes against the sender's maxAmountIn; the route
   * competes only when it lies within the request's slippage over amountIn
   */
  readonly maxAmountIn?: bigint
  /** exact output only: what the search minimised, the input plus gas in tokenIn (the input when gas has no price) */
  readonly costIn?: bigint
  readonly gasEstimate: bigint
  /** what the search maximised: output minus gas in tokenOut (amountOut when gas has no price) */
  readonly netAmountOut: bigint
  /** what the executor runs */
  readonly route: ExecutorRoute
  /** the spec's route shape, as the answer shows it (every address checksummed) */
  readonly display: ReadonlyArray<{ readonly shareBps: number; readonly hops: readonly DisplayHop[] }>
}
