// The one place the router touches the exact pool math (src/amm): the output
// of one exact-input swap through one pool, the input of one exact-output
// swap, and the initialized ticks each crosses (for the gas model). Every
// amount the router reports comes from here.
import {
  getAmountIn,
  getAmountOutWithFee,
  getDx,
  getDy,
  isAmmRevert,
  swapExactInput,
  swapExactInputV4,
  swapExactOutput,
  swapExactOutputV4,
} from "../amm/index.ts"
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

export interface HopQuoteExactOutput {
  /** the input the hop takes: what the pool asks (V2, V3, V4), the least dx paying amountOut (stable) */
  readonly amountIn: bigint
  /** initialized ticks crossed (0 for V2 and stable pools) */
  readonly ticksCrossed: number
  /** what a stable pool pays above amountOut for that dx (it cannot be asked for an exact output); 0n otherwise */
  readonly surplus: bigint
}

/**
 * The input swapping the pool's token `coinIn` for exactly `amountOut` of its
 * token `coinOut` takes, as the route executor swaps it: V2 the least input
 * the pair's K check accepts (getAmountIn, rounded up), V3 and V4 the pool's
 * own exact-output swap with the default price limits, a stable pool the least
 * dx whose get_dy reaches amountOut (it pays get_dy(dx), the surplus above
 * amountOut). Undefined when the pool cannot deliver the whole amountOut, would
 * revert, or the result would depend on ticks outside the snapshot's known range.
 */
export const quoteHopExactOutput = (
  pool: PoolState,
  coinIn: number,
  coinOut: number,
  amountOut: bigint,
): HopQuoteExactOutput | undefined => {
  if (amountOut <= 0n) return undefined
  if (pool.kind === "uniswap-v2" || pool.kind === "curve-stableswap") {
    try {
      if (pool.kind === "curve-stableswap") {
        const amountIn = getDx(pool, coinIn, coinOut, amountOut)
        return { amountIn, ticksCrossed: 0, surplus: getDy(pool, coinIn, coinOut, amountIn) - amountOut }
      }
      const amountIn =
        coinIn === 0
          ? getAmountIn(amountOut, pool.reserve0, pool.reserve1, pool.feeBps)
          : getAmountIn(amountOut, pool.reserve1, pool.reserve0, pool.feeBps)
      return { amountIn, ticksCrossed: 0, surplus: 0n }
    } catch (e) {
      if (isAmmRevert(e)) return undefined
      throw e
    }
  }
  const zeroForOne = coinIn === 0
  const r = pool.kind === "uniswap-v3" ? swapExactOutput(pool, zeroForOne, amountOut) : swapExactOutputV4(pool, zeroForOne, amountOut)
  return r.ok && r.amountOut === amountOut ? { amountIn: r.amountIn, ticksCrossed: r.ticksCrossed, surplus: 0n } : undefined
}
