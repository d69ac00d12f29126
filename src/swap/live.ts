// The request programs over the real services: one RPC client, the market
// actor (pools, the executor's settings and reference prices, block by block),
// tokens, the sources and the simulator, built once and shared by every request.
import { Context, Effect, Exit, Layer, MetricLabel } from "effect"
import type { QuoteError } from "../api/errors.ts"
import { SwapPrograms, type QuoteRequest, type QuoteResponse } from "../api/programs.ts"
import { Rpc } from "../chain/rpc.ts"
import { Simulator } from "../chain/simulator.ts"
import { MarketState } from "../market/index.ts"
import { externalSources, makeRouterAllowlist, routerSource, SourceMetrics, Sources } from "../sources/index.ts"
import { Tokens } from "../tokens/index.ts"
import type { ChainSettings } from "./chain-settings.ts"
import { bestQuote, priceCandidatesNow, quoteProgram, type QuoteServices } from "./quote.ts"
import { makeQuoteCache } from "./quote-cache.ts"
import { swapProgram } from "./swap.ts"

/** How often the market looks for a new block: Arc makes one about every half second. */
const MARKET_POLL_INTERVAL = "100 millis"

/** Every service the programs use, over the chain the settings name. */
export const chainServices = (settings: ChainSettings) => {
  const rpc = Rpc.layer({ urls: settings.rpcUrls, chainId: settings.chainId, multicall3: settings.multicall3 })
  const tokens = Tokens.layer()
  const market = MarketState.layer({
    ...(settings.v2Factory ? { v2Factory: settings.v2Factory } : {}),
    ...(settings.v3Factory ? { v3Factory: settings.v3Factory } : {}),
    ...(settings.poolManager ? { poolManager: settings.poolManager } : {}),
    ...(settings.stateView ? { stateView: settings.stateView } : {}),
    multicall3: settings.multicall3,
    executor: settings.executor,
    priceFeeds: settings.priceFeeds,
    fromBlock: settings.fromBlock,
    pollInterval: MARKET_POLL_INTERVAL,
  })
  // the own router first, then every configured aggregator (each with its own breaker and budget)
  const sources = Layer.effect(
    Sources,
    Effect.map(Rpc, (rpc) => [
      routerSource(),
      ...externalSources(settings.aggregators, {
        chainId: settings.chainId,
        executor: settings.executor,
        isRouterAllowed: makeRouterAllowlist(rpc, settings.executor),
      }),
    ]),
  )
  return Layer.mergeAll(Simulator.layer, sources).pipe(Layer.provideMerge(market), Layer.provideMerge(tokens), Layer.provideMerge(rpc))
}

const programsLayer = (settings: ChainSettings) =>
  Layer.effect(
    SwapPrograms,
    Effect.gen(function* () {
      const context = yield* Effect.context<Tokens | MarketState | Sources | Simulator | Rpc>()
      const market = Context.get(context, MarketState)
      const services: QuoteServices = {
        tokens: Context.get(context, Tokens),
        market,
        sources: Context.get(context, Sources),
      }
      const cache = makeQuoteCache()
      // the own router's answer is a function of the block; an aggregator's may change within one
      const cacheable = services.sources.length === 1
      const wins = sourceWinCounter()

      /** The quote at once, when the services hold everything it needs and every source answers at once. */
      const quoteNow = (request: QuoteRequest): Exit.Exit<QuoteResponse, QuoteError> | undefined => {
        const blockNumber = market.current().snapshot.blockNumber
        if (cacheable) {
          const hit = cache.get(blockNumber, request)
          if (hit !== undefined) return Exit.succeed(hit)
        }
        let priced
        try {
          priced = priceCandidatesNow(services, request)
        } catch (defect) {
          return Exit.die(defect)
        }
        if (priced === undefined) return undefined
        if ("_tag" in priced) return Exit.fail(priced)
        const quoted = bestQuote(priced)
        wins(quoted.best.source)
        if (cacheable) cache.set(blockNumber, request, quoted.response)
        return Exit.succeed(quoted.response)
      }

      const quoteLater = (request: QuoteRequest) => Effect.provide(quoteProgram(request), context)
      const quote = (request: QuoteRequest): Effect.Effect<QuoteResponse, QuoteError> =>
        !cacheable ? quoteLater(request) : Effect.flatMap(market.snapshot, (snapshot) => {
          const hit = cache.get(snapshot.blockNumber, request)
          if (hit !== undefined) return Effect.succeed(hit)
          return quoteLater(request).pipe(Effect.tap((response) => cache.set(snapshot.blockNumber, request, response)))
        })
      return {
        executor: settings.executor,
        quoteNow,
        quote: (request) => Effect.suspend(() => quoteNow(request) ?? quote(request)),
        swap: (request) => Effect.provide(swapProgram(request), context),
      }
    }),
  )

/**
 * Counts a win for a source without an effect: the same counter and tag as
 * countSource("wins", source), with the tag set built once per source.
 */
const sourceWinCounter = () => {
  const labels = new Map<string, ReadonlyArray<MetricLabel.MetricLabel>>()
  return (source: string): void => {
    let set = labels.get(source)
    if (set === undefined) {
      set = [MetricLabel.make("source", source)]
      labels.set(source, set)
    }
    SourceMetrics.wins.unsafeUpdate(1, set)
  }
}

/** SwapPrograms over live services: each request runs with the shared context. */
export const livePrograms = (settings: ChainSettings) => programsLayer(settings).pipe(Layer.provide(chainServices(settings)))

/** SwapPrograms and the chain services behind them (the market among them, for health and metrics). */
export const liveServices = (settings: ChainSettings) => programsLayer(settings).pipe(Layer.provideMerge(chainServices(settings)))
