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

/** What the own router is asked for an exact output (external aggregators are not asked: see sourceRequest). */
export interface ExactOutputSourceRequest {
  /** ERC-20 tokens as pools hold them (native USDC already mapped to the ERC-20) */
  readonly tokenIn: Address
  readonly tokenOut: Address
  /** the gross output the route must deliver, in tokenOut's ERC-20 units (fees are taken from it) */
  readonly amountOut: bigint
  readonly snapshot: World
  /** gas in native wei → tokenIn units; undefined when no price converts it */
  readonly nativeToTokenIn: (wei: bigint) => bigint | undefined
}

export interface DisplayHop {
  readonly dex: string
  /** pool address, 32-byte V4 pool id, or null when the source does not say */
  readonly pool: string | null
  readonly tokenIn: Address
  readonly tokenOut: Address
}

export interface SourceRoute {
  /** "router" for our own, else the aggregator's configured name */
  readonly source: string
  /** gross output in tokenOut's ERC-20 units, before fees */
  readonly amountOut: bigint
  /** exact output only: the input the route needs, in tokenIn's ERC-20 units */
  readonly amountIn?: bigint
  readonly gasEstimate: bigint
  /** what the search maximised: output minus gas in tokenOut (amountOut when gas has no price) */
  readonly netAmountOut: bigint
  /** what the executor runs */
  readonly route: ExecutorRoute
  /** the spec's route shape */
  readonly display: ReadonlyArray<{ readonly shareBps: number; readonly hops: readonly DisplayHop[] }>
}
