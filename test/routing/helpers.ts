// Builders of small synthetic market snapshots for the routing tests.
import { type Address, getAddress } from "viem"
import {
  getAmountOut,
  getDy,
  poolTokens,
  stableRates,
  getSqrtRatioAtTick,
  MAX_TICK,
  MIN_TICK,
  swapExactInput,
  swapExactInputV4,
} from "../../src/amm/index.ts"
import type { ConcentratedPoolState, PoolState, StablePoolState, TickInfo, V2PoolState } from "../../src/amm/index.ts"
import type { World } from "../../src/domain/index.ts"

export const USDC = "0x3600000000000000000000000000000000000000" as Address

/** A checksummed token address from a small number (distinct from USDC). */
export const token = (n: number): Address => getAddress(`0x${(0x1000 + n).toString(16).padStart(40, "0")}`)

let poolSeq = 0
const nextPoolAddress = (): Address => getAddress(`0x${(0xa0000000 + ++poolSeq).toString(16).padStart(40, "0")}`)
const nextPoolId = (): string => `0x${(++poolSeq).toString(16).padStart(64, "0")}`

const sorted = (a: Address, b: Address): boolean => a.toLowerCase() < b.toLowerCase()

/** A V2 pair holding reserveA of tokenA and reserveB of tokenB (a fork's venue and fee when given). */
export const v2 = (
  tokenA: Address,
  tokenB: Address,
  reserveA: bigint,
  reserveB: bigint,
  id = nextPoolAddress(),
  venue = "uniswap-v2",
  feeBps = 30,
): V2PoolState =>
  sorted(tokenA, tokenB)
    ? { kind: "uniswap-v2", venue, id, token0: tokenA, token1: tokenB, reserve0: reserveA, reserve1: reserveB, feeBps }
    : { kind: "uniswap-v2", venue, id, token0: tokenB, token1: tokenA, reserve0: reserveB, reserve1: reserveA, feeBps }

/** A Curve plain pool of these coins (pool order as given) with balances in each coin's smallest unit. */
export const stable = (
  coins: readonly Address[],
  balances: readonly bigint[],
  decimals: readonly number[],
  a: bigint,
  fee: bigint,
  venue = "xylonet",
): StablePoolState => ({
  kind: "curve-stableswap",
  venue,
  id: nextPoolAddress(),
  coins,
  balances,
  rates: stableRates(decimals),
  amp: a * 100n,
  fee,
})

export interface Position {
  readonly lower: number
  readonly upper: number
  readonly liquidity: bigint
}

export interface ConcentratedSpec {
  readonly dex?: "uniswap-v3" | "uniswap-v4"
  /** the venue (default: named like the kind) */
  readonly venue?: string
  /** token0 and token1 must be given sorted */
  readonly token0: Address
  readonly token1: Address
  readonly fee: number
  readonly tickSpacing: number
  /** current tick; the price is exactly at it unless sqrtPriceX96 is given */
  readonly tick: number
  readonly sqrtPriceX96?: bigint
  readonly positions: readonly Position[]
  /** range within which the ticks are known (default: everything) */
  readonly tickLower?: number
  readonly tickUpper?: number
}

/** A V3/V4 pool from LP positions: ticks carry +L at lower and -L at upper. */
export const concentrated = (spec: ConcentratedSpec): ConcentratedPoolState => {
  if (!sorted(spec.token0, spec.token1)) throw new Error("token0 must sort before token1")
  const net = new Map<number, bigint>()
  let liquidity = 0n
  for (const p of spec.positions) {
    net.set(p.lower, (net.get(p.lower) ?? 0n) + p.liquidity)
    net.set(p.upper, (net.get(p.upper) ?? 0n) - p.liquidity)
    if (p.lower <= spec.tick && spec.tick < p.upper) liquidity += p.liquidity
  }
  const tickLower = spec.tickLower ?? MIN_TICK
  const tickUpper = spec.tickUpper ?? MAX_TICK
  const ticks: TickInfo[] = [...net.entries()]
    .filter(([t, v]) => v !== 0n && t >= tickLower && t <= tickUpper)
    .sort((a, b) => a[0] - b[0])
    .map(([tick, liquidityNet]) => ({ tick, liquidityNet }))
  const dex = spec.dex ?? "uniswap-v3"
  return {
    kind: dex,
    venue: spec.venue ?? dex,
    id: dex === "uniswap-v4" ? (nextPoolId() as Address) : nextPoolAddress(),
    token0: spec.token0,
    token1: spec.token1,
    fee: spec.fee,
    tickSpacing: spec.tickSpacing,
    sqrtPriceX96: spec.sqrtPriceX96 ?? getSqrtRatioAtTick(spec.tick),
    tick: spec.tick,
    liquidity,
    ticks,
    tickLower,
    tickUpper,
    ...(dex === "uniswap-v4" ? { hooks: "0x0000000000000000000000000000000000000000" as Address } : {}),
  }
}

/** A snapshot of these pools (gas price 20 gwei of native USDC unless given). */
export const snapshotOf = (pools: readonly PoolState[], gasPriceWei = 20_000_000_000n): World => {
  const byId = new Map<string, PoolState>()
  const byToken = new Map<string, string[]>()
  for (const p of pools) {
    const id = p.id.toLowerCase()
    byId.set(id, p)
    for (const t of poolTokens(p)) {
      const k = t.toLowerCase()
      const list = byToken.get(k) ?? []
      list.push(id)
      byToken.set(k, list)
    }
  }
  return { chainId: 5042, blockNumber: 1n, blockTimestamp: 1n, baseFeeWei: 0n, executor: undefined, prices: new Map(), gasPriceWei, pools: byId, poolsByToken: byToken }
}

/** Uniswap V2's getAmountOut, written out from UniswapV2Library for the tests' own oracle. */
export const v2Out = (amountIn: bigint, reserveIn: bigint, reserveOut: bigint): bigint => {
  const withFee = amountIn * 997n
  return (withFee * reserveOut) / (reserveIn * 1000n + withFee)
}

/** One exact-input swap straight through the AMM room (no router code): the output, or undefined. */
export const ammOut = (pool: PoolState, zeroForOne: boolean, amountIn: bigint, coins?: readonly [number, number]): bigint | undefined => {
  if (pool.kind === "curve-stableswap") return getDy(pool, coins![0], coins![1], amountIn)
  if (pool.kind === "uniswap-v2") {
    return zeroForOne ? getAmountOut(amountIn, pool.reserve0, pool.reserve1) : getAmountOut(amountIn, pool.reserve1, pool.reserve0)
  }
  const r = pool.kind === "uniswap-v3" ? swapExactInput(pool, zeroForOne, amountIn) : swapExactInputV4(pool, zeroForOne, amountIn)
  return r.ok ? r.amountOut : undefined
}
