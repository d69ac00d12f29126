// The state of a pool as its contract holds it at one block: what the swap
// math and the route search read, and what the market publishes.
import type { Address, Hex } from "viem"
import type { TickInfo } from "./tick-bitmap.ts"

/** The AMM family a pool belongs to: which math prices it and which executor hop runs it. */
export type PoolKind = "uniswap-v2" | "uniswap-v3" | "uniswap-v4" | "curve-stableswap"

interface PoolBase {
  readonly kind: PoolKind
  /** the venue (one deployment of the family) the pool belongs to, as the API names it */
  readonly venue: string
  /** V2 pair, V3 pool or stable pool address; V4 32-byte pool id */
  readonly id: Address | Hex
}

/** A pool of two tokens, token0 < token1 (checksummed). */
interface PairPoolBase extends PoolBase {
  readonly token0: Address
  readonly token1: Address
}

export interface V2PoolState extends PairPoolBase {
  readonly kind: "uniswap-v2"
  readonly reserve0: bigint
  readonly reserve1: bigint
  /** the venue's swap fee in basis points (30 for Uniswap V2 itself) */
  readonly feeBps: number
}

export interface ConcentratedPoolState extends PairPoolBase {
  readonly kind: "uniswap-v3" | "uniswap-v4"
  /** LP fee in hundredths of a bip (3000 = 0.3%) */
  readonly fee: number
  readonly tickSpacing: number
  readonly sqrtPriceX96: bigint
  readonly tick: number
  readonly liquidity: bigint
  /** initialized ticks, ascending, complete within [tickLower, tickUpper] */
  readonly ticks: readonly TickInfo[]
  readonly tickLower: number
  readonly tickUpper: number
  /** V4 only: the hooks address (always zero for pools we route) */
  readonly hooks?: Address
}

/** A Curve plain pool (StableSwap invariant) of 2 to 4 coins. */
export interface StablePoolState extends PoolBase {
  readonly kind: "curve-stableswap"
  readonly id: Address
  /** the coins in pool order (checksummed) */
  readonly coins: readonly Address[]
  /** the pool's balances(i), in each coin's smallest unit */
  readonly balances: readonly bigint[]
  /** Curve's rate multipliers, 10 ** (36 - decimals) per coin */
  readonly rates: readonly bigint[]
  /** A_precise(): the amplification times A_PRECISION (100) */
  readonly amp: bigint
  /** fee(): the swap fee in units of 1e-10 */
  readonly fee: bigint
}

export type PairPoolState = V2PoolState | ConcentratedPoolState
export type PoolState = PairPoolState | StablePoolState

/** The tokens of a pool in the pool's own order (token0, token1 for a pair; the coins of a stable pool). */
export const poolTokens = (pool: PoolState): readonly Address[] =>
  pool.kind === "curve-stableswap" ? pool.coins : [pool.token0, pool.token1]
