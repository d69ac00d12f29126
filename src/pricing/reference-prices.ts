// Reference prices: USD prices from Chainlink-style feeds (AggregatorV3Interface),
// held by one fiber that refreshes them in the background; readers never wait
// on the chain. They price a route against the market (priceImpactBps) and
// turn gas, paid in native USDC, into the output token.
import { Context, Duration, Effect, Layer, Ref, Schedule } from "effect"
import { parseAbi, type Address } from "viem"
import { read, Rpc, type RpcError } from "../chain/rpc.ts"

export interface PriceFeedConfig {
  /** the token the feed prices (ERC-20 address; native USDC is priced by its ERC-20's feed) */
  readonly token: Address
  readonly feed: Address
}

/** A USD price of one whole token: answer / 10^decimals dollars. */
export interface UsdPrice {
  readonly answer: bigint
  readonly decimals: number
  readonly updatedAt: bigint
}

export interface ReferencePricesShape {
  /** the last known USD price of a token (lower-case or checksummed ERC-20 address) */
  readonly usdPrice: (token: Address) => Effect.Effect<UsdPrice | undefined>
  /** all prices at once, for a request that needs several */
  readonly all: Effect.Effect<ReadonlyMap<string, UsdPrice>>
  /** the same, without an effect (the quote's hot path) */
  readonly current: () => ReadonlyMap<string, UsdPrice>
}

export class ReferencePrices extends Context.Tag("pricing/ReferencePrices")<ReferencePrices, ReferencePricesShape>() {
  /** Loads every feed once, then refreshes them every `refresh` in the background. */
  static readonly layer = (feeds: readonly PriceFeedConfig[], refresh: Duration.DurationInput = "2 seconds") =>
    Layer.scoped(ReferencePrices, makeReferencePrices(feeds, refresh))
}

const FEED_ABI = parseAbi([
  "function decimals() view returns (uint8)",
  "function latestRoundData() view returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)",
])

const makeReferencePrices = (feeds: readonly PriceFeedConfig[], refresh: Duration.DurationInput) =>
  Effect.gen(function* () {
    const rpc = yield* Rpc
    const prices = yield* Ref.make<ReadonlyMap<string, UsdPrice>>(new Map())
    let latest: ReadonlyMap<string, UsdPrice> = new Map()

    const load: Effect.Effect<void, RpcError> = Effect.gen(function* () {
      if (feeds.length === 0) return
      const reads = feeds.flatMap((f) => [
        read({ address: f.feed, abi: FEED_ABI, functionName: "decimals", args: [] }),
        read({ address: f.feed, abi: FEED_ABI, functionName: "latestRoundData", args: [] }),
      ])
      const results = yield* rpc.multicall(reads)
      const next = new Map<string, UsdPrice>()
      feeds.forEach((f, i) => {
        const decimals = results[2 * i]!
        const round = results[2 * i + 1]!
        if (!decimals.success || !round.success) return
        const [, answer, , updatedAt] = round.value as readonly [bigint, bigint, bigint, bigint, bigint]
        // a feed that answers zero or less has no usable price
        if (answer <= 0n) return
        next.set(f.token.toLowerCase(), { answer, decimals: Number(decimals.value), updatedAt })
      })
      latest = next
      yield* Ref.set(prices, next)
    })

    // the first load may fail (node still starting): the fiber keeps trying
    yield* load.pipe(Effect.catchAll(() => Effect.void))
    yield* load.pipe(
      Effect.catchAll((e) => Effect.logWarning(`reference prices not refreshed: ${e.message}`)),
      Effect.repeat(Schedule.spaced(refresh)),
      Effect.forkScoped,
    )

    return {
      usdPrice: (token: Address) => Effect.map(Ref.get(prices), (m) => m.get(token.toLowerCase())),
      all: Ref.get(prices),
      current: () => latest,
    } satisfies ReferencePricesShape
  })
