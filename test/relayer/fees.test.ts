// The relayer's fee math: a replacement raises both fees by at least an eighth
// and prices at least twice the base fee plus its tip; the first send is the
// base fee's percent plus the tip.
import { describe, expect, test } from "bun:test"
import fc from "fast-check"
import { bump, initialFees, replacementFees } from "../../src/relayer/index.ts"

const wei = fc.bigInt({ min: 0n, max: 10n ** 15n })

describe("relayer fees", () => {
  test("the first send: twice the base fee plus the tip by default", () => {
    expect(initialFees(20_000_000_000n, 1_000_000_000n)).toEqual({ maxFeePerGas: 41_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n })
    expect(initialFees(20_000_000_000n, 0n, 50)).toEqual({ maxFeePerGas: 10_000_000_000n, maxPriorityFeePerGas: 0n })
  })

  test("bump: +12.5% rounded up, and at least one wei", () => {
    expect(bump(0n)).toBe(1n)
    expect(bump(8n)).toBe(9n)
    expect(bump(9n)).toBe(11n)
    expect(bump(1_000_000_000n)).toBe(1_125_000_000n)
  })

  test("a replacement is above the one it replaces on both fees and above the head", () => {
    fc.assert(
      fc.property(wei, wei, wei, wei, (maxFee, tipBefore, baseFee, tip) => {
        const previous = { maxFeePerGas: maxFee + tipBefore, maxPriorityFeePerGas: tipBefore }
        const next = replacementFees(previous, baseFee, tip)
        expect(next.maxFeePerGas * 8n >= previous.maxFeePerGas * 9n).toBe(true)
        expect(next.maxPriorityFeePerGas * 8n >= previous.maxPriorityFeePerGas * 9n).toBe(true)
        expect(next.maxFeePerGas > previous.maxFeePerGas && next.maxPriorityFeePerGas > previous.maxPriorityFeePerGas).toBe(true)
        expect(next.maxFeePerGas >= baseFee * 2n + next.maxPriorityFeePerGas).toBe(true)
        expect(next.maxPriorityFeePerGas >= tip).toBe(true)
      }),
    )
  })
})
