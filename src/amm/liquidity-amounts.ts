// Port of LiquidityAmounts (v3-periphery/contracts/libraries/LiquidityAmounts.sol,
// v3-periphery 1.4.4). The same library is used by v4-periphery position
// management. Prices may be passed in either order; every division rounds down.
import { MAX_UINT128, Q96, RESOLUTION } from "./constants.ts"
import { AmmRevert } from "./errors.ts"
import { mulDiv } from "./full-math.ts"

const toUint128 = (x: bigint): bigint => {
  if (x > MAX_UINT128) throw new AmmRevert("SafeCastOverflow", "toUint128")
  return x
}

/** Liquidity for `amount0` over [A, B]: amount0 * (A*B/2^96) / (B - A), rounded down. */
export const getLiquidityForAmount0 = (sqrtRatioAX96: bigint, sqrtRatioBX96: bigint, amount0: bigint): bigint => {
  let a = sqrtRatioAX96
  let b = sqrtRatioBX96
  if (a > b) {
    a = sqrtRatioBX96
    b = sqrtRatioAX96
  }
  const intermediate = mulDiv(a, b, Q96)
  return toUint128(mulDiv(amount0, intermediate, b - a))
}

/** Liquidity for `amount1` over [A, B]: amount1 * 2^96 / (B - A), rounded down. */
export const getLiquidityForAmount1 = (sqrtRatioAX96: bigint, sqrtRatioBX96: bigint, amount1: bigint): bigint => {
  const diff = sqrtRatioAX96 > sqrtRatioBX96 ? sqrtRatioAX96 - sqrtRatioBX96 : sqrtRatioBX96 - sqrtRatioAX96
  return toUint128(mulDiv(amount1, Q96, diff))
}

/**
 * The most liquidity that `amount0` and `amount1` can pay for over [A, B] at
 * the current price: only token0 below the range, only token1 above it, the
 * smaller of the two inside it.
 */
export const getLiquidityForAmounts = (
  sqrtRatioX96: bigint,
  sqrtRatioAX96: bigint,
  sqrtRatioBX96: bigint,
  amount0: bigint,
  amount1: bigint,
): bigint => {
  let a = sqrtRatioAX96
  let b = sqrtRatioBX96
  if (a > b) {
    a = sqrtRatioBX96
    b = sqrtRatioAX96
  }
  if (sqrtRatioX96 <= a) return getLiquidityForAmount0(a, b, amount0)
  if (sqrtRatioX96 < b) {
    const liquidity0 = getLiquidityForAmount0(sqrtRatioX96, b, amount0)
    const liquidity1 = getLiquidityForAmount1(a, sqrtRatioX96, amount1)
    return liquidity0 < liquidity1 ? liquidity0 : liquidity1
  }
  return getLiquidityForAmount1(a, b, amount1)
}

/** Token0 value of `liquidity` over [A, B]: floor(floor(L*2^96*(B-A)/B)/A). */
export const getAmount0ForLiquidity = (sqrtRatioAX96: bigint, sqrtRatioBX96: bigint, liquidity: bigint): bigint => {
  let a = sqrtRatioAX96
  let b = sqrtRatioBX96
  if (a > b) {
    a = sqrtRatioBX96
    b = sqrtRatioAX96
  }
  // Solidity `/` by zero reverts
  if (a === 0n) throw new AmmRevert("DivisionByZero", "getAmount0ForLiquidity")
  return mulDiv(liquidity << RESOLUTION, b - a, b) / a
}

/** Token1 value of `liquidity` over [A, B]: floor(L*(B-A)/2^96). */
export const getAmount1ForLiquidity = (sqrtRatioAX96: bigint, sqrtRatioBX96: bigint, liquidity: bigint): bigint => {
  const diff = sqrtRatioAX96 > sqrtRatioBX96 ? sqrtRatioAX96 - sqrtRatioBX96 : sqrtRatioBX96 - sqrtRatioAX96
  return mulDiv(liquidity, diff, Q96)
}

/**
 * Token amounts that `liquidity` over [A, B] is worth at the current price
 * (rounded down; the pool's mint charges the rounded-up amounts, see
 * getAmount0Delta/getAmount1Delta with roundUp = true).
 */
export const getAmountsForLiquidity = (
  sqrtRatioX96: bigint,
  sqrtRatioAX96: bigint,
  sqrtRatioBX96: bigint,
  liquidity: bigint,
): { readonly amount0: bigint; readonly amount1: bigint } => {
  let a = sqrtRatioAX96
  let b = sqrtRatioBX96
  if (a > b) {
    a = sqrtRatioBX96
    b = sqrtRatioAX96
  }
  if (sqrtRatioX96 <= a) return { amount0: getAmount0ForLiquidity(a, b, liquidity), amount1: 0n }
  if (sqrtRatioX96 < b) {
    return {
      amount0: getAmount0ForLiquidity(sqrtRatioX96, b, liquidity),
      amount1: getAmount1ForLiquidity(a, sqrtRatioX96, liquidity),
    }
  }
  return { amount0: 0n, amount1: getAmount1ForLiquidity(a, b, liquidity) }
}
