// What the market actor is told at start: where the venues and the executor
// are, which price feeds to read, and how it follows the chain.
import type { Duration, Redacted } from "effect"
import type { Address } from "viem"
import type { PriceFeedConfig } from "../domain/index.ts"

/**
 * One venue the market follows: a deployment of an AMM family, by the
 * contracts its pools are found through. `feeBps` is a V2 fork's swap fee;
 * `deployer` the contract that CREATE2s a V3 fork's pools (its factory for
 * Uniswap), as the executor's registry names it. A stable venue's pools are
 * those it lists and those its Curve-style `factory` lists (pool_count, pool_list).
 */
export type MarketVenue =
  | { readonly name: string; readonly kind: "uniswap-v2"; readonly factory: Address; readonly feeBps: number }
  | { readonly name: string; readonly kind: "uniswap-v3"; readonly factory: Address; readonly deployer: Address }
  | { readonly name: string; readonly kind: "uniswap-v4"; readonly poolManager: Address; readonly stateView: Address }
  | { readonly name: string; readonly kind: "curve-stableswap"; readonly pools: readonly Address[]; readonly factory?: Address }

export interface MarketConfig {
  /** the venues whose pools are discovered and followed */
  readonly venues: readonly MarketVenue[]
  readonly multicall3: Address
  /**
   * the route executor whose settings (protocol fee, pause) are read with every block; when
   * set, only pools of venues (and stable pools) its owner registered are published
   */
  readonly executor?: Address
  /** reference price feeds read with every block */
  readonly priceFeeds?: readonly PriceFeedConfig[]
  /** the first block searched for pool creations (the factories' deployment block, say) */
  readonly fromBlock: bigint
  /** half-width of the tick window kept around each pool's current tick (default 32768) */
  readonly tickWindow?: number
  /** how often the head is polled (default 250 ms) */
  readonly pollInterval?: Duration.DurationInput
  /** first retry delay after an RPC failure, doubled up to `retryMax` (defaults 100 ms, 5 s) */
  readonly retryBase?: Duration.DurationInput
  readonly retryMax?: Duration.DurationInput
  /** attempts at the initial load before the layer fails (default 5) */
  readonly startAttempts?: number
  /**
   * where the market's state is kept across restarts (an embedded SQLite file), how often it is
   * written (default every 5 minutes, and when the service stops), the pools whose facts a restart
   * reads from the chain (default 32, picked at random), and the secret its key is derived from
   * (the key store's): without one that outlives the process, no snapshot is kept
   */
  readonly snapshot?: {
    readonly path: string
    readonly interval?: Duration.DurationInput
    readonly sample?: number
    readonly secret: Redacted.Redacted<string> | undefined
  }
}
