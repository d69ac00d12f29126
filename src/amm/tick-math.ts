// Port of TickMath (v3-core/contracts/libraries/TickMath.sol). v4-core's
// TickMath (getSqrtPriceAtTick / getTickAtSqrtPrice) rewrites parts in assembly
// but uses the same constants and the same arithmetic, so it returns the same
// values for every input; the v4 names are exported as aliases.
//
// getSqrtRatioAtTick: sqrt(1.0001^tick) * 2^96 as Q64.96, rounded up from an
//   internal Q128.128 value, exactly as the contract computes it (same magic
//   constants, same truncating >> 128 after every product).
// getTickAtSqrtRatio: the greatest tick with getSqrtRatioAtTick(tick) <= price;
//   ported step by step (the log2 approximation, then the tickLow/tickHi check),
//   so the result equals the contract for every price in range.
import { MAX_UINT256 } from "./constants.ts"
import { AmmRevert } from "./errors.ts"

export const MIN_TICK = -887272
export const MAX_TICK = 887272
/** getSqrtRatioAtTick(MIN_TICK) */
export const MIN_SQRT_RATIO = 4295128739n
/** getSqrtRatioAtTick(MAX_TICK) */
export const MAX_SQRT_RATIO = 1461446703485210103287273052203988822378723970342n

// v4-core names
export const MIN_SQRT_PRICE = MIN_SQRT_RATIO
export const MAX_SQRT_PRICE = MAX_SQRT_RATIO

const M2 = 0xfff97272373d413259a46990580e213an
const M4 = 0xfff2e50f5f656932ef12357cf3c7fdccn
const M8 = 0xffe5caca7e10e4e61c3624eaa0941cd0n
const M10 = 0xffcb9843d60f6159c9db58835c926644n
const M20 = 0xff973b41fa98c081472e6896dfb254c0n
const M40 = 0xff2ea16466c96a3843ec78b326b52861n
const M80 = 0xfe5dee046a99a2a811c461f1969c3053n
const M100 = 0xfcbe86c7900a88aedcffc83b479aa3a4n
const M200 = 0xf987a7253ac413176f2b074cf7815e54n
const M400 = 0xf3392b0822b70005940c7a398e4b70f3n
const M800 = 0xe7159475a2c29b7443b29c7fa6e889d9n
const M1000 = 0xd097f3bdfd2022b8845ad8f792aa5825n
const M2000 = 0xa9f746462d870fdf8a65dc1f90e061e5n
const M4000 = 0x70d869a156d2a1b890bb3df62baf32f7n
const M8000 = 0x31be135f97d08fd981231505542fcfa6n
const M10000 = 0x9aa508b5b7a84e1c677de54f3e99bc9n
const M20000 = 0x5d6af8dedb81196699c329225ee604n
const M40000 = 0x2216e584f5fa1ea926041bedfe98n
const M80000 = 0x48a170391f7dc42444e8fa2n

const Q128_ONE = 0x100000000000000000000000000000000n
const RATIO_ODD = 0xfffcb933bd6fad37aa2d162d1a594001n
const MASK32 = (1n << 32n) - 1n

/**
 * TickMath.getSqrtRatioAtTick. Throws AmmRevert("InvalidTick") when
 * |tick| > MAX_TICK (or tick is not an integer).
 */
export const getSqrtRatioAtTick = (tick: number): bigint => {
  const absTick = tick < 0 ? -tick : tick
  if (!Number.isInteger(tick) || absTick > MAX_TICK) throw new AmmRevert("InvalidTick", String(tick))

  let ratio = (absTick & 0x1) !== 0 ? RATIO_ODD : Q128_ONE
  if ((absTick & 0x2) !== 0) ratio = (ratio * M2) >> 128n
  if ((absTick & 0x4) !== 0) ratio = (ratio * M4) >> 128n
  if ((absTick & 0x8) !== 0) ratio = (ratio * M8) >> 128n
  if ((absTick & 0x10) !== 0) ratio = (ratio * M10) >> 128n
  if ((absTick & 0x20) !== 0) ratio = (ratio * M20) >> 128n
  if ((absTick & 0x40) !== 0) ratio = (ratio * M40) >> 128n
  if ((absTick & 0x80) !== 0) ratio = (ratio * M80) >> 128n
  if ((absTick & 0x100) !== 0) ratio = (ratio * M100) >> 128n
  if ((absTick & 0x200) !== 0) ratio = (ratio * M200) >> 128n
  if ((absTick & 0x400) !== 0) ratio = (ratio * M400) >> 128n
  if ((absTick & 0x800) !== 0) ratio = (ratio * M800) >> 128n
  if ((absTick & 0x1000) !== 0) ratio = (ratio * M1000) >> 128n
  if ((absTick & 0x2000) !== 0) ratio = (ratio * M2000) >> 128n
  if ((absTick & 0x4000) !== 0) ratio = (ratio * M4000) >> 128n
  if ((absTick & 0x8000) !== 0) ratio = (ratio * M8000) >> 128n
  if ((absTick & 0x10000) !== 0) ratio = (ratio * M10000) >> 128n
  if ((absTick & 0x20000) !== 0) ratio = (ratio * M20000) >> 128n
  if ((absTick & 0x40000) !== 0) ratio = (ratio * M40000) >> 128n
  if ((absTick & 0x80000) !== 0) ratio = (ratio * M80000) >> 128n

  if (tick > 0) ratio = MAX_UINT256 / ratio

  // divide by 2^32 rounding up: Q128.128 -> Q64.96 (fits 160 bits for |tick| <= MAX_TICK)
  return (ratio >> 32n) + ((ratio & MASK32) === 0n ? 0n : 1n)
}

/** Index of the most significant set bit of x > 0 (BitMath.mostSignificantBit). */
const mostSignificantBit = (x: bigint): number => {
  let r = 0
  if (x >= 0x100000000000000000000000000000000n) { x >>= 128n; r += 128 }
  if (x >= 0x10000000000000000n) { x >>= 64n; r += 64 }
  if (x >= 0x100000000n) { x >>= 32n; r += 32 }
  if (x >= 0x10000n) { x >>= 16n; r += 16 }
  if (x >= 0x100n) { x >>= 8n; r += 8 }
  if (x >= 0x10n) { x >>= 4n; r += 4 }
  if (x >= 0x4n) { x >>= 2n; r += 2 }
  if (x >= 0x2n) r += 1
  return r
}

const LOG_SQRT10001_MUL = 255738958999603826347141n
const TICK_LOW_OFFSET = 3402992956809132418596140100660247210n
const TICK_HI_OFFSET = 291339464771989622907027621153398088495n

/**
 * TickMath.getTickAtSqrtRatio: the greatest tick such that
 * getSqrtRatioAtTick(tick) <= sqrtPriceX96. Throws AmmRevert("InvalidSqrtPrice")
 * unless MIN_SQRT_RATIO <= sqrtPriceX96 < MAX_SQRT_RATIO.
 */
export const getTickAtSqrtRatio = (sqrtPriceX96: bigint): number => {
  if (sqrtPriceX96 < MIN_SQRT_RATIO || sqrtPriceX96 >= MAX_SQRT_RATIO) {
    throw new AmmRevert("InvalidSqrtPrice", String(sqrtPriceX96))
  }
  const ratio = sqrtPriceX96 << 32n
  const msb = mostSignificantBit(ratio)

  let r = msb >= 128 ? ratio >> BigInt(msb - 127) : ratio << BigInt(127 - msb)
  // int256 log_2 = (int256(msb) - 128) << 64  (bigint bit operations are two's complement)
  let log2 = BigInt(msb - 128) << 64n

  // 14 iterations of squaring, collecting bits 63..50 of the fractional part
  for (let bit = 63n; bit >= 50n; bit--) {
    r = (r * r) >> 127n
    const f = r >> 128n // 0 or 1
    log2 |= f << bit
    r >>= f
  }

  const logSqrt10001 = log2 * LOG_SQRT10001_MUL // Q128.128
  // `>>` on a negative bigint floors, like Solidity's arithmetic shift of int256
  const tickLow = Number((logSqrt10001 - TICK_LOW_OFFSET) >> 128n)
  const tickHi = Number((logSqrt10001 + TICK_HI_OFFSET) >> 128n)

  return tickLow === tickHi ? tickLow : getSqrtRatioAtTick(tickHi) <= sqrtPriceX96 ? tickHi : tickLow
}

// v4-core names
export const getSqrtPriceAtTick = getSqrtRatioAtTick
export const getTickAtSqrtPrice = getTickAtSqrtRatio
