import { describe, expect, test } from "bun:test"
import fc from "fast-check"
import { nativeToToken, priceImpactBps } from "../../src/pricer/index.ts"

const usd = (answer: bigint, decimals = 8) => ({ answer, decimals, updatedAt: 0n })
const ONE = usd(100_000_000n)
const EURC = usd(116_000_000n) // $1.16
const BTC = usd(9_700_000_000_000n) // $97,000

describe("priceImpactBps", () => {
  // 1000 USDC at $1 buys 1000/1.16 = 862.0689655… EURC at the reference
  test("a route below the reference is positive", () => {
    // (862.0689655 − 850) / 862.0689655 = 1.39999…% → 140 bps
    expect(priceImpactBps({ amountIn: 1_000_000_000n, decimalsIn: 6, priceIn: ONE, grossAmountOut: 850_000_000n, decimalsOut: 6, priceOut: EURC })).toBe(140)
  })

  test("a route above the reference is negative", () => {
    // (862.0689655 − 870) / 862.0689655 = −0.92% → −92 bps
    expect(priceImpactBps({ amountIn: 1_000_000_000n, decimalsIn: 6, priceIn: ONE, grossAmountOut: 870_000_000n, decimalsOut: 6, priceOut: EURC })).toBe(-92)
  })

  test("decimals on both sides: 1 cirBTC (8) for 96,030 USDC (6) is 1% under 97,000", () => {
    expect(priceImpactBps({ amountIn: 100_000_000n, decimalsIn: 8, priceIn: BTC, grossAmountOut: 96_030_000_000n, decimalsOut: 6, priceOut: ONE })).toBe(100)
  })

  test("native USDC (18 decimals) in the same value gives the same impact", () => {
    const erc20 = priceImpactBps({ amountIn: 1_000_000_000n, decimalsIn: 6, priceIn: ONE, grossAmountOut: 850_000_000n, decimalsOut: 6, priceOut: EURC })
    const native = priceImpactBps({ amountIn: 1_000n * 10n ** 18n, decimalsIn: 18, priceIn: ONE, grossAmountOut: 850_000_000n, decimalsOut: 6, priceOut: EURC })
    expect(native).toBe(erc20)
  })

  test("null without a reference price on either side", () => {
    expect(priceImpactBps({ amountIn: 1n, decimalsIn: 6, priceIn: undefined, grossAmountOut: 1n, decimalsOut: 6, priceOut: ONE })).toBeNull()
    expect(priceImpactBps({ amountIn: 1n, decimalsIn: 6, priceIn: ONE, grossAmountOut: 1n, decimalsOut: 6, priceOut: undefined })).toBeNull()
  })

  test("zero at the reference, and the sign follows the output", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 30n }), fc.bigInt({ min: 1n, max: 10n ** 12n }), (amount, price) => {
        const p = usd(price)
        // same token, same price: the reference output is the input
        expect(priceImpactBps({ amountIn: amount, decimalsIn: 6, priceIn: p, grossAmountOut: amount, decimalsOut: 6, priceOut: p })).toBe(0)
        const better = priceImpactBps({ amountIn: amount, decimalsIn: 6, priceIn: p, grossAmountOut: amount * 2n, decimalsOut: 6, priceOut: p })!
        const worse = priceImpactBps({ amountIn: amount, decimalsIn: 6, priceIn: p, grossAmountOut: amount / 2n, decimalsOut: 6, priceOut: p })!
        expect(better).toBe(-10_000)
        expect(worse).toBeGreaterThan(0)
      }),
    )
  })
})

describe("nativeToToken", () => {
  test("gas in USDC wei to cirBTC units, rounded down", () => {
    // 0.001 USDC = $0.001 = 0.001/97000 BTC = 1.0309e-8 BTC = 1.03 units of 8 decimals
    expect(nativeToToken({ wei: 10n ** 15n, nativePrice: ONE, decimalsOut: 8, priceOut: BTC })).toBe(1n)
    // 1 USDC of gas = 1/1.16 EURC = 0.862068 EURC
    expect(nativeToToken({ wei: 10n ** 18n, nativePrice: ONE, decimalsOut: 6, priceOut: EURC })).toBe(862_068n)
  })

  test("undefined without prices", () => {
    expect(nativeToToken({ wei: 1n, nativePrice: undefined, decimalsOut: 6, priceOut: ONE })).toBeUndefined()
  })
})
