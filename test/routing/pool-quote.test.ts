// The router's adapter to the AMM room: each pool kind reaches the right swap
// simulation in the right direction, with ticks crossed reported. Checked
// against Uniswap's published swap results (v3-core
// test/__snapshots__/UniswapV3Pool.swaps.spec.ts.snap, pools set up as in
// test/UniswapV3Pool.swaps.spec.ts) and the V2 formula.
import { describe, expect, test } from "bun:test"
import { quoteHop } from "../../src/routing/pool-quote.ts"
import { concentrated, token, v2, v2Out } from "./helpers.ts"

const E18 = 10n ** 18n
const minTick = (spacing: number) => Math.ceil(-887272 / spacing) * spacing
const maxTick = (spacing: number) => Math.floor(887272 / spacing) * spacing
const [A, B] = [token(1), token(2)] // sorted: A is token0

describe("V3 swaps, Uniswap's vectors (exact input of 1e18)", () => {
  test("medium fee, 1:1 price, 2e18 max range liquidity", () => {
    const pool = concentrated({
      token0: A, token1: B, fee: 3000, tickSpacing: 60, tick: 0,
      positions: [{ lower: minTick(60), upper: maxTick(60), liquidity: 2n * E18 }],
    })
    expect(pool.sqrtPriceX96).toBe(1n << 96n) // encodePriceSqrt(1, 1)
    expect(quoteHop(pool, 0, 1, E18)).toEqual({ amountOut: 665331998665331998n, ticksCrossed: 0 })
    expect(quoteHop(pool, 1, 0, E18)).toEqual({ amountOut: 665331998665331998n, ticksCrossed: 0 })
    expect(quoteHop(pool, 0, 1, 1000n)?.amountOut).toBe(996n)
    expect(quoteHop(pool, 1, 0, 1000n)?.amountOut).toBe(996n)
  })

  test("high fee, 1:1 price, 2e18 max range liquidity", () => {
    const pool = concentrated({
      token0: A, token1: B, fee: 10000, tickSpacing: 200, tick: 0,
      positions: [{ lower: minTick(200), upper: maxTick(200), liquidity: 2n * E18 }],
    })
    expect(quoteHop(pool, 0, 1, E18)?.amountOut).toBe(662207357859531772n)
    expect(quoteHop(pool, 1, 0, E18)?.amountOut).toBe(662207357859531772n)
    expect(quoteHop(pool, 0, 1, 1000n)?.amountOut).toBe(989n)
  })

  test("medium fee, 1:1 price, additional liquidity around current price (crosses ±60)", () => {
    const pool = concentrated({
      token0: A, token1: B, fee: 3000, tickSpacing: 60, tick: 0,
      positions: [
        { lower: minTick(60), upper: maxTick(60), liquidity: 2n * E18 },
        { lower: minTick(60), upper: -60, liquidity: 2n * E18 },
        { lower: 60, upper: maxTick(60), liquidity: 2n * E18 },
      ],
    })
    expect(quoteHop(pool, 0, 1, E18)).toEqual({ amountOut: 795933705287758544n, ticksCrossed: 1 })
    expect(quoteHop(pool, 1, 0, E18)).toEqual({ amountOut: 795933705287758544n, ticksCrossed: 1 })
    // a hookless V4 pool in the same state swaps to the same amounts
    const v4 = { ...pool, kind: "uniswap-v4" as const }
    expect(quoteHop(v4, 0, 1, E18)).toEqual({ amountOut: 795933705287758544n, ticksCrossed: 1 })
  })

  test("medium fee, 1:1 price, 0 liquidity, all liquidity around current price", () => {
    const pool = concentrated({
      token0: A, token1: B, fee: 3000, tickSpacing: 60, tick: 0,
      positions: [
        { lower: minTick(60), upper: -60, liquidity: 2n * E18 },
        { lower: 60, upper: maxTick(60), liquidity: 2n * E18 },
      ],
    })
    expect(pool.liquidity).toBe(0n)
    expect(quoteHop(pool, 0, 1, E18)).toEqual({ amountOut: 662011820624678025n, ticksCrossed: 1 })
    expect(quoteHop(pool, 1, 0, E18)).toEqual({ amountOut: 662011820624678025n, ticksCrossed: 1 })
    expect(quoteHop(pool, 0, 1, 1000n)?.amountOut).toBe(991n)
  })

  test("a swap that would leave the known tick range is refused", () => {
    const pool = concentrated({
      token0: A, token1: B, fee: 3000, tickSpacing: 60, tick: 0,
      positions: [{ lower: minTick(60), upper: maxTick(60), liquidity: 2n * E18 }],
      tickLower: -600, tickUpper: 600,
    })
    // 1e18 moves the price to tick -8090 in the full pool: beyond -600
    expect(quoteHop(pool, 0, 1, E18)).toBeUndefined()
    // a small swap stays within the range and matches the full pool
    expect(quoteHop(pool, 0, 1, 1000n)?.amountOut).toBe(996n)
  })
})

describe("V2", () => {
  test("UniswapV2Library.getAmountOut, both directions", () => {
    const pool = v2(A, B, 5n * E18, 10n * E18)
    // 1e18 in of A: 997e18 * 10e18 / (5e18 * 1000 + 997e18)
    expect(quoteHop(pool, 0, 1, E18)).toEqual({ amountOut: 1662497915624478906n, ticksCrossed: 0 })
    expect(quoteHop(pool, 1, 0, E18)?.amountOut).toBe(v2Out(E18, 10n * E18, 5n * E18))
    expect(quoteHop(pool, 0, 1, 0n)).toBeUndefined()
    expect(quoteHop(v2(A, B, 0n, E18), 0, 1, E18)).toBeUndefined()
  })
})
