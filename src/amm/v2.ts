// Port of UniswapV2Library.getAmountOut / getAmountIn (v2-periphery
// contracts/libraries/UniswapV2Library.sol): the constant-product quote with
// the 0.3% fee (997/1000) that UniswapV2Pair.swap's K check enforces. The
// library uses SafeMath, so every uint256 overflow reverts; so does this.
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
 * Input needed for `amountOut`: floor(reserveIn*amountOut*1000 /
 * ((reserveOut - amountOut)*997)) + 1. Reverts on a zero output, an empty
 * reserve, or amountOut >= reserveOut (SafeMath underflow / division by zero).
 */
export const getAmountIn = (amountOut: bigint, reserveIn: bigint, reserveOut: bigint): bigint => {
  if (amountOut <= 0n) throw new AmmRevert("InsufficientOutputAmount", "UniswapV2Library: INSUFFICIENT_OUTPUT_AMOUNT")
  if (reserveIn <= 0n || reserveOut <= 0n) throw new AmmRevert("InsufficientLiquidity", "UniswapV2Library: INSUFFICIENT_LIQUIDITY")
  if (amountOut >= reserveOut) throw new AmmRevert("InsufficientLiquidity", "amountOut >= reserveOut")
  const numerator = checked(checked(reserveIn * amountOut, "getAmountIn") * 1000n, "getAmountIn")
  const denominator = (reserveOut - amountOut) * 997n
  return checked(numerator / denominator + 1n, "getAmountIn")
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
