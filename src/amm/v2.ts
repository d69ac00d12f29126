// Port of UniswapV2Library.getAmountOut / getAmountIn (v2-periphery
// contracts/libraries/UniswapV2Library.sol): the constant-product quote with
// the 0.3% fee (997/1000) that UniswapV2Pair.swap's K check enforces, and the
// same at a fork's fee in basis points. The library uses SafeMath, so every
// uint256 overflow reverts; so does this.
import { MAX_UINT256 } from "./constants.ts"
import { AmmRevert } from "./errors.ts"

const checked = (x: bigint, where: string): bigint => {
  if (x > MAX_UINT256) throw new AmmRevert("ArithmeticOverflow", where)
  return x
}

/**
 * Output for `amountIn` given the pair's reserves:
 * floor(amountIn*997*reserveOut / (reserveIn*1000 + amountIn*997)).
 * Reverts (AmmRevert) on a zero input ('INSUFFICIENT_INPUT_AMOUNT') or an
 * empty reserve ('INSUFFICIENT_LIQUIDITY').
 */
export const getAmountOut = (amountIn: bigint, reserveIn: bigint, reserveOut: bigint): bigint => {
  if (amountIn <= 0n) throw new AmmRevert("InsufficientInputAmount", "UniswapV2Library: INSUFFICIENT_INPUT_AMOUNT")
  if (reserveIn <= 0n || reserveOut <= 0n) throw new AmmRevert("InsufficientLiquidity", "UniswapV2Library: INSUFFICIENT_LIQUIDITY")
  const amountInWithFee = checked(amountIn * 997n, "getAmountOut")
  const numerator = checked(amountInWithFee * reserveOut, "getAmountOut")
  const denominator = checked(checked(reserveIn * 1000n, "getAmountOut") + amountInWithFee, "getAmountOut")
  return numerator / denominator
}

/**
 * The least input a pair whose swap fee is `feeBps` basis points pays
 * `amountOut` for: ceil(reserveIn*amountOut*10000 / ((reserveOut -
 * amountOut)*(10000-feeBps))), the least amountIn whose getAmountOutWithFee
 * (the most the pair's K check lets out) reaches amountOut.
 * UniswapV2Library.getAmountIn computes floor(...) + 1 (at 30 bps), the same
 * number except when the division is exact, where the library asks one unit
 * more than the pair needs. Reverts like the library on a zero output or an
 * empty reserve, and on amountOut >= reserveOut (no input buys the whole
 * reserve); a fee outside [0, 10000) is InvalidFee.
 */
export const getAmountIn = (amountOut: bigint, reserveIn: bigint, reserveOut: bigint, feeBps: number): bigint => {
  if (!Number.isInteger(feeBps) || feeBps < 0 || feeBps >= 10_000) throw new AmmRevert("InvalidFee", `feeBps ${feeBps}`)
  if (amountOut <= 0n) throw new AmmRevert("InsufficientOutputAmount", "UniswapV2Library: INSUFFICIENT_OUTPUT_AMOUNT")
  if (reserveIn <= 0n || reserveOut <= 0n) throw new AmmRevert("InsufficientLiquidity", "UniswapV2Library: INSUFFICIENT_LIQUIDITY")
  if (amountOut >= reserveOut) throw new AmmRevert("InsufficientLiquidity", "amountOut >= reserveOut")
  const numerator = checked(checked(reserveIn * amountOut, "getAmountIn") * 10_000n, "getAmountIn")
  const denominator = checked((reserveOut - amountOut) * BigInt(10_000 - feeBps), "getAmountIn")
  return (numerator + denominator - 1n) / denominator
}

/**
 * Output of a V2-style pair whose swap fee is `feeBps` basis points (forks
 * change it): floor(amountIn*(10000-feeBps)*reserveOut / (reserveIn*10000 +
 * amountIn*(10000-feeBps))), the most the pair's K check lets out; the same
 * as getAmountOut for 30 bps. Reverts like getAmountOut.
 */
export const getAmountOutWithFee = (amountIn: bigint, reserveIn: bigint, reserveOut: bigint, feeBps: number): bigint => {
  if (amountIn <= 0n) throw new AmmRevert("InsufficientInputAmount", "UniswapV2Library: INSUFFICIENT_INPUT_AMOUNT")
  if (reserveIn <= 0n || reserveOut <= 0n) throw new AmmRevert("InsufficientLiquidity", "UniswapV2Library: INSUFFICIENT_LIQUIDITY")
  const amountInWithFee = checked(amountIn * BigInt(10_000 - feeBps), "getAmountOutWithFee")
  const numerator = checked(amountInWithFee * reserveOut, "getAmountOutWithFee")
  const denominator = checked(checked(reserveIn * 10_000n, "getAmountOutWithFee") + amountInWithFee, "getAmountOutWithFee")
  return numerator / denominator
}
