// findBestRoute on small hand-built markets: paths of 1 to 3 hops, no route,
// the route's shape, exact amounts, and gas-aware choices.
import { describe, expect, test } from "bun:test"
import { getAddress } from "viem"
import { findBestRoute, GAS, type Route } from "../../src/routing/index.ts"
import type { PoolState } from "../../src/amm/index.ts"
import { ammOut, concentrated, snapshotOf, token, USDC, v2, v2Out } from "./helpers.ts"

const E18 = 10n ** 18n
const E6 = 10n ** 6n
const [A, B, C, D, X] = [token(1), token(2), token(3), token(4), token(9)]
const DEEP = 1_000_000n * E18

/** the exact output of each split, hop by hop, straight from the AMM room */
const chained = (pools: ReadonlyMap<string, PoolState>, route: Route): bigint[] =>
  route.splits.map((s) => {
    let amount = s.amountIn
    for (const h of s.hops) amount = ammOut(pools.get(h.pool.toLowerCase())!, h.zeroForOne, amount)!
    return amount
  })

describe("paths", () => {
  test("one hop through a V2 pair", () => {
    const pair = v2(A, B, 1000n * E18, 2000n * E18)
    const snap = snapshotOf([pair])
    const r = findBestRoute(snap, { tokenIn: A, tokenOut: B, amountIn: E18 })!
    // 997e18 * 2000e18 / (1000e18 * 1000 + 997e18)
    expect(r.amountOut).toBe(1992013962079806432n)
    expect(r.splits).toEqual([
      {
        shareBps: 10000,
        amountIn: E18,
        amountOut: 1992013962079806432n,
        hops: [{ kind: "uniswap-v2", venue: "uniswap-v2", pool: pair.id, tokenIn: A, tokenOut: B, zeroForOne: true }],
      },
    ])
    expect(r.gasEstimate).toBe(BigInt(GAS.base + GAS.perSplit + GAS.v2Hop))
    // the other way round: B is token1
    const back = findBestRoute(snap, { tokenIn: B, tokenOut: A, amountIn: E18 })!
    expect(back.splits[0]!.hops[0]!.zeroForOne).toBe(false)
    expect(back.amountOut).toBe(v2Out(E18, 2000n * E18, 1000n * E18))
  })

  test("two hops when there is no direct pool", () => {
    const snap = snapshotOf([v2(A, C, DEEP, DEEP), v2(C, B, DEEP, DEEP)])
    const r = findBestRoute(snap, { tokenIn: A, tokenOut: B, amountIn: E18 })!
    expect(r.splits).toHaveLength(1)
    expect(r.splits[0]!.hops.map((h) => [h.tokenIn, h.tokenOut])).toEqual([
      [A, C],
      [C, B],
    ])
    expect(r.amountOut).toBe(v2Out(v2Out(E18, DEEP, DEEP), DEEP, DEEP))
  })

  test("three hops, and none when maxHops forbids them", () => {
    const snap = snapshotOf([v2(A, C, DEEP, DEEP), v2(C, D, DEEP, DEEP), v2(D, B, DEEP, DEEP)])
    const r = findBestRoute(snap, { tokenIn: A, tokenOut: B, amountIn: E18 })!
    expect(r.splits[0]!.hops.map((h) => h.tokenOut)).toEqual([C, D, B])
    expect(r.amountOut).toBe(v2Out(v2Out(v2Out(E18, DEEP, DEEP), DEEP, DEEP), DEEP, DEEP))
    expect(r.gasEstimate).toBe(BigInt(GAS.base + GAS.perSplit + 3 * GAS.v2Hop))
    expect(findBestRoute(snap, { tokenIn: A, tokenOut: B, amountIn: E18, maxHops: 2 })).toBeUndefined()
  })

  test("four hops are never searched", () => {
    const snap = snapshotOf([v2(A, C, DEEP, DEEP), v2(C, D, DEEP, DEEP), v2(D, X, DEEP, DEEP), v2(X, B, DEEP, DEEP)])
    expect(findBestRoute(snap, { tokenIn: A, tokenOut: B, amountIn: E18 })).toBeUndefined()
  })

  test("no route: disconnected tokens, unknown tokens, same token, zero input", () => {
    const snap = snapshotOf([v2(A, C, DEEP, DEEP), v2(B, D, DEEP, DEEP)])
    expect(findBestRoute(snap, { tokenIn: A, tokenOut: B, amountIn: E18 })).toBeUndefined()
    expect(findBestRoute(snap, { tokenIn: A, tokenOut: X, amountIn: E18 })).toBeUndefined()
    expect(findBestRoute(snap, { tokenIn: X, tokenOut: A, amountIn: E18 })).toBeUndefined()
    expect(findBestRoute(snap, { tokenIn: A, tokenOut: A.toLowerCase(), amountIn: E18 })).toBeUndefined()
    expect(findBestRoute(snap, { tokenIn: A, tokenOut: C, amountIn: 0n })).toBeUndefined()
  })

  test("no route when the input exceeds what the known ticks can fill", () => {
    const pool = concentrated({
      token0: A, token1: B, fee: 3000, tickSpacing: 60, tick: 0,
      positions: [{ lower: -600, upper: 600, liquidity: 10n * E18 }],
      tickLower: -600, tickUpper: 600,
    })
    const snap = snapshotOf([pool])
    expect(findBestRoute(snap, { tokenIn: A, tokenOut: B, amountIn: E18 / 10n })).toBeDefined()
    expect(findBestRoute(snap, { tokenIn: A, tokenOut: B, amountIn: 10n * E18 })).toBeUndefined()
  })

  test("a token is never visited twice, even when a cycle would pay", () => {
    // A->C->A through two mispriced pairs, then A->B, would beat A->B alone; it is not a path
    const cheapC = v2(A, C, DEEP, 2n * DEEP)
    const dearC = v2(A, C, 2n * DEEP, DEEP, getAddress("0x00000000000000000000000000000000000000c1"))
    const ab = v2(A, B, DEEP, DEEP)
    const snap = snapshotOf([cheapC, dearC, ab])
    const r = findBestRoute(snap, { tokenIn: A, tokenOut: B, amountIn: E18, maxSplits: 1 })!
    expect(r.splits[0]!.hops.map((h) => h.pool)).toEqual([ab.id])
    const cycle = v2Out(v2Out(v2Out(E18, DEEP, 2n * DEEP), DEEP, 2n * DEEP), DEEP, DEEP)
    expect(cycle).toBeGreaterThan(r.amountOut)
  })

  test("addresses in any case; native USDC placeholders route as the ERC-20 USDC", () => {
    const snap = snapshotOf([v2(USDC, A, 1000n * E6, 1000n * E18)])
    const byErc20 = findBestRoute(snap, { tokenIn: USDC, tokenOut: A.toLowerCase(), amountIn: E6 })!
    expect(byErc20.splits[0]!.hops[0]!.tokenOut).toBe(A)
    for (const native of ["0x0000000000000000000000000000000000000000", "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE"]) {
      expect(findBestRoute(snap, { tokenIn: native, tokenOut: A, amountIn: E6 })).toEqual(byErc20)
    }
  })

  test("V3 and V4 hops carry fee, tick spacing and (V4) hooks", () => {
    const v3 = concentrated({
      token0: A, token1: C, fee: 500, tickSpacing: 10, tick: 0,
      positions: [{ lower: -1000, upper: 1000, liquidity: 1000n * E18 }],
    })
    const v4 = concentrated({
      dex: "uniswap-v4", token0: B, token1: C, fee: 100, tickSpacing: 1, tick: 0,
      positions: [{ lower: -100, upper: 100, liquidity: 1000n * E18 }],
    })
    const snap = snapshotOf([v3, v4])
    const r = findBestRoute(snap, { tokenIn: A, tokenOut: B, amountIn: E18 })!
    expect(r.splits[0]!.hops).toEqual([
      { kind: "uniswap-v3", venue: "uniswap-v3", pool: v3.id, tokenIn: A, tokenOut: C, zeroForOne: true, fee: 500, tickSpacing: 10 },
      {
        kind: "uniswap-v4", venue: "uniswap-v4", pool: v4.id, tokenIn: C, tokenOut: B, zeroForOne: false, fee: 100, tickSpacing: 1,
        hooks: "0x0000000000000000000000000000000000000000",
      },
    ])
    expect(v4.id).toHaveLength(66)
    expect(r.amountOut).toBe(chained(snap.pools, r)[0]!)
    expect(r.gasEstimate).toBe(BigInt(GAS.base + GAS.perSplit + GAS.v3Hop + GAS.v4Hop + GAS.v4Session))
  })
})

describe("exact amounts", () => {
  test("every split is the exact sequential simulation of its integer input", () => {
    const pools: PoolState[] = [
      v2(A, B, 50_000n * E18, 100_000n * E18),
      concentrated({
        token0: A, token1: B, fee: 3000, tickSpacing: 60, tick: 6960, // ~2 B per A
        positions: [
          { lower: 6000, upper: 7980, liquidity: 40_000n * E18 },
          { lower: 6900, upper: 7020, liquidity: 200_000n * E18 },
        ],
      }),
      v2(A, C, 80_000n * E18, 80_000n * E18),
      concentrated({
        dex: "uniswap-v4", token0: B, token1: C, fee: 500, tickSpacing: 10, tick: -6930,
        positions: [{ lower: -8000, upper: -6000, liquidity: 300_000n * E18 }],
      }),
    ]
    const snap = snapshotOf(pools)
    const amountIn = 5_000n * E18 + 12345n
    const r = findBestRoute(snap, { tokenIn: A, tokenOut: B, amountIn })!
    expect(r.splits.length).toBeGreaterThan(1)
    expect(chained(snap.pools, r)).toEqual(r.splits.map((s) => s.amountOut))
    expect(r.amountOut).toBe(r.splits.reduce((a, s) => a + s.amountOut, 0n))
    expect(r.splits.reduce((a, s) => a + s.shareBps, 0)).toBe(10000)
    expect(r.splits.reduce((a, s) => a + s.amountIn, 0n)).toBe(amountIn)
    r.splits.forEach((s, i) => {
      if (i < r.splits.length - 1) expect(s.amountIn).toBe((amountIn * BigInt(s.shareBps)) / 10000n)
    })
    // splits share no pool
    const used = r.splits.flatMap((s) => s.hops.map((h) => h.pool))
    expect(new Set(used).size).toBe(used.length)
    expect(r.netAmountOut).toBe(r.amountOut)
    expect(r.gasCostInTokenOut).toBeUndefined()
  })
})

describe("gas", () => {
  // direct: a 1M/1M pair; three hops: deep pairs whose last price is a hair better
  const amountIn = 1000n * E18
  const deep = 1_000_000_000n
  const market = () => {
    const direct = v2(A, USDC, 1_000_000n * E18, 1_000_000n * E6)
    const lastOut = (deep * E6 * 1_005_078n) / 1_000_000n
    const pools = [direct, v2(A, C, deep * E18, deep * E18), v2(C, D, deep * E18, deep * E18), v2(D, USDC, deep * E18, lastOut)]
    const grossDirect = v2Out(amountIn, 1_000_000n * E18, 1_000_000n * E6)
    const grossThree = v2Out(v2Out(v2Out(amountIn, deep * E18, deep * E18), deep * E18, deep * E18), deep * E18, lastOut)
    return { snap: snapshotOf(pools, 1_000_000_000_000n), grossDirect, grossThree }
  }
  // 1 native USDC (1e18 wei) = 1 USDC (1e6)
  const nativeToTokenOut = (wei: bigint) => wei / 10n ** 12n

  test("a one-hop route beats a three-hop route with slightly more gross output once gas is counted", () => {
    const { snap, grossDirect, grossThree } = market()
    const extraGasCost = (2n * BigInt(GAS.v2Hop) * snap.gasPriceWei) / 10n ** 12n
    // the setup: three hops give more, by less than their extra gas costs
    expect(grossThree).toBeGreaterThan(grossDirect)
    expect(grossThree - grossDirect).toBeLessThan(extraGasCost)

    const byGross = findBestRoute(snap, { tokenIn: A, tokenOut: USDC, amountIn, maxSplits: 1 })!
    expect(byGross.splits[0]!.hops).toHaveLength(3)
    expect(byGross.amountOut).toBe(grossThree)

    const byNet = findBestRoute(snap, { tokenIn: A, tokenOut: USDC, amountIn, maxSplits: 1, nativeToTokenOut })!
    expect(byNet.splits[0]!.hops).toHaveLength(1)
    expect(byNet.amountOut).toBe(grossDirect)
    const gas = BigInt(GAS.base + GAS.perSplit + GAS.v2Hop)
    expect(byNet.gasEstimate).toBe(gas)
    expect(byNet.gasCostInTokenOut).toBe((gas * snap.gasPriceWei) / 10n ** 12n)
    expect(byNet.netAmountOut).toBe(grossDirect - byNet.gasCostInTokenOut!)
  })

  test("a conversion that knows no price falls back to gross output", () => {
    const { snap, grossThree } = market()
    const r = findBestRoute(snap, { tokenIn: A, tokenOut: USDC, amountIn, maxSplits: 1, nativeToTokenOut: () => undefined })!
    expect(r.amountOut).toBe(grossThree)
    expect(r.gasCostInTokenOut).toBeUndefined()
  })

  test("a split is dropped when its extra gas costs more than it gains", () => {
    // two identical deep pools: splitting a small trade gains a few units, the extra hop costs far more
    const p1 = v2(A, USDC, 1_000_000n * E18, 1_000_000n * E6)
    const p2 = v2(A, USDC, 1_000_000n * E18, 1_000_000n * E6, getAddress("0x00000000000000000000000000000000000000b2"))
    const snap = snapshotOf([p1, p2], 1_000_000_000_000n)
    const amountIn = 100n * E18
    const gross = findBestRoute(snap, { tokenIn: A, tokenOut: USDC, amountIn })!
    expect(gross.splits).toHaveLength(2)
    expect(gross.amountOut).toBeGreaterThan(v2Out(amountIn, 1_000_000n * E18, 1_000_000n * E6))
    const net = findBestRoute(snap, { tokenIn: A, tokenOut: USDC, amountIn, nativeToTokenOut })!
    expect(net.splits).toHaveLength(1)
    expect(net.amountOut).toBe(v2Out(amountIn, 1_000_000n * E18, 1_000_000n * E6))
  })
})
