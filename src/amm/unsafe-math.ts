// Port of UnsafeMath (v3-core/contracts/libraries/UnsafeMath.sol and
// v4-core/src/libraries/UnsafeMath.sol).

/**
 * UnsafeMath.divRoundingUp: ceil(x/y) written in EVM assembly, so y == 0
 * gives 0 (div and mod by zero are 0 in the EVM) instead of reverting.
 */
export const divRoundingUp = (x: bigint, y: bigint): bigint => {
  if (y === 0n) return 0n
  const q = x / y
  return x % y > 0n ? q + 1n : q
}
