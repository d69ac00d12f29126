// Integer bounds and fixed-point units of the Solidity types the AMM math runs on
// (FixedPoint96, FixedPoint128, and the uintN/intN ranges).

export const Q96 = 1n << 96n // FixedPoint96.Q96
export const RESOLUTION = 96n // FixedPoint96.RESOLUTION
export const Q128 = 1n << 128n // FixedPoint128.Q128

export const MAX_UINT256 = (1n << 256n) - 1n
export const MAX_UINT160 = (1n << 160n) - 1n
export const MAX_UINT128 = (1n << 128n) - 1n
export const MAX_INT256 = (1n << 255n) - 1n
export const MIN_INT128 = -(1n << 127n)
export const MAX_INT128 = (1n << 127n) - 1n
