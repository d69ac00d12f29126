// PRICE_FEEDS: the reference prices, a JSON object of token address → the
// address of its Chainlink-style (AggregatorV3Interface) USD feed.
import { Schema } from "effect"
import { AddressFromString, type Address } from "./address.ts"
import type { JsonVariable } from "./json-variable.ts"

/** A token's reference price: the address of its USD feed. */
export interface PriceFeedSettings {
  readonly token: Address
  readonly feed: Address
}

const PriceFeedEntry = Schema.Struct({ token: AddressFromString, feed: Schema.compose(Schema.Unknown, AddressFromString, { strict: false }) })

const PriceFeeds = Schema.transform(
  Schema.Record({ key: Schema.String, value: Schema.Unknown }).annotations({
    message: () => "not an object",
  }),
  Schema.Array(PriceFeedEntry),
  {
    strict: true,
    decode: (feeds) => Object.entries(feeds).map(([token, feed]) => ({ token, feed })),
    encode: (entries) => Object.fromEntries(entries.map(({ token, feed }) => [token, feed])),
  },
)

export const PRICE_FEEDS: JsonVariable<ReadonlyArray<PriceFeedSettings>, { readonly [token: string]: unknown }> = {
  name: "PRICE_FEEDS",
  schema: PriceFeeds,
  shape: "a JSON object of token address → feed address",
  entry: (key, value) => {
    // a key is the entry's token, or (after decoding to entries) its position
    const tokens = typeof value === "object" && value !== null && !Array.isArray(value) ? Object.keys(value) : []
    return `entry ${typeof key === "number" ? (tokens[key] ?? String(key)) : String(key)}`
  },
}
