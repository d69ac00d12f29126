// Splitting the input: against the brute-force optimum over the executor's
// basis-point grid (exact V2 math), on fixed and random markets.
import { describe, expect, test } from "bun:test"
import fc from "fast-check"
import { getAddress } from "viem"
import { findBestRoute } from "../../src/routing/index.ts"
import type { V2PoolState } from "../../src/amm/index.ts"
import { concentrated, snapshotOf, token, v2, v2Out } from "./helpers.ts"

const E18 = 10n ** 18n
const [A, B, C] = [token(1), token(2), token(3)]
const pairAddress = (n: number) => getAddress(`0x${(0xb000 + n).toString(16).padStart(40, "0")}`)

/** output of pool p (A in) for input x */
const outA = (p: V2PoolState, x: bigint): bigint =>
  x === 0n ? 0n : p.token0 === A ? v2Out(x, p.reserve0, p.reserve1) : v2Out(x, p.reserve1, p.reserve0)

/** exact inputs for basis points, the executor's rule: floor for all but the last, which takes the rest */
const amountsFor = (amountIn: bigint, bps: readonly number[]): bigint[] => {
  let rest = amountIn
  const out = bps.map((b, i) => {
    if (i === bps.length - 1) return rest
    const a = (amountIn * BigInt(b)) / 10000n
    rest -= a
    return a
  })
  return out
}

/** best total output over every basis-point split between two pools, either pool taking the remainder */
const bruteForce2 = (pools: readonly V2PoolState[], amountIn: bigint): bigint => {
  let best = 0n
  for (let b = 0; b <= 10000; b++) {
    const [x, y] = amountsFor(amountIn, [b, 10000 - b])
    const out = outA(pools[0]!, x!) + outA(pools[1]!, y!)
    const [y2, x2] = amountsFor(amountIn, [10000 - b, b])
    const out2 = outA(pools[0]!, x2!) + outA(pools[1]!, y2!)
    if (out > best) best = out
    if (out2 > best) best = out2
  }
  return best
}

/** best total output over three pools: a grid at 100 bp, refined at 10 bp, then 1 bp */
const bruteForce3 = (pools: readonly V2PoolState[], amountIn: bigint): bigint => {
  const value = (b1: number, b2: number): bigint => {
    if (b1 < 0 || b2 < 0 || b1 + b2 > 10000) return -1n
    const [x, y, z] = amountsFor(amountIn, [b1, b2, 10000 - b1 - b2])
    return outA(pools[0]!, x!) + outA(pools[1]!, y!) + outA(pools[2]!, z!)
  }
  let best = -1n
  let at = [0, 0]
  for (const [step, span] of [
    [100, 10000],
    [10, 100],
    [1, 10],
  ] as const) {
    const [c1, c2] = at
    for (let b1 = c1! - span; b1 <= c1! + span; b1 += step) {
      for (let b2 = c2! - span; b2 <= c2! + span; b2 += step) {
        const v = value(b1, b2)
        if (v > best) {
          best = v
          at = [b1, b2]
        }
      }
    }
  }
  return best
}

const sumBps = (r: { splits: readonly { shareBps: number }[] }) => r.splits.reduce((a, s) => a + s.shareBps, 0)

describe("split across pools", () => {
  test("deep and shallow pools at one price: split about 10:1, at the brute-force optimum", () => {
    const deep = v2(A, B, 10_000_000n * E18, 10_000_000n * E18, pairAddress(1))
    const shallow = v2(A, B, 1_000_000n * E18, 1_000_000n * E18, pairAddress(2))
    const snap = snapshotOf([deep, shallow])
    const amountIn = 500_000n * E18
    const r = findBestRoute(snap, { tokenIn: A, tokenOut: B, amountIn })!
    expect(r.splits).toHaveLength(2)
    expect(sumBps(r)).toBe(10000)
    // equal marginal rates of two same-price V2 pools: inputs proportional to depth (10:1)
    const [big, small] = r.splits
    expect(big!.hops[0]!.pool).toBe(deep.id)
    expect(Math.abs(big!.shareBps - 9091)).toBeLessThanOrEqual(1)
    expect(small!.amountIn).toBe(amountIn - big!.amountIn)
    const single = outA(deep, amountIn)
    expect(r.amountOut).toBeGreaterThan(single)
    const best = bruteForce2([deep, shallow], amountIn)
    expect(r.amountOut).toBeLessThanOrEqual(best)
    expect(best - r.amountOut).toBeLessThanOrEqual(best / 1_000_000n)
  })

  test("a shallow pool with a better price takes input until its marginal rate falls to the deep pool's", () => {
    const deep = v2(A, B, 10_000_000n * E18, 10_000_000n * E18, pairAddress(1))
    const better = v2(A, B, 500_000n * E18, 520_000n * E18, pairAddress(2))
    const snap = snapshotOf([deep, better])
    for (const amountIn of [1_000n * E18, 50_000n * E18, 2_000_000n * E18]) {
      const r = findBestRoute(snap, { tokenIn: A, tokenOut: B, amountIn })!
      const best = bruteForce2([deep, better], amountIn)
      expect(r.amountOut * 1000n).toBeGreaterThanOrEqual(best * 999n)
      expect(best - r.amountOut).toBeLessThanOrEqual(best / 1_000_000n)
    }
  })

  test("a concentrated pool and a V2 pair share a large trade; amounts are exact", () => {
    const v3 = concentrated({
      token0: A, token1: B, fee: 500, tickSpacing: 10, tick: 0,
      positions: [{ lower: -200, upper: 200, liquidity: 50_000_000n * E18 }],
    })
    const pair = v2(A, B, 1_000_000n * E18, 1_000_000n * E18)
    const snap = snapshotOf([v3, pair])
    const amountIn = 400_000n * E18
    const r = findBestRoute(snap, { tokenIn: A, tokenOut: B, amountIn })!
    expect(r.splits.map((s) => s.hops[0]!.pool).sort()).toEqual([v3.id, pair.id].sort())
    const onlyV3 = findBestRoute(snap, { tokenIn: A, tokenOut: B, amountIn, maxSplits: 1 })!
    expect(r.amountOut).toBeGreaterThan(onlyV3.amountOut)
    expect(r.splits.reduce((a, s) => a + s.amountIn, 0n)).toBe(amountIn)
  })

  test("paths of different lengths are split too (a direct pair and a two-hop path)", () => {
    const direct = v2(A, B, 1_000_000n * E18, 1_000_000n * E18)
    const viaC = [v2(A, C, 50_000_000n * E18, 50_000_000n * E18), v2(C, B, 50_000_000n * E18, 50_000_000n * E18)]
    const snap = snapshotOf([direct, ...viaC])
    const r = findBestRoute(snap, { tokenIn: A, tokenOut: B, amountIn: 200_000n * E18 })!
    expect(r.splits.map((s) => s.hops.length).sort()).toEqual([1, 2])
  })
})

describe("properties", () => {
  const reserve = fc.bigInt({ min: 10n ** 3n, max: 10n ** 9n }).map((r) => r * E18)
  const pool = (n: number) =>
    fc
      .tuple(reserve, fc.integer({ min: 950, max: 1050 }))
      .map(([r, price]) => v2(A, B, r, (r * BigInt(price)) / 1000n, pairAddress(n)))

  test("two pools: at least 99.9% of the brute-force optimum, shares and amounts exact", () => {
    fc.assert(
      fc.property(pool(1), pool(2), fc.integer({ min: 1, max: 2000 }), (p1, p2, permille) => {
        const smaller = p1.reserve0 < p2.reserve0 ? p1.reserve0 : p2.reserve0
        const amountIn = (smaller * BigInt(permille)) / 1000n + 1n
        const r = findBestRoute(snapshotOf([p1, p2]), { tokenIn: A, tokenOut: B, amountIn })!
        expect(sumBps(r)).toBe(10000)
        expect(r.splits.reduce((a, s) => a + s.amountIn, 0n)).toBe(amountIn)
        const best = bruteForce2([p1, p2], amountIn)
        expect(r.amountOut).toBeLessThanOrEqual(best)
        expect(r.amountOut * 1000n).toBeGreaterThanOrEqual(best * 999n)
      }),
      { numRuns: 60, endOnFailure: true },
    )
  })

  test("three pools: at least 99.9% of a fine grid search", () => {
    fc.assert(
      fc.property(pool(1), pool(2), pool(3), fc.integer({ min: 1, max: 3000 }), (p1, p2, p3, permille) => {
        const amountIn = (p1.reserve0 * BigInt(permille)) / 1000n + 1n
        const r = findBestRoute(snapshotOf([p1, p2, p3]), { tokenIn: A, tokenOut: B, amountIn })!
        const best = bruteForce3([p1, p2, p3], amountIn)
        expect(r.amountOut * 1000n).toBeGreaterThanOrEqual(best * 999n)
        // the single best pool is never beaten by the route's choice
        const single = [p1, p2, p3].map((p) => outA(p, amountIn)).reduce((a, b) => (a > b ? a : b))
        expect(r.amountOut).toBeGreaterThanOrEqual(single)
      }),
      { numRuns: 25, endOnFailure: true },
    )
  })
})
