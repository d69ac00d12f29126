// The pools of v3-core's test/UniswapV3Pool.swaps.spec.ts (TEST_POOLS), built
// as ConcentratedPool snapshots: price from encodePriceSqrt, tick from the
// price (as UniswapV3Pool.initialize), ticks and in-range liquidity from the
// minted positions.
import { getTickAtSqrtRatio, MAX_SQRT_RATIO, MIN_SQRT_RATIO } from "../../src/amm/tick-math.ts"
import type { ConcentratedPool, TickInfo } from "../../src/amm/v3.ts"
import { encodePriceSqrt, expandTo18Decimals } from "./helpers.ts"

export const getMinTick = (tickSpacing: number) => Math.ceil(-887272 / tickSpacing) * tickSpacing
export const getMaxTick = (tickSpacing: number) => Math.floor(887272 / tickSpacing) * tickSpacing
export const getMaxLiquidityPerTick = (tickSpacing: number) =>
  ((1n << 128n) - 1n) / BigInt((getMaxTick(tickSpacing) - getMinTick(tickSpacing)) / tickSpacing + 1)

export interface Position {
  readonly tickLower: number
  readonly tickUpper: number
  readonly liquidity: bigint
}

/** The pool state after initialize(sqrtPriceX96) and mint of every position. */
export const buildPool = (
  fee: number,
  tickSpacing: number,
  sqrtPriceX96: bigint,
  positions: readonly Position[],
): ConcentratedPool => {
  const tick = getTickAtSqrtRatio(sqrtPriceX96)
  const net = new Map<number, bigint>()
  let liquidity = 0n
  for (const p of positions) {
    net.set(p.tickLower, (net.get(p.tickLower) ?? 0n) + p.liquidity)
    net.set(p.tickUpper, (net.get(p.tickUpper) ?? 0n) - p.liquidity)
    if (p.tickLower <= tick && tick < p.tickUpper) liquidity += p.liquidity
  }
  const ticks: TickInfo[] = [...net.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([t, liquidityNet]) => ({ tick: t, liquidityNet }))
  return { sqrtPriceX96, tick, liquidity, fee, tickSpacing, ticks }
}

const LOW = { fee: 500, spacing: 10 }
const MEDIUM = { fee: 3000, spacing: 60 }
const HIGH = { fee: 10000, spacing: 200 }
const E18x2 = expandTo18Decimals(2)
const full = (s: number, liquidity = E18x2): Position => ({ tickLower: getMinTick(s), tickUpper: getMaxTick(s), liquidity })

export const TEST_POOLS: ReadonlyArray<{ readonly description: string; readonly pool: ConcentratedPool }> = [
  { description: "low fee, 1:1 price, 2e18 max range liquidity", pool: buildPool(LOW.fee, LOW.spacing, encodePriceSqrt(1, 1), [full(LOW.spacing)]) },
  { description: "medium fee, 1:1 price, 2e18 max range liquidity", pool: buildPool(MEDIUM.fee, MEDIUM.spacing, encodePriceSqrt(1, 1), [full(MEDIUM.spacing)]) },
  { description: "high fee, 1:1 price, 2e18 max range liquidity", pool: buildPool(HIGH.fee, HIGH.spacing, encodePriceSqrt(1, 1), [full(HIGH.spacing)]) },
  { description: "medium fee, 10:1 price, 2e18 max range liquidity", pool: buildPool(MEDIUM.fee, MEDIUM.spacing, encodePriceSqrt(10, 1), [full(MEDIUM.spacing)]) },
  { description: "medium fee, 1:10 price, 2e18 max range liquidity", pool: buildPool(MEDIUM.fee, MEDIUM.spacing, encodePriceSqrt(1, 10), [full(MEDIUM.spacing)]) },
  {
    description: "medium fee, 1:1 price, 0 liquidity, all liquidity around current price",
    pool: buildPool(MEDIUM.fee, MEDIUM.spacing, encodePriceSqrt(1, 1), [
      { tickLower: getMinTick(60), tickUpper: -60, liquidity: E18x2 },
      { tickLower: 60, tickUpper: getMaxTick(60), liquidity: E18x2 },
    ]),
  },
  {
    description: "medium fee, 1:1 price, additional liquidity around current price",
    pool: buildPool(MEDIUM.fee, MEDIUM.spacing, encodePriceSqrt(1, 1), [
      full(60),
      { tickLower: getMinTick(60), tickUpper: -60, liquidity: E18x2 },
      { tickLower: 60, tickUpper: getMaxTick(60), liquidity: E18x2 },
    ]),
  },
  {
    description: "low fee, large liquidity around current price (stable swap)",
    pool: buildPool(LOW.fee, LOW.spacing, encodePriceSqrt(1, 1), [{ tickLower: -10, tickUpper: 10, liquidity: E18x2 }]),
  },
  {
    description: "medium fee, token0 liquidity only",
    pool: buildPool(MEDIUM.fee, MEDIUM.spacing, encodePriceSqrt(1, 1), [{ tickLower: 0, tickUpper: 2000 * 60, liquidity: E18x2 }]),
  },
  {
    description: "medium fee, token1 liquidity only",
    pool: buildPool(MEDIUM.fee, MEDIUM.spacing, encodePriceSqrt(1, 1), [{ tickLower: -2000 * 60, tickUpper: 0, liquidity: E18x2 }]),
  },
  { description: "close to max price", pool: buildPool(MEDIUM.fee, MEDIUM.spacing, encodePriceSqrt(1n << 127n, 1), [full(60)]) },
  { description: "close to min price", pool: buildPool(MEDIUM.fee, MEDIUM.spacing, encodePriceSqrt(1, 1n << 127n), [full(60)]) },
  {
    description: "max full range liquidity at 1:1 price with default fee",
    pool: buildPool(MEDIUM.fee, MEDIUM.spacing, encodePriceSqrt(1, 1), [full(60, getMaxLiquidityPerTick(60))]),
  },
  { description: "initialized at the max ratio", pool: buildPool(MEDIUM.fee, MEDIUM.spacing, MAX_SQRT_RATIO - 1n, [full(60)]) },
  { description: "initialized at the min ratio", pool: buildPool(MEDIUM.fee, MEDIUM.spacing, MIN_SQRT_RATIO, [full(60)]) },
]

/** The exact-input cases of DEFAULT_POOL_SWAP_TESTS, with their snapshot descriptions. */
export interface ExactInputCase {
  readonly description: string
  readonly zeroForOne: boolean
  /** undefined: swap to the price limit with amountSpecified = type(int256).max */
  readonly amountIn: bigint | undefined
  readonly sqrtPriceLimit?: bigint
}

export const EXACT_INPUT_CASES: readonly ExactInputCase[] = [
  { description: "swap exactly 1.0000 token0 for token1", zeroForOne: true, amountIn: expandTo18Decimals(1) },
  { description: "swap exactly 1.0000 token1 for token0", zeroForOne: false, amountIn: expandTo18Decimals(1) },
  { description: "swap exactly 1.0000 token0 for token1 to price 0.50000", zeroForOne: true, amountIn: expandTo18Decimals(1), sqrtPriceLimit: encodePriceSqrt(50, 100) },
  { description: "swap exactly 1.0000 token1 for token0 to price 2.0000", zeroForOne: false, amountIn: expandTo18Decimals(1), sqrtPriceLimit: encodePriceSqrt(200, 100) },
  { description: "swap exactly 0.0000000000000010000 token0 for token1", zeroForOne: true, amountIn: 1000n },
  { description: "swap exactly 0.0000000000000010000 token1 for token0", zeroForOne: false, amountIn: 1000n },
  { description: "swap token1 for token0 to price 2.5000", zeroForOne: false, amountIn: undefined, sqrtPriceLimit: encodePriceSqrt(5, 2) },
  { description: "swap token0 for token1 to price 0.40000", zeroForOne: true, amountIn: undefined, sqrtPriceLimit: encodePriceSqrt(2, 5) },
  { description: "swap token0 for token1 to price 2.5000", zeroForOne: true, amountIn: undefined, sqrtPriceLimit: encodePriceSqrt(5, 2) },
  { description: "swap token1 for token0 to price 0.40000", zeroForOne: false, amountIn: undefined, sqrtPriceLimit: encodePriceSqrt(2, 5) },
]
