// What the market actor is told at start: where the venues and the executor
// are, which price feeds to read, and how it follows the chain.
import type { Duration } from "effect"
import type { Address } from "viem"
import type { PriceFeedConfig } from "../pricing/index.ts"

export interface MarketConfig {
  readonly v2Factory?: Address
  readonly v3Factory?: Address
  readonly poolManager?: Address
  /** V4's StateView lens; required with `poolManager` */
  readonly stateView?: Address
  readonly multicall3: Address
  /** the route executor whose settings (protocol fee, pause) are read with every block */
  readonly executor?: Address
  /** reference price feeds read with every block */
  readonly priceFeeds?: readonly PriceFeedConfig[]
  /** the first block searched for pool creations (the factories' deployment block, say) */
  readonly fromBlock: bigint
  /** half-width of the tick window kept around each pool's current tick (default 32768) */
  readonly tickWindow?: number
  /** how often the head is polled (default 250 ms) */
  readonly pollInterval?: Duration.DurationInput
  /** most blocks per eth_getLogs request (default 5000) */
  readonly logChunkBlocks?: bigint
  /** first retry delay after an RPC failure, doubled up to `retryMax` (defaults 100 ms, 5 s) */
  readonly retryBase?: Duration.DurationInput
  readonly retryMax?: Duration.DurationInput
  /** attempts at the initial load before the layer fails (default 5) */
  readonly startAttempts?: number
}
