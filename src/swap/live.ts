// The request programs over the real services: one RPC client, the market
// actor (one World per block: pools, the executor's settings, reference prices),
// tokens, the external sources and the simulator, built once and shared by
// every request.
import { Effect, Layer, type Redacted } from "effect"
import { SwapPrograms } from "./programs.ts"
import { ARC_CHAINS_TEXT } from "../domain/index.ts"
import { Rpc, RpcError } from "../chain/index.ts"
import { Simulator } from "../chain/index.ts"
import { MarketState } from "../market/index.ts"
import { externalSources, Sources } from "../sources/index.ts"
import { Tokens } from "../tokens/index.ts"
import type { ChainSettings } from "../config/index.ts"
import { catalogPrograms } from "./catalog.ts"
import { latestWorld, makeQuoteServices, quoteProgram } from "./quote.ts"
import { swapProgram } from "./swap.ts"

/** How often the market looks for a new block: Arc makes one about every half second. */
const MARKET_POLL_INTERVAL = "100 millis"

/**
 * Every service the programs use, over the chain the settings name; the market's snapshot (when
 * the settings keep one) is signed with a key derived from `snapshotSecret` (the key store's).
 */
export const chainServices = (settings: ChainSettings, snapshotSecret?: Redacted.Redacted<string>) => {
  // the node decides the chain: a CHAIN_ID (or a manifest's chainId) that is not its own is refused at start
  const rpc = Rpc.layer({ urls: settings.rpcUrls, chainId: settings.chainId, multicall3: settings.multicall3 }).pipe(
    Layer.mapError((e) =>
      e.reason === "chain-mismatch" ? new RpcError({ ...e, message: `CHAIN_ID: ${e.message}; it must be the node's chain, ${ARC_CHAINS_TEXT}` }) : e),
  )
  const tokens = Tokens.layer()
  const market = MarketState.layer({
    venues: settings.venues,
    multicall3: settings.multicall3,
    executor: settings.executor,
    priceFeeds: settings.priceFeeds,
    fromBlock: settings.fromBlock,
    pollInterval: MARKET_POLL_INTERVAL,
    ...(settings.marketSnapshot !== undefined
      ? { snapshot: { path: settings.marketSnapshot.path, interval: settings.marketSnapshot.intervalMs, secret: snapshotSecret } }
      : {}),
  })
  // every configured aggregator, each with its own breaker and budget (the own router is the pricer's)
  const sources = Layer.succeed(Sources, externalSources(settings.aggregators, { chainId: settings.chainId, executor: settings.executor }))
  return Layer.mergeAll(Simulator.layer, sources).pipe(Layer.provideMerge(market), Layer.provideMerge(tokens), Layer.provideMerge(rpc))
}

const programsLayer = (settings: ChainSettings) =>
  Layer.effect(
    SwapPrograms,
    Effect.gen(function* () {
      const context = yield* Effect.context<Tokens | MarketState | Sources | Simulator | Rpc>()
      const services = yield* makeQuoteServices({ maxPriceImpactBps: settings.maxPriceImpactBps })
      const catalog = catalogPrograms(latestWorld(services.market), settings.venues, services.sources, yield* Tokens)
      return {
        chainId: settings.chainId,
        executor: settings.executor,
        quote: (request) => quoteProgram(services, request),
        swap: (request) => Effect.provide(swapProgram(services, request), context),
        ...catalog,
      }
    }),
  )

/** SwapPrograms over live services: each request runs with the shared context. */
export const livePrograms = (settings: ChainSettings, snapshotSecret?: Redacted.Redacted<string>) =>
  programsLayer(settings).pipe(Layer.provide(chainServices(settings, snapshotSecret)))

/** SwapPrograms and the chain services behind them (the market among them, for health and metrics). */
export const liveServices = (settings: ChainSettings, snapshotSecret?: Redacted.Redacted<string>) =>
  programsLayer(settings).pipe(Layer.provideMerge(chainServices(settings, snapshotSecret)))
