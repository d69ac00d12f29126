// A route source: the own router and every external aggregator answer the same
// question the same way, so the quote program can take the best after gas.
import { Context, Data, type Effect } from "effect"
import type { Address } from "viem"
import type { Route as ExecutorRoute } from "../chain/route-encoding.ts"
import type { MarketSnapshot } from "../market/types.ts"

export interface SourceRequest {
  /** ERC-20 tokens as pools hold them (native USDC already mapped to the ERC-20) */
  readonly tokenIn: Address
  readonly tokenOut: Address
  /** exact input in tokenIn's ERC-20 units */
  readonly amountIn: bigint
  /** the market the request is priced on */
  readonly snapshot: MarketSnapshot
  /** gas in native wei → tokenOut units; undefined when no price converts it */
  readonly nativeToTokenOut: (wei: bigint) => bigint | undefined
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
  readonly gasEstimate: bigint
  /** what the search maximised: output minus gas in tokenOut (amountOut when gas has no price) */
  readonly netAmountOut: bigint
  /** what the executor runs */
  readonly route: ExecutorRoute
  /** the spec's route shape */
  readonly display: ReadonlyArray<{ readonly shareBps: number; readonly hops: readonly DisplayHop[] }>
}

export class SourceError extends Data.TaggedError("SourceError")<{
  readonly source: string
  readonly reason: "timeout" | "unavailable" | "invalid-answer" | "circuit-open"
  readonly message: string
}> {}

export interface Source {
  readonly name: string
  /** the best route this source knows, or undefined when it has none */
  readonly quote: (request: SourceRequest) => Effect.Effect<SourceRoute | undefined, SourceError>
}

/** Every configured source, the own router first. */
export class Sources extends Context.Tag("sources/Sources")<Sources, readonly Source[]>() {}

/** The better of two routes: more output after gas, then more gross output. */
export const betterRoute = (a: SourceRoute, b: SourceRoute): SourceRoute =>
  b.netAmountOut > a.netAmountOut || (b.netAmountOut === a.netAmountOut && b.amountOut > a.amountOut) ? b : a
