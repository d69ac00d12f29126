// The quote program: one read of the latest World, the request's tokens from
// the token registry (cached), the external aggregators asked over the same
// World, and the pure pricer. The only place, with swap.ts, that composes
// services.
import { Effect } from "effect"
import type { Address } from "viem"
import { makeKeptAnswers } from "../chain/index.ts"
import { MarketState } from "../market/index.ts"
import { price, sourceRequest, type Priced, type PricingTokens, type Refusal, type SourceRoute } from "../pricer/index.ts"
import { countSource, Sources } from "../sources/index.ts"
import { Tokens } from "../tokens/index.ts"
import { InvalidRequest, NoRoute, Unavailable, type QuoteError } from "./errors.ts"
import { makeQuoteCache, type CachedPricing, type QuoteCache } from "./quote-cache.ts"
import type { World, QuoteRequest, QuoteResponse } from "../domain/index.ts"

/** A World older than this (no successful refresh) is not quoted on. */
const MAX_STALENESS_MS = 30_000

const unavailable = (detail: string) => new Unavailable({ detail, retryAfterSeconds: 1 })

/** The pricer's refusal as the error the client gets. */
const refused = (r: Refusal): QuoteError => {
  switch (r.kind) {
    case "same-token":
      return new InvalidRequest({ message: "tokenOut: the same token as tokenIn (nothing to swap)" })
    case "unroutable":
      return new NoRoute({ message: `${r.field}: ${r.symbol} cannot be routed (${r.reason})` })
    case "below-one-unit":
      return new NoRoute({ message: `amountIn: less than one unit of ${r.symbol} at 6 decimals reaches the pools` })
    case "no-executor":
      return unavailable(`the route executor's settings could not be read at block ${r.blockNumber}`)
    case "no-route":
      return new NoRoute({})
    case "cannot-deliver":
      return new NoRoute({ message: `amountOut: the pools cannot deliver this much ${r.symbol} (with the fees on top) over any route; try a smaller amount` })
    case "price-impact":
      return new NoRoute({
        message: `amountIn: the best route's price impact is ${r.impactBps} bps against the reference prices, over this service's limit of ${r.limitBps} bps; try a smaller amount`,
      })
  }
}

/** What a quote reads, resolved once when the programs are built, not on every request. */
export interface QuoteServices {
  readonly market: MarketState["Type"]
  readonly sources: Sources["Type"]
  /** the request's two tokens, normalized and checked (each token's answers cached by the registry) */
  readonly tokensOf: (world: World, request: QuoteRequest) => Effect.Effect<PricingTokens, QuoteError>
  /** answers given within the World's block, when every source is a function of the World */
  readonly quoteCache: QuoteCache | undefined
  /** routes moving the price further than this from the reference prices are refused */
  readonly maxPriceImpactBps: number
}

/** How many token pairs the quote keeps; each pair's answer is as old as its tokens' routability allows. */
const PAIR_CACHE_CAPACITY = 10_000
const PAIR_TTL_MS = 10 * 60_000

export const makeQuoteServices = (options: { readonly maxPriceImpactBps: number }): Effect.Effect<QuoteServices, never, MarketState | Tokens | Sources> => Effect.gen(function* () {
  const market = yield* MarketState
  const tokens = yield* Tokens
  const sources = yield* Sources
  // one check per request for both tokens; a failure or an unverified token is asked again next time
  const verified = (t: PricingTokens) =>
    (t.routableIn.routable || t.routableIn.reason !== "unverified") && (t.routableOut.routable || t.routableOut.reason !== "unverified")
  const pairs = makeKeptAnswers<PricingTokens, QuoteError>({ capacity: PAIR_CACHE_CAPACITY, ttlMs: PAIR_TTL_MS, keep: verified })
  // the pools holding a token are the holders its routability is probed with: the asking request's World
  const tokensOf = (world: World, request: QuoteRequest) =>
    pairs.get(`${request.tokenIn}|${request.tokenOut}`, () => checkTokens(tokens, world, request))
  // the own router's answer is a function of the World; an aggregator's may change within a block
  return { market, sources, tokensOf, quoteCache: sources.length === 0 ? makeQuoteCache() : undefined, maxPriceImpactBps: options.maxPriceImpactBps }
})

/** The latest World, unless the market has failed to refresh it for too long. */
export const latestWorld = (market: MarketState["Type"]) =>
  Effect.catchTag(market.freshWorld(MAX_STALENESS_MS), "MarketStale", (e) => Effect.fail(unavailable(`market state is ${e.sinceSuccessMs} ms stale`)))

/** The request's tokens: normalized, and checked for routability against the pools that hold them. */
const checkTokens = (tokens: Tokens["Type"], world: World, request: QuoteRequest): Effect.Effect<PricingTokens, QuoteError> => {
    const normalize = (field: "tokenIn" | "tokenOut", address: Address) =>
      tokens.normalize(address).pipe(
        Effect.catchTags({
          TokenError: (e) => Effect.fail(new InvalidRequest({ message: `${field}: ${e.message}` })),
          RpcError: (e) => Effect.fail(unavailable(`${field} could not be read: ${e.message}`)),
        }),
      )
    // tokens that tax, rebase or restrict transfers are never routed; the pools holding them are the holders to probe
    const routability = (field: "tokenIn" | "tokenOut", token: Address) =>
      tokens
        .routability(token, { holders: (world.poolsByToken.get(token.toLowerCase()) ?? []).filter((id) => id.length === 42) as Address[] })
        .pipe(Effect.catchTag("RpcError", (e) => Effect.fail(unavailable(`${field} routability: ${e.message}`))))
    return Effect.flatMap(Effect.all([normalize("tokenIn", request.tokenIn), normalize("tokenOut", request.tokenOut)]), ([tokenIn, tokenOut]) =>
      tokenIn.erc20Address === tokenOut.erc20Address
        ? Effect.succeed<PricingTokens>({ tokenIn, tokenOut, routableIn: { routable: true }, routableOut: { routable: true } })
        : Effect.map(
            Effect.all([routability("tokenIn", tokenIn.erc20Address), routability("tokenOut", tokenOut.erc20Address)]),
            ([routableIn, routableOut]): PricingTokens => ({ tokenIn, tokenOut, routableIn, routableOut }),
          ),
    )
}

/**
 * Every external aggregator's answer for the request on `world` (each under its own time budget;
 * a source that fails, times out or is skipped by its circuit breaker answers nothing). `sender`
 * is passed on /swap.
 */
const externalAnswers = (
  sources: Sources["Type"],
  world: World,
  tokens: PricingTokens,
  request: QuoteRequest,
  sender: Address | undefined,
): Effect.Effect<ReadonlyArray<SourceRoute | undefined>> => {
  const allowed = request.allowedSources
  const asking = allowed === undefined ? sources : sources.filter((source) => allowed.has(source.name))
  if (asking.length === 0) return Effect.succeed([])
  const asked = sourceRequest(world, tokens, request, sender)
  // the pricer refuses such a request itself
  if ("kind" in asked) return Effect.succeed([])
  return Effect.all(
    asking.map((source) =>
      source.quote(asked).pipe(
        Effect.catchAll((e) =>
          Effect.as(
            e.reason === "circuit-open"
              ? Effect.logDebug(`source ${e.source} skipped: ${e.message}`)
              : Effect.logWarning(`source ${e.source} left out (${e.reason}): ${e.message}`),
            undefined,
          ),
        ),
      ),
    ),
    { concurrency: "unbounded" },
  )
}

/** The request priced on the latest World: every source's route best first, or a QuoteError. */
export const priceRequest = (services: QuoteServices, request: QuoteRequest, options: { readonly sender?: Address } = {}): Effect.Effect<Priced, QuoteError> =>
  Effect.flatMap(latestWorld(services.market), (world) => pricedOn(services, world, request, options))

/**
 * The request priced on `world`: the tokens, the external sources' answers, the pricer; or the
 * pricing already made for it within the World's block (the quote cache, kept when every source
 * is a function of the World).
 */
export const pricedOn = (services: QuoteServices, world: World, request: QuoteRequest, options: { readonly sender?: Address }): Effect.Effect<Priced, QuoteError> =>
  Effect.map(cachedPricing(services, world, request, options), (entry) => entry.priced)

const cachedPricing = (services: QuoteServices, world: World, request: QuoteRequest, options: { readonly sender?: Address }): Effect.Effect<CachedPricing, QuoteError> => {
  const cache = services.quoteCache
  const hit = cache?.get(world.blockNumber, request)
  if (hit !== undefined) return Effect.succeed(hit)
  return Effect.flatMap(services.tokensOf(world, request), (tokens) =>
    Effect.flatMap(externalAnswers(services.sources, world, tokens, request, options.sender), (external) => {
      const priced = price(world, tokens, request, external, { maxPriceImpactBps: services.maxPriceImpactBps })
      if ("kind" in priced) return Effect.fail(refused(priced))
      const entry: CachedPricing = { priced, response: undefined }
      cache?.set(world.blockNumber, request, entry)
      return Effect.succeed(entry)
    }),
  )
}

/**
 * The best route's quote, its source's win counted: one read of the latest World, and the answer
 * already given within its block when there is one.
 */
export const quoteProgram = (services: QuoteServices, request: QuoteRequest): Effect.Effect<QuoteResponse, QuoteError> =>
  Effect.flatMap(latestWorld(services.market), (world) =>
    Effect.flatMap(cachedPricing(services, world, request, {}), (entry) => {
      if (entry.response !== undefined) return Effect.succeed(entry.response)
      const best = entry.priced.candidates[0]!
      const response = entry.priced.respond(best)
      entry.response = response
      return Effect.as(countSource("wins", best.source), response)
    }),
  )
