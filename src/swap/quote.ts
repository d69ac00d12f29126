// The quote program: tokens → sources (own router ‖ external) → best after gas
// → fees → price impact. The only place, with swap.ts, that composes services.
import { Context, Effect } from "effect"
import type { Address } from "viem"
import { InvalidRequest, NoRoute, Unavailable, type QuoteError } from "../api/errors.ts"
import type { QuoteRequest, QuoteResponse } from "../api/programs.ts"
import { minAmountOut, splitFees } from "../fees/index.ts"
import { MarketState, type ExecutorSettings, type MarketSnapshot } from "../market/index.ts"
import { nativeToToken, priceImpactBps, type UsdPrice } from "../pricing/index.ts"
import { countSource, rankRoutes, Sources, type SourceRequest, type SourceRoute } from "../sources/index.ts"
import { checksum, Tokens, USDC_ERC20_ADDRESS, type NormalizedToken } from "../tokens/index.ts"

/** What /swap needs besides the response: the route to encode and the fee rate it was priced at. */
export interface PricedQuote {
  readonly response: QuoteResponse
  readonly best: SourceRoute
  readonly tokenIn: NormalizedToken
  readonly tokenOut: NormalizedToken
  readonly settings: ExecutorSettings
  /** the market block the quote was priced at: its pools, executor settings and prices */
  readonly snapshot: MarketSnapshot
}

/** Every source's answer to one request, best first, and the response each would give. */
export interface PricedCandidates {
  /** best after gas first (never empty); equal routes keep the sources' order, the own router first */
  readonly candidates: readonly SourceRoute[]
  readonly tokenIn: NormalizedToken
  readonly tokenOut: NormalizedToken
  readonly settings: ExecutorSettings
  /** the market block every candidate was priced at: its pools, executor settings and prices */
  readonly snapshot: MarketSnapshot
  /** the quote response with this candidate's route */
  readonly respond: (route: SourceRoute) => QuoteResponse
}

/** A market older than this (no successful refresh) is not quoted on. */
const MAX_STALENESS_MS = 30_000
/** USDC is the chain's unit of account: without a feed it is priced at one dollar. */
const ONE_DOLLAR: UsdPrice = { answer: 100_000_000n, decimals: 8, updatedAt: 0n }

const unavailable = (detail: string) => new Unavailable({ detail, retryAfterSeconds: 1 })

const normalize = (tokens: Tokens["Type"], field: "tokenIn" | "tokenOut", address: Address) =>
  tokens.normalize(address).pipe(
    Effect.catchTags({
      TokenError: (e) => Effect.fail(new InvalidRequest({ message: `${field}: ${e.message}` })),
      RpcError: (e) => Effect.fail(unavailable(`${field} could not be read: ${e.message}`)),
    }),
  )

const requireRoutable = (tokens: Tokens["Type"], field: "tokenIn" | "tokenOut", token: NormalizedToken, holders: readonly Address[]) =>
  tokens.routability(token.erc20Address, { holders }).pipe(
    Effect.catchTag("RpcError", (e) => Effect.fail(unavailable(`${field} routability: ${e.message}`))),
    Effect.flatMap((r) =>
      r.routable
        ? Effect.void
        : Effect.fail(notRoutable(field, token, r.reason)),
    ),
  )

/** What a request is priced with, once its tokens are known and checked. */
interface Inputs {
  readonly tokenIn: NormalizedToken
  readonly tokenOut: NormalizedToken
  readonly snapshot: MarketSnapshot
  readonly settings: ExecutorSettings
  /** amountIn in the ERC-20 units the pools take */
  readonly poolAmountIn: bigint
}

const sameToken = () => new InvalidRequest({ message: "tokenOut: the same token as tokenIn (nothing to swap)" })
const notRoutable = (field: "tokenIn" | "tokenOut", token: NormalizedToken, reason: string) =>
  new NoRoute({ message: `${field}: ${token.symbol} cannot be routed (${reason})` })
const staleMarket = (ms: number) => unavailable(`market state is ${ms} ms stale`)
const noExecutor = (snapshot: MarketSnapshot) => unavailable(`the route executor's settings could not be read at block ${snapshot.blockNumber}`)
// native input goes down the route in whole ERC-20 units; the executor refunds the rest
const belowOneUnit = (token: NormalizedToken) =>
  new NoRoute({ message: `amountIn: less than one unit of ${token.symbol} at 6 decimals reaches the pools` })

/**
 * The inputs from what the services already hold, with no effect: the path of
 * nearly every request once its tokens have been seen. Undefined when anything
 * is not known yet (then gatherInputs reads it); a QuoteError when the request
 * is refused.
 */
const knownInputs = (
  tokens: Tokens["Type"],
  market: MarketState["Type"],
  request: QuoteRequest,
): Inputs | QuoteError | undefined => {
  const tokenIn = tokens.known.normalize(request.tokenIn)
  const tokenOut = tokens.known.normalize(request.tokenOut)
  if (tokenIn === undefined || tokenOut === undefined) return undefined
  if (tokenIn.erc20Address === tokenOut.erc20Address) return sameToken()
  const now = market.current()
  if (now.failing && now.sinceSuccessMs > MAX_STALENESS_MS) return staleMarket(now.sinceSuccessMs)
  const routableIn = tokens.known.routability(tokenIn.erc20Address)
  const routableOut = tokens.known.routability(tokenOut.erc20Address)
  if (routableIn === undefined || routableOut === undefined) return undefined
  if (!routableIn.routable) return notRoutable("tokenIn", tokenIn, routableIn.reason)
  if (!routableOut.routable) return notRoutable("tokenOut", tokenOut, routableOut.reason)
  const poolAmountIn = request.amountIn / tokenIn.scale
  if (poolAmountIn === 0n) return belowOneUnit(tokenIn)
  const settings = now.snapshot.executor
  if (settings === undefined) return noExecutor(now.snapshot)
  return { tokenIn, tokenOut, snapshot: now.snapshot, settings, poolAmountIn }
}

/** The inputs, reading from the chain what is not known yet (a token's first request, say). */
const gatherInputs = (
  tokens: Tokens["Type"],
  market: MarketState["Type"],
  request: QuoteRequest,
): Effect.Effect<Inputs, QuoteError> =>
  Effect.gen(function* () {
    const tokenIn = yield* normalize(tokens, "tokenIn", request.tokenIn)
    const tokenOut = yield* normalize(tokens, "tokenOut", request.tokenOut)
    if (tokenIn.erc20Address === tokenOut.erc20Address) return yield* sameToken()

    const staleness = yield* market.staleness
    if (staleness.failing && staleness.sinceSuccessMs > MAX_STALENESS_MS) return yield* staleMarket(staleness.sinceSuccessMs)
    const snapshot = yield* market.snapshot

    // tokens that tax, rebase or restrict transfers are never routed; the pools holding them are the holders to probe
    const holdersOf = (token: Address) => (snapshot.poolsByToken.get(token.toLowerCase()) ?? []).filter((id) => id.length === 42) as Address[]
    yield* requireRoutable(tokens, "tokenIn", tokenIn, holdersOf(tokenIn.erc20Address))
    yield* requireRoutable(tokens, "tokenOut", tokenOut, holdersOf(tokenOut.erc20Address))

    const poolAmountIn = request.amountIn / tokenIn.scale
    if (poolAmountIn === 0n) return yield* belowOneUnit(tokenIn)

    const settings = snapshot.executor
    if (settings === undefined) return yield* noExecutor(snapshot)
    return { tokenIn, tokenOut, snapshot, settings, poolAmountIn }
  })

/** The services a quote reads, resolved once. */
export interface QuoteServices {
  readonly tokens: Tokens["Type"]
  readonly market: MarketState["Type"]
  readonly sources: Sources["Type"]
}

export const quoteServices: Effect.Effect<QuoteServices, never, Tokens | MarketState | Sources> = Effect.map(
  Effect.context<Tokens | MarketState | Sources>(),
  (context) => ({
    tokens: Context.get(context, Tokens),
    market: Context.get(context, MarketState),
    sources: Context.get(context, Sources),
  }),
)

/** What every source is asked, and how gas is converted, for one request on its inputs. */
const sourceRequestOf = (inputs: Inputs, request: QuoteRequest, sender: Address | undefined) => {
  const { tokenIn, tokenOut, snapshot, poolAmountIn } = inputs
  const priceMap = snapshot.prices
  const priceOf = (address: Address): UsdPrice | undefined =>
    priceMap.get(address.toLowerCase()) ?? (address.toLowerCase() === USDC_ERC20_ADDRESS.toLowerCase() ? ONE_DOLLAR : undefined)
  const outIsUsdc = tokenOut.erc20Address.toLowerCase() === USDC_ERC20_ADDRESS.toLowerCase()
  const erc20DecimalsOut = outIsUsdc ? 6 : tokenOut.decimals
  const nativeToTokenOut = (wei: bigint): bigint | undefined =>
    outIsUsdc
      ? wei / 10n ** 12n
      : nativeToToken({ wei, nativePrice: priceOf(USDC_ERC20_ADDRESS), decimalsOut: erc20DecimalsOut, priceOut: priceOf(tokenOut.erc20Address) })
  const sourceRequest: SourceRequest = {
    tokenIn: tokenIn.erc20Address,
    tokenOut: tokenOut.erc20Address,
    amountIn: poolAmountIn,
    snapshot,
    nativeToTokenOut,
    slippageBps: request.slippageBps,
    ...(sender !== undefined ? { sender } : {}),
  }
  return { sourceRequest, priceOf }
}

/** The candidates from the sources' answers (undefined: no answer), or NoRoute. */
const candidatesOf = (
  inputs: Inputs,
  request: QuoteRequest,
  priceOf: (address: Address) => UsdPrice | undefined,
  answers: ReadonlyArray<SourceRoute | undefined>,
): PricedCandidates | NoRoute => {
  const { tokenIn, tokenOut, settings } = inputs
  const candidates = rankRoutes(answers.filter((a): a is SourceRoute => a !== undefined && a.amountOut > 0n))
  if (candidates.length === 0) return new NoRoute({})
  const respond = (best: SourceRoute): QuoteResponse => {
    // native output is paid in wei: the route's ERC-20 output × 10^12
    const grossAmountOut = best.amountOut * tokenOut.scale
    const fees = splitFees(grossAmountOut, { protocolBps: settings.protocolFeeBps, partnerBps: request.feeBps })
    return {
      chainId: request.chainId,
      tokenIn: request.tokenIn,
      tokenOut: request.tokenOut,
      amountIn: request.amountIn,
      amountOut: fees.amountOut,
      minAmountOut: minAmountOut(fees.amountOut, request.slippageBps),
      slippageBps: request.slippageBps,
      grossAmountOut,
      fees: {
        token: request.tokenOut,
        protocolBps: settings.protocolFeeBps,
        protocolAmount: fees.protocolAmount,
        partnerBps: request.feeBps,
        partnerAmount: fees.partnerAmount,
        partnerRecipient: request.feeBps > 0 ? request.feeRecipient : null,
      },
      priceImpactBps: priceImpactBps({
        amountIn: request.amountIn,
        decimalsIn: tokenIn.decimals,
        priceIn: priceOf(tokenIn.erc20Address),
        grossAmountOut,
        decimalsOut: tokenOut.decimals,
        priceOut: priceOf(tokenOut.erc20Address),
      }),
      gasEstimate: best.gasEstimate,
      route: best.display.map((s) => ({ shareBps: s.shareBps, hops: s.hops.map((h) => ({ ...h, tokenIn: checksum(h.tokenIn), tokenOut: checksum(h.tokenOut) })) })),
    }
  }
  return { candidates, tokenIn, tokenOut, settings: inputs.settings, snapshot: inputs.snapshot, respond }
}

/**
 * Prices a request with what the services already hold and sources that answer without
 * waiting, with no effect: the path of nearly every request with the own router alone.
 * Undefined when that is not possible (then priceCandidatesWith is the way); a QuoteError
 * when the request is refused.
 */
export const priceCandidatesNow = (
  services: QuoteServices,
  request: QuoteRequest,
  options: { readonly sender?: Address } = {},
): PricedCandidates | QuoteError | undefined => {
  const { sources } = services
  for (const source of sources) if (source.quoteNow === undefined) return undefined
  const known = knownInputs(services.tokens, services.market, request)
  if (known === undefined || "_tag" in known) return known
  const { sourceRequest, priceOf } = sourceRequestOf(known, request, options.sender)
  const answers = sources.map((source) => source.quoteNow!(sourceRequest))
  return candidatesOf(known, request, priceOf, answers)
}

/**
 * Prices a request with every source at once (the own router and each external aggregator,
 * each under its own time budget); a source that fails, times out or is skipped by its circuit
 * breaker is left out. `sender` is passed to the aggregators on /swap.
 */
export const priceCandidatesWith = (
  services: QuoteServices,
  request: QuoteRequest,
  options: { readonly sender?: Address } = {},
): Effect.Effect<PricedCandidates, QuoteError> =>
  Effect.gen(function* () {
    const { tokens, market, sources } = services
    const known = knownInputs(tokens, market, request)
    const inputs = known === undefined ? yield* gatherInputs(tokens, market, request) : "_tag" in known ? yield* Effect.fail(known) : known
    const { sourceRequest, priceOf } = sourceRequestOf(inputs, request, options.sender)
    const ask = (source: Sources["Type"][number]) =>
      source.quote(sourceRequest).pipe(
          Effect.catchAll((e) =>
            Effect.as(
              e.reason === "circuit-open"
                ? Effect.logDebug(`source ${e.source} skipped: ${e.message}`)
                : Effect.logWarning(`source ${e.source} left out (${e.reason}): ${e.message}`),
              undefined,
            ),
          ),
        )
    // every source at once; the own router alone runs without forking
    const answers = sources.length === 1 ? [yield* ask(sources[0]!)] : yield* Effect.all(sources.map(ask), { concurrency: "unbounded" })
    const priced = candidatesOf(inputs, request, priceOf, answers)
    return "_tag" in priced ? yield* Effect.fail(priced) : priced
  })

/**
 * Prices a request with every source at once (the own router and each external aggregator,
 * each under its own time budget); a source that fails, times out or is skipped by its circuit
 * breaker is left out. `sender` is passed to the aggregators on /swap.
 */
export const priceCandidates = (
  request: QuoteRequest,
  options: { readonly sender?: Address } = {},
): Effect.Effect<PricedCandidates, QuoteError, Tokens | MarketState | Sources> =>
  Effect.flatMap(quoteServices, (services) => priceCandidatesWith(services, request, options))

/** The best route's quote. */
export const priceQuote = (request: QuoteRequest): Effect.Effect<PricedQuote, QuoteError, Tokens | MarketState | Sources> =>
  Effect.map(priceCandidates(request), bestQuote)

export const quoteProgram = (request: QuoteRequest) =>
  priceQuote(request).pipe(
    Effect.tap((priced) => countSource("wins", priced.best.source)),
    Effect.map((priced) => priced.response),
  )

/** The quote from priced candidates: the best route's response. */
export const bestQuote = (priced: PricedCandidates): PricedQuote => {
  const best = priced.candidates[0]!
  return { response: priced.respond(best), best, tokenIn: priced.tokenIn, tokenOut: priced.tokenOut, settings: priced.settings, snapshot: priced.snapshot }
}
