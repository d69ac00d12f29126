// What a market snapshot holds: every known pool's state at one block,
// immutable, read by route search without touching the chain.
import type { Address, Hex } from "viem"
import type { UsdPrice } from "../pricing/index.ts"

export type Dex = "uniswap-v2" | "uniswap-v3" | "uniswap-v4"

/** An initialized tick and the liquidity that changes when the price crosses it. */
export interface TickInfo {
  readonly tick: number
  readonly liquidityNet: bigint
}

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

/** The route executor's settings at a block. */
export interface ExecutorSettings {
  readonly address: Address
  readonly protocolFeeBps: number
  readonly paused: boolean
}

export interface MarketSnapshot {
  readonly chainId: number
  readonly blockNumber: bigint
  readonly blockTimestamp: bigint
  /** the executor's settings at this block; undefined when none is configured or none answers */
  readonly executor: ExecutorSettings | undefined
  /** reference USD prices at this block, by lower-case token address */
  readonly prices: ReadonlyMap<string, UsdPrice>
  /** base fee + priority fee a transaction pays now, in native wei (18-decimal USDC) */
  readonly gasPriceWei: bigint
  /** every routable pool by id (lower-case) */
  readonly pools: ReadonlyMap<string, PoolState>
  /** pool ids touching each token (lower-case token address) */
  readonly poolsByToken: ReadonlyMap<string, readonly string[]>
  /**
   * the pools whose state was read from the chain for this snapshot (lower-case ids, sorted);
   * every other pool's state object is the previous snapshot's, unchanged
   */
  readonly refreshed?: readonly string[]
}
