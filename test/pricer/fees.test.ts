// The spec's fee formulas: hand-derived vectors, invariants as properties, and
// agreement with an exact rational computation that shares no code with src/fees.
import { describe, expect, test } from "bun:test"
import fc from "fast-check"
import { bpsOf, grossForNet, maxAmountIn, minAmountOut, splitFees } from "../../src/pricer/index.ts"

// --- an independent exact rational: reduced fractions, floor found by bisection
// using only multiplication and comparison (no bigint division involved) ---
const abs = (x: bigint) => (x < 0n ? -x : x)
const gcd = (a: bigint, b: bigint): bigint => {
  a = abs(a)
  b = abs(b)
  while (b !== 0n) [a, b] = [b, a % b]
  return a
}
class Rational {
  readonly num: bigint
  readonly den: bigint
  constructor(num: bigint, den = 1n) {
    if (den === 0n) throw new Error("zero denominator")
    if (den < 0n) [num, den] = [-num, -den]
    const g = gcd(num, den) || 1n
    this.num = num / g
    this.den = den / g
  }
  times(o: Rational) { return new Rational(this.num * o.num, this.den * o.den) }
  minus(o: Rational) { return new Rational(this.num * o.den - o.num * this.den, this.den * o.den) }
  /** largest integer q with q ≤ this (for this ≥ 0) */
  floor(): bigint {
    if (this.num < 0n) throw new Error("negative")
    let lo = 0n
    let hi = 1n
    while (hi * this.den <= this.num) hi *= 2n
    while (hi - lo > 1n) {
      const mid = (lo + hi) >> 1n
      if (mid * this.den <= this.num) lo = mid
      else hi = mid
    }
    return lo
  }
}
const percent = (bps: number) => new Rational(BigInt(bps), 10_000n)

const U256 = (1n << 256n) - 1n
const amount = fc.bigInt({ min: 0n, max: U256 })
const smallAmount = fc.bigInt({ min: 0n, max: 10n ** 12n })
const protocolBps = fc.integer({ min: 0, max: 1_000 })
const partnerBps = fc.integer({ min: 0, max: 100 })
const slippageBps = fc.integer({ min: 0, max: 2_000 })

describe("splitFees: hand-derived vectors", () => {
  test("1 EURC-unit million at 25 bps protocol and 100 bps partner", () => {
    // 1_000_000 × 25 / 10000 = 2500; × 100 / 10000 = 10000; 1_000_000 − 12500
    expect(splitFees(1_000_000n, { protocolBps: 25, partnerBps: 100 })).toEqual({
      grossAmountOut: 1_000_000n,
      protocolAmount: 2_500n,
      partnerAmount: 10_000n,
      amountOut: 987_500n,
    })
  })
  test("both fees round down", () => {
    // 399 × 25 / 10000 = 0.9975 → 0; 399 × 100 / 10000 = 3.99 → 3
    expect(splitFees(399n, { protocolBps: 25, partnerBps: 100 })).toEqual({ grossAmountOut: 399n, protocolAmount: 0n, partnerAmount: 3n, amountOut: 396n })
    // 12345 × 7 / 10000 = 8.6415 → 8; 12345 × 33 / 10000 = 40.7385 → 40
    expect(splitFees(12_345n, { protocolBps: 7, partnerBps: 33 })).toEqual({ grossAmountOut: 12_345n, protocolAmount: 8n, partnerAmount: 40n, amountOut: 12_297n })
  })
  test("no fee, and nothing out", () => {
    expect(splitFees(5n, { protocolBps: 0, partnerBps: 0 })).toEqual({ grossAmountOut: 5n, protocolAmount: 0n, partnerAmount: 0n, amountOut: 5n })
    expect(splitFees(0n, { protocolBps: 25, partnerBps: 100 })).toEqual({ grossAmountOut: 0n, protocolAmount: 0n, partnerAmount: 0n, amountOut: 0n })
  })
  test("the largest uint256 output", () => {
    // (2^256 − 1) × 25 / 10000 = (2^256 − 1) / 400, floored. 400 = 16 × 25: 2^256 ≡ 0 (mod 16), and
    // 2^256 ≡ 2^(256 mod 20) = 2^16 = 65536 ≡ 11 (mod 25); the residue that is both is 336, so
    // 2^256 − 1 ≡ 335 (mod 400) and the floor is (2^256 − 336) / 400, exactly
    const protocol = ((1n << 256n) - 336n) / 400n
    expect(protocol * 400n).toBe((1n << 256n) - 336n)
    expect(splitFees(U256, { protocolBps: 25, partnerBps: 0 }).protocolAmount).toBe(protocol)
  })
  test("refuses negative amounts and rates out of range", () => {
    expect(() => splitFees(-1n, { protocolBps: 25, partnerBps: 0 })).toThrow(RangeError)
    expect(() => splitFees(1n, { protocolBps: -1, partnerBps: 0 })).toThrow(RangeError)
    expect(() => splitFees(1n, { protocolBps: 25, partnerBps: 1.5 })).toThrow(RangeError)
    expect(() => splitFees(1n, { protocolBps: 10_001, partnerBps: 0 })).toThrow(RangeError)
    expect(() => splitFees(1n, { protocolBps: 9_950, partnerBps: 100 })).toThrow(RangeError)
    expect(() => minAmountOut(-1n, 50)).toThrow(RangeError)
    expect(() => minAmountOut(1n, 10_001)).toThrow(RangeError)
  })
})

describe("minAmountOut: hand-derived vectors", () => {
  test("rounds down", () => {
    // 987500 × 9950 / 10000 = 982562.5 → 982562
    expect(minAmountOut(987_500n, 50)).toBe(982_562n)
    // 3 × 9999 / 10000 = 2.9997 → 2
    expect(minAmountOut(3n, 1)).toBe(2n)
    expect(minAmountOut(1_000n, 0)).toBe(1_000n)
    expect(minAmountOut(1_000n, 2_000)).toBe(800n)
    expect(minAmountOut(1_000n, 10_000)).toBe(0n)
  })
})

describe("maxAmountIn: hand-derived vectors and its defining property", () => {
  test("rounds up", () => {
    // 987500 × 10050 / 10000 = 992437.5 → 992438
    expect(maxAmountIn(987_500n, 50)).toBe(992_438n)
    // 3 × 10001 / 10000 = 3.0003 → 4
    expect(maxAmountIn(3n, 1)).toBe(4n)
    expect(maxAmountIn(1_000n, 0)).toBe(1_000n)
    expect(maxAmountIn(1_000n, 2_000)).toBe(1_200n)
  })

  test("the least amount m with m × 10000 ≥ amountIn × (10000 + slippageBps)", () => {
    fc.assert(
      fc.property(amount, fc.integer({ min: 0, max: 2_000 }), (a, s) => {
        const m = maxAmountIn(a, s)
        const need = a * (10_000n + BigInt(s))
        expect(m * 10_000n >= need).toBe(true)
        expect(m === 0n || (m - 1n) * 10_000n < need).toBe(true)
      }),
      { numRuns: 2_000 },
    )
  })
})

describe("properties", () => {
  test("amountOut + protocolAmount + partnerAmount == grossAmountOut, nothing negative", () => {
    fc.assert(
      fc.property(amount, protocolBps, partnerBps, (gross, p, f) => {
        const s = splitFees(gross, { protocolBps: p, partnerBps: f })
        expect(s.amountOut + s.protocolAmount + s.partnerAmount).toBe(gross)
        expect(s.amountOut >= 0n && s.protocolAmount >= 0n && s.partnerAmount >= 0n).toBe(true)
        expect(s.grossAmountOut).toBe(gross)
      }),
      { numRuns: 2_000 },
    )
  })

  test("agrees with an exact rational computation for amounts up to 2^256", () => {
    fc.assert(
      fc.property(amount, fc.integer({ min: 0, max: 5_000 }), fc.integer({ min: 0, max: 5_000 }), slippageBps, (gross, p, f, s) => {
        const g = new Rational(gross)
        const protocolAmount = g.times(percent(p)).floor()
        const partnerAmount = g.times(percent(f)).floor()
        const amountOut = g.minus(new Rational(protocolAmount)).minus(new Rational(partnerAmount)).floor()
        const min = new Rational(amountOut).times(new Rational(1n).minus(percent(s))).floor()
        expect(splitFees(gross, { protocolBps: p, partnerBps: f })).toEqual({ grossAmountOut: gross, protocolAmount, partnerAmount, amountOut })
        expect(minAmountOut(amountOut, s)).toBe(min)
        expect(bpsOf(gross, p)).toBe(protocolAmount)
      }),
      { numRuns: 2_000 },
    )
  })

  test("each fee is monotone in grossAmountOut and in its rate; the other rate does not move it", () => {
    fc.assert(
      fc.property(amount, amount, protocolBps, protocolBps, partnerBps, partnerBps, (g1, g2, p1, p2, f1, f2) => {
        const [gLo, gHi] = g1 <= g2 ? [g1, g2] : [g2, g1]
        const [pLo, pHi] = p1 <= p2 ? [p1, p2] : [p2, p1]
        const [fLo, fHi] = f1 <= f2 ? [f1, f2] : [f2, f1]
        const base = splitFees(gLo, { protocolBps: pLo, partnerBps: fLo })
        const moreGross = splitFees(gHi, { protocolBps: pLo, partnerBps: fLo })
        const moreProtocol = splitFees(gLo, { protocolBps: pHi, partnerBps: fLo })
        const morePartner = splitFees(gLo, { protocolBps: pLo, partnerBps: fHi })
        expect(moreGross.protocolAmount >= base.protocolAmount).toBe(true)
        expect(moreGross.partnerAmount >= base.partnerAmount).toBe(true)
        expect(moreProtocol.protocolAmount >= base.protocolAmount).toBe(true)
        expect(moreProtocol.partnerAmount).toBe(base.partnerAmount)
        expect(morePartner.partnerAmount >= base.partnerAmount).toBe(true)
        expect(morePartner.protocolAmount).toBe(base.protocolAmount)
        // a higher rate never gives the recipient more
        expect(moreProtocol.amountOut <= base.amountOut).toBe(true)
        expect(morePartner.amountOut <= base.amountOut).toBe(true)
      }),
      { numRuns: 2_000 },
    )
  })

  // amountOut is gross minus two separately floored fees, so when both floors step up
  // at the same unit of gross, amountOut steps down by one: 399 → 396 but 400 → 395 at
  // 25 + 100 bps (hand-derived above). The formulas are the spec's (and the contract's),
  // so the property that holds is "never more than one unit below any smaller gross".
  test("amountOut grows with grossAmountOut up to one unit of rounding, and the one unit happens", () => {
    expect(splitFees(399n, { protocolBps: 25, partnerBps: 100 }).amountOut).toBe(396n)
    expect(splitFees(400n, { protocolBps: 25, partnerBps: 100 }).amountOut).toBe(395n)
    fc.assert(
      fc.property(amount, amount, protocolBps, partnerBps, slippageBps, (g1, g2, p, f, s) => {
        const [gLo, gHi] = g1 <= g2 ? [g1, g2] : [g2, g1]
        const lo = splitFees(gLo, { protocolBps: p, partnerBps: f })
        const hi = splitFees(gHi, { protocolBps: p, partnerBps: f })
        expect(hi.amountOut >= lo.amountOut - 1n).toBe(true)
        expect(minAmountOut(hi.amountOut, s) >= minAmountOut(lo.amountOut, s) - 1n).toBe(true)
      }),
      { numRuns: 2_000 },
    )
    // near neighbours are where the step shows: check runs of consecutive grosses exactly
    fc.assert(
      fc.property(smallAmount, protocolBps, partnerBps, (g, p, f) => {
        let previous = splitFees(g, { protocolBps: p, partnerBps: f }).amountOut
        for (let d = 1n; d <= 50n; d++) {
          const next = splitFees(g + d, { protocolBps: p, partnerBps: f }).amountOut
          expect(next - previous >= -1n && next - previous <= 1n).toBe(true)
          previous = next
        }
      }),
      { numRuns: 300 },
    )
  })

  test("minAmountOut: at most amountOut, monotone in amountOut, falling with slippage", () => {
    fc.assert(
      fc.property(amount, amount, slippageBps, slippageBps, (a1, a2, s1, s2) => {
        const [aLo, aHi] = a1 <= a2 ? [a1, a2] : [a2, a1]
        const [sLo, sHi] = s1 <= s2 ? [s1, s2] : [s2, s1]
        const m = minAmountOut(aLo, sLo)
        expect(m >= 0n && m <= aLo).toBe(true)
        expect(minAmountOut(aHi, sLo) >= m).toBe(true)
        expect(minAmountOut(aLo, sHi) <= m).toBe(true)
        expect(minAmountOut(aLo, 0)).toBe(aLo)
      }),
      { numRuns: 2_000 },
    )
  })
})

describe("the gross an exact-output route must deliver", () => {
  const net = (g: bigint, p: number, f: number) => splitFees(g, { protocolBps: p, partnerBps: f }).amountOut

  test("small amounts, every fee pair on a grid: the least gross found by counting up from zero", () => {
    for (const p of [0, 1, 7, 25, 100]) {
      for (const f of [0, 1, 3, 30, 100]) {
        // the least gross of every net up to 2,000, by one pass over the grosses
        const least: bigint[] = []
        for (let g = 0n; least.length <= 2_000; g++) {
          const n = Number(net(g, p, f))
          while (least.length <= n) least.push(g)
        }
        const chosen = least.map((_, a) => grossForNet(BigInt(a), { protocolBps: p, partnerBps: f }))
        expect(chosen).toEqual(least)
      }
    }
  })

  test("any amount and fees: the net of the gross chosen is exactly the amount, and no gross below reaches it", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 40n }), fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 100 }), (a, p, f) => {
        const g = grossForNet(a, { protocolBps: p, partnerBps: f })
        expect(net(g, p, f)).toBe(a)
        // a gross 400 below the choice is far under any amount that could still reach it
        let reached = false
        for (let h = g - 1n; h >= 0n && h >= g - 400n; h--) reached ||= net(h, p, f) >= a
        expect(reached).toBe(false)
      }),
      { numRuns: 1_000 },
    )
  })

  test("the gross of a route's own net is never above the route's gross", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 30n }), fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 100 }), (g, p, f) => {
        expect(grossForNet(net(g, p, f), { protocolBps: p, partnerBps: f }) <= g).toBe(true)
      }),
      { numRuns: 1_000 },
    )
  })

  test("fees of 100% give no gross for a positive net; bad rates are refused", () => {
    expect(grossForNet(0n, { protocolBps: 5_000, partnerBps: 5_000 })).toBe(0n)
    expect(() => grossForNet(1n, { protocolBps: 5_000, partnerBps: 5_000 })).toThrow(RangeError)
    expect(() => grossForNet(1n, { protocolBps: 6_000, partnerBps: 5_000 })).toThrow(RangeError)
    expect(() => grossForNet(-1n, { protocolBps: 0, partnerBps: 0 })).toThrow(RangeError)
  })
})
