// A synthetic market for route search: a deterministic snapshot of any number of pools of every
// kind (no chain), and trades on it. The routing benchmark measures searches on it; the routing
// tests search it as a large, realistic market. It lives under bench/support, beside the bench
// subjects but not one of them, so the tests take the market without importing a benchmark, and
// the bench does not depend on the test tree.
import { type Address, getAddress } from "viem"
import {
  getTickAtSqrtRatio,
  MAX_TICK,
  MIN_TICK,
  stableRates,
  type ConcentratedPoolState,
  type PoolState,
  type StablePoolState,
  type TickInfo,
  type V2PoolState,
} from "../../src/amm/index.ts"
import type { FindRouteParams } from "../../src/routing/index.ts"
import type { World } from "../../src/domain/index.ts"

/** a trade to search: exact-input parameters, grouped by kind */
export interface BenchTrade {
  /** group the latency is reported under ("one-hop", "split", ...) */
  readonly kind: string
  readonly params: FindRouteParams
  /** native wei -> tokenIn, for the exact-output search of the same trade */
  readonly nativeToTokenIn?: (weiAmount: bigint) => bigint | undefined
}

/** mulberry32: a small deterministic PRNG */
const rng = (seed: number) => {
  let a = seed >>> 0
  return (): number => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export interface SyntheticToken {
  readonly address: Address
  readonly decimals: number
  /** price in USD */
  readonly usd: number
}

export interface SyntheticMarket {
  readonly snapshot: World
  readonly usdc: SyntheticToken
  /** hub tokens (USDC first) */
  readonly hubs: readonly SyntheticToken[]
  readonly tokens: readonly SyntheticToken[]
  /** the dollar stablecoins of the stable pools (USDC and USDT first) */
  readonly dollars: readonly SyntheticToken[]
  /** token pairs with at least one pool, "a|b" (lower-case, sorted) */
  readonly pairs: ReadonlySet<string>
  /** amount of `token` worth `usd` dollars */
  readonly amountOf: (token: SyntheticToken, usd: number) => bigint
}

const FEES: ReadonlyArray<readonly [number, number]> = [
  [100, 1],
  [500, 10],
  [3000, 60],
  [10000, 200],
]
const LOG_1_0001 = Math.log(1.0001)

/**
 * A deterministic market of `poolCount` pools: USDC and 5 hubs joined by deep
 * pools of every kind, a tenth of the pools stable pools of 2-4 dollar
 * stablecoins (USDC and USDT among them often), ~poolCount/3 long-tail tokens
 * each with 1-3 pools to hubs, and the rest long-tail pairs. V2 40%, V3 40%,
 * V4 20%, on two V2 and two V3 venues; V3/V4 pools have 1-6 positions around
 * the price (ticks known within ±40,000 of it).
 */
export const syntheticMarket = (poolCount: number, seed = 5042): SyntheticMarket => {
  const r = rng(seed)
  const logUniform = (lo: number, hi: number) => Math.exp(Math.log(lo) + r() * (Math.log(hi) - Math.log(lo)))
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!

  const token = (n: number, decimals: number, usd: number): SyntheticToken => ({
    address: getAddress(`0x${(0x1000 + n).toString(16).padStart(40, "0")}`),
    decimals,
    usd,
  })
  const usdc: SyntheticToken = { address: "0x3600000000000000000000000000000000000000", decimals: 6, usd: 1 }
  const hubs: SyntheticToken[] = [
    usdc,
    token(1, 18, 3500), // WETH
    token(2, 8, 97000), // WBTC
    token(3, 6, 1.16), // EURC
    token(4, 6, 1), // USDT
    token(5, 8, 97000), // cirBTC
  ]
  const longTail: SyntheticToken[] = []
  const longTailCount = Math.max(10, Math.floor(poolCount / 3))
  for (let i = 0; i < longTailCount; i++) {
    longTail.push(token(100 + i, pick([6, 8, 18, 18]), logUniform(1e-4, 1e4)))
  }

  const pools = new Map<string, PoolState>()
  const byToken = new Map<string, string[]>()
  const pairs = new Set<string>()
  let nextId = 1

  const addPool = (a: SyntheticToken, b: SyntheticToken, tvlUsd: number, kind?: "uniswap-v2" | "uniswap-v3" | "uniswap-v4") => {
    const [t0, t1] = a.address.toLowerCase() < b.address.toLowerCase() ? [a, b] : [b, a]
    const dex = kind ?? (r() < 0.4 ? "uniswap-v2" : r() < 2 / 3 ? "uniswap-v3" : "uniswap-v4")
    const venue = dex === "uniswap-v2" ? pick(["uniswap-v2", "arcade-v2"]) : dex === "uniswap-v3" ? pick(["uniswap-v3", "synthra-v3"]) : dex
    const n = nextId++
    const id: `0x${string}` =
      dex === "uniswap-v4"
        ? `0x${n.toString(16).padStart(64, "0")}`
        : `0x${(0xa0000000 + n).toString(16).padStart(40, "0")}`
    // price of token0 in token1, raw units; perturbed so pools disagree a little
    const price = (t0.usd / t1.usd) * 10 ** (t1.decimals - t0.decimals) * (1 + (r() - 0.5) * 0.004)
    let pool: PoolState
    if (dex === "uniswap-v2") {
      const reserve0 = BigInt(Math.max(1, Math.floor((tvlUsd / 2 / t0.usd) * 10 ** t0.decimals)))
      const reserve1 = BigInt(Math.max(1, Math.floor(Number(reserve0) * price)))
      pool = { kind: dex, venue, id, token0: t0.address, token1: t1.address, reserve0, reserve1, feeBps: 30 } satisfies V2PoolState
    } else {
      const [fee, tickSpacing] = pick(FEES)
      const sqrtP = Math.sqrt(price)
      const sqrtPriceX96 = BigInt(Math.floor(sqrtP * 2 ** 96))
      const tick = getTickAtSqrtRatio(sqrtPriceX96)
      const net = new Map<number, bigint>()
      let liquidity = 0n
      const positions = 1 + Math.floor(r() * 6)
      for (let k = 0; k < positions; k++) {
        const width = Math.max(1, Math.floor(logUniform(2, 2000) / tickSpacing)) * tickSpacing
        const centre = Math.floor((tick + (r() - 0.5) * width) / tickSpacing) * tickSpacing
        const lower = Math.max(Math.ceil(MIN_TICK / tickSpacing) * tickSpacing, centre - width)
        const upper = Math.min(Math.floor(MAX_TICK / tickSpacing) * tickSpacing, centre + width)
        // value of liquidity L over [lower, upper] at the current price, in token1 units
        const sa = Math.exp((lower * LOG_1_0001) / 2)
        const sb = Math.exp((upper * LOG_1_0001) / 2)
        const s = Math.min(Math.max(sqrtP, sa), sb)
        const valuePerL = (s - sa) + (1 / s - 1 / sb) * price
        const tvl1 = (tvlUsd / positions / t1.usd) * 10 ** t1.decimals
        const l = BigInt(Math.max(1, Math.floor(tvl1 / Math.max(valuePerL, 1e-30))))
        net.set(lower, (net.get(lower) ?? 0n) + l)
        net.set(upper, (net.get(upper) ?? 0n) - l)
        if (lower <= tick && tick < upper) liquidity += l
      }
      const ticks: TickInfo[] = [...net.entries()]
        .filter(([, v]) => v !== 0n)
        .sort((x, y) => x[0] - y[0])
        .map(([t, liquidityNet]) => ({ tick: t, liquidityNet }))
      const known = 40_000
      const state: ConcentratedPoolState = {
        kind: dex,
        venue,
        id,
        token0: t0.address,
        token1: t1.address,
        fee,
        tickSpacing,
        sqrtPriceX96,
        tick,
        liquidity,
        ticks: ticks.filter((t) => t.tick >= tick - known && t.tick <= tick + known),
        tickLower: Math.max(MIN_TICK, tick - known),
        tickUpper: Math.min(MAX_TICK, tick + known),
        ...(dex === "uniswap-v4" ? { hooks: "0x0000000000000000000000000000000000000000" as Address } : {}),
      }
      pool = state
    }
    const key = id.toLowerCase()
    pools.set(key, pool)
    for (const t of [t0, t1]) {
      const k = t.address.toLowerCase()
      let list = byToken.get(k)
      if (list === undefined) byToken.set(k, (list = []))
      list.push(key)
    }
    pairs.add(`${t0.address.toLowerCase()}|${t1.address.toLowerCase()}`)
  }

  const addStablePool = (coins: readonly SyntheticToken[], tvlUsd: number) => {
    const id = getAddress(`0x${(0xb0000000 + nextId++).toString(16).padStart(40, "0")}`)
    // balances from balanced to a few percent apart
    const balances = coins.map((c) => BigInt(Math.floor((tvlUsd / coins.length) * (0.9 + r() * 0.2) * 10 ** c.decimals)))
    const pool: StablePoolState = {
      kind: "curve-stableswap",
      venue: "xylonet",
      id,
      coins: coins.map((c) => c.address),
      balances,
      rates: stableRates(coins.map((c) => c.decimals)),
      amp: BigInt(pick([10, 100, 200, 1000, 2000])) * 100n,
      fee: BigInt(pick([1_000_000, 4_000_000])),
    }
    const key = id.toLowerCase()
    pools.set(key, pool)
    for (const c of coins) {
      const k = c.address.toLowerCase()
      let list = byToken.get(k)
      if (list === undefined) byToken.set(k, (list = []))
      list.push(key)
    }
    for (const a of coins) for (const b of coins) if (a.address.toLowerCase() < b.address.toLowerCase()) pairs.add(`${a.address.toLowerCase()}|${b.address.toLowerCase()}`)
  }

  // stable pools: a tenth of the market, 2-4 dollar coins each, USDC and USDT the most common
  const stablePools = Math.floor(poolCount / 10)
  const dollars = [usdc, hubs[4]!, ...Array.from({ length: Math.max(4, Math.floor(stablePools / 12)) }, (_, i) => token(50_000 + i, pick([6, 18]), 1))]
  for (let k = 0; k < stablePools; k++) {
    const size = 2 + Math.floor(r() * 3)
    const coins = new Set<SyntheticToken>(r() < 0.5 ? [usdc, hubs[4]!] : r() < 0.5 ? [usdc] : [])
    while (coins.size < size) coins.add(pick(dollars))
    addStablePool([...coins].slice(0, size), k < 20 ? logUniform(5e6, 5e7) : logUniform(1e4, 5e6))
  }

  // hubs: every pair, several pools each, deep
  for (let i = 0; i < hubs.length; i++) {
    for (let j = i + 1; j < hubs.length; j++) {
      addPool(hubs[i]!, hubs[j]!, logUniform(2e6, 5e7), "uniswap-v2")
      addPool(hubs[i]!, hubs[j]!, logUniform(2e6, 5e7), "uniswap-v3")
      addPool(hubs[i]!, hubs[j]!, logUniform(2e6, 5e7), "uniswap-v3")
      addPool(hubs[i]!, hubs[j]!, logUniform(1e6, 2e7), "uniswap-v4")
    }
  }
  // long tail to hubs (USDC and WETH most often)
  const hubWeights = [usdc, usdc, usdc, hubs[1]!, hubs[1]!, hubs[2]!, hubs[3]!, hubs[4]!, hubs[5]!]
  for (const t of longTail) {
    const count = 1 + Math.floor(r() * 3)
    for (let k = 0; k < count && pools.size < poolCount; k++) addPool(t, pick(hubWeights), logUniform(5e3, 5e6))
  }
  // long-tail pairs
  while (pools.size < poolCount) {
    const a = pick(longTail)
    const b = pick(longTail)
    if (a !== b) addPool(a, b, logUniform(1e3, 1e6))
  }

  const snapshot: World = {
    chainId: 5042,
    blockNumber: 1n,
    blockTimestamp: 1_700_000_000n,
    baseFeeWei: 0n,
    executor: undefined,
    prices: new Map(),
    gasPriceWei: 20_000_000_000n, // 20 gwei of native USDC
    pools,
    poolsByToken: byToken,
  }
  const amountOf = (t: SyntheticToken, usd: number): bigint =>
    BigInt(Math.max(1, Math.floor((usd / t.usd) * 10 ** t.decimals)))
  return { snapshot, usdc, hubs, tokens: [...hubs, ...longTail], dollars, pairs, amountOf }
}

/** native USDC wei -> tokenOut at the synthetic USD prices */
export const nativeTo = (t: SyntheticToken) => {
  // 1 USDC native = 1e18 wei; tokenOut units per wei
  const perWei = (1 / t.usd) * 10 ** t.decimals / 1e18
  return (wei: bigint): bigint => BigInt(Math.floor(Number(wei) * perWei))
}

/** one-hop, two-hop and split trades on a synthetic market */
export const syntheticTrades = (market: SyntheticMarket, count = 40, seed = 7): BenchTrade[] => {
  const r = rng(seed)
  const { usdc, hubs, tokens, pairs, amountOf } = market
  const longTail = tokens.slice(hubs.length)
  const hasPair = (a: SyntheticToken, b: SyntheticToken) => {
    const x = a.address.toLowerCase()
    const y = b.address.toLowerCase()
    return pairs.has(x < y ? `${x}|${y}` : `${y}|${x}`)
  }
  const trade = (kind: string, a: SyntheticToken, b: SyntheticToken, usd: number): BenchTrade => ({
    kind,
    params: { tokenIn: a.address, tokenOut: b.address, amountIn: amountOf(a, usd), nativeToTokenOut: nativeTo(b) },
    nativeToTokenIn: nativeTo(a),
  })
  const out: BenchTrade[] = []
  // one-hop: a long-tail token with a USDC pool, sold for USDC, small size
  for (let i = 0; out.length < count && i < 100_000; i++) {
    const t = longTail[Math.floor(r() * longTail.length)]!
    if (hasPair(t, usdc)) out.push(trade("one-hop", t, usdc, 50 + r() * 500))
  }
  // two-hop: two long-tail tokens without a pool between them, each with a USDC pool
  for (let i = 0, n = 0; n < count && i < 100_000; i++) {
    const a = longTail[Math.floor(r() * longTail.length)]!
    const b = longTail[Math.floor(r() * longTail.length)]!
    // through a hub both trade with (USDC), not directly
    if (a === b || hasPair(a, b) || !hasPair(a, usdc) || !hasPair(b, usdc)) continue
    out.push(trade("two-hop", a, b, 100 + r() * 1000))
    n++
  }
  // stable: dollar stablecoins through stable pools and the hubs' pools, small to large
  const pooled = market.dollars.filter((d) => market.snapshot.poolsByToken.has(d.address.toLowerCase()))
  for (let n = 0; n < count; n++) {
    const a = pooled[Math.floor(r() * pooled.length)]!
    let b = pooled[Math.floor(r() * pooled.length)]!
    if (a === b) b = a === usdc ? pooled[1]! : usdc
    out.push(trade("stable", a, b, 1e3 + r() * 1e6))
  }
  // split: large trades between hubs, deep enough that one pool is not best
  for (let n = 0; n < count; n++) {
    const a = hubs[Math.floor(r() * hubs.length)]!
    let b = hubs[Math.floor(r() * hubs.length)]!
    if (a === b) b = hubs[(hubs.indexOf(a) + 1) % hubs.length]!
    out.push(trade("split", a, b, 2e5 + r() * 2e6))
  }
  return out
}
