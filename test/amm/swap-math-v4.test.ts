import { describe, expect, test } from "bun:test"
import fc from "fast-check"
import { MAX_UINT128 } from "../../src/amm/constants.ts"
import { computeSwapStep } from "../../src/amm/swap-math.ts"
import { computeSwapStepV4, getSqrtPriceTarget } from "../../src/amm/swap-math-v4.ts"
import { MAX_SQRT_RATIO, MIN_SQRT_RATIO } from "../../src/amm/tick-math.ts"
import { expandTo18Decimals } from "./helpers.ts"

const E18 = expandTo18Decimals(1)
// v4-core test/utils/Constants.sol
const SQRT_PRICE_1_1 = 79228162514264337593543950336n
const SQRT_PRICE_1_4 = 39614081257132168796771975168n
const SQRT_PRICE_101_100 = 79623317895830914510639640423n
const SQRT_PRICE_1000_100 = 250541448375047931186413801569n
const SQRT_PRICE_10000_100 = 792281625142643375935439503360n

// vectors from v4-core test/libraries/SwapMath.t.sol (amountRemaining < 0 = exact input)
describe("computeSwapStep v4 (v4-core vectors)", () => {
  test("exact amount in, one for zero, capped at the price target", () => {
    expect(computeSwapStepV4(SQRT_PRICE_1_1, SQRT_PRICE_101_100, 2n * E18, -E18, 600)).toEqual({
      sqrtRatioNextX96: SQRT_PRICE_101_100,
      amountIn: 9975124224178055n,
      amountOut: 9925619580021728n,
      feeAmount: 5988667735148n,
    })
  })
  test("exact amount out, one for zero, capped at the price target", () => {
    expect(computeSwapStepV4(SQRT_PRICE_1_1, SQRT_PRICE_101_100, 2n * E18, E18, 600)).toEqual({
      sqrtRatioNextX96: SQRT_PRICE_101_100,
      amountIn: 9975124224178055n,
      amountOut: 9925619580021728n,
      feeAmount: 5988667735148n,
    })
  })
  test("exact amount in, one for zero, fully spent", () => {
    const r = computeSwapStepV4(SQRT_PRICE_1_1, SQRT_PRICE_1000_100, 2n * E18, -E18, 600)
    expect([r.amountIn, r.amountOut, r.feeAmount]).toEqual([999400000000000000n, 666399946655997866n, 600000000000000n])
    expect(r.sqrtRatioNextX96).toBeLessThan(SQRT_PRICE_1000_100)
  })
  test("exact amount out, one for zero, fully received", () => {
    const r = computeSwapStepV4(SQRT_PRICE_1_1, SQRT_PRICE_10000_100, 2n * E18, E18, 600)
    expect([r.amountIn, r.amountOut, r.feeAmount]).toEqual([2000000000000000000n, E18, 1200720432259356n])
  })
  test("amount out is capped at the desired amount out", () => {
    expect(computeSwapStepV4(417332158212080721273783715441582n, 1452870262520218020823638996n, 159344665391607089467575320103n, 1n, 1)).toEqual({
      sqrtRatioNextX96: 417332158212080721273783715441581n,
      amountIn: 1n,
      amountOut: 1n,
      feeAmount: 1n,
    })
  })
  test("target price of 1 uses partial input amount", () => {
    expect(computeSwapStepV4(2n, 1n, 1n, -3915081100057732413702495386755767n, 1)).toEqual({
      sqrtRatioNextX96: 1n,
      amountIn: SQRT_PRICE_1_4,
      amountOut: 0n,
      feeAmount: 39614120871253040049813n,
    })
  })
  test("not entire input amount taken as fee (v3 takes all of it: the amountIn/fee split differs)", () => {
    expect(computeSwapStepV4(2413n, 79887613182836312n, 1985041575832132834610021537970n, -10n, 1872)).toEqual({
      sqrtRatioNextX96: 2413n,
      amountIn: 9n,
      amountOut: 0n,
      feeAmount: 1n,
    })
    expect(computeSwapStep(2413n, 79887613182836312n, 1985041575832132834610021537970n, 10n, 1872)).toEqual({
      sqrtRatioNextX96: 2413n,
      amountIn: 0n,
      amountOut: 0n,
      feeAmount: 10n,
    })
  })
  test("intermediate insufficient liquidity in exact output, both directions", () => {
    const sqrtP = 20282409603651670423947251286016n
    expect(computeSwapStepV4(sqrtP, (sqrtP * 11n) / 10n, 1024n, 4n, 3000)).toEqual({
      sqrtRatioNextX96: (sqrtP * 11n) / 10n,
      amountIn: 26215n,
      amountOut: 0n,
      feeAmount: 79n,
    })
    expect(computeSwapStepV4(sqrtP, (sqrtP * 9n) / 10n, 1024n, 263000n, 3000)).toEqual({
      sqrtRatioNextX96: (sqrtP * 9n) / 10n,
      amountIn: 1n,
      amountOut: 26214n,
      feeAmount: 1n,
    })
  })
  test("a fee of 100% takes all input as fee (exact input)", () => {
    const r = computeSwapStepV4(SQRT_PRICE_1_1, SQRT_PRICE_101_100, 2n * E18, -E18, 1_000_000)
    expect(r).toEqual({ sqrtRatioNextX96: SQRT_PRICE_1_1, amountIn: 0n, amountOut: 0n, feeAmount: E18 })
  })
})

const price = fc.oneof(fc.bigInt({ min: MIN_SQRT_RATIO, max: MAX_SQRT_RATIO }), fc.bigInt({ min: 1n << 80n, max: 1n << 112n }))
const liquidity = fc.oneof(fc.bigInt({ min: 0n, max: MAX_UINT128 }), fc.bigInt({ min: 0n, max: 10n ** 22n }))
const magnitude = fc.oneof(fc.bigInt({ min: 1n, max: 10n ** 30n }), fc.bigInt({ min: 1n, max: 1n << 200n }))
const fee = fc.oneof(fc.integer({ min: 0, max: 999_999 }), fc.constantFrom(100, 500, 3000, 10000))

describe("getSqrtPriceTarget", () => {
  test("equals the v3 pool's inline choice (v4-core test_fuzz_getSqrtPriceTarget)", () => {
    fc.assert(
      fc.property(fc.boolean(), price, price, (zeroForOne, next, limit) =>
        getSqrtPriceTarget(zeroForOne, next, limit) === ((zeroForOne ? next < limit : next > limit) ? limit : next),
      ),
    )
  })
})

describe("computeSwapStep v4 against v3", () => {
  test("same price, amountOut and amountIn + fee for exact input; identical for exact output", () => {
    fc.assert(
      fc.property(price, price, liquidity, magnitude, fee, fc.boolean(), (p, t, l, m, f, exactIn) => {
        let v3: ReturnType<typeof computeSwapStep>
        let v4: ReturnType<typeof computeSwapStep>
        try {
          v3 = computeSwapStep(p, t, l, exactIn ? m : -m, f)
        } catch {
          let threw = false
          try {
            computeSwapStepV4(p, t, l, exactIn ? -m : m, f)
          } catch {
            threw = true
          }
          return threw
        }
        v4 = computeSwapStepV4(p, t, l, exactIn ? -m : m, f)
        if (!exactIn) return JSON.stringify([v3.sqrtRatioNextX96, v3.amountIn, v3.amountOut, v3.feeAmount].map(String)) === JSON.stringify([v4.sqrtRatioNextX96, v4.amountIn, v4.amountOut, v4.feeAmount].map(String))
        const sameTotal = v3.amountIn + v3.feeAmount === v4.amountIn + v4.feeAmount
        const sameSplitWhenCapped = v3.sqrtRatioNextX96 !== t || (v3.amountIn === v4.amountIn && v3.feeAmount === v4.feeAmount)
        return v3.sqrtRatioNextX96 === v4.sqrtRatioNextX96 && v3.amountOut === v4.amountOut && sameTotal && sameSplitWhenCapped
      }),
      { numRuns: 3000 },
    )
  })
  test("invariants (v4-core test_fuzz_computeSwapStep), fees up to 100% for exact input", () => {
    fc.assert(
      fc.property(price, price, liquidity, magnitude, fc.integer({ min: 0, max: 1_000_000 }), fc.boolean(), (p, t, l, m, f, exactIn) => {
        if (!exactIn && f === 1_000_000) return true
        const rem = exactIn ? -m : m
        let r: ReturnType<typeof computeSwapStep>
        try {
          r = computeSwapStepV4(p, t, l, rem, f)
        } catch {
          return true
        }
        if (exactIn ? r.amountIn + r.feeAmount > m : r.amountOut > m) return false
        if (p === t && (r.amountIn | r.amountOut | r.feeAmount) !== 0n) return false
        if (r.sqrtRatioNextX96 !== t && (exactIn ? r.amountIn + r.feeAmount !== m : r.amountOut !== m)) return false
        return t <= p ? r.sqrtRatioNextX96 <= p && r.sqrtRatioNextX96 >= t : r.sqrtRatioNextX96 >= p && r.sqrtRatioNextX96 <= t
      }),
      { numRuns: 3000 },
    )
  })
})
