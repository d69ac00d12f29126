// What the market reads at every block beside the pools, in the same batched
// read: the route executor's settings and the reference price feeds, so that a
// quote and a swap see the fee, the pause and the prices of the block their
// pools come from.
import { parseAbi, type Address } from "viem"
import { read, type Read, type ReadResult } from "../chain/index.ts"
import type { PriceFeedConfig, UsdPrice } from "../domain/index.ts"
import type { ExecutorSettings } from "../domain/index.ts"

const EXECUTOR_ABI = parseAbi([
  "function protocolFeeBps() view returns (uint16)",
  "function paused() view returns (bool)",
])

const FEED_ABI = parseAbi([
  "function decimals() view returns (uint8)",
  "function latestRoundData() view returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)",
])

/** The reads for one block; `decode` takes their results in the same order. */
export interface BlockSettingsReads {
  readonly reads: readonly Read<unknown>[]
  readonly decode: (results: readonly ReadResult<unknown>[], registry: Pick<ExecutorSettings, "allowedRouters" | "venueIds">) => {
    readonly executor: ExecutorSettings | undefined
    readonly prices: ReadonlyMap<string, UsdPrice>
  }
}

export const blockSettingsReads = (executor: Address | undefined, feeds: readonly PriceFeedConfig[]): BlockSettingsReads => {
  const reads: Read<unknown>[] = []
  if (executor !== undefined) {
    reads.push(
      read({ address: executor, abi: EXECUTOR_ABI, functionName: "protocolFeeBps", args: [] }) as Read<unknown>,
      read({ address: executor, abi: EXECUTOR_ABI, functionName: "paused", args: [] }) as Read<unknown>,
    )
  }
  for (const f of feeds) {
    reads.push(
      read({ address: f.feed, abi: FEED_ABI, functionName: "decimals", args: [] }) as Read<unknown>,
      read({ address: f.feed, abi: FEED_ABI, functionName: "latestRoundData", args: [] }) as Read<unknown>,
    )
  }
  const decode: BlockSettingsReads["decode"] = (results, registry) => {
    let at = 0
    let settings: ExecutorSettings | undefined
    if (executor !== undefined) {
      const [fee, paused] = [results[at++]!, results[at++]!]
      // no executor answers at the address: quotes are refused as unavailable until one does
      if (fee.success && paused.success) {
        settings = { address: executor, protocolFeeBps: Number(fee.value), paused: paused.value as boolean, ...registry }
      }
    }
    const prices = new Map<string, UsdPrice>()
    for (const f of feeds) {
      const [decimals, round] = [results[at++]!, results[at++]!]
      if (!decimals.success || !round.success) continue
      const [, answer, , updatedAt] = round.value as readonly [bigint, bigint, bigint, bigint, bigint]
      // a feed that answers zero or less has no usable price
      if (answer <= 0n) continue
      prices.set(f.token.toLowerCase(), { answer, decimals: Number(decimals.value), updatedAt })
    }
    return { executor: settings, prices }
  }
  return { reads, decode }
}
