// The one place the router touches the exact pool math (src/amm): the output
// of one exact-input swap through one pool, and the initialized ticks it
// crosses (for the gas model). Every amount the router reports comes from here.
import { getAmountOut, isAmmRevert, swapExactInput, swapExactInputV4 } from "../amm/index.ts"
import type { PoolState } from "../amm/index.ts"

export interface HopQuote {
  readonly amountOut: bigint
  /** initialized ticks crossed (0 for V2) */
  readonly ticksCrossed: number
}

/**
 * Exact output of swapping `amountIn` through `pool` (zeroForOne: token0 in),
 * with the pools' default price limits; undefined when the pool would revert,
 * could not take the whole input, or the result would depend on ticks outside
 * the snapshot's known range.
 */
export const quoteHop = (pool: PoolState, zeroForOne: boolean, amountIn: bigint): HopQuote | undefined => {
  if (pool.dex === "uniswap-v2") {
    try {
      const amountOut = zeroForOne
        ? getAmountOut(amountIn, pool.reserve0, pool.reserve1)
        : getAmountOut(amountIn, pool.reserve1, pool.reserve0)
      return { amountOut, ticksCrossed: 0 }
    } catch (e) {
      if (isAmmRevert(e)) return undefined
      throw e
    }
  }
  const r = pool.dex === "uniswap-v3" ? swapExactInput(pool, zeroForOne, amountIn) : swapExactInputV4(pool, zeroForOne, amountIn)
  return r.ok ? { amountOut: r.amountOut, ticksCrossed: r.ticksCrossed } : undefined
}
