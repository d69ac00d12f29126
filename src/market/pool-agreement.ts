// Whether two reads of a pool agree: the restored market's state of a pool
// against a fresh read of it at the same block. Every number that prices a swap
// must be equal; for V3/V4 pools, the initialized ticks where both tick windows
// overlap (a fresh read centres its window on today's tick). Pure.
import type { PoolState, TickInfo } from "../amm/index.ts"

const ticksWithin = (ticks: readonly TickInfo[], lower: number, upper: number) => ticks.filter((t) => t.tick >= lower && t.tick <= upper)

/** A difference between two states of one pool, in words; undefined when they agree. */
export const poolDisagreement = (kept: PoolState, fresh: PoolState): string | undefined => {
  if (kept.kind !== fresh.kind) return `kind ${kept.kind} against ${fresh.kind}`
  if (kept.kind === "uniswap-v2" && fresh.kind === "uniswap-v2") {
    return kept.reserve0 === fresh.reserve0 && kept.reserve1 === fresh.reserve1 ? undefined : `reserves ${kept.reserve0}/${kept.reserve1} against ${fresh.reserve0}/${fresh.reserve1}`
  }
  if (kept.kind === "curve-stableswap" && fresh.kind === "curve-stableswap") {
    if (kept.amp !== fresh.amp || kept.fee !== fresh.fee) return `A ${kept.amp}, fee ${kept.fee} against A ${fresh.amp}, fee ${fresh.fee}`
    const same = kept.balances.length === fresh.balances.length && kept.balances.every((b, i) => b === fresh.balances[i])
    return same ? undefined : `balances ${kept.balances.join("/")} against ${fresh.balances.join("/")}`
  }
  if ((kept.kind === "uniswap-v3" || kept.kind === "uniswap-v4") && (fresh.kind === "uniswap-v3" || fresh.kind === "uniswap-v4")) {
    if (kept.sqrtPriceX96 !== fresh.sqrtPriceX96 || kept.tick !== fresh.tick) return `price ${kept.sqrtPriceX96} (tick ${kept.tick}) against ${fresh.sqrtPriceX96} (tick ${fresh.tick})`
    if (kept.liquidity !== fresh.liquidity) return `liquidity ${kept.liquidity} against ${fresh.liquidity}`
    if (kept.fee !== fresh.fee) return `fee ${kept.fee} against ${fresh.fee}`
    const lower = Math.max(kept.tickLower, fresh.tickLower)
    const upper = Math.min(kept.tickUpper, fresh.tickUpper)
    const a = ticksWithin(kept.ticks, lower, upper)
    const b = ticksWithin(fresh.ticks, lower, upper)
    const differs = a.length !== b.length || a.some((t, i) => t.tick !== b[i]!.tick || t.liquidityNet !== b[i]!.liquidityNet)
    return differs ? `initialized ticks in [${lower}, ${upper}] differ` : undefined
  }
  return `kind ${kept.kind} against ${fresh.kind}`
}
