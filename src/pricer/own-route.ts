// The own router's answer to a source request: the exact, split, gas-aware
// search over the World's pools, in the executor's route format and the spec's
// route shape.
import type { Address } from "viem"
import { checksum } from "../domain/index.ts"
import type { ExecutorHop } from "../domain/index.ts"
import { findBestRoute, findBestRouteExactOutput, type RouteHop } from "../routing/index.ts"
import type { ExactOutputSourceRequest, SourceRequest, SourceRoute } from "./route.ts"

/** The own router's name as a source (in metrics and logs). */
export const OWN_ROUTER = "router"

/** The executor's hop for a route hop; `venueIds` are the executor's ids of the registered venues. */
const executorHop = (hop: RouteHop, venueIds: ReadonlyMap<string, number>): ExecutorHop => {
  if (hop.kind === "curve-stableswap") return { kind: "stable", tokenIn: hop.tokenIn, tokenOut: hop.tokenOut, pool: hop.pool as Address }
  // the market publishes only pools of registered venues (with an executor)
  const venue = venueIds.get(hop.venue) ?? 0
  switch (hop.kind) {
    case "uniswap-v2":
      return { kind: "v2", venue, tokenIn: hop.tokenIn, tokenOut: hop.tokenOut }
    case "uniswap-v3":
      return { kind: "v3", venue, tokenIn: hop.tokenIn, tokenOut: hop.tokenOut, fee: hop.fee! }
    case "uniswap-v4":
      return { kind: "v4", venue, tokenIn: hop.tokenIn, tokenOut: hop.tokenOut, fee: hop.fee!, tickSpacing: hop.tickSpacing!, hooks: hop.hooks! }
  }
}

/**
 * The executor's hop for a hop of an exact-output route: a stable pool cannot buy an exact amount,
 * so its hop carries the least input the router found, the executor's starting point.
 */
const executorHopExactOutput = (hop: RouteHop, dxHint: bigint, venueIds: ReadonlyMap<string, number>): ExecutorHop =>
  hop.kind === "curve-stableswap"
    ? { kind: "stableExactOutput", tokenIn: hop.tokenIn, tokenOut: hop.tokenOut, pool: hop.pool as Address, dxHint }
    : executorHop(hop, venueIds)

/** Pool ids as the spec shows them: checksummed addresses, V4 ids as 32-byte hex. */
const displayPool = (pool: string): string => (pool.length === 42 ? checksum(pool) : pool.toLowerCase())

export interface OwnRouteOptions {
  readonly maxHops?: number
  readonly maxSplits?: number
  /** only pools of these venues are used (a request's includeSources / excludeSources); every pool when absent */
  readonly venues?: ReadonlySet<string>
}

const displayOf = (splits: ReadonlyArray<{ readonly shareBps: number; readonly hops: readonly RouteHop[] }>): SourceRoute["display"] =>
  splits.map((s) => ({
    shareBps: s.shareBps,
    hops: s.hops.map((h) => ({ dex: h.venue, pool: displayPool(h.pool), tokenIn: checksum(h.tokenIn), tokenOut: checksum(h.tokenOut) })),
  }))

/**
 * The route needing the least input (gas included, in tokenIn) to deliver the request's gross
 * output over its World, or undefined when the pools cannot deliver it.
 */
export const ownRouteExactOutput = (request: ExactOutputSourceRequest, options: OwnRouteOptions = {}): SourceRoute | undefined => {
  const found = findBestRouteExactOutput(request.snapshot, {
    tokenIn: request.tokenIn,
    tokenOut: request.tokenOut,
    amountOut: request.amountOut,
    nativeToTokenIn: request.nativeToTokenIn,
    maxHops: options.maxHops,
    maxSplits: options.maxSplits,
    venues: options.venues,
  })
  if (found === undefined) return undefined
  const venueIds = request.snapshot.executor?.venueIds ?? new Map<string, number>()
  return {
    source: OWN_ROUTER,
    amountOut: found.amountOut,
    amountIn: found.amountIn,
    costIn: found.totalCost,
    gasEstimate: found.gasEstimate,
    netAmountOut: found.amountOut,
    route: found.splits.map((s) => ({ shareBps: s.shareBps, hops: s.hops.map((h, i) => executorHopExactOutput(h, s.hopAmountsIn[i]!, venueIds)) })),
    display: displayOf(found.splits),
  }
}

/** The best route over the request's World, or undefined when no path delivers anything. */
export const ownRoute = (request: SourceRequest, options: OwnRouteOptions = {}): SourceRoute | undefined => {
  const found = findBestRoute(request.snapshot, {
    tokenIn: request.tokenIn,
    tokenOut: request.tokenOut,
    amountIn: request.amountIn,
    nativeToTokenOut: request.nativeToTokenOut,
    maxHops: options.maxHops,
    maxSplits: options.maxSplits,
    venues: options.venues,
  })
  if (found === undefined || found.amountOut === 0n) return undefined
  const venueIds = request.snapshot.executor?.venueIds ?? new Map<string, number>()
  return {
    source: OWN_ROUTER,
    amountOut: found.amountOut,
    gasEstimate: found.gasEstimate,
    netAmountOut: found.netAmountOut,
    route: found.splits.map((s) => ({ shareBps: s.shareBps, hops: s.hops.map((h) => executorHop(h, venueIds)) })),
    display: displayOf(found.splits),
  }
}
