import { describe, expect, test } from "bun:test"
import fc from "fast-check"
import { MAX_UINT128, MAX_UINT160, MAX_UINT256 } from "../../src/amm/constants.ts"
import {
  getAmount0Delta,
  getAmount0DeltaSigned,
  getAmount0DeltaSignedV4,
  getAmount1Delta,
  getAmount1DeltaSigned,
  getAmount1DeltaSignedV4,
  getNextSqrtPriceFromAmount0RoundingUp,
  getNextSqrtPriceFromAmount1RoundingDown,
  getNextSqrtPriceFromInput,
  getNextSqrtPriceFromOutput,
} from "../../src/amm/sqrt-price-math.ts"
import { MAX_SQRT_RATIO, MIN_SQRT_RATIO } from "../../src/amm/tick-math.ts"
import { encodePriceSqrt, expandTo18Decimals, revertCode } from "./helpers.ts"

const ONE = encodePriceSqrt(1, 1)
const E18 = expandTo18Decimals(1)

// vectors from v3-core test/SqrtPriceMath.spec.ts
describe("getNextSqrtPriceFromInput (v3-core vectors)", () => {
  test("fails if price or liquidity is zero", () => {
    expect(revertCode(() => getNextSqrtPriceFromInput(0n, 0n, E18 / 10n, false))).toBe("InvalidPriceOrLiquidity")
    expect(revertCode(() => getNextSqrtPriceFromInput(1n, 0n, E18 / 10n, true))).toBe("InvalidPriceOrLiquidity")
  })
  test("fails if input amount overflows the price", () => {
    expect(revertCode(() => getNextSqrtPriceFromInput((1n << 160n) - 1n, 1024n, 1024n, false))).toBe("SafeCastOverflow")
  })
  test("any input amount cannot underflow the price", () => {
    expect(getNextSqrtPriceFromInput(1n, 1n, 1n << 255n, true)).toBe(1n)
  })
  test("returns input price if amount in is zero", () => {
    expect(getNextSqrtPriceFromInput(ONE, E18 / 10n, 0n, true)).toBe(ONE)
    expect(getNextSqrtPriceFromInput(ONE, E18 / 10n, 0n, false)).toBe(ONE)
  })
  test("returns the minimum price for max inputs", () => {
    const sqrtP = (1n << 160n) - 1n
    const liquidity = MAX_UINT128
    const maxAmountNoOverflow = MAX_UINT256 - (liquidity << 96n) / sqrtP
    expect(getNextSqrtPriceFromInput(sqrtP, liquidity, maxAmountNoOverflow, true)).toBe(1n)
  })
  test("input amount of 0.1 token1 / token0", () => {
    expect(getNextSqrtPriceFromInput(ONE, E18, E18 / 10n, false)).toBe(87150978765690771352898345369n)
    expect(getNextSqrtPriceFromInput(ONE, E18, E18 / 10n, true)).toBe(72025602285694852357767227579n)
  })
  test("amountIn > type(uint96).max and zeroForOne = true", () => {
    expect(getNextSqrtPriceFromInput(ONE, expandTo18Decimals(10), 1n << 100n, true)).toBe(624999999995069620n)
  })
  test("can return 1 with enough amountIn and zeroForOne = true", () => {
    expect(getNextSqrtPriceFromInput(ONE, 1n, MAX_UINT256 / 2n, true)).toBe(1n)
  })
})

describe("getNextSqrtPriceFromOutput (v3-core vectors)", () => {
  const price = 20282409603651670423947251286016n
  test("fails if price or liquidity is zero", () => {
    expect(revertCode(() => getNextSqrtPriceFromOutput(0n, 0n, E18 / 10n, false))).toBe("InvalidPriceOrLiquidity")
    expect(revertCode(() => getNextSqrtPriceFromOutput(1n, 0n, E18 / 10n, true))).toBe("InvalidPriceOrLiquidity")
  })
  test("fails if output amount is at or above the virtual reserves", () => {
    expect(revertCode(() => getNextSqrtPriceFromOutput(price, 1024n, 4n, false))).toBe("PriceOverflow")
    expect(revertCode(() => getNextSqrtPriceFromOutput(price, 1024n, 5n, false))).toBe("PriceOverflow")
    expect(revertCode(() => getNextSqrtPriceFromOutput(price, 1024n, 262145n, true))).toBe("NotEnoughLiquidity")
    expect(revertCode(() => getNextSqrtPriceFromOutput(price, 1024n, 262144n, true))).toBe("NotEnoughLiquidity")
  })
  test("succeeds if output amount is just less than the virtual reserves of token1", () => {
    expect(getNextSqrtPriceFromOutput(price, 1024n, 262143n, true)).toBe(77371252455336267181195264n)
  })
  test("returns input price if amount is zero", () => {
    expect(getNextSqrtPriceFromOutput(ONE, E18 / 10n, 0n, true)).toBe(ONE)
    expect(getNextSqrtPriceFromOutput(ONE, E18 / 10n, 0n, false)).toBe(ONE)
  })
  test("output amount of 0.1 token1 / token0", () => {
    expect(getNextSqrtPriceFromOutput(ONE, E18, E18 / 10n, false)).toBe(88031291682515930659493278152n)
    expect(getNextSqrtPriceFromOutput(ONE, E18, E18 / 10n, true)).toBe(71305346262837903834189555302n)
  })
  test("reverts if amountOut is impossible", () => {
    expect(revertCode(() => getNextSqrtPriceFromOutput(ONE, 1n, MAX_UINT256, true))).toBeDefined()
    expect(revertCode(() => getNextSqrtPriceFromOutput(ONE, 1n, MAX_UINT256, false))).toBeDefined()
  })
})

describe("getAmount0Delta / getAmount1Delta (v3-core vectors)", () => {
  test("returns 0 if liquidity is 0 or prices are equal", () => {
    expect(getAmount0Delta(ONE, encodePriceSqrt(2, 1), 0n, true)).toBe(0n)
    expect(getAmount0Delta(ONE, ONE, 0n, true)).toBe(0n)
    expect(getAmount1Delta(ONE, encodePriceSqrt(2, 1), 0n, true)).toBe(0n)
    expect(getAmount1Delta(ONE, ONE, E18, true)).toBe(0n)
  })
  test("price 1 to 1.21", () => {
    const p121 = encodePriceSqrt(121, 100)
    expect(getAmount0Delta(ONE, p121, E18, true)).toBe(90909090909090910n)
    expect(getAmount0Delta(ONE, p121, E18, false)).toBe(90909090909090909n)
    expect(getAmount1Delta(ONE, p121, E18, true)).toBe(100000000000000000n)
    expect(getAmount1Delta(ONE, p121, E18, false)).toBe(99999999999999999n)
  })
  test("works for prices that overflow", () => {
    const a = encodePriceSqrt(1n << 90n, 1)
    const b = encodePriceSqrt(1n << 96n, 1)
    expect(getAmount0Delta(a, b, E18, true)).toBe(getAmount0Delta(a, b, E18, false) + 1n)
  })
  test("reverts for a zero price", () => {
    expect(revertCode(() => getAmount0Delta(0n, ONE, E18, true))).toBe("InvalidPrice")
  })
  test("swap computation: sqrtP * sqrtQ overflows", () => {
    const sqrtP = 1025574284609383690408304870162715216695788925244n
    const liquidity = 50015962439936049619261659728067971248n
    const sqrtQ = getNextSqrtPriceFromInput(sqrtP, liquidity, 406n, true)
    expect(sqrtQ).toBe(1025574284609383582644711336373707553698163132913n)
    expect(getAmount0Delta(sqrtQ, sqrtP, liquidity, true)).toBe(406n)
  })
})

const price = fc.bigInt({ min: MIN_SQRT_RATIO, max: MAX_SQRT_RATIO })
const liquidity = fc.oneof(fc.bigInt({ min: 1n, max: MAX_UINT128 }), fc.bigInt({ min: 1n, max: 10n ** 24n }))
const amount = fc.oneof(fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.bigInt({ min: 0n, max: MAX_UINT128 }))

describe("rounding properties", () => {
  test("getAmount0Delta: exact rational value lies in [down, up], up - down <= 1", () => {
    fc.assert(
      fc.property(price, price, liquidity, (a, b, l) => {
        const lo = a < b ? a : b
        const hi = a < b ? b : a
        const up = getAmount0Delta(a, b, l, true)
        const down = getAmount0Delta(a, b, l, false)
        // exact = l * 2^96 * (hi - lo) / (hi * lo)
        const num = (l << 96n) * (hi - lo)
        const den = hi * lo
        return down * den <= num && num <= up * den && up - down <= 1n && up >= down
      }),
      { numRuns: 1500 },
    )
  })
  test("getAmount1Delta: exact rational value lies in [down, up], up - down <= 1", () => {
    fc.assert(
      fc.property(price, price, liquidity, (a, b, l) => {
        const up = getAmount1Delta(a, b, l, true)
        const down = getAmount1Delta(a, b, l, false)
        const num = l * (a > b ? a - b : b - a)
        const den = 1n << 96n
        return down * den <= num && num <= up * den && up - down <= 1n
      }),
      { numRuns: 1500 },
    )
  })
  test("input: price moves the right way, never past the exact price, and the input pays for the move", () => {
    fc.assert(
      fc.property(price, liquidity, amount, fc.boolean(), (p, l, amt, zeroForOne) => {
        let q: bigint
        try {
          q = getNextSqrtPriceFromInput(p, l, amt, zeroForOne)
        } catch {
          return true // reverts are covered by vectors
        }
        if (zeroForOne) {
          // exact: L*p/(L + amt*p/2^96); q rounds up so q >= exact, and the token0 needed to reach q is <= amt
          if (q > p) return false
          return getAmount0Delta(q, p, l, true) <= amt
        }
        if (q < p) return false
        return getAmount1Delta(p, q, l, true) <= amt
      }),
      { numRuns: 1500 },
    )
  })
  test("output: the price moves far enough to release at least the requested amount", () => {
    fc.assert(
      fc.property(price, liquidity, amount, fc.boolean(), (p, l, amt, zeroForOne) => {
        let q: bigint
        try {
          q = getNextSqrtPriceFromOutput(p, l, amt, zeroForOne)
        } catch {
          return true
        }
        if (zeroForOne) return q <= p && getAmount1Delta(q, p, l, false) >= amt
        return q >= p && getAmount0Delta(p, q, l, false) >= amt
      }),
      { numRuns: 1500 },
    )
  })
  test("amount0 rounding-up formula takes the overflow branch exactly when amount*price or the sum leave uint256", () => {
    // in the fallback branch the result is L/(L/P + amount) rounded up, which may differ from the precise one
    const p = MAX_UINT160
    const l = MAX_UINT128
    const amt = MAX_UINT256 / p + 1n // amount * price overflows
    const viaFallback = getNextSqrtPriceFromAmount0RoundingUp(p, l, amt, true)
    const n1 = l << 96n
    const d = n1 / p + amt
    expect(viaFallback).toBe((n1 + d - 1n) / d)
  })
  test("amount1 with amount > uint160 max uses mulDiv (same floor)", () => {
    const big = MAX_UINT160 + 12345n
    expect(getNextSqrtPriceFromAmount1RoundingDown(MIN_SQRT_RATIO, MAX_UINT128, big, true)).toBe(
      MIN_SQRT_RATIO + (big << 96n) / MAX_UINT128,
    )
  })
})

describe("signed helpers", () => {
  const a = encodePriceSqrt(1, 1)
  const b = encodePriceSqrt(121, 100)
  test("v3 convention: +L rounds up and is positive, -L rounds down and is negative", () => {
    expect(getAmount0DeltaSigned(a, b, E18)).toBe(90909090909090910n)
    expect(getAmount0DeltaSigned(a, b, -E18)).toBe(-90909090909090909n)
    expect(getAmount1DeltaSigned(a, b, E18)).toBe(100000000000000000n)
    expect(getAmount1DeltaSigned(a, b, -E18)).toBe(-99999999999999999n)
  })
  test("v4 convention: the same magnitudes, opposite signs", () => {
    expect(getAmount0DeltaSignedV4(a, b, E18)).toBe(-90909090909090910n)
    expect(getAmount0DeltaSignedV4(a, b, -E18)).toBe(90909090909090909n)
    expect(getAmount1DeltaSignedV4(a, b, E18)).toBe(-100000000000000000n)
    expect(getAmount1DeltaSignedV4(a, b, -E18)).toBe(99999999999999999n)
  })
})
