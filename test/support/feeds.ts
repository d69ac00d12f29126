// A devnet's reference price feeds, read straight from their contracts
// (AggregatorV3Interface): what a test holds the service's prices to.
import { parseAbi, type Address, type PublicClient } from "viem"
import type { Manifest } from "../../src/devnet/index.ts"

const FEED_ABI = parseAbi([
  "function decimals() view returns (uint8)",
  "function latestRoundData() view returns (uint80, int256, uint256, uint256, uint80)",
])

/** The feed of `symbol`'s latest answer and its decimals; undefined when the manifest has no feed for it. */
export const feedPrice = async (client: Pick<PublicClient, "readContract">, manifest: Pick<Manifest, "priceFeeds">, symbol: string) => {
  const feed = manifest.priceFeeds[symbol] as Address | undefined
  if (feed === undefined) return undefined
  const [decimals, round] = await Promise.all([
    client.readContract({ address: feed, abi: FEED_ABI, functionName: "decimals" }),
    client.readContract({ address: feed, abi: FEED_ABI, functionName: "latestRoundData" }),
  ])
  return { answer: round[1], decimals: Number(decimals) }
}
