import { describe, expect, test } from "bun:test"
import fc from "fast-check"
import { MAX_UINT128 } from "../../src/amm/constants.ts"
import { getAmountIn, getAmountOut, getAmountOutWithFee } from "../../src/amm/v2.ts"
import { expandTo18Decimals, revertCode } from "./helpers.ts"

const e = expandTo18Decimals

// v2-periphery test/UniswapV2Router02.spec.ts
describe("UniswapV2Library (v2-periphery vectors)", () => {
  test("getAmountOut", () => {
    expect(getAmountOut(2n, 100n, 100n)).toBe(1n)
    expect(revertCode(() => getAmountOut(0n, 100n, 100n))).toBe("InsufficientInputAmount")
    expect(revertCode(() => getAmountOut(2n, 0n, 100n))).toBe("InsufficientLiquidity")
    expect(revertCode(() => getAmountOut(2n, 100n, 0n))).toBe("InsufficientLiquidity")
  })
  test("getAmountIn", () => {
    expect(getAmountIn(1n, 100n, 100n, 30)).toBe(2n)
    expect(revertCode(() => getAmountIn(0n, 100n, 100n, 30))).toBe("InsufficientOutputAmount")
    expect(revertCode(() => getAmountIn(1n, 0n, 100n, 30))).toBe("InsufficientLiquidity")
    expect(revertCode(() => getAmountIn(1n, 100n, 0n, 30))).toBe("InsufficientLiquidity")
    expect(revertCode(() => getAmountIn(100n, 100n, 100n, 30))).toBe("InsufficientLiquidity")
  })
})

// v2-core test/UniswapV2Pair.spec.ts swapTestCases: [amountIn, reserveIn, reserveOut, the largest
// output the pair's K check accepts]
describe("UniswapV2Pair getInputPrice cases (v2-core vectors)", () => {
  const cases: ReadonlyArray<readonly [bigint, bigint, bigint, bigint]> = [
    [e(1), e(5), e(10), 1662497915624478906n],
    [e(1), e(10), e(5), 453305446940074565n],
    [e(2), e(5), e(10), 2851015155847869602n],
    [e(2), e(10), e(5), 831248957812239453n],
    [e(1), e(10), e(10), 906610893880149131n],
    [e(1), e(100), e(100), 987158034397061298n],
    [e(1), e(1000), e(1000), 996006981039903216n],
  ]
  for (const [amountIn, rIn, rOut, out] of cases) {
    test(`${amountIn} in, reserves ${rIn}/${rOut}`, () => expect(getAmountOut(amountIn, rIn, rOut)).toBe(out))
  }
  test("optimistic case: amountIn = ceiling(amountOut / .997)", () => {
    expect(getAmountIn(e(1), e(5), e(5), 30) >= 1003009027081243732n).toBe(true)
  })
})

// UniswapV2Pair.swap accepts an output iff
// (balanceIn*1000 - amountIn*3) * (balanceOut*1000) >= reserveIn*reserveOut*1000^2
const kAccepts = (amountIn: bigint, rIn: bigint, rOut: bigint, out: bigint): boolean =>
  out < rOut && ((rIn + amountIn) * 1000n - amountIn * 3n) * ((rOut - out) * 1000n) >= rIn * rOut * 1_000_000n

const reserve = fc.oneof(fc.bigInt({ min: 1n, max: 10n ** 12n }), fc.bigInt({ min: 1000n, max: (1n << 112n) - 1n }))
const amt = fc.oneof(fc.bigInt({ min: 1n, max: 10n ** 12n }), fc.bigInt({ min: 1n, max: MAX_UINT128 }))

describe("properties against the pair's K check (an independent rational formula)", () => {
  test("getAmountOut is the largest output the pair accepts", () => {
    fc.assert(
      fc.property(amt, reserve, reserve, (a, rIn, rOut) => {
        const out = getAmountOut(a, rIn, rOut)
        return kAccepts(a, rIn, rOut, out) && !kAccepts(a, rIn, rOut, out + 1n)
      }),
      { numRuns: 2000 },
    )
  })
  test("getAmountOut equals floor(997*a*rOut / (1000*rIn + 997*a)) computed as a rational", () => {
    fc.assert(
      fc.property(amt, reserve, reserve, (a, rIn, rOut) => {
        const out = getAmountOut(a, rIn, rOut)
        // out <= exact < out + 1, cross-multiplied
        const num = 997n * a * rOut
        const den = 1000n * rIn + 997n * a
        return out * den <= num && num < (out + 1n) * den
      }),
      { numRuns: 2000 },
    )
  })
  test("getAmountIn buys at least the output, and the pair accepts it", () => {
    fc.assert(
      fc.property(reserve, reserve, fc.bigInt({ min: 1n, max: 10n ** 30n }), (rIn, rOut, o) => {
        const out = (o % rOut) === 0n ? 1n : o % rOut
        if (out >= rOut) return true
        const a = getAmountIn(out, rIn, rOut, 30)
        return getAmountOut(a, rIn, rOut) >= out && kAccepts(a, rIn, rOut, out)
      }),
      { numRuns: 2000 },
    )
  })
  test("output is monotone in the input and below the reserve", () => {
    fc.assert(
      fc.property(amt, amt, reserve, reserve, (a, b, rIn, rOut) => {
        const lo = a < b ? a : b
        const hi = a < b ? b : a
        const o = getAmountOut(hi, rIn, rOut)
        return getAmountOut(lo, rIn, rOut) <= o && o < rOut
      }),
    )
  })
})

// UniswapV2Library.getAmountIn at 30 bps, as the library computes it: floor(...) + 1
const libraryAmountIn = (out: bigint, rIn: bigint, rOut: bigint): bigint => (rIn * out * 1000n) / ((rOut - out) * 997n) + 1n
const feeBps = fc.oneof(fc.constantFrom(0, 5, 25, 30, 100, 9_999), fc.integer({ min: 0, max: 9_999 }))
/** an output the pair can pay: 1 .. reserveOut - 1 */
const payable = (rOut: bigint, o: bigint): bigint => (rOut < 2n ? 0n : (o % (rOut - 1n)) + 1n)

describe("getAmountIn: the least input for an exact output", () => {
  test("at every fee, the input reaches the output and one unit less does not (getAmountOutWithFee as the oracle)", () => {
    fc.assert(
      fc.property(reserve, reserve, amt, feeBps, (rIn, rOut, o, fee) => {
        const out = payable(rOut, o)
        if (out === 0n) return true
        const a = getAmountIn(out, rIn, rOut, fee)
        if (getAmountOutWithFee(a, rIn, rOut, fee) < out) return false
        return a === 1n || getAmountOutWithFee(a - 1n, rIn, rOut, fee) < out
      }),
      { numRuns: 3000 },
    )
  })
  test("at 30 bps it is the library's answer, one unit less where the library's division is exact", () => {
    fc.assert(
      fc.property(reserve, reserve, amt, (rIn, rOut, o) => {
        const out = payable(rOut, o)
        if (out === 0n) return true
        const lib = libraryAmountIn(out, rIn, rOut)
        const divides = (rIn * out * 1000n) % ((rOut - out) * 997n) === 0n
        return getAmountIn(out, rIn, rOut, 30) === (divides ? lib - 1n : lib)
      }),
      { numRuns: 3000 },
    )
    // an exact division: 997 out of reserves 1000 / 1997 needs exactly 1000 in; the library asks 1001
    expect(libraryAmountIn(997n, 1000n, 1997n)).toBe(1001n)
    expect(getAmountIn(997n, 1000n, 1997n, 30)).toBe(1000n)
    expect(getAmountOut(1000n, 1000n, 1997n)).toBe(997n)
  })
  test("the pair's K check (at 30 bps) accepts the input and refuses one unit less", () => {
    fc.assert(
      fc.property(reserve, reserve, amt, (rIn, rOut, o) => {
        const out = payable(rOut, o)
        if (out === 0n) return true
        const a = getAmountIn(out, rIn, rOut, 30)
        return kAccepts(a, rIn, rOut, out) && !kAccepts(a - 1n, rIn, rOut, out)
      }),
      { numRuns: 2000 },
    )
  })
  test("refuses what no input buys and fees the pair cannot have", () => {
    expect(revertCode(() => getAmountIn(1000n, 5000n, 1000n, 30))).toBe("InsufficientLiquidity")
    expect(revertCode(() => getAmountIn(1001n, 5000n, 1000n, 30))).toBe("InsufficientLiquidity")
    expect(revertCode(() => getAmountIn(10n, 5000n, 1000n, 10_000))).toBe("InvalidFee")
    expect(revertCode(() => getAmountIn(10n, 5000n, 1000n, -1))).toBe("InvalidFee")
    expect(revertCode(() => getAmountIn(10n, 5000n, 1000n, 2.5))).toBe("InvalidFee")
    // the largest payable output at a 0 fee: reserveIn * (reserveOut - 1)
    expect(getAmountIn(999n, 5000n, 1000n, 0)).toBe(5000n * 999n)
  })
})
