// Properties of every route on random markets of V2, V3 and V4 pools over a
// handful of tokens, and on the 5,000-pool synthetic market of the benchmark.
import { describe, expect, test } from "bun:test"
import fc from "fast-check"
import { getAddress } from "viem"
import { syntheticMarket, syntheticTrades } from "../../bench/support/synthetic-market.ts"
import { findBestRoute, type Route } from "../../src/routing/index.ts"
import type { PairPoolState, PoolState } from "../../src/amm/index.ts"
import { ammOut, concentrated, snapshotOf, token, v2 } from "./helpers.ts"
import type { World } from "../../src/domain/index.ts"

const E18 = 10n ** 18n
const TOKENS = [token(1), token(2), token(3), token(4), token(5)]

/** every invariant a route must keep; returns the exact re-simulated output */
const checkRoute = (snap: World, tokenIn: string, tokenOut: string, amountIn: bigint, r: Route, maxHops = 3) => {
  expect(r.splits.length).toBeGreaterThan(0)
  expect(r.splits.reduce((a, s) => a + s.shareBps, 0)).toBe(10000)
  expect(r.splits.reduce((a, s) => a + s.amountIn, 0n)).toBe(amountIn)
  const pools = new Set<string>()
  let total = 0n
  r.splits.forEach((s, i) => {
    expect(s.shareBps).toBeGreaterThan(0)
    if (i < r.splits.length - 1) expect(s.amountIn).toBe((amountIn * BigInt(s.shareBps)) / 10000n)
    expect(s.hops.length).toBeGreaterThanOrEqual(1)
    expect(s.hops.length).toBeLessThanOrEqual(maxHops)
    expect(s.hops[0]!.tokenIn.toLowerCase()).toBe(tokenIn.toLowerCase())
    expect(s.hops[s.hops.length - 1]!.tokenOut.toLowerCase()).toBe(tokenOut.toLowerCase())
    const seen = new Set([tokenIn.toLowerCase()])
    let amount = s.amountIn
    for (let h = 0; h < s.hops.length; h++) {
      const hop = s.hops[h]!
      if (h > 0) expect(hop.tokenIn).toBe(s.hops[h - 1]!.tokenOut)
      expect(seen.has(hop.tokenOut.toLowerCase())).toBe(false)
      seen.add(hop.tokenOut.toLowerCase())
      expect(pools.has(hop.pool)).toBe(false)
      pools.add(hop.pool)
      const pool = snap.pools.get(hop.pool.toLowerCase())!
      expect(hop.kind).toBe(pool.kind)
      expect(hop.venue).toBe(pool.venue)
      if (pool.kind === "curve-stableswap") {
        const coins: [number, number] = [pool.coins.indexOf(hop.tokenIn), pool.coins.indexOf(hop.tokenOut)]
        expect(coins[0]).toBeGreaterThanOrEqual(0)
        expect(coins[1]).toBeGreaterThanOrEqual(0)
        amount = ammOut(pool, false, amount, coins)!
      } else {
        expect(hop.zeroForOne ? [pool.token0, pool.token1] : [pool.token1, pool.token0]).toEqual([hop.tokenIn, hop.tokenOut])
        amount = ammOut(pool, hop.zeroForOne, amount)!
      }
    }
    expect(s.amountOut).toBe(amount)
    total += amount
  })
  expect(r.amountOut).toBe(total)
  return total
}

// a random pool between two of the tokens, priced near 1:1 with random depth
const poolArb = fc
  .record({
    a: fc.integer({ min: 0, max: TOKENS.length - 1 }),
    d: fc.integer({ min: 1, max: TOKENS.length - 1 }),
    kind: fc.constantFrom("uniswap-v2", "uniswap-v3", "uniswap-v4"),
    depth: fc.bigInt({ min: 10n ** 3n, max: 10n ** 8n }),
    skew: fc.integer({ min: -300, max: 300 }),
    width: fc.integer({ min: 1, max: 200 }),
    n: fc.integer({ min: 1, max: 1_000_000 }),
  })
  .map(({ a, d, kind, depth, skew, width, n }): PairPoolState => {
    const [x, y] = [TOKENS[a]!, TOKENS[(a + d) % TOKENS.length]!]
    const [t0, t1] = x.toLowerCase() < y.toLowerCase() ? [x, y] : [y, x]
    const id = getAddress(`0x${(0xc0000000 + n).toString(16).padStart(40, "0")}`)
    if (kind === "uniswap-v2") return v2(t0, t1, depth * E18, (depth * E18 * BigInt(10000 + skew)) / 10000n, id)
    const spacing = 10
    const pool = concentrated({
      dex: kind, token0: t0, token1: t1, fee: 500, tickSpacing: spacing, tick: skew,
      positions: [
        { lower: -width * spacing * 10, upper: width * spacing * 10, liquidity: depth * E18 * 10n },
        { lower: -spacing * 5, upper: spacing * 5, liquidity: depth * E18 * 50n },
      ],
    })
    return { ...pool, id: kind === "uniswap-v4" ? `0x${n.toString(16).padStart(64, "0")}` as `0x${string}` : id }
  })

describe("route invariants on random markets", () => {
  test("shares, exact amounts, simple pool-disjoint paths; never worse than a direct pool", () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(poolArb, { minLength: 1, maxLength: 12, selector: (p) => p.id }),
        fc.integer({ min: 0, max: TOKENS.length - 1 }),
        fc.integer({ min: 1, max: TOKENS.length - 1 }),
        fc.bigInt({ min: 1n, max: 10n ** 24n }),
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 1, max: 4 }),
        (pools: PairPoolState[], i, d, amountIn, maxHops, maxSplits) => {
          const tokenIn = TOKENS[i]!
          const tokenOut = TOKENS[(i + d) % TOKENS.length]!
          const snap = snapshotOf(pools)
          const r = findBestRoute(snap, { tokenIn, tokenOut, amountIn, maxHops, maxSplits })
          // the best direct pool, exactly
          let direct: bigint | undefined
          for (const p of pools) {
            const t0 = p.token0 === tokenIn && p.token1 === tokenOut
            const t1 = p.token1 === tokenIn && p.token0 === tokenOut
            if (!t0 && !t1) continue
            const q = ammOut(p, t0, amountIn)
            if (q !== undefined && q > 0n && (direct === undefined || q > direct)) direct = q
          }
          if (r === undefined) {
            expect(direct).toBeUndefined()
            return
          }
          expect(r.splits.length).toBeLessThanOrEqual(maxSplits)
          const out = checkRoute(snap, tokenIn, tokenOut, amountIn, r, maxHops)
          // float ranking may pick a path a hair worse than another exact result, never more
          if (direct !== undefined) expect(out + 64n + out / 1_000_000n).toBeGreaterThanOrEqual(direct)
        },
      ),
      { numRuns: 200, endOnFailure: true },
    )
  })
})

describe("5,000-pool synthetic market", () => {
  const market = syntheticMarket(5000)
  const trades = syntheticTrades(market, 8)
  test("every benchmark trade gets a valid, exactly recomputed route", () => {
    expect(market.snapshot.pools.size).toBe(5000)
    let routed = 0
    for (const t of trades) {
      const r = findBestRoute(market.snapshot, t.params)
      if (r === undefined) continue
      routed++
      checkRoute(market.snapshot, t.params.tokenIn, t.params.tokenOut, t.params.amountIn, r)
      expect(r.netAmountOut).toBe(r.amountOut - r.gasCostInTokenOut!)
    }
    expect(routed).toBe(trades.length)
  })
})
