// The router's exact-output hop (quoteHopExactOutput) against its forward hop
// (quoteHop): the input it asks delivers the output, one unit less does not,
// on every pool kind. On small pools built here and on the default scenario's
// pools on a real devnet (with the extra positions of the AMM differential
// tests, so swaps cross initialized ticks).
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import fc from "fast-check"
import { getDy, poolTokens, swapExactOutput, type PoolState } from "../../src/amm/index.ts"
import { quoteHop, quoteHopExactOutput } from "../../src/routing/pool-quote.ts"
import { startDifferentialMarket, type DifferentialMarket } from "../amm/devnet-pools.ts"
import { concentrated, stable, token, v2 } from "./helpers.ts"
import type { World } from "../../src/domain/index.ts"

const E18 = 10n ** 18n
const [A, B, C] = [token(1), token(2), token(3)] // sorted

/** what the forward hop pays for `amountIn` (0 where it cannot take it) */
const forward = (pool: PoolState, i: number, j: number, amountIn: bigint): bigint =>
  amountIn <= 0n ? 0n : (quoteHop(pool, i, j, amountIn)?.amountOut ?? 0n)

/**
 * The hop's exact-output quote for amountOut, checked against the forward
 * hop: enough, the least, a stable hop's surplus exactly what get_dy pays
 * above amountOut. Returns whether it delivered (false: refused).
 */
const checkHop = (pool: PoolState, i: number, j: number, amountOut: bigint): boolean => {
  const q = quoteHopExactOutput(pool, i, j, amountOut)
  if (q === undefined) {
    // refused: no input the forward hop takes pays amountOut (probed at a vast input)
    if (pool.kind === "uniswap-v2") expect(amountOut).toBeGreaterThanOrEqual(i === 0 ? pool.reserve1 : pool.reserve0)
    return false
  }
  expect(q.amountIn).toBeGreaterThan(0n)
  const paid = forward(pool, i, j, q.amountIn)
  expect(paid).toBeGreaterThanOrEqual(amountOut)
  expect(forward(pool, i, j, q.amountIn - 1n)).toBeLessThan(amountOut)
  if (pool.kind === "curve-stableswap") expect(q.surplus).toBe(getDy(pool, i, j, q.amountIn) - amountOut)
  // V2, V3 and V4 hops are asked for exactly amountOut: nothing above it is paid
  else expect(q.surplus).toBe(0n)
  if (pool.kind === "uniswap-v2" || pool.kind === "curve-stableswap") expect(q.ticksCrossed).toBe(0)
  return true
}

/** outputs log-uniform from 1 to 10^maxExp */
const amountArb = (maxExp: number) =>
  fc.integer({ min: 0, max: maxExp - 1 }).chain((e) => fc.bigInt({ min: 10n ** BigInt(e), max: 10n ** BigInt(e + 1) - 1n }))

const v3Pool = concentrated({
  token0: A, token1: B, fee: 3000, tickSpacing: 60, tick: 120,
  positions: [
    { lower: -887220, upper: 887220, liquidity: 2n * E18 },
    { lower: -600, upper: 600, liquidity: 30n * E18 },
    { lower: 60, upper: 240, liquidity: 100n * E18 },
    { lower: 2400, upper: 3000, liquidity: 5n * E18 },
  ],
  tickLower: -6000, tickUpper: 6000,
})
const v4Pool = concentrated({
  dex: "uniswap-v4", token0: A, token1: B, fee: 500, tickSpacing: 10, tick: -30,
  positions: [
    { lower: -20000, upper: 20000, liquidity: 10n * E18 },
    { lower: -100, upper: 100, liquidity: 400n * E18 },
  ],
})
const pair = v2(A, B, 1_000_000n * E18, 2_000_000n * 10n ** 6n, undefined, "arcade-v2", 25)
const stable3 = stable([A, B, C], [3_000_000n * 10n ** 6n, 2_500_000n * E18, 4_000_000n * 10n ** 6n], [6, 18, 6], 200n, 4_000_000n)

describe("quoteHopExactOutput on built pools", () => {
  const cases: ReadonlyArray<readonly [string, PoolState, number]> = [
    ["V2 (a fork at 25 bps)", pair, 25],
    ["V3, crossing ticks, known within ±6000", v3Pool, 24],
    ["V4", v4Pool, 24],
    ["stable, 3 coins of 6 and 18 decimals", stable3, 25],
  ]
  for (const [name, pool, maxExp] of cases) {
    test(`${name}: the input delivers amountOut and one unit less does not, every direction`, () => {
      const n = poolTokens(pool).length
      let delivered = 0
      fc.assert(
        fc.property(fc.integer({ min: 0, max: n - 1 }), fc.integer({ min: 1, max: n - 1 }), amountArb(maxExp), (i, d, amountOut) => {
          if (checkHop(pool, i, (i + d) % n, amountOut)) delivered++
        }),
        { numRuns: 300, endOnFailure: true },
      )
      expect(delivered).toBeGreaterThan(150)
    })
  }

  test("the same as the AMM room's exact-output math, ticks crossed included", () => {
    // an output that takes the price from tick 120 down across the ticks at 60 and -600
    const out = forward(v3Pool, 0, 1, 2n * E18)
    const q = quoteHopExactOutput(v3Pool, 0, 1, out)!
    expect(q.ticksCrossed).toBe(2)
    const amm = swapExactOutput(v3Pool, true, out)
    expect(amm.ok && amm.amountIn).toBe(q.amountIn)
    expect(quoteHop(v3Pool, 0, 1, q.amountIn)!.ticksCrossed).toBe(q.ticksCrossed)
  })

  test("refused: zero, the whole reserve, beyond the known ticks", () => {
    expect(quoteHopExactOutput(pair, 0, 1, 0n)).toBeUndefined()
    expect(quoteHopExactOutput(pair, 0, 1, pair.reserve1)).toBeUndefined()
    expect(quoteHopExactOutput(pair, 0, 1, pair.reserve1 - 1n)).toBeDefined()
    expect(quoteHopExactOutput(stable3, 0, 1, stable3.balances[1]!)).toBeUndefined()
    // the known range ends at tick -6000: 1e21 of token1 lies beyond it (the forward hop cannot pay it either)
    expect(quoteHopExactOutput(v3Pool, 0, 1, 10n ** 21n)).toBeUndefined()
    expect(forward(v3Pool, 0, 1, 10n ** 30n)).toBe(0n)
  })
})

describe("quoteHopExactOutput on the default scenario's pools (devnet, extra positions)", () => {
  let market: DifferentialMarket
  let snap: World
  beforeAll(async () => {
    market = await startDifferentialMarket()
    snap = market.snap
  }, 120_000)
  afterAll(async () => {
    await market?.stop()
  })

  test("every pool kind, every direction, outputs from 1 unit to beyond the pool", () => {
    const pools = [...snap.pools.values()]
    const kinds = new Set(pools.map((p) => p.kind))
    expect([...kinds].sort()).toEqual(["curve-stableswap", "uniswap-v2", "uniswap-v3", "uniswap-v4"])
    const delivered = new Map<string, number>()
    let crossed = 0
    fc.assert(
      fc.property(fc.constantFrom(...pools), fc.nat(), fc.nat(), amountArb(26), (pool, a, b, amountOut) => {
        const n = poolTokens(pool).length
        const i = a % n
        const j = (i + 1 + (b % (n - 1))) % n
        if (checkHop(pool, i, j, amountOut)) {
          delivered.set(pool.kind, (delivered.get(pool.kind) ?? 0) + 1)
          if ((quoteHopExactOutput(pool, i, j, amountOut)?.ticksCrossed ?? 0) > 0) crossed++
        }
      }),
      { numRuns: 1500, endOnFailure: true },
    )
    for (const kind of kinds) expect(delivered.get(kind) ?? 0).toBeGreaterThan(20)
    expect(crossed).toBeGreaterThan(10)
  })
})
