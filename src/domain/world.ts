// The World: everything a quote and a swap are priced with, read at one block
// and immutable: every routable pool, the route executor's settings, the
// reference prices, and the block's number, time and base fee.
import type { Address } from "viem"
import type { PoolState } from "../amm/index.ts"
import type { UsdPrice } from "./usd-price.ts"

/** The route executor's settings at a block. */
export interface ExecutorSettings {
  readonly address: Address
  readonly protocolFeeBps: number
  readonly paused: boolean
  /** external routers the executor's owner allows (lower-case), from its RouterAllowlistChanged events */
  readonly allowedRouters: ReadonlySet<string>
  /** the executor's id of each configured venue its owner registered (by venue name), from its VenueSet events */
  readonly venueIds: ReadonlyMap<string, number>
}

export interface World {
  readonly chainId: number
  readonly blockNumber: bigint
  readonly blockTimestamp: bigint
  /** the block's base fee, in native wei (18-decimal USDC) */
  readonly baseFeeWei: bigint
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
   * every other pool's state object is the previous World's, unchanged
   */
  readonly refreshed?: readonly string[]
  /**
   * the previous World's `pools`, when every pool whose state differs from them is named in
   * `refreshed` (a block step): routing then looks at those pools only
   */
  readonly refreshedFrom?: ReadonlyMap<string, PoolState>
}
