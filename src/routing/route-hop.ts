// A graph edge as the route reports it: the pool, its venue and the direction.
import type { Edge } from "./graph.ts"
import type { RouteHop } from "./types.ts"

export const hopOf = (edge: Edge): RouteHop => {
  const p = edge.pool
  if (p.kind === "curve-stableswap") {
    return { kind: p.kind, venue: p.venue, pool: p.id, tokenIn: p.coins[edge.coinIn]!, tokenOut: p.coins[edge.coinOut]!, zeroForOne: false }
  }
  const tokenIn = edge.zeroForOne ? p.token0 : p.token1
  const tokenOut = edge.zeroForOne ? p.token1 : p.token0
  if (p.kind === "uniswap-v2") return { kind: p.kind, venue: p.venue, pool: p.id, tokenIn, tokenOut, zeroForOne: edge.zeroForOne }
  const hop: RouteHop = {
    kind: p.kind,
    venue: p.venue,
    pool: p.id,
    tokenIn,
    tokenOut,
    zeroForOne: edge.zeroForOne,
    fee: p.fee,
    tickSpacing: p.tickSpacing,
  }
  return p.kind === "uniswap-v4" ? { ...hop, hooks: p.hooks ?? "0x0000000000000000000000000000000000000000" } : hop
}
