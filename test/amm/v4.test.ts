import { describe, expect, test } from "bun:test"
import fc from "fast-check"
import { getLiquidityForAmounts } from "../../src/amm/liquidity-amounts.ts"
import { getSqrtRatioAtTick } from "../../src/amm/tick-math.ts"
import { poolAfterSwap, swapExactInput, type ConcentratedPool, type SwapResult, type SwapSuccess } from "../../src/amm/v3.ts"
import { calculateSwapFee, swapExactInputV4 } from "../../src/amm/v4.ts"
import { arbAmount, arbPool } from "./arbitraries.ts"
import { buildPool, type Position } from "./v3-pools.ts"

const SQRT_PRICE_1_1 = 79228162514264337593543950336n
const ok = (r: SwapResult): SwapSuccess => {
  if (!r.ok) throw new Error(`swap failed: ${r.reason} ${r.detail ?? ""}`)
  return r
}

// The pools of v4-periphery test/V4Quoter.t.sol: fee 3000, tick spacing 60, price 1:1,
// liquidity from LiquidityAmounts.getLiquidityForAmounts(1:1, lower, upper, amount0, amount1)
const position = (lower: number, upper: number, amount: bigint): Position => ({
  tickLower: lower,
  tickUpper: upper,
  liquidity: getLiquidityForAmounts(SQRT_PRICE_1_1, getSqrtRatioAtTick(lower), getSqrtRatioAtTick(upper), amount, amount),
})
const FULL = position(-887220, 887220, 1_000_000n)
const setupPool = buildPool(3000, 60, SQRT_PRICE_1_1, [FULL])
const multiplePositions = [FULL, position(-60, 60, 100n), position(-120, 120, 100n)]
const setupPoolMultiplePositions = buildPool(3000, 60, SQRT_PRICE_1_1, multiplePositions)
// setupPoolWithZeroTickInitialized applied on top of the multiple-positions pool (as in the test's setUp)
const withZeroTickInitialized = buildPool(3000, 60, SQRT_PRICE_1_1, [
  ...multiplePositions,
  FULL,
  position(0, 60, 100n),
  position(-120, 0, 100n),
])

describe("V4Quoter exact-input vectors (v4-periphery test/V4Quoter.t.sol)", () => {
  const out = (pool: ConcentratedPool, zeroForOne: boolean, amountIn: bigint) => ok(swapExactInputV4(pool, zeroForOne, amountIn)).amountOut
  test("quoteExactInputSingle, multiple positions, both directions", () => {
    expect(out(setupPoolMultiplePositions, true, 10000n)).toBe(9871n)
    expect(out(setupPoolMultiplePositions, false, 10000n)).toBe(9871n)
  })
  test("0 -> 2 (zeroForOne) over two, one and no loaded ticks", () => {
    expect(out(setupPoolMultiplePositions, true, 10000n)).toBe(9871n)
    expect(out(setupPoolMultiplePositions, true, 6200n)).toBe(6143n)
    expect(out(setupPoolMultiplePositions, true, 4000n)).toBe(3971n)
    expect(out(setupPoolMultiplePositions, true, 10n)).toBe(8n)
    expect(out(withZeroTickInitialized, true, 10n)).toBe(8n)
  })
  test("2 -> 0 (oneForZero)", () => {
    expect(out(setupPoolMultiplePositions, false, 10000n)).toBe(9871n)
    expect(out(setupPoolMultiplePositions, false, 6250n)).toBe(6190n)
    expect(out(setupPoolMultiplePositions, false, 103n)).toBe(101n)
    expect(out(withZeroTickInitialized, false, 200n)).toBe(198n)
  })
  test("2 -> 1 on a full-range pool, and the two-hop 0 -> 2 -> 1", () => {
    expect(out(setupPool, false, 10000n)).toBe(9871n)
    expect(out(setupPool, false, out(setupPoolMultiplePositions, true, 10000n))).toBe(9745n)
  })
  test("the swaps that end on an initialized tick leave it uncrossed", () => {
    const r = ok(swapExactInputV4(setupPoolMultiplePositions, true, 6200n))
    expect(r.tickAfter).toBe(-120)
    const s = ok(swapExactInputV4(setupPoolMultiplePositions, false, 6250n))
    expect(s.tickAfter).toBe(120)
  })
})

describe("V4 against V3", () => {
  test("for the same state and a fee below 100%, a hookless V4 pool swaps exactly like a V3 pool", () => {
    fc.assert(
      fc.property(arbPool(), fc.boolean(), arbAmount, fc.option(fc.integer({ min: 1, max: 4000 }), { nil: undefined }), (pool, z, amt, limitDistance) => {
        const limit =
          limitDistance === undefined
            ? undefined
            : getSqrtRatioAtTick(Math.max(-887000, Math.min(887000, pool.tick + (z ? -limitDistance : limitDistance))))
        const key = (r: SwapResult) => JSON.stringify(r, (_, v) => (typeof v === "bigint" ? v.toString() : v))
        return key(swapExactInputV4(pool, z, amt, limit)) === key(swapExactInput(pool, z, amt, limit))
      }),
      { numRuns: 1500, endOnFailure: true },
    )
  })
  test("a 100% fee (allowed in V4 only) takes the whole input and gives nothing", () => {
    const pool = { ...setupPoolMultiplePositions, fee: 1_000_000 }
    // the price sits exactly on tick 0, the first tick of its bitmap word: the first step
    // targets tick 0 itself, "reaches" it without moving and shifts the tick to -1
    expect(ok(swapExactInputV4(pool, true, 12345n))).toEqual({
      ok: true,
      amountIn: 12345n,
      amountOut: 0n,
      sqrtPriceX96After: pool.sqrtPriceX96,
      tickAfter: -1,
      liquidityAfter: pool.liquidity,
      ticksCrossed: 0,
    })
    expect(swapExactInput(pool, true, 12345n)).toMatchObject({ ok: false, reason: "InvalidPool" })
  })
  test("a drained pool without a limit is InsufficientLiquidity (V4Quoter: NotEnoughLiquidity)", () => {
    const r = swapExactInputV4(setupPool, true, 10n ** 30n)
    expect(r).toMatchObject({ ok: false, reason: "InsufficientLiquidity" })
  })
})

describe("calculateSwapFee (ProtocolFeeLibrary)", () => {
  test("protocolFee + lpFee - protocolFee * lpFee / 1e6, rounded so the total is rounded up", () => {
    expect(calculateSwapFee(0, 3000)).toBe(3000)
    expect(calculateSwapFee(1000, 0)).toBe(1000)
    expect(calculateSwapFee(1000, 3000)).toBe(3997) // 1000 + 3000 - 3
    expect(calculateSwapFee(1000, 1_000_000)).toBe(1_000_000)
    expect(calculateSwapFee(999, 3001)).toBe(999 + 3001 - 2) // 2997999 / 1e6 = 2
  })
})

describe("chained V4 swaps", () => {
  test("poolAfterSwap carries price, tick and liquidity into the next swap", () => {
    const r1 = ok(swapExactInputV4(setupPoolMultiplePositions, true, 3000n))
    const r2 = ok(swapExactInputV4(poolAfterSwap(setupPoolMultiplePositions, r1), true, 3000n))
    const both = ok(swapExactInputV4(setupPoolMultiplePositions, true, 6000n))
    expect(r1.amountOut + r2.amountOut).toBeLessThanOrEqual(both.amountOut)
    expect(r2.sqrtPriceX96After).toBeGreaterThanOrEqual(both.sqrtPriceX96After)
  })
})

import { swapExactOutput } from "../../src/amm/v3.ts"
import { swapExactOutputV4 } from "../../src/amm/v4.ts"

describe("V4Quoter exact-output vectors (v4-periphery test/V4Quoter.t.sol)", () => {
  const inFor = (pool: ConcentratedPool, zeroForOne: boolean, amountOut: bigint) => {
    const r = ok(swapExactOutputV4(pool, zeroForOne, amountOut))
    expect(r.amountOut).toBe(amountOut)
    return r.amountIn
  }
  test("quoteExactOutputSingle on a full-range pool, both directions", () => {
    expect(inFor(setupPool, true, 10000n)).toBe(10133n)
    expect(inFor(setupPool, false, 10000n)).toBe(10133n)
  })
  test("0 -> 2 (zeroForOne) over two, one and no loaded ticks", () => {
    expect(inFor(setupPoolMultiplePositions, true, 15000n)).toBe(15273n)
    expect(inFor(setupPoolMultiplePositions, true, 6143n)).toBe(6200n)
    expect(inFor(setupPoolMultiplePositions, true, 4000n)).toBe(4029n)
    expect(inFor(setupPoolMultiplePositions, true, 10n)).toBe(12n)
    expect(inFor(withZeroTickInitialized, true, 100n)).toBe(102n)
  })
  test("2 -> 0 (oneForZero)", () => {
    expect(inFor(setupPoolMultiplePositions, false, 15000n)).toBe(15273n)
    expect(inFor(setupPoolMultiplePositions, false, 6223n)).toBe(6283n)
    expect(inFor(setupPoolMultiplePositions, false, 6000n)).toBe(6055n)
  })
  test("2 -> 1 on a full-range pool, and the two-hop 0 -> 2 -> 1 backwards from its output", () => {
    expect(inFor(setupPool, false, 9871n)).toBe(10000n)
    expect(inFor(setupPoolMultiplePositions, true, inFor(setupPool, false, 9745n))).toBe(10000n)
  })
  test("the ticks crossed: two loaded ticks for 15000, none for 10", () => {
    expect(ok(swapExactOutputV4(setupPoolMultiplePositions, true, 15000n)).ticksCrossed).toBe(2)
    expect(ok(swapExactOutputV4(setupPoolMultiplePositions, true, 10n)).ticksCrossed).toBe(0)
  })
})

describe("V4 exact output against V3", () => {
  test("for the same state and a fee below 100%, V4's exact output equals V3's, partial fills and refusals included", () => {
    fc.assert(
      fc.property(arbPool(), fc.boolean(), arbAmount, fc.option(fc.integer({ min: 1, max: 4000 }), { nil: undefined }), (pool, z, amt, limitDistance) => {
        const limit =
          limitDistance === undefined
            ? undefined
            : getSqrtRatioAtTick(Math.max(-887000, Math.min(887000, pool.tick + (z ? -limitDistance : limitDistance))))
        const key = (r: SwapResult) => JSON.stringify(r, (_, v) => (typeof v === "bigint" ? v.toString() : v))
        return key(swapExactOutputV4(pool, z, amt, limit)) === key(swapExactOutput(pool, z, amt, limit))
      }),
      { numRuns: 1500, endOnFailure: true },
    )
  })
  test("a 100% fee buys nothing: the pool refuses exact output (InvalidFeeForExactOut)", () => {
    const pool = { ...setupPoolMultiplePositions, fee: 1_000_000 }
    expect(swapExactOutputV4(pool, true, 1n)).toMatchObject({ ok: false, reason: "Reverted", detail: "InvalidFeeForExactOut" })
  })
  test("an output the pool cannot pay without a limit is InsufficientLiquidity (V4Quoter: NotEnoughLiquidity)", () => {
    expect(swapExactOutputV4(setupPool, true, 10n ** 30n)).toMatchObject({ ok: false, reason: "InsufficientLiquidity" })
  })
})
