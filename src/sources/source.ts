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
  /** the request's slippage: an aggregator may build its own minimum from it (the executor enforces ours) */
  readonly slippageBps?: number
  /** who will send the transaction (/swap only): an aggregator's txOrigin */
  readonly sender?: Address
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
  /**
   * The same answer as `quote`, computed at once, for a source that never waits and never
   * fails (the own router over the snapshot): lets a quote run without an effect.
   */
  readonly quoteNow?: (request: SourceRequest) => SourceRoute | undefined
  /**
   * Told when a route of this source failed the sender's simulation (or delivered less than it
   * quoted) while another source's route passed: counted against the source like a failed call.
   */
  readonly rejected?: (detail: string) => Effect.Effect<void>
}

/** Every configured source, the own router first. */
export class Sources extends Context.Tag("sources/Sources")<Sources, readonly Source[]>() {}

/** The better of two routes: more output after gas, then more gross output; `a` on a tie. */
export const betterRoute = (a: SourceRoute, b: SourceRoute): SourceRoute =>
  b.netAmountOut > a.netAmountOut || (b.netAmountOut === a.netAmountOut && b.amountOut > a.amountOut) ? b : a

/** Routes best first, as betterRoute ranks them; equal routes keep their order (the own router first). */
export const rankRoutes = (routes: readonly SourceRoute[]): SourceRoute[] =>
  routes
    .map((route, i) => ({ route, i }))
    .sort((x, y) => {
      const a = x.route
      const b = y.route
      if (a.netAmountOut !== b.netAmountOut) return a.netAmountOut > b.netAmountOut ? -1 : 1
      if (a.amountOut !== b.amountOut) return a.amountOut > b.amountOut ? -1 : 1
      return x.i - y.i
    })
    .map((r) => r.route)

/** Whether a route runs through an external router (third-party calldata) anywhere. */
export const isExternalRoute = (route: SourceRoute): boolean => route.route.some((split) => split.hops.some((hop) => hop.kind === "external"))
