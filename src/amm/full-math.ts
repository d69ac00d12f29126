// Port of FullMath (v3-core/contracts/libraries/FullMath.sol, identical in
// v4-core/src/libraries/FullMath.sol): a*b/denominator with a 512-bit
// intermediate. bigint has no 512-bit limit, so the product is exact and the
// only behaviour to reproduce is where the contract reverts:
//   mulDiv:           denominator == 0, or floor(a*b/d) >= 2^256
//   mulDivRoundingUp: the same, or the rounded-up result >= 2^256
// Inputs are uint256 values (0 <= x < 2^256); they are not re-validated here.
import { MAX_UINT256 } from "./constants.ts"
import { AmmRevert } from "./errors.ts"

/** floor(a*b/denominator); reverts (throws AmmRevert) like FullMath.mulDiv. */
export const mulDiv = (a: bigint, b: bigint, denominator: bigint): bigint => {
  if (denominator === 0n) throw new AmmRevert("DivisionByZero", "mulDiv")
  const result = (a * b) / denominator
  if (result > MAX_UINT256) throw new AmmRevert("MulDivOverflow", "mulDiv")
  return result
}

/** ceil(a*b/denominator); reverts (throws AmmRevert) like FullMath.mulDivRoundingUp. */
export const mulDivRoundingUp = (a: bigint, b: bigint, denominator: bigint): bigint => {
  if (denominator === 0n) throw new AmmRevert("DivisionByZero", "mulDivRoundingUp")
  const product = a * b
  let result = product / denominator
  if (result > MAX_UINT256) throw new AmmRevert("MulDivOverflow", "mulDivRoundingUp")
  if (product % denominator > 0n) {
    // require(result < type(uint256).max)
    if (result === MAX_UINT256) throw new AmmRevert("MulDivOverflow", "mulDivRoundingUp")
    result++
  }
  return result
}
