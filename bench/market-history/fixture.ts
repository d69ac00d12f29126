// What the history fixture is, seen from outside: the options it is built with, its pools as
// swaps address them, the running fixture it hands back, and the error it throws.
import type { Hex } from "viem"
import type { RunningDevnet } from "../../src/devnet/index.ts"

/** the block gas limit while and after building: a round's creations fit in one block, touchPools(200) in one transaction */
export const HISTORY_BLOCK_GAS_LIMIT = 1_000_000_000n

export interface HistoryOptions {
  /** about how many pools, split across venues of every kind (stable pools: 2%, at least 2) */
  readonly pools: number
  /** about how many blocks the history spans, from `fromBlock` to the head once built */
  readonly blocks: number
  /** swaps spread over the history, on pools of every kind */
  readonly swaps: number
  /** creation rounds (default: about 40 pools a round, 4 to 100 rounds) */
  readonly rounds?: number
  /** seed of every random choice (tokens' prices, pools, swaps); default 1 */
  readonly seed?: number
  /** node port; 0 (the default) picks a free one */
  readonly port?: number
  /** where to write the final manifest (every pool listed); none written when absent */
  readonly manifestPath?: string
  /** progress lines (default: none) */
  readonly log?: (line: string) => void
}

export type HistoryPoolKind = "uniswap-v2" | "uniswap-v3" | "uniswap-v4" | "curve-stableswap"

/** A pool of the fixture, as swaps address it. */
export interface HistoryPool {
  readonly kind: HistoryPoolKind
  /** the venue's name */
  readonly dex: string
  /** pair / pool address; the 32-byte pool id on uniswap-v4 */
  readonly pool: Hex
  /** token symbols: a pair's in the scenario's order; a stable pool's coins in pool order */
  readonly tokens: readonly string[]
  readonly fee?: number
  readonly tickSpacing?: number
  /** the round it was created in (0: by the scenario) */
  readonly round: number
}

export interface HistoryDevnet {
  /** the node, the manifest (venues in manifest.dexes, every pool in manifest.pools, executor registered for every venue and stable pool) */
  readonly devnet: RunningDevnet
  readonly poolCount: { readonly byKind: Record<string, number>; readonly total: number }
  /** every pool, in creation order */
  readonly pools: readonly HistoryPool[]
  readonly swapsMade: number
  /** the block before the first factory deployment (what MARKET_FROM_BLOCK would be) */
  readonly fromBlock: bigint
  /** the head once built */
  readonly headBlock: bigint
  /** the blocks holding pool creations, first and last */
  readonly creationBlocks: { readonly first: bigint; readonly last: bigint }
  /** milliseconds per phase of the build, and `total` */
  readonly timings: Record<string, number>
  /** one transaction (mined in one block) that swaps on `count` distinct existing pools (of mixed kinds); returns the block number */
  readonly touchPools: (count: number) => Promise<bigint>
  /** the same transaction: its block as soon as it is mined, and the check that it succeeded to run later (its receipt, ~1 MB at 200 pools) */
  readonly sendTouch: (count: number) => Promise<{ readonly block: bigint; readonly confirmed: () => Promise<void> }>
  readonly stop: () => Promise<void>
}

export class HistoryError extends Error {
  override readonly name = "HistoryError"
}
