// The pricer: one request priced on one World. What every source is asked,
// the own router's answer, the best after gas, both fees and the price impact,
// or the reason the request cannot be priced. Pure: the same World, tokens,
// request and answers always give the same result.
import type { Address } from "viem"
import {
  USDC_ERC20_ADDRESS,
  type ExecutorSettings,
  type GasCost,
  type NormalizedToken,
  type QuoteRequest,
  type QuoteResponse,
  type Routability,
  type UsdPrice,
  type World,
} from "../domain/index.ts"
import { grossForNet, maxAmountIn, minAmountOut, splitFees } from "./fees.ts"
import { nativeToToken, priceImpactBps } from "./impact.ts"
import { ownRoute, ownRouteExactOutput, type OwnRouteOptions } from "./own-route.ts"
import { rankRoutes, rankRoutesExactOutput } from "./rank.ts"

import type { ExactOutputSourceRequest, SourceRequest, SourceRoute } from "./route.ts"

/** The request's two tokens as the token registry knows them, with their routability. */
export interface PricingTokens {
  readonly tokenIn: NormalizedToken
  readonly tokenOut: NormalizedToken
  readonly routableIn: Routability
  readonly routableOut: Routability
}

/** Why a request cannot be priced on this World. */
export type Refusal =
  | { readonly kind: "same-token" }
  | { readonly kind: "unroutable"; readonly field: "tokenIn" | "tokenOut"; readonly symbol: string; readonly reason: string }
  /** native input below one 6-decimal unit: nothing reaches the pools */
  | { readonly kind: "below-one-unit"; readonly symbol: string }
  /** no route executor answered at this block */
  | { readonly kind: "no-executor"; readonly blockNumber: bigint }
  | { readonly kind: "no-route" }
  /** exact output: no route over the pools delivers the amount (before fees) */
  | { readonly kind: "cannot-deliver"; readonly symbol: string }
  /** every route moves the price further from the reference prices than the limit allows (the best route's impact) */
  | { readonly kind: "price-impact"; readonly impactBps: number; readonly limitBps: number }

/**
 * `wei` of gas in three units: wei; USDC's 6 decimals (rounded down); tokenOut's smallest units as
 * amountOut counts them (native USDC out: wei; ERC-20 USDC: 6 decimals; any other token at the
 * reference prices, rounded down, null without its price).
 */
export const gasCostOf = (wei: bigint, tokenOut: NormalizedToken, priceOut: UsdPrice | undefined, nativePrice: UsdPrice): GasCost => {
  const usdc = wei / 10n ** 12n
  const out = tokenOut.native ? wei
    : tokenOut.erc20Address.toLowerCase() === USDC ? usdc
    : nativeToToken({ wei, nativePrice, decimalsOut: tokenOut.decimals, priceOut })
  return { native: wei, usdc, tokenOut: out ?? null }
}

/**
 * What a relayer takes for sending a transaction of `gas` at `world`'s base fee, in tokenOut's
 * smallest units (priced as gasCost.tokenOut is), raised by `marginBps` and rounded up; undefined
 * without a reference price for tokenOut.
 */
export const relayerFeeOf = (world: World, tokenOut: NormalizedToken, gas: bigint, marginBps: number): bigint | undefined => {
  const address = tokenOut.erc20Address.toLowerCase()
  const priceOut = world.prices.get(address) ?? (address === USDC ? ONE_DOLLAR : undefined)
  const cost = gasCostOf(gas * world.baseFeeWei, tokenOut, priceOut, world.prices.get(USDC) ?? ONE_DOLLAR).tokenOut
  if (cost === null) return undefined
  return (cost * (10_000n + BigInt(marginBps)) + 9_999n) / 10_000n
}

/** A request priced: every source's route best first, and the response each would give. */
export interface Priced {
  /** best after gas first (never empty); equal routes keep the sources' order, the own router first */
  readonly candidates: readonly SourceRoute[]
  readonly tokenIn: NormalizedToken
  readonly tokenOut: NormalizedToken
  readonly settings: ExecutorSettings
  /** the World every candidate was priced on */
  readonly world: World
  /** the quote response with this candidate's route */
  readonly respond: (route: SourceRoute) => QuoteResponse
}

/** USDC is the chain's unit of account: without a feed it is priced at one dollar. */
const ONE_DOLLAR: UsdPrice = { answer: 100_000_000n, decimals: 8, updatedAt: 0n }
const USDC = USDC_ERC20_ADDRESS.toLowerCase()

const isRefusal = (x: object): x is Refusal => "kind" in x

/** Why the request's tokens cannot be priced, or undefined. */
const tokenRefusal = ({ tokenIn, tokenOut, routableIn, routableOut }: PricingTokens): Refusal | undefined => {
  if (tokenIn.erc20Address === tokenOut.erc20Address) return { kind: "same-token" }
  for (const [field, token, answer] of [["tokenIn", tokenIn, routableIn], ["tokenOut", tokenOut, routableOut]] as const) {
    if (!answer.routable) return { kind: "unroutable", field, symbol: token.symbol, reason: answer.reason }
  }
  return undefined
}

/**
 * What every source is asked for this request on this World, or why there is nothing to ask: an
 * exact input (tokenIn's ERC-20 units), or an exact output (the least gross whose net reaches
 * amountOut, in tokenOut's ERC-20 units: native output rounded up to whole units, the executor
 * paying what lies above the gross back to the sender).
 */
export function sourceRequest(world: World, tokens: PricingTokens, request: QuoteRequest & { readonly tradeType: "exactInput" }, sender?: Address): SourceRequest | Refusal
export function sourceRequest(world: World, tokens: PricingTokens, request: QuoteRequest & { readonly tradeType: "exactOutput" }, sender?: Address): ExactOutputSourceRequest | Refusal
export function sourceRequest(world: World, tokens: PricingTokens, request: QuoteRequest, sender?: Address): SourceRequest | ExactOutputSourceRequest | Refusal
export function sourceRequest(world: World, tokens: PricingTokens, request: QuoteRequest, sender?: Address): SourceRequest | ExactOutputSourceRequest | Refusal {
  const { tokenIn, tokenOut } = tokens
  const refusal = tokenRefusal(tokens)
  if (refusal !== undefined) return refusal
  const nativePrice = world.prices.get(USDC) ?? ONE_DOLLAR
  if (request.tradeType === "exactOutput") {
    const protocolBps = world.executor?.protocolFeeBps ?? 0
    const gross = grossForNet(request.amountOut, { protocolBps, partnerBps: request.feeBps })
    const inIsUsdc = tokenIn.erc20Address.toLowerCase() === USDC
    const priceIn = world.prices.get(tokenIn.erc20Address.toLowerCase())
    return {
      tokenIn: tokenIn.erc20Address,
      tokenOut: tokenOut.erc20Address,
      amountOut: (gross + tokenOut.scale - 1n) / tokenOut.scale,
      snapshot: world,
      nativeToTokenIn: (wei) => (inIsUsdc ? wei / 10n ** 12n : nativeToToken({ wei, nativePrice, decimalsOut: tokenIn.decimals, priceOut: priceIn })),
      slippageBps: request.slippageBps,
      sender,
    }
  }
  // native input goes down the route in whole ERC-20 units; the executor refunds the rest
  const amountIn = request.amountIn / tokenIn.scale
  if (amountIn === 0n) return { kind: "below-one-unit", symbol: tokenIn.symbol }
  const outIsUsdc = tokenOut.erc20Address.toLowerCase() === USDC
  const priceOut = world.prices.get(tokenOut.erc20Address.toLowerCase())
  return {
    tokenIn: tokenIn.erc20Address,
    tokenOut: tokenOut.erc20Address,
    amountIn,
    snapshot: world,
    nativeToTokenOut: (wei) =>
      outIsUsdc ? wei / 10n ** 12n : nativeToToken({ wei, nativePrice, decimalsOut: tokenOut.decimals, priceOut }),
    slippageBps: request.slippageBps,
    sender,
  }
}

export interface PriceOptions extends OwnRouteOptions {
  /**
   * routes whose priceImpactBps is above this are left out (the pools, read from one node, are
   * checked against the reference prices); routes without a reference price are never left out
   */
  readonly maxPriceImpactBps?: number
}

/**
 * The request priced on `world`: the own router's route and the external sources' answers
 * (asked with `sourceRequest` on the same World; undefined where a source had none), best after
 * gas first; or the reason it cannot be priced.
 */
export const price = (
  world: World,
  tokens: PricingTokens,
  request: QuoteRequest,
  external: ReadonlyArray<SourceRoute | undefined> = [],
  options: PriceOptions = {},
): Priced | Refusal => {
  const refusal = tokenRefusal(tokens)
  if (refusal !== undefined) return refusal
  const settings = world.executor
  if (settings === undefined) return { kind: "no-executor", blockNumber: world.blockNumber }
  const { maxPriceImpactBps } = options
  // a request's includeSources / excludeSources name the venues its route may use
  const routeOptions: OwnRouteOptions = { maxHops: options.maxHops, maxSplits: options.maxSplits, venues: request.allowedSources ?? options.venues }

  // the ranked routes; for exact output, the gross every route pays
  let ranked: SourceRoute[]
  let gross = 0n
  if (request.tradeType === "exactInput") {
    const asked = sourceRequest(world, tokens, request)
    if (isRefusal(asked)) return asked
    const own = ownRoute(asked, routeOptions)
    ranked = rankRoutes([own, ...external].filter((a): a is SourceRoute => a !== undefined && a.amountOut > 0n))
    if (ranked.length === 0) return { kind: "no-route" }
  } else {
    // the fees come off the route's gross output: it must pay the least gross whose net reaches amountOut,
    // native output in whole ERC-20 units (the executor pays what lies above the gross back to the sender)
    gross = grossForNet(request.amountOut, { protocolBps: settings.protocolFeeBps, partnerBps: request.feeBps })
    const asked = sourceRequest(world, tokens, request)
    if (isRefusal(asked)) return asked
    const own = ownRouteExactOutput(asked, routeOptions)
    // an aggregator's route counts only when it delivers the very amount asked, says what it needs,
    // and its ceiling (what the executor takes against maxAmountIn before calling its router) is
    // within the request's slippage over that input: maxAmountIn is the same formula for every route
    const { tokenIn } = tokens
    const delivering = (a: SourceRoute | undefined): a is SourceRoute =>
      a !== undefined && a.amountIn !== undefined && a.amountIn > 0n && a.amountOut === asked.amountOut &&
      (a.maxAmountIn === undefined || a.maxAmountIn * tokenIn.scale <= maxAmountIn(a.amountIn * tokenIn.scale, request.slippageBps))
    ranked = rankRoutesExactOutput([own, ...external].filter(delivering))
    if (ranked.length === 0) return { kind: "cannot-deliver", symbol: tokens.tokenOut.symbol }
  }

  const priced = new PricedRequest(tokens.tokenIn, tokens.tokenOut, settings, world, request, gross)
  if (maxPriceImpactBps === undefined) return priced.withCandidates(ranked, undefined)
  // each route's impact once: the limit reads it, and so does the best route's answer
  const impacts = ranked.map((route) => priced.impactOf(route))
  const candidates = ranked.filter((_, i) => impacts[i] === null || impacts[i]! <= maxPriceImpactBps)
  if (candidates.length === 0) return { kind: "price-impact", impactBps: impacts[0] ?? 0, limitBps: maxPriceImpactBps }
  return priced.withCandidates(candidates, impacts[ranked.indexOf(candidates[0]!)]!)
}

/**
 * A request priced on a World, as plain fields: a pricing is kept for its block (the quote cache),
 * and a closure over the pricing's scope would keep every intermediate value with it.
 */
class PricedRequest implements Priced {
  candidates: readonly SourceRoute[] = []
  /** the best route's price impact, when already known (undefined: not asked yet) */
  private bestImpact: number | null | undefined

  constructor(
    readonly tokenIn: NormalizedToken,
    readonly tokenOut: NormalizedToken,
    readonly settings: ExecutorSettings,
    readonly world: World,
    private readonly request: QuoteRequest,
    /** exact output: the gross output every route pays (amountOut with the fees on top) */
    private readonly gross: bigint,
  ) {}

  withCandidates(candidates: readonly SourceRoute[], bestImpact: number | null | undefined): this {
    this.candidates = candidates
    this.bestImpact = bestImpact
    return this
  }

  /** what the route takes, in tokenIn's smallest unit */
  private amountInOf(route: SourceRoute): bigint {
    return this.request.tradeType === "exactInput" ? this.request.amountIn : route.amountIn! * this.tokenIn.scale
  }

  /** the gross output the route pays, in tokenOut's smallest unit (native output in wei: the ERC-20 output × 10^12) */
  private grossOf(route: SourceRoute): bigint {
    return this.request.tradeType === "exactInput" ? route.amountOut * this.tokenOut.scale : this.gross
  }

  private priceOf(address: Address): UsdPrice | undefined {
    const key = address.toLowerCase()
    return this.world.prices.get(key) ?? (key === USDC ? ONE_DOLLAR : undefined)
  }

  impactOf(route: SourceRoute): number | null {
    if (route === this.candidates[0] && this.bestImpact !== undefined) return this.bestImpact
    return priceImpactBps({
      amountIn: this.amountInOf(route),
      decimalsIn: this.tokenIn.decimals,
      priceIn: this.priceOf(this.tokenIn.erc20Address),
      grossAmountOut: this.grossOf(route),
      decimalsOut: this.tokenOut.decimals,
      priceOut: this.priceOf(this.tokenOut.erc20Address),
    })
  }

  respond(best: SourceRoute): QuoteResponse {
    const { request, settings, world, tokenOut } = this
    const grossAmountOut = this.grossOf(best)
    const amountIn = this.amountInOf(best)
    const fees = splitFees(grossAmountOut, { protocolBps: settings.protocolFeeBps, partnerBps: request.feeBps })
    const exactOutput = request.tradeType === "exactOutput"
    return {
      chainId: request.chainId,
      tokenIn: request.tokenIn,
      tokenOut: request.tokenOut,
      tradeType: request.tradeType,
      amountIn,
      maxAmountIn: exactOutput ? maxAmountIn(amountIn, request.slippageBps) : amountIn,
      amountOut: exactOutput ? request.amountOut : fees.amountOut,
      minAmountOut: exactOutput ? request.amountOut : minAmountOut(fees.amountOut, request.slippageBps),
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
      priceImpactBps: this.impactOf(best),
      gasEstimate: best.gasEstimate,
      gasCost: best.gasEstimate === null ? null : gasCostOf(best.gasEstimate * world.baseFeeWei, tokenOut, this.priceOf(tokenOut.erc20Address), world.prices.get(USDC) ?? ONE_DOLLAR),
      route: best.display,
      blockNumber: world.blockNumber,
    }
  }
}
