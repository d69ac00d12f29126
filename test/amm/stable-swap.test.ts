// Curve StableSwap math (src/amm/stable-swap.ts) against independent facts: the invariant's
// exact rational form solved by bisection, closed-form cases (a balanced pool's D is its
// sum), the fee and decimal-scaling formulas, and the shape of the curve. The exactness
// against the pool contract itself is test/contracts/stable-swap-pool.test.ts.
import { describe, expect, test } from "bun:test"
import fc from "fast-check"
import { calcAddLiquidity, getD, getDy, getY, stableExchange, stableRates, stableXp, type StableSwapParams } from "../../src/amm/stable-swap.ts"
import { isAmmRevert } from "../../src/amm/errors.ts"
import { revertCode } from "./helpers.ts"

const pow = (b: bigint, e: number): bigint => b ** BigInt(e)
const prod = (xs: readonly bigint[]): bigint => xs.reduce((a, b) => a * b, 1n)
const sum = (xs: readonly bigint[]): bigint => xs.reduce((a, b) => a + b, 0n)
const abs = (x: bigint): bigint => (x < 0n ? -x : x)

// The invariant with Ann = amp * n / 100 (Curve's A_precise convention):
//   Ann * S + D = Ann * D + D^(n+1) / (n^n * P)
// times 100 * n^n * P, as a polynomial in D, increasing for D > 0:
//   g(D) = amp*n*(D - S)*n^n*P + 100*D^(n+1) - 100*D*n^n*P
const gOfD = (xp: readonly bigint[], amp: bigint, d: bigint): bigint => {
  const n = xp.length
  const nn = pow(BigInt(n), n)
  const p = prod(xp)
  return amp * BigInt(n) * (d - sum(xp)) * nn * p + 100n * pow(d, n + 1) - 100n * d * nn * p
}

/** floor of the real root D* of the invariant, by bisection on g (exact integers) */
const exactD = (xp: readonly bigint[], amp: bigint): bigint => {
  let lo = 0n // g(0) < 0
  let hi = sum(xp) // g(S) >= 0 (AM-GM)
  while (hi - lo > 1n) {
    const mid = (lo + hi) / 2n
    if (gOfD(xp, amp, mid) <= 0n) lo = mid
    else hi = mid
  }
  return gOfD(xp, amp, hi) <= 0n ? hi : lo
}

// With D fixed, coin i at x and coin j at y, times 100 * n^n * P' * y (P', S' over the coins
// other than j): h(y) = amp*n*(S' + y)*n^n*P'*y + 100*D*n^n*P'*y - amp*n*D*n^n*P'*y - 100*D^(n+1),
// a quadratic with h(0) < 0 and a positive leading term: one positive root.
const hOfY = (others: readonly bigint[], d: bigint, amp: bigint, y: bigint): bigint => {
  const n = others.length + 1
  const nn = pow(BigInt(n), n)
  const p = prod(others)
  const s = sum(others)
  const an = amp * BigInt(n)
  return an * (s + y) * nn * p * y + 100n * d * nn * p * y - an * d * nn * p * y - 100n * pow(d, n + 1)
}

/** ceil of the real y* solving the invariant at D for xp with xp[i] = x */
const exactY = (i: number, j: number, x: bigint, xp: readonly bigint[], d: bigint, amp: bigint): bigint => {
  const others = xp.map((v, k) => (k === i ? x : v)).filter((_, k) => k !== j)
  let lo = 0n
  let hi = 1n
  while (hOfY(others, d, amp, hi) < 0n) hi *= 2n
  while (hi - lo > 1n) {
    const mid = (lo + hi) / 2n
    if (hOfY(others, d, amp, mid) >= 0n) hi = mid
    else lo = mid
  }
  return hi
}

// arbitraries ------------------------------------------------------------------

const arbAmp = fc.oneof(
  fc.constantFrom(1n, 10n, 100n, 400n, 5000n).map((a) => a * 100n),
  fc.bigInt({ min: 100n, max: 1_000_000n * 100n }),
)

/**
 * Runs f; undefined when it reverts with DidNotConverge. Curve's integer Newton iterations
 * can cycle between two values two apart at extreme imbalance (A = 1 and 99%+ of the value
 * in one coin, say): the pool then reverts, and so does the math.
 */
const unlessStuck = <T>(f: () => T): T | undefined => {
  try {
    return f()
  } catch (e) {
    if (isAmmRevert(e) && e.code === "DidNotConverge") return undefined
    throw e
  }
}

/** normalised balances (18 decimals) from balanced to ~99% one-sided */
const xpOf = (minTotal: bigint) => fc
  .record({
    n: fc.integer({ min: 2, max: 4 }),
    total: fc.bigInt({ min: minTotal, max: 10n ** 30n }),
    weights: fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: 4, maxLength: 4 }),
  })
  .map(({ n, total, weights }) => {
    const w = weights.slice(0, n).map(BigInt)
    const sw = sum(w)
    return w.map((wi) => (total * wi) / sw + 1n)
  })
const arbXp = xpOf(10n ** 12n)

const arbDecimals = fc.constantFrom(6, 8, 18)

/** a pool of 2..4 coins with raw balances whose value share runs from balanced to 95%+ one-sided */
const arbPoolOf = (minTotal: bigint) => fc
  .record({
    decimals: fc.array(arbDecimals, { minLength: 2, maxLength: 4 }),
    xp: xpOf(minTotal),
    amp: arbAmp,
    fee: fc.constantFrom(0n, 1_000_000n, 4_000_000n, 30_000_000n),
  })
  .map(({ decimals, xp, amp, fee }): StableSwapParams => {
    const n = Math.min(decimals.length, xp.length)
    const dec = decimals.slice(0, n)
    const rates = stableRates(dec)
    // raw balance so that rate * balance / 1e18 is close to xp
    const balances = xp.slice(0, n).map((x, k) => (x / 10n ** BigInt(18 - (dec[k] as number))) + 1n)
    return { balances, rates, amp, fee }
  })
const arbPool = arbPoolOf(10n ** 20n)

const arbTrade = arbPool.chain((pool) => {
  const n = pool.balances.length
  return fc
    .record({
      i: fc.integer({ min: 0, max: n - 1 }),
      j: fc.integer({ min: 0, max: n - 2 }),
      // dx as a share of coin i's balance, from a ten-thousandth up to twice it
      share: fc.integer({ min: 1, max: 20_000 }),
    })
    .map(({ i, j, share }) => {
      const jj = j >= i ? j + 1 : j
      const dx = ((pool.balances[i] as bigint) * BigInt(share)) / 10_000n + 1n
      return { pool, i, j: jj, dx }
    })
})

// ------------------------------------------------------------------------------

describe("stableRates", () => {
  test("10 ** (36 - decimals)", () => {
    expect(stableRates([6, 8, 18, 0])).toEqual([10n ** 30n, 10n ** 28n, 10n ** 18n, 10n ** 36n])
    expect(() => stableRates([19])).toThrow(RangeError)
    expect(() => stableRates([-1])).toThrow(RangeError)
    expect(() => stableRates([1.5])).toThrow(RangeError)
  })
  test("xp is the balance in 18 decimals, rounded down", () => {
    expect(stableXp(stableRates([6, 18, 8]), [1n, 5n, 123456789n])).toEqual([10n ** 12n, 5n, 1234567890000000000n])
  })
})

describe("getD", () => {
  test("an empty pool has D = 0", () => {
    expect(getD([0n, 0n], 10_000n)).toBe(0n)
    expect(getD([0n, 0n, 0n, 0n], 100n)).toBe(0n)
  })
  test("a pool with some, not all, balances at 0 reverts (division by zero)", () => {
    expect(revertCode(() => getD([10n ** 18n, 0n], 10_000n))).toBe("DivisionByZero")
  })
  test("a balanced pool's D is exactly the sum of its balances", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 4 }), fc.bigInt({ min: 1n, max: 10n ** 30n }), arbAmp, (n, x, amp) => {
        expect(getD(Array(n).fill(x), amp)).toBe(BigInt(n) * x)
      }),
    )
  })
  test("D is the invariant's root to within a few units, from above (exact rational bisection)", () => {
    // Newton from D = S approaches the root from above and stops on a step of at most 1; the
    // floor divisions leave it a few units off (up to ~10 seen for tiny 4-coin pools at A = 1)
    fc.assert(
      fc.property(arbXp, arbAmp, (xp, amp) => {
        const d = unlessStuck(() => getD(xp, amp))
        if (d === undefined) return
        const err = d - exactD(xp, amp)
        expect(err).toBeGreaterThanOrEqual(-1n)
        expect(err).toBeLessThanOrEqual(32n)
      }),
      { numRuns: 300 },
    )
  })
  test("D lies between n times the geometric mean and the sum", () => {
    fc.assert(
      fc.property(arbXp, arbAmp, (xp, amp) => {
        const n = xp.length
        const d = unlessStuck(() => getD(xp, amp))
        if (d === undefined) return
        expect(d).toBeLessThanOrEqual(sum(xp) + 1n)
        // (D / n)^n >= prod(xp)  <=>  D^n >= n^n prod(xp)
        expect(pow(d + 1n, n) >= pow(BigInt(n), n) * prod(xp)).toBe(true)
      }),
    )
  })
  test("D grows with A for an imbalanced pool (towards the sum)", () => {
    const xp = [10n ** 24n, 3n * 10n ** 22n, 5n * 10n ** 23n]
    const ds = [100n, 1000n, 10_000n, 100_000n, 1_000_000n].map((amp) => getD(xp, amp))
    for (let k = 1; k < ds.length; k++) expect(ds[k]! > ds[k - 1]!).toBe(true)
    expect(ds[ds.length - 1]! < sum(xp)).toBe(true)
  })
})

describe("getY", () => {
  test("i == j and indices outside the pool revert", () => {
    const xp = [10n ** 18n, 10n ** 18n]
    expect(revertCode(() => getY(0, 0, 1n, xp, 100n))).toBe("SameCoin")
    expect(revertCode(() => getY(0, 2, 1n, xp, 100n))).toBe("CoinIndexOutOfRange")
    expect(revertCode(() => getY(-1, 1, 1n, xp, 100n))).toBe("CoinIndexOutOfRange")
  })
  test("y is the invariant's root at D to within a few units, from below (exact rational bisection)", () => {
    fc.assert(
      fc.property(arbXp, arbAmp, fc.integer({ min: 0, max: 3 }), fc.integer({ min: 1, max: 3 }), fc.integer({ min: 0, max: 30_000 }), (xp, amp, i0, dj, share) => {
        const n = xp.length
        const i = i0 % n
        const j = (i + dj) % n
        if (i === j) return
        const x = xp[i]! + (xp[i]! * BigInt(share)) / 10_000n
        const d = unlessStuck(() => getD(xp, amp))
        const y = unlessStuck(() => getY(i, j, x, xp, amp))
        if (d === undefined || y === undefined) return
        const err = y - exactY(i, j, x, xp, d, amp)
        expect(err).toBeGreaterThanOrEqual(-32n)
        expect(err).toBeLessThanOrEqual(1n)
      }),
      { numRuns: 300 },
    )
  })
  test("with coin i unchanged, y is coin j's balance to within the rounding of D and y", () => {
    fc.assert(
      fc.property(arbXp, arbAmp, (xp, amp) => {
        const y = unlessStuck(() => getY(0, 1, xp[0]!, xp, amp))
        if (y === undefined) return
        // D is found to within a unit or so, and y from it: a few units at most, more on very lopsided pools
        expect(abs(y - xp[1]!)).toBeLessThanOrEqual(64n + xp[1]! / 10n ** 24n)
      }),
    )
  })
})

describe("getDy", () => {
  const balanced = (n: number, decimals: number, whole: bigint, amp = 40_000n, fee = 4_000_000n): StableSwapParams => ({
    balances: Array(n).fill(whole * 10n ** BigInt(decimals)),
    rates: stableRates(Array(n).fill(decimals)),
    amp,
    fee,
  })

  test("reverts like the pool: same coin, index outside the pool, nothing in (dy underflows)", () => {
    const pool = balanced(3, 6, 1_000_000n)
    expect(revertCode(() => getDy(pool, 1, 1, 10n))).toBe("SameCoin")
    expect(revertCode(() => getDy(pool, 0, 3, 10n))).toBe("CoinIndexOutOfRange")
    expect(revertCode(() => getDy(pool, 3, 0, 10n))).toBe("CoinIndexOutOfRange")
    expect(revertCode(() => getDy(pool, -1, 0, 10n))).toBe("CoinIndexOutOfRange")
    expect(revertCode(() => getDy(pool, 0, 1, 0n))).toBe("ArithmeticUnderflow")
    expect(() => getDy(pool, 0, 1, -1n)).toThrow(RangeError)
  })

  test("dy equals the exact-root output to within a unit of the output coin", () => {
    fc.assert(
      fc.property(arbTrade, ({ pool, i, j, dx }) => {
        const xp = stableXp(pool.rates, pool.balances)
        const x = xp[i]! + (dx * pool.rates[i]!) / 10n ** 18n
        const yStar = exactY(i, j, x, xp, exactD(xp, pool.amp), pool.amp)
        const dyStar = xp[j]! - yStar - 1n
        const want = ((dyStar - (pool.fee * dyStar) / 10n ** 10n) * 10n ** 18n) / pool.rates[j]!
        let got: bigint | undefined
        try {
          got = unlessStuck(() => getDy(pool, i, j, dx))
        } catch (e) {
          // dy underflows only when the exact output is (about) nothing
          expect(isAmmRevert(e) && e.code).toBe("ArithmeticUnderflow")
          expect(dyStar).toBeLessThanOrEqual(64n)
          return
        }
        if (got === undefined) return
        // D and y are each within a few units of the root: the normalised output too
        const unit = pool.rates[j]! / 10n ** 18n
        expect(abs(got - want)).toBeLessThanOrEqual(1n + 64n / unit)
      }),
      { numRuns: 300 },
    )
  })

  test("the fee: for an 18-decimal output coin, dy = dy0 - fee * dy0 / 1e10 where dy0 is the fee-free output", () => {
    fc.assert(
      fc.property(arbTrade, fc.bigInt({ min: 0n, max: 5_000_000_000n }), ({ pool, i, j, dx }, fee) => {
        const rates = pool.rates.map((r, k) => (k === j ? 10n ** 18n : r))
        const p = { ...pool, rates }
        const code = revertCode(() => getDy({ ...p, fee: 0n }, i, j, dx))
        if (code !== undefined) {
          // the fee comes after every step that can revert
          expect(revertCode(() => getDy({ ...p, fee }, i, j, dx))).toBe(code)
          return
        }
        const dy0 = getDy({ ...p, fee: 0n }, i, j, dx)
        expect(getDy({ ...p, fee }, i, j, dx)).toBe(dy0 - (fee * dy0) / 10n ** 10n)
      }),
    )
  })

  test("decimals only scale: a 6-decimal pool's dy is the 18-decimal pool's for dx * 1e12, over 1e12", () => {
    fc.assert(
      fc.property(arbTrade, ({ pool, i, j, dx }) => {
        const n = pool.balances.length
        const xp = stableXp(pool.rates, pool.balances).map((x) => x / 10n ** 12n + 1n)
        const six = { ...pool, balances: xp, rates: stableRates(Array(n).fill(6)) }
        const eighteen = { ...pool, balances: xp.map((b) => b * 10n ** 12n), rates: stableRates(Array(n).fill(18)) }
        const dx6 = dx / 10n ** 12n + 1n
        const code = revertCode(() => getDy(eighteen, i, j, dx6 * 10n ** 12n))
        if (code !== undefined) {
          expect(revertCode(() => getDy(six, i, j, dx6))).toBe(code)
          return
        }
        expect(getDy(six, i, j, dx6)).toBe(getDy(eighteen, i, j, dx6 * 10n ** 12n) / 10n ** 12n)
      }),
    )
  })

  test("a balanced pool never pays more than one for one", () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 4 }), arbDecimals, arbAmp, fc.bigInt({ min: 1n, max: 10n ** 15n }), (n, dec, amp, dx) => {
        const pool = balanced(n, dec, 1_000_000_000n, amp, 0n)
        try {
          expect(getDy(pool, 0, 1, dx)).toBeLessThanOrEqual(dx)
        } catch (e) {
          expect(revertCode(() => getDy(pool, 0, 1, dx))).toBe("ArithmeticUnderflow")
        }
      }),
    )
  })

  test("a deep balanced pool at high A pays almost one for one; at A = 1 visibly less", () => {
    const dx = 10_000n * 10n ** 6n
    const high = getDy(balanced(2, 6, 100_000_000n, 5000n * 100n, 0n), 0, 1, dx)
    const low = getDy(balanced(2, 6, 100_000_000n, 100n, 0n), 0, 1, dx)
    expect(high).toBeLessThanOrEqual(dx)
    expect(dx - high).toBeLessThanOrEqual(dx / 10n ** 7n)
    expect(low < high).toBe(true)
    expect(dx - low > dx / 10n ** 6n).toBe(true)
  })

  test("more in never gives less out, and the output stays below the pool's balance", () => {
    fc.assert(
      fc.property(arbTrade, fc.integer({ min: 1, max: 1000 }), ({ pool, i, j, dx }, step) => {
        const dx2 = dx + (dx * BigInt(step)) / 1000n + 1n
        const a = unlessStuck(() => getDy(pool, i, j, dx))
        const b = unlessStuck(() => getDy(pool, i, j, dx2))
        if (a === undefined || b === undefined) return
        expect(b >= a).toBe(true)
        expect(b < pool.balances[j]!).toBe(true)
      }),
    )
  })

  test("two coins: the pool's coin order changes the output only by the rounding of D and y", () => {
    // get_D's divisions run in coin order, so the rounding (not the value) depends on it
    fc.assert(
      fc.property(arbTrade, ({ pool, i, j, dx }) => {
        if (pool.balances.length !== 2) return
        const flipped = { ...pool, balances: [...pool.balances].reverse(), rates: [...pool.rates].reverse() }
        const a = unlessStuck(() => getDy(pool, i, j, dx))
        const b = unlessStuck(() => getDy(flipped, 1 - i, 1 - j, dx))
        if (a === undefined || b === undefined) return
        const unit = pool.rates[j]! / 10n ** 18n
        expect(abs(a - b)).toBeLessThanOrEqual(1n + 128n / unit)
      }),
    )
  })
})

describe("stableExchange", () => {
  test("balances move by dx in and dy out, and the invariant does not fall", () => {
    fc.assert(
      fc.property(arbTrade, ({ pool, i, j, dx }) => {
        const r = unlessStuck(() => stableExchange(pool, i, j, dx))
        if (r === undefined) return
        const { dy, balances } = r
        expect(dy).toBe(getDy(pool, i, j, dx))
        const want = pool.balances.map((b, k) => (k === i ? b + dx : k === j ? b - dy : b))
        expect(balances).toEqual(want)
        const d0 = getD(stableXp(pool.rates, pool.balances), pool.amp)
        const d1 = unlessStuck(() => getD(stableXp(pool.rates, balances), pool.amp))
        if (d1 === undefined) return
        expect(d1 + 32n >= d0).toBe(true)
      }),
    )
  })
})

describe("calcAddLiquidity", () => {
  const pool = (balances: bigint[], fee = 4_000_000n): StableSwapParams => ({
    balances,
    rates: stableRates([6, 18, 8].slice(0, balances.length)),
    amp: 40_000n,
    fee,
  })
  test("the first deposit needs every coin and mints D, with no fees", () => {
    expect(revertCode(() => calcAddLiquidity(pool([0n, 0n]), [10n ** 6n, 0n], 0n))).toBe("InitialDepositNeedsAllCoins")
    const first = calcAddLiquidity(pool([0n, 0n, 0n]), [10n ** 6n, 10n ** 18n, 10n ** 8n], 0n)
    // balanced in value: D is the sum, 3e18
    expect(first.mint).toBe(3n * 10n ** 18n)
    expect(first.invariant).toBe(3n * 10n ** 18n)
    expect(first.fees).toEqual([0n, 0n, 0n])
    expect(first.balances).toEqual([10n ** 6n, 10n ** 18n, 10n ** 8n])
  })
  test("a deposit that does not raise D reverts", () => {
    expect(revertCode(() => calcAddLiquidity(pool([10n ** 6n, 10n ** 18n]), [0n, 0n], 10n ** 18n))).toBe("InvariantNotIncreased")
  })
  test("a proportional deposit into a balanced pool mints the same share of the supply, free of fees", () => {
    const p = pool([5n * 10n ** 12n, 5n * 10n ** 24n, 5n * 10n ** 14n])
    const supply = 15n * 10n ** 24n
    const r = calcAddLiquidity(p, [10n ** 12n, 10n ** 24n, 10n ** 14n], supply)
    expect(r.fees).toEqual([0n, 0n, 0n])
    expect(r.mint).toBe(supply / 5n)
  })
  test("a one-sided deposit pays the imbalance fee: it mints less than with no fee, and the pool keeps all", () => {
    fc.assert(
      fc.property(arbPoolOf(10n ** 24n), fc.integer({ min: 10, max: 5000 }), ({ balances, rates, amp }, share) => {
        const p = { balances, rates, amp, fee: 4_000_000n }
        const supply = unlessStuck(() => getD(stableXp(rates, balances), amp))
        if (supply === undefined) return
        const amounts = balances.map((b, k) => (k === 0 ? (b * BigInt(share)) / 1000n + 1n : 0n))
        const withFee = unlessStuck(() => calcAddLiquidity(p, amounts, supply))
        const free = unlessStuck(() => calcAddLiquidity({ ...p, fee: 0n }, amounts, supply))
        if (withFee === undefined || free === undefined) return
        expect(withFee.mint <= free.mint).toBe(true)
        expect(withFee.fees.some((f) => f > 0n)).toBe(true)
        expect(withFee.balances).toEqual(balances.map((b, k) => b + amounts[k]!))
        // with no fee the mint is the rise of D (in the supply's units, supply = D0)
        expect(abs(free.mint - (free.invariant - supply))).toBeLessThanOrEqual(1n)
      }),
    )
  })
})

import { getDx } from "../../src/amm/stable-swap.ts"

describe("getDx", () => {
  const pool3 = (fee = 4_000_000n): StableSwapParams => ({
    balances: [1_000_000n * 10n ** 18n, 1_200_000n * 10n ** 6n, 800_000n * 10n ** 6n],
    rates: stableRates([18, 6, 6]),
    amp: 20_000n,
    fee,
  })

  /** dy as a share of coin j's balance, from a millionth up to all of it */
  const arbAsk = arbPool.chain((pool) => {
    const n = pool.balances.length
    return fc
      .record({ i: fc.integer({ min: 0, max: n - 1 }), j: fc.integer({ min: 0, max: n - 2 }), share: fc.integer({ min: 1, max: 1_000_000 }) })
      .map(({ i, j, share }) => {
        const jj = j >= i ? j + 1 : j
        return { pool, i, j: jj, dy: ((pool.balances[jj] as bigint) * BigInt(share)) / 1_000_000n + 1n }
      })
  })

  test("the least dx: getDy(dx) >= dy and getDy(dx - 1) < dy (or reverts), with getDy as the oracle", () => {
    let priced = 0
    fc.assert(
      fc.property(arbAsk, ({ pool, i, j, dy }) => {
        let dx: bigint
        try {
          dx = getDx(pool, i, j, dy)
        } catch (e) {
          // refused only as what the pool cannot give (or where the pool's own Newton cycles)
          if (isAmmRevert(e) && (e.code === "InsufficientLiquidity" || e.code === "DidNotConverge")) return
          throw e
        }
        priced++
        expect(getDy(pool, i, j, dx) >= dy).toBe(true)
        let less: bigint | undefined
        try {
          less = getDy(pool, i, j, dx - 1n)
        } catch (e) {
          if (!isAmmRevert(e)) throw e
        }
        expect(less === undefined || less < dy).toBe(true)
      }),
      { numRuns: 400 },
    )
    expect(priced).toBeGreaterThan(200)
  })

  test("dx of getDy(x) is at most x, and x itself when x - 1 pays less", () => {
    fc.assert(
      fc.property(arbTrade, ({ pool, i, j, dx }) => {
        const dy = unlessStuck(() => getDy(pool, i, j, dx))
        if (dy === undefined || dy === 0n) return
        const back = unlessStuck(() => getDx(pool, i, j, dy))
        if (back === undefined) return
        expect(back <= dx).toBe(true)
        const prev = unlessStuck(() => {
          try {
            return getDy(pool, i, j, dx - 1n)
          } catch (e) {
            if (isAmmRevert(e) && e.code === "ArithmeticUnderflow") return -1n
            throw e
          }
        })
        if (prev !== undefined && prev < dy) expect(back).toBe(dx)
      }),
      { numRuns: 300 },
    )
  })

  test("decimals of both coins: an 18-decimal coin bought with a 6-decimal one, and back", () => {
    const pool = pool3()
    for (const [i, j, dy] of [[1, 0, 10n ** 18n], [0, 1, 10n ** 6n], [1, 2, 1n], [0, 2, 123_456_789n], [2, 0, 1n]] as const) {
      const dx = getDx(pool, i, j, dy)
      expect(getDy(pool, i, j, dx)).toBeGreaterThanOrEqual(dy)
      if (dx > 1n) {
        const less = (() => {
          try {
            return getDy(pool, i, j, dx - 1n)
          } catch {
            return -1n
          }
        })()
        expect(less).toBeLessThan(dy)
      }
    }
    // a stable pair near balance: a dollar costs a dollar and the fee, give or take the curve
    const dollar = getDx(pool, 1, 2, 10n ** 6n)
    expect(dollar).toBeGreaterThan(10n ** 6n)
    expect(dollar).toBeLessThan(1_010_000n)
  })

  test("refuses what the pool cannot give, and bad requests", () => {
    const pool = pool3()
    expect(revertCode(() => getDx(pool, 0, 1, pool.balances[1]!))).toBe("InsufficientLiquidity")
    expect(revertCode(() => getDx(pool, 0, 1, pool.balances[1]! + 1n))).toBe("InsufficientLiquidity")
    // just below the balance: the curve would need more than uint256 of coin 0
    expect(revertCode(() => getDx(pool, 0, 1, pool.balances[1]! - 1n))).toBe("InsufficientLiquidity")
    expect(revertCode(() => getDx(pool, 0, 1, 0n))).toBe("InsufficientOutputAmount")
    expect(revertCode(() => getDx(pool, 1, 1, 5n))).toBe("SameCoin")
    expect(revertCode(() => getDx(pool, 0, 3, 5n))).toBe("CoinIndexOutOfRange")
    expect(() => getDx(pool, 0, 1, -5n)).toThrow(RangeError)
  })
})
