// The one place the router touches the exact pool math (src/amm): the output
// of one exact-input swap through one pool, and the initialized ticks it
// crosses (for the gas model). Every amount the router reports comes from here.
import { getAmountOutWithFee, getDy, isAmmRevert, swapExactInput, swapExactInputV4 } from "../amm/index.ts"
import type { PoolState } from "../amm/index.ts"

export interface HopQuote {
  readonly amountOut: bigint
  /** initialized ticks crossed (0 for V2 and stable pools) */
  readonly ticksCrossed: number
}

/**
 * Exact output of swapping `amountIn` of the pool's token `coinIn` for its
 * token `coinOut` (indices in the pool's own order: token0 = 0), with the
 * pools' default price limits; undefined when the pool would revert, could not
 * take the whole input, or the result would depend on ticks outside the
 * snapshot's known range.
 */
export const quoteHop = (pool: PoolState, coinIn: number, coinOut: number, amountIn: bigint): HopQuote | undefined => {
  if (pool.kind === "uniswap-v2" || pool.kind === "curve-stableswap") {
    try {
      const amountOut =
        pool.kind === "curve-stableswap"
          ? getDy(pool, coinIn, coinOut, amountIn)
          : coinIn === 0
            ? getAmountOutWithFee(amountIn, pool.reserve0, pool.reserve1, pool.feeBps)
            : getAmountOutWithFee(amountIn, pool.reserve1, pool.reserve0, pool.feeBps)
      return amountOut > 0n ? { amountOut, ticksCrossed: 0 } : undefined
    } catch (e) {
      if (isAmmRevert(e)) return undefined
      throw e
    }
  }
  const zeroForOne = coinIn === 0
  const r = pool.kind === "uniswap-v3" ? swapExactInput(pool, zeroForOne, amountIn) : swapExactInputV4(pool, zeroForOne, amountIn)
  return r.ok ? { amountOut: r.amountOut, ticksCrossed: r.ticksCrossed } : undefined
}
