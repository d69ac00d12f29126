// Port of SqrtPriceMath (v3-core/contracts/libraries/SqrtPriceMath.sol).
// v4-core/src/libraries/SqrtPriceMath.sol computes the same unsigned values
// (same formulas, same rounding, same revert conditions; only the error
// names differ: v3 uses bare requires, v4 custom errors, which are the codes
// used here). The one semantic difference is the SIGNED helpers: v4 negates
// them (positive liquidity delta -> negative amount, i.e. "owed to the pool"
// is negative in v4's BalanceDelta). Both conventions are exported.
//
// Values are uint160 prices and uint128 liquidities as on chain; inputs are not
// re-validated against their Solidity widths.
import { MAX_INT256, MAX_UINT160, MAX_UINT256, Q96, RESOLUTION } from "./constants.ts"
import { AmmRevert } from "./errors.ts"
import { mulDiv, mulDivRoundingUp } from "./full-math.ts"
import { divRoundingUp } from "./unsafe-math.ts"

/**
 * Next sqrt price after adding (add=true) or removing `amount` of token0,
 * always rounded up. Mirrors the overflow branches exactly: the precise
 * formula L*P/(L + amount*P) is used when amount*P and L<<96 + amount*P fit in
 * uint256, otherwise L/(L/P + amount) (whose rounding differs).
 */
export const getNextSqrtPriceFromAmount0RoundingUp = (
  sqrtPX96: bigint,
  liquidity: bigint,
  amount: bigint,
  add: boolean,
): bigint => {
  // short circuit: otherwise the result is not guaranteed to equal the input price
  if (amount === 0n) return sqrtPX96
  const numerator1 = liquidity << RESOLUTION

  if (add) {
    const product = amount * sqrtPX96
    if (product <= MAX_UINT256) {
      const denominator = numerator1 + product
      if (denominator <= MAX_UINT256) {
        // always fits in 160 bits
        return mulDivRoundingUp(numerator1, sqrtPX96, denominator)
      }
    }
    // (numerator1 / sqrtPX96) + amount is a checked addition
    if (sqrtPX96 === 0n) throw new AmmRevert("DivisionByZero", "getNextSqrtPriceFromAmount0RoundingUp")
    const d = numerator1 / sqrtPX96 + amount
    if (d > MAX_UINT256) throw new AmmRevert("ArithmeticOverflow", "getNextSqrtPriceFromAmount0RoundingUp")
    return divRoundingUp(numerator1, d)
  }
  // if the product overflows, we know the denominator underflows;
  // in addition, the denominator must not underflow
  const product = amount * sqrtPX96
  if (product > MAX_UINT256 || numerator1 <= product) {
    throw new AmmRevert("PriceOverflow", "getNextSqrtPriceFromAmount0RoundingUp")
  }
  const result = mulDivRoundingUp(numerator1, sqrtPX96, numerator1 - product)
  if (result > MAX_UINT160) throw new AmmRevert("SafeCastOverflow", "toUint160")
  return result
}

/**
 * Next sqrt price after adding (add=true) or removing `amount` of token1,
 * always rounded down (the quotient is rounded down when adding, up when removing).
 */
export const getNextSqrtPriceFromAmount1RoundingDown = (
  sqrtPX96: bigint,
  liquidity: bigint,
  amount: bigint,
  add: boolean,
): bigint => {
  if (add) {
    // (amount << 96) / liquidity for amount <= uint160 max, else mulDiv: both floor(amount*Q96/L);
    // both revert on liquidity == 0
    if (liquidity === 0n) throw new AmmRevert("DivisionByZero", "getNextSqrtPriceFromAmount1RoundingDown")
    const quotient = amount <= MAX_UINT160 ? (amount << RESOLUTION) / liquidity : mulDiv(amount, Q96, liquidity)
    const result = sqrtPX96 + quotient
    if (result > MAX_UINT256) throw new AmmRevert("ArithmeticOverflow", "getNextSqrtPriceFromAmount1RoundingDown")
    if (result > MAX_UINT160) throw new AmmRevert("SafeCastOverflow", "toUint160")
    return result
  }
  // UnsafeMath.divRoundingUp returns 0 for liquidity == 0 (the public entry
  // points reject liquidity == 0 before getting here); mulDivRoundingUp reverts.
  const quotient =
    amount <= MAX_UINT160 ? divRoundingUp(amount << RESOLUTION, liquidity) : mulDivRoundingUp(amount, Q96, liquidity)
  if (sqrtPX96 <= quotient) throw new AmmRevert("NotEnoughLiquidity", "getNextSqrtPriceFromAmount1RoundingDown")
  // always fits 160 bits
  return sqrtPX96 - quotient
}

/**
 * Price after swapping `amountIn` of token0 (zeroForOne) or token1 in;
 * rounded so that the price does not pass the target.
 */
export const getNextSqrtPriceFromInput = (
  sqrtPX96: bigint,
  liquidity: bigint,
  amountIn: bigint,
  zeroForOne: boolean,
): bigint => {
  if (sqrtPX96 === 0n || liquidity === 0n) throw new AmmRevert("InvalidPriceOrLiquidity", "getNextSqrtPriceFromInput")
  return zeroForOne
    ? getNextSqrtPriceFromAmount0RoundingUp(sqrtPX96, liquidity, amountIn, true)
    : getNextSqrtPriceFromAmount1RoundingDown(sqrtPX96, liquidity, amountIn, true)
}

/**
 * Price after swapping `amountOut` of token1 (zeroForOne) or token0 out;
 * rounded so that the price passes the target.
 */
export const getNextSqrtPriceFromOutput = (
  sqrtPX96: bigint,
  liquidity: bigint,
  amountOut: bigint,
  zeroForOne: boolean,
): bigint => {
  if (sqrtPX96 === 0n || liquidity === 0n) throw new AmmRevert("InvalidPriceOrLiquidity", "getNextSqrtPriceFromOutput")
  return zeroForOne
    ? getNextSqrtPriceFromAmount1RoundingDown(sqrtPX96, liquidity, amountOut, false)
    : getNextSqrtPriceFromAmount0RoundingUp(sqrtPX96, liquidity, amountOut, false)
}

/**
 * Amount of token0 between two prices for `liquidity`:
 * L*2^96*(B-A)/B/A, rounded up as ceil(ceil(L*2^96*(B-A)/B)/A) or down as
 * floor(floor(L*2^96*(B-A)/B)/A). Prices may come in either order.
 */
export const getAmount0Delta = (
  sqrtRatioAX96: bigint,
  sqrtRatioBX96: bigint,
  liquidity: bigint,
  roundUp: boolean,
): bigint => {
  let a = sqrtRatioAX96
  let b = sqrtRatioBX96
  if (a > b) {
    a = sqrtRatioBX96
    b = sqrtRatioAX96
  }
  if (a === 0n) throw new AmmRevert("InvalidPrice", "getAmount0Delta")
  const numerator1 = liquidity << RESOLUTION
  const numerator2 = b - a
  return roundUp
    ? divRoundingUp(mulDivRoundingUp(numerator1, numerator2, b), a)
    : mulDiv(numerator1, numerator2, b) / a
}

/**
 * Amount of token1 between two prices for `liquidity`: L*(B-A)/2^96 rounded
 * up or down. Prices may come in either order.
 */
export const getAmount1Delta = (
  sqrtRatioAX96: bigint,
  sqrtRatioBX96: bigint,
  liquidity: bigint,
  roundUp: boolean,
): bigint => {
  const diff = sqrtRatioAX96 > sqrtRatioBX96 ? sqrtRatioAX96 - sqrtRatioBX96 : sqrtRatioBX96 - sqrtRatioAX96
  return roundUp ? mulDivRoundingUp(liquidity, diff, Q96) : mulDiv(liquidity, diff, Q96)
}

const toInt256 = (x: bigint): bigint => {
  if (x > MAX_INT256) throw new AmmRevert("SafeCastOverflow", "toInt256")
  return x
}

/**
 * v3 signed helper (SqrtPriceMath.getAmount0Delta(uint160,uint160,int128)):
 * liquidityDelta >= 0 -> +amount rounded up (owed to the pool);
 * liquidityDelta < 0 -> -amount rounded down (paid by the pool).
 */
export const getAmount0DeltaSigned = (sqrtRatioAX96: bigint, sqrtRatioBX96: bigint, liquidityDelta: bigint): bigint =>
  liquidityDelta < 0n
    ? -toInt256(getAmount0Delta(sqrtRatioAX96, sqrtRatioBX96, -liquidityDelta, false))
    : toInt256(getAmount0Delta(sqrtRatioAX96, sqrtRatioBX96, liquidityDelta, true))

/** v3 signed helper for token1; same sign convention as getAmount0DeltaSigned. */
export const getAmount1DeltaSigned = (sqrtRatioAX96: bigint, sqrtRatioBX96: bigint, liquidityDelta: bigint): bigint =>
  liquidityDelta < 0n
    ? -toInt256(getAmount1Delta(sqrtRatioAX96, sqrtRatioBX96, -liquidityDelta, false))
    : toInt256(getAmount1Delta(sqrtRatioAX96, sqrtRatioBX96, liquidityDelta, true))

/**
 * v4 signed helper (v4-core SqrtPriceMath.getAmount0Delta(uint160,uint160,int128)):
 * the same magnitudes and rounding as v3, opposite sign (v4 BalanceDelta
 * convention: negative = owed by the caller to the pool).
 */
export const getAmount0DeltaSignedV4 = (sqrtPriceAX96: bigint, sqrtPriceBX96: bigint, liquidityDelta: bigint): bigint =>
  liquidityDelta < 0n
    ? toInt256(getAmount0Delta(sqrtPriceAX96, sqrtPriceBX96, -liquidityDelta, false))
    : -toInt256(getAmount0Delta(sqrtPriceAX96, sqrtPriceBX96, liquidityDelta, true))

/** v4 signed helper for currency1; same sign convention as getAmount0DeltaSignedV4. */
export const getAmount1DeltaSignedV4 = (sqrtPriceAX96: bigint, sqrtPriceBX96: bigint, liquidityDelta: bigint): bigint =>
  liquidityDelta < 0n
    ? toInt256(getAmount1Delta(sqrtPriceAX96, sqrtPriceBX96, -liquidityDelta, false))
    : -toInt256(getAmount1Delta(sqrtPriceAX96, sqrtPriceBX96, liquidityDelta, true))
