import { describe, expect, test } from "bun:test"
import fc from "fast-check"
import { MAX_UINT128 } from "../../src/amm/constants.ts"
import { getNextSqrtPriceFromInput, getNextSqrtPriceFromOutput } from "../../src/amm/sqrt-price-math.ts"
import { computeSwapStep } from "../../src/amm/swap-math.ts"
import { MAX_SQRT_RATIO, MIN_SQRT_RATIO } from "../../src/amm/tick-math.ts"
import { encodePriceSqrt, expandTo18Decimals } from "./helpers.ts"

const E18 = expandTo18Decimals(1)
const ONE = encodePriceSqrt(1, 1)

// vectors from v3-core test/SwapMath.spec.ts (amountRemaining > 0 = exact input)
describe("computeSwapStep v3 (v3-core vectors)", () => {
  test("exact amount in that gets capped at price target in one for zero", () => {
    const price = ONE
    const target = encodePriceSqrt(101, 100)
    expect(target).toBe(79623317895830914510639640423n) // v4-core Constants.SQRT_PRICE_101_100
    const r = computeSwapStep(price, target, 2n * E18, E18, 600)
    expect(r).toEqual({ sqrtRatioNextX96: target, amountIn: 9975124224178055n, amountOut: 9925619580021728n, feeAmount: 5988667735148n })
    expect(r.amountIn + r.feeAmount).toBeLessThan(E18)
    expect(r.sqrtRatioNextX96).toBeLessThan(getNextSqrtPriceFromInput(price, 2n * E18, E18, false))
  })
  test("exact amount out that gets capped at price target in one for zero", () => {
    const target = encodePriceSqrt(101, 100)
    const r = computeSwapStep(ONE, target, 2n * E18, -E18, 600)
    expect(r).toEqual({ sqrtRatioNextX96: target, amountIn: 9975124224178055n, amountOut: 9925619580021728n, feeAmount: 5988667735148n })
    expect(r.sqrtRatioNextX96).toBeLessThan(getNextSqrtPriceFromOutput(ONE, 2n * E18, E18, false))
  })
  test("exact amount in that is fully spent in one for zero", () => {
    const target = encodePriceSqrt(1000, 100)
    const r = computeSwapStep(ONE, target, 2n * E18, E18, 600)
    expect(r.amountIn).toBe(999400000000000000n)
    expect(r.feeAmount).toBe(600000000000000n)
    expect(r.amountOut).toBe(666399946655997866n)
    expect(r.amountIn + r.feeAmount).toBe(E18)
    expect(r.sqrtRatioNextX96).toBeLessThan(target)
    expect(r.sqrtRatioNextX96).toBe(getNextSqrtPriceFromInput(ONE, 2n * E18, E18 - r.feeAmount, false))
  })
  test("exact amount out that is fully received in one for zero", () => {
    const target = encodePriceSqrt(10000, 100)
    const r = computeSwapStep(ONE, target, 2n * E18, -E18, 600)
    expect(r.amountIn).toBe(2000000000000000000n)
    expect(r.feeAmount).toBe(1200720432259356n)
    expect(r.amountOut).toBe(E18)
    expect(r.sqrtRatioNextX96).toBe(getNextSqrtPriceFromOutput(ONE, 2n * E18, E18, false))
  })
  test("amount out is capped at the desired amount out", () => {
    const r = computeSwapStep(417332158212080721273783715441582n, 1452870262520218020823638996n, 159344665391607089467575320103n, -1n, 1)
    expect(r).toEqual({ sqrtRatioNextX96: 417332158212080721273783715441581n, amountIn: 1n, amountOut: 1n, feeAmount: 1n })
  })
  test("target price of 1 uses partial input amount", () => {
    const r = computeSwapStep(2n, 1n, 1n, 3915081100057732413702495386755767n, 1)
    expect(r).toEqual({ sqrtRatioNextX96: 1n, amountIn: 39614081257132168796771975168n, amountOut: 0n, feeAmount: 39614120871253040049813n })
  })
  test("entire input amount taken as fee", () => {
    const r = computeSwapStep(2413n, 79887613182836312n, 1985041575832132834610021537970n, 10n, 1872)
    expect(r).toEqual({ sqrtRatioNextX96: 2413n, amountIn: 0n, amountOut: 0n, feeAmount: 10n })
  })
  test("handles intermediate insufficient liquidity in zero for one exact output case", () => {
    const sqrtP = 20282409603651670423947251286016n
    const r = computeSwapStep(sqrtP, (sqrtP * 11n) / 10n, 1024n, -4n, 3000)
    expect(r).toEqual({ sqrtRatioNextX96: (sqrtP * 11n) / 10n, amountIn: 26215n, amountOut: 0n, feeAmount: 79n })
  })
  test("handles intermediate insufficient liquidity in one for zero exact output case", () => {
    const sqrtP = 20282409603651670423947251286016n
    const r = computeSwapStep(sqrtP, (sqrtP * 9n) / 10n, 1024n, -263000n, 3000)
    expect(r).toEqual({ sqrtRatioNextX96: (sqrtP * 9n) / 10n, amountIn: 1n, amountOut: 26214n, feeAmount: 1n })
  })
})

const price = fc.oneof(fc.bigInt({ min: MIN_SQRT_RATIO, max: MAX_SQRT_RATIO }), fc.bigInt({ min: 1n << 80n, max: 1n << 112n }))
const liquidity = fc.oneof(fc.bigInt({ min: 0n, max: MAX_UINT128 }), fc.bigInt({ min: 0n, max: 10n ** 22n }))
const amount = fc.oneof(fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }), fc.bigInt({ min: -(1n << 200n), max: 1n << 200n }))
const fee = fc.oneof(fc.integer({ min: 0, max: 999_999 }), fc.constantFrom(100, 500, 3000, 10000))

// the invariants of v3-core's SwapMathEchidnaTest / v4-core's test_fuzz_computeSwapStep
describe("computeSwapStep v3 invariants", () => {
  test("bounds on amounts and price", () => {
    fc.assert(
      fc.property(price, price, liquidity, amount, fee, (p, t, l, rem, f) => {
        let r: ReturnType<typeof computeSwapStep>
        try {
          r = computeSwapStep(p, t, l, rem, f)
        } catch {
          return true
        }
        const exactIn = rem >= 0n
        if (exactIn && r.amountIn + r.feeAmount > rem) return false
        if (!exactIn && r.amountOut > -rem) return false
        // price moves toward the target and never past it
        if (t <= p ? !(r.sqrtRatioNextX96 <= p && r.sqrtRatioNextX96 >= t) : !(r.sqrtRatioNextX96 >= p && r.sqrtRatioNextX96 <= t)) return false
        if (p === t && (r.amountIn !== 0n || r.amountOut !== 0n || r.feeAmount !== 0n)) return false
        // target not reached: the whole remaining amount is used
        if (r.sqrtRatioNextX96 !== t) {
          if (exactIn && r.amountIn + r.feeAmount !== rem) return false
          if (!exactIn && r.amountOut !== -rem) return false
        }
        return r.amountIn >= 0n && r.amountOut >= 0n && r.feeAmount >= 0n
      }),
      { numRuns: 3000 },
    )
  })
})
