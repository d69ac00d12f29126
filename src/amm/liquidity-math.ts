// Port of LiquidityMath (v3-core/contracts/libraries/LiquidityMath.sol;
// v4-core's version reverts in exactly the same cases, as SafeCastOverflow).
import { MAX_UINT128 } from "./constants.ts"
import { AmmRevert } from "./errors.ts"

/** x + y for a uint128 x and an int128 y; throws when the result leaves [0, 2^128). */
export const addDelta = (x: bigint, y: bigint): bigint => {
  const z = x + y
  if (y < 0n) {
    if (z < 0n) throw new AmmRevert("LiquidityUnderflow", "LS")
  } else if (z > MAX_UINT128) {
    throw new AmmRevert("LiquidityOverflow", "LA")
  }
  return z
}
