// Basis-point shares: the per-split amounts the route executor applies, and the same amounts as
// doubles for the float models (the quantiser's moves), which must be what Number() of the exact
// amounts gives, on both sides of the amounts doubles hold exactly.
import { describe, expect, test } from "bun:test"
import fc from "fast-check"
import { splitAmounts, splitAmountsAsNumbers } from "../../src/routing/shares.ts"

/** 1 to 8 shares summing to 10000 bp */
const shares = fc.array(fc.integer({ min: 1, max: 10_000 }), { minLength: 1, maxLength: 8 }).map((ws) => {
  const total = ws.reduce((a, b) => a + b, 0)
  const bps = ws.map((w) => Math.floor((w * 10_000) / total))
  bps[0]! += 10_000 - bps.reduce((a, b) => a + b, 0)
  return bps
})

describe("split amounts", () => {
  test("the last split takes the remainder: the amounts sum to the whole, each floor(amount x bps / 10000) before it", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 1n, max: 10n ** 40n }), shares, (amount, bps) => {
        const out = splitAmounts(amount, bps)
        expect(out.reduce((a, b) => a + b, 0n)).toBe(amount)
        for (let i = 0; i < bps.length - 1; i++) expect(out[i]).toBe((amount * BigInt(bps[i]!)) / 10_000n)
      }),
    )
  })

  test("as doubles: exactly Number() of each exact amount, below and above the amounts whose products doubles hold", () => {
    const edge = BigInt(Math.floor(Number.MAX_SAFE_INTEGER / 10_000))
    const amounts = fc.oneof(
      fc.bigInt({ min: 1n, max: edge }),
      fc.bigInt({ min: edge - 1_000n, max: edge + 1_000n }),
      fc.bigInt({ min: edge, max: edge * 100_000n }),
      fc.bigInt({ min: edge, max: 10n ** 40n }),
    )
    fc.assert(
      fc.property(amounts, shares, (amount, bps) => {
        expect(splitAmountsAsNumbers(amount, bps, new Array(bps.length))).toEqual(splitAmounts(amount, bps).map(Number))
      }),
      { numRuns: 10_000 },
    )
  })
})
