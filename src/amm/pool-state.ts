// The state of a pool as its contract holds it at one block: what the swap
// math and the route search read, and what the market publishes.
import type { Address, Hex } from "viem"
import type { TickInfo } from "./tick-bitmap.ts"

export type Dex = "uniswap-v2" | "uniswap-v3" | "uniswap-v4"

interface PoolBase {
  readonly dex: Dex
  /** V2 pair or V3 pool address; V4 32-byte pool id */
  readonly id: Address | Hex
  /** token0 < token1, checksummed */
  readonly token0: Address
  readonly token1: Address
}

export interface V2PoolState extends PoolBase {
  readonly dex: "uniswap-v2"
  readonly reserve0: bigint
  readonly reserve1: bigint
}

export interface ConcentratedPoolState extends PoolBase {
  readonly dex: "uniswap-v3" | "uniswap-v4"
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

export type PoolState = V2PoolState | ConcentratedPoolState
