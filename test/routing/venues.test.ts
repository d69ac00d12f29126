// Routing across venues and pool kinds: stable pools (Curve's invariant) next
// to V2 forks with their own fee and V3/V4 pools on several venues. Checked
// against a brute-force search over the executor's basis-point grid with the
// exact pool math (src/amm), never against the router's own numbers.
import { describe, expect, test } from "bun:test"
import fc from "fast-check"
import { findBestRoute } from "../../src/routing/index.ts"
import { isAmmRevert, type PoolState } from "../../src/amm/index.ts"
import { ammOut, concentrated, snapshotOf, stable, token, v2 } from "./helpers.ts"

const E18 = 10n ** 18n
const E6 = 10n ** 6n
// A has 6 decimals (a USDC-like coin), B 18 (a DAI-like coin); C and D are further coins of the stable pools
const [A, B, C, D] = [token(1), token(2), token(3), token(4)]
const DECIMALS = new Map([[A, 6], [B, 18], [C, 6], [D, 18]])

/** exact output of one pool, A in, B out; 0 where the pool would revert */
const outAB = (pool: PoolState, x: bigint): bigint => {
  if (x === 0n) return 0n
  try {
    if (pool.kind === "curve-stableswap") return ammOut(pool, false, x, [pool.coins.indexOf(A), pool.coins.indexOf(B)]) ?? 0n
    return ammOut(pool, pool.token0 === A, x) ?? 0n
  } catch (e) {
    if (isAmmRevert(e)) return 0n
    throw e
  }
}

/** exact inputs for basis points: floor for all but the last, which takes the rest (the executor's rule) */
const amountsFor = (amountIn: bigint, bps: readonly number[]): bigint[] => {
  let rest = amountIn
  return bps.map((b, i) => {
    if (i === bps.length - 1) return rest
    const a = (amountIn * BigInt(b)) / 10000n
    rest -= a
    return a
  })
}

/**
 * The best total output over three pools on the executor's basis-point grid:
 * 10 bp at a time to the pool whose exact output gains most (the outputs are
 * concave), then every 1 bp move within 12 bp of that allocation.
 */
const bruteForce3 = (pools: readonly PoolState[], amountIn: bigint): bigint => {
  const outAt = (p: number, bps: number) => outAB(pools[p]!, (amountIn * BigInt(bps)) / 10000n)
  const bps = [0, 0, 0]
  const current = [0n, 0n, 0n]
  for (let step = 0; step < 1000; step++) {
    let pick = 0
    let gain = -1n
    let next = 0n
    for (let p = 0; p < 3; p++) {
      const o = outAt(p, bps[p]! + 10)
      if (o - current[p]! > gain) [pick, gain, next] = [p, o - current[p]!, o]
    }
    bps[pick]! += 10
    current[pick] = next
  }
  const value = (b1: number, b2: number): bigint => {
    if (b1 < 0 || b2 < 0 || b1 + b2 > 10000) return -1n
    const amounts = amountsFor(amountIn, [b1, b2, 10000 - b1 - b2])
    return pools.reduce((sum, p, i) => sum + outAB(p, amounts[i]!), 0n)
  }
  let best = -1n
  for (let b1 = bps[0]! - 12; b1 <= bps[0]! + 12; b1++) {
    for (let b2 = bps[1]! - 12; b2 <= bps[1]! + 12; b2++) {
      const v = value(b1, b2)
      if (v > best) best = v
    }
  }
  return best
}

const sorted = (x: `0x${string}`, y: `0x${string}`) => (x.toLowerCase() < y.toLowerCase() ? [x, y] as const : [y, x] as const)

describe("stable pools in routes", () => {
  test("a 3-coin stable pool is routed between any two of its coins, exactly as get_dy", () => {
    const pool = stable([A, B, C], [2_000_000n * E6, 2_000_000n * E18, 2_000_000n * E6], [6, 18, 6], 400n, 4_000_000n)
    const snap = snapshotOf([pool])
    for (const [x, y] of [[A, B], [B, C], [C, A], [B, A]] as const) {
      const amountIn = 10_000n * 10n ** BigInt(DECIMALS.get(x)!)
      const r = findBestRoute(snap, { tokenIn: x, tokenOut: y, amountIn })!
      const hop = r.splits[0]!.hops[0]!
      expect(hop).toEqual({ kind: "curve-stableswap", venue: "xylonet", pool: pool.id, tokenIn: x, tokenOut: y, zeroForOne: false })
      expect(r.amountOut).toBe(ammOut(pool, false, amountIn, [pool.coins.indexOf(x), pool.coins.indexOf(y)])!)
      // 10,000 of a dollar for close to 10,000 of another: the fee (4 bps) and a little curvature
      const whole = Number(r.amountOut) / 10 ** DECIMALS.get(y)!
      expect(whole).toBeGreaterThan(9_990)
      expect(whole).toBeLessThan(9_996.1)
    }
  })

  test("a route crosses a 3-coin stable pool once, even when the pool's other coin looks like a better way round", () => {
    // A is plentiful in the pool and B scarce: priced on the pool's state before the trade, A -> C -> B
    // through the same pool twice looks better than A -> B (it is not: the first crossing moves the pool)
    const pool = stable([A, B, C], [6_000_000n * E6, 300_000n * E18, 3_000_000n * E6], [6, 18, 6], 400n, 4_000_000n)
    const amountIn = 100_000n * E6
    const twice = ammOut(pool, false, ammOut(pool, false, amountIn, [0, 2])!, [2, 1])!
    expect(twice).toBeGreaterThan(ammOut(pool, false, amountIn, [0, 1])!)
    const r = findBestRoute(snapshotOf([pool]), { tokenIn: A, tokenOut: B, amountIn })!
    expect(r.splits).toHaveLength(1)
    expect(r.splits[0]!.hops).toHaveLength(1)
    expect(r.amountOut).toBe(ammOut(pool, false, amountIn, [0, 1])!)
  })

  test("a large trade splits across a stable pool, a V2 fork and a V3 pool on another venue", () => {
    const [t0, t1] = sorted(A, B)
    const stablePool = stable([C, A, B], [1_000_000n * E6, 1_000_000n * E6, 1_000_000n * E18], [6, 6, 18], 200n, 4_000_000n)
    const fork = v2(A, B, 1_000_000n * E6, 1_000_000n * E18, undefined, "arcade-v2", 25)
    // a concentrated pool around the 1:1 price in raw units 1e6 : 1e18 (tick near 276324)
    const tick = t0 === A ? 276320 : -276330
    const v3 = concentrated({
      venue: "synthra-v3", token0: t0, token1: t1, fee: 100, tickSpacing: 1, tick,
      positions: [{ lower: tick - 200, upper: tick + 200, liquidity: 10n ** 18n * 50n }],
    })
    const pools = [stablePool, fork, v3]
    const amountIn = 600_000n * E6
    const r = findBestRoute(snapshotOf(pools), { tokenIn: A, tokenOut: B, amountIn })!
    const kinds = new Set(r.splits.map((s) => `${s.hops[0]!.kind}/${s.hops[0]!.venue}`))
    expect(kinds).toEqual(new Set(["curve-stableswap/xylonet", "uniswap-v2/arcade-v2", "uniswap-v3/synthra-v3"]))
    const best = bruteForce3(pools, amountIn)
    expect(r.amountOut * 10_000n).toBeGreaterThanOrEqual(best * 9_999n)
  })
})

describe("held-out markets mixing every kind and several venues", () => {
  // a stable pool of 2 to 4 coins (A and B among them), balances from balanced to 95% one-sided
  const stableArb = fc
    .record({
      coins: fc.constantFrom([A, B], [A, B, C], [C, B, A], [A, D, B, C]),
      depth: fc.bigInt({ min: 10_000n, max: 50_000_000n }),
      skew: fc.integer({ min: 5, max: 95 }),
      a: fc.constantFrom(10n, 100n, 400n, 2000n),
      fee: fc.constantFrom(0n, 1_000_000n, 4_000_000n),
    })
    .map(({ coins, depth, skew, a, fee }) => {
      const decimals = coins.map((c) => DECIMALS.get(c)!)
      // A's share of the pool's value is skew %, the rest spread over the other coins
      const balances = coins.map((c, k) => {
        const share = c === A ? BigInt(skew) : BigInt(100 - skew) * 100n / BigInt(coins.length - 1) / 100n
        return (depth * BigInt(coins.length) * share * 10n ** BigInt(decimals[k]!)) / 100n + 1n
      })
      return stable(coins, balances, decimals, a, fee)
    })
  const forkArb = fc
    .record({ depth: fc.bigInt({ min: 10_000n, max: 50_000_000n }), price: fc.integer({ min: 980, max: 1020 }), venue: fc.constantFrom(["uniswap-v2", 30], ["arcade-v2", 25], ["unitflow-v2", 20]) })
    .map(({ depth, price, venue }) => v2(A, B, depth * E6, (depth * E18 * BigInt(price)) / 1000n, undefined, venue[0] as string, venue[1] as number))
  const concentratedArb = fc
    .record({
      kind: fc.constantFrom("uniswap-v3" as const, "uniswap-v4" as const),
      venue: fc.constantFrom("a", "b"),
      skew: fc.integer({ min: -20, max: 20 }),
      liquidity: fc.bigInt({ min: 10n ** 15n, max: 10n ** 19n }),
    })
    .map(({ kind, venue, skew, liquidity }) => {
      const [t0, t1] = sorted(A, B)
      const tick = (t0 === A ? 276320 : -276330) + skew
      return concentrated({
        dex: kind, venue: `${kind}-${venue}`, token0: t0, token1: t1, fee: 500, tickSpacing: 10, tick,
        positions: [{ lower: tick - (tick % 10) - 500, upper: tick - (tick % 10) + 500, liquidity }],
      })
    })

  // the router against the brute force over the basis-point grid, on a stable pool, a V2 fork and a V3 or V4 pool
  const againstBruteForce = (atLeastBps: bigint) =>
    fc.property(stableArb, forkArb, concentratedArb, fc.integer({ min: 1, max: 400 }), (s, f, c, permille) => {
      const pools = [s, f, c]
      const amountIn = (f.kind === "uniswap-v2" ? (f.token0 === A ? f.reserve0 : f.reserve1) : 0n) * BigInt(permille) / 1000n + 1n
      const r = findBestRoute(snapshotOf(pools), { tokenIn: A, tokenOut: B, amountIn, maxHops: 1 })
      const single = pools.map((p) => outAB(p, amountIn)).reduce((x, y) => (x > y ? x : y))
      if (r === undefined) {
        expect(single).toBe(0n)
        return
      }
      const best = bruteForce3(pools, amountIn)
      expect(r.amountOut * 10_000n).toBeGreaterThanOrEqual(best * atLeastBps)
      expect(r.amountOut).toBeGreaterThanOrEqual(single)
    })

  test("gross output at least 99.99% of the brute-force optimum, never below the best single pool", () => {
    fc.assert(againstBruteForce(9_999n), { numRuns: 25, endOnFailure: true })
  }, 120_000)

  // where the float models' shares missed the exact best by 6 bps (1.35 bps of output): a three-way
  // split of 40% of the pair's reserve, the V3 pool taken to near its position's edge
  test("a split's shares are refined on the exact math: where the float models missed by 1.35 bps, within 0.01% (a case found at random)", () => {
    fc.assert(againstBruteForce(9_999n), { seed: 1539367264, path: "8", numRuns: 1, endOnFailure: true })
  })
})
