import { describe, expect, test } from "bun:test"
import fc from "fast-check"
import { MAX_UINT128 } from "../../src/amm/constants.ts"
import {
  getAmount0ForLiquidity,
  getAmount1ForLiquidity,
  getAmountsForLiquidity,
  getLiquidityForAmount0,
  getLiquidityForAmount1,
  getLiquidityForAmounts,
} from "../../src/amm/liquidity-amounts.ts"
import { getAmount0Delta, getAmount1Delta } from "../../src/amm/sqrt-price-math.ts"
import { getSqrtRatioAtTick, MAX_TICK, MIN_TICK } from "../../src/amm/tick-math.ts"
import { encodePriceSqrt, revertCode } from "./helpers.ts"

// vectors from v3-periphery test/LiquidityAmounts.spec.ts
const A = encodePriceSqrt(100, 110)
const B = encodePriceSqrt(110, 100)

describe("getLiquidityForAmounts (v3-periphery vectors)", () => {
  test("price inside", () => expect(getLiquidityForAmounts(encodePriceSqrt(1, 1), A, B, 100n, 200n)).toBe(2148n))
  test("price below", () => expect(getLiquidityForAmounts(encodePriceSqrt(99, 110), A, B, 100n, 200n)).toBe(1048n))
  test("price above", () => expect(getLiquidityForAmounts(encodePriceSqrt(111, 100), A, B, 100n, 200n)).toBe(2097n))
  test("price equal to lower boundary", () => expect(getLiquidityForAmounts(A, A, B, 100n, 200n)).toBe(1048n))
  test("price equal to upper boundary", () => expect(getLiquidityForAmounts(B, A, B, 100n, 200n)).toBe(2097n))
  test("bounds may come in either order", () => expect(getLiquidityForAmounts(encodePriceSqrt(1, 1), B, A, 100n, 200n)).toBe(2148n))
})

describe("getAmountsForLiquidity (v3-periphery vectors)", () => {
  test("price inside", () => expect(getAmountsForLiquidity(encodePriceSqrt(1, 1), A, B, 2148n)).toEqual({ amount0: 99n, amount1: 99n }))
  test("price below", () => expect(getAmountsForLiquidity(encodePriceSqrt(99, 110), A, B, 1048n)).toEqual({ amount0: 99n, amount1: 0n }))
  test("price above", () => expect(getAmountsForLiquidity(encodePriceSqrt(111, 100), A, B, 2097n)).toEqual({ amount0: 0n, amount1: 199n }))
  test("price on lower boundary", () => expect(getAmountsForLiquidity(A, A, B, 1048n)).toEqual({ amount0: 99n, amount1: 0n }))
  test("price on upper boundary", () => expect(getAmountsForLiquidity(B, A, B, 2097n)).toEqual({ amount0: 0n, amount1: 199n }))
})

describe("reverts", () => {
  test("uint128 overflow of the liquidity", () => {
    expect(revertCode(() => getLiquidityForAmount1(A, A + 1n, MAX_UINT128))).toBe("SafeCastOverflow")
  })
  test("empty range", () => {
    expect(revertCode(() => getLiquidityForAmount1(A, A, 1n))).toBe("DivisionByZero")
    expect(revertCode(() => getLiquidityForAmount0(A, A, 1n))).toBe("DivisionByZero")
  })
})

const tick = fc.integer({ min: MIN_TICK, max: MAX_TICK })
const amount = fc.oneof(fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.bigInt({ min: 0n, max: 10n ** 9n }))

describe("properties", () => {
  test("liquidity for an amount never costs more than that amount (what the pool charges, rounded up)", () => {
    fc.assert(
      fc.property(tick, tick, amount, amount, (t1, t2, a0, a1) => {
        if (t1 === t2) return true
        const a = getSqrtRatioAtTick(Math.min(t1, t2))
        const b = getSqrtRatioAtTick(Math.max(t1, t2))
        let l0: bigint
        let l1: bigint
        try {
          l0 = getLiquidityForAmount0(a, b, a0)
          l1 = getLiquidityForAmount1(a, b, a1)
        } catch {
          return true // uint128 overflow
        }
        return getAmount0Delta(a, b, l0, true) <= a0 && getAmount1Delta(a, b, l1, true) <= a1
      }),
      { numRuns: 1000 },
    )
  })
  test("amounts for liquidity equal the pool's rounded-down deltas", () => {
    fc.assert(
      fc.property(tick, tick, fc.bigInt({ min: 0n, max: MAX_UINT128 }), (t1, t2, l) => {
        const a = getSqrtRatioAtTick(t1)
        const b = getSqrtRatioAtTick(t2)
        return getAmount0ForLiquidity(a, b, l) === getAmount0Delta(a, b, l, false) && getAmount1ForLiquidity(a, b, l) === getAmount1Delta(a, b, l, false)
      }),
      { numRuns: 1000 },
    )
  })
  test("getLiquidityForAmounts: the minting cost at the current price fits both amounts", () => {
    fc.assert(
      fc.property(tick, tick, tick, amount, amount, (tp, t1, t2, a0, a1) => {
        if (t1 === t2) return true
        const lo = Math.min(t1, t2)
        const hi = Math.max(t1, t2)
        const p = getSqrtRatioAtTick(tp)
        const a = getSqrtRatioAtTick(lo)
        const b = getSqrtRatioAtTick(hi)
        let l: bigint
        try {
          l = getLiquidityForAmounts(p, a, b, a0, a1)
        } catch {
          return true
        }
        // what UniswapV3Pool.mint charges for l
        const cost0 = p < b ? getAmount0Delta(p > a ? p : a, b, l, true) : 0n
        const cost1 = p > a ? getAmount1Delta(a, p < b ? p : b, l, true) : 0n
        return cost0 <= a0 && cost1 <= a1
      }),
      { numRuns: 1000 },
    )
  })
})
