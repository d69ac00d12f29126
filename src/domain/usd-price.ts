// What a reference price is: the USD price of one whole token as a
// Chainlink-style feed (AggregatorV3Interface) answers it.
import type { Address } from "viem"

/** A feed and the token it prices (ERC-20 address; native USDC is priced by its ERC-20's feed). */
export interface PriceFeedConfig {
  readonly token: Address
  readonly feed: Address
}

/** A USD price of one whole token: answer / 10^decimals dollars. */
export interface UsdPrice {
  readonly answer: bigint
  readonly decimals: number
  readonly updatedAt: bigint
}
