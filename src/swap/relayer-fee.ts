// A gasless order priced with its relayer fee, on one World: the route over the
// venues (the relayer routes anew when it sends, so no aggregator's calldata is
// kept), and the fee = (the route's gas estimate + the order entry's overhead,
// + a permit's when the order carries one) × the World's base fee, in tokenOut,
// plus the margin. Exact output: the route
// must deliver amountOut + the fee net of the other fees, and the fee depends on
// that route's gas, so the two are settled together. The quote and the relayer's
// planner price with this one function.
import { Effect } from "effect"
import { ORDER_ENTRY_GAS_OVERHEAD } from "../chain/index.ts"
import { relayerFeeOf, type Priced, type SourceRoute } from "../pricer/index.ts"
import type { QuoteRequest, QuoteResponse, World } from "../domain/index.ts"
import { Internal, NoRoute, type QuoteError } from "./errors.ts"
import { pricedOn, type QuoteServices } from "./quote.ts"

export interface OrderPricing {
  readonly priced: Priced
  readonly route: SourceRoute
  /**
   * the route's quote before the relayer fee: exact input, amountOut is what the fees leave of the
   * route's output (the recipient gets it less the relayer fee); exact output, amountOut is the
   * order's amountOut plus the relayer fee
   */
  readonly quote: QuoteResponse
  readonly relayerFee: bigint
}

/**
 * Extra gas of an order that carries an EIP-2612 permit: measured on the devnet (EURC, a sender
 * whose permit nonce and allowance are written fresh) as 35.8k over the same order with an
 * approval. Without it, a permit order's fee fell below the gas the relayer paid (USDC out:
 * 5,328 charged against 5,396 paid, at a 1 gwei tip over the 20 gwei base fee).
 */
export const PERMIT_GAS_OVERHEAD = 36_000n

/** At most this many rounds settle an exact output's fee and route (each round's route delivers the last round's fee on top). */
const EXACT_OUTPUT_ROUNDS = 4

/** How the relayer fee is charged: the margin, and whether the order carries a permit (its gas is paid too). */
export interface RelayerFeeTerms {
  readonly marginBps: number
  readonly permit: boolean
}

/** The relayer fee for `route` on `world`, or why there is none. */
const feeOf = (priced: Priced, route: SourceRoute, terms: RelayerFeeTerms): Effect.Effect<bigint, QuoteError> => {
  if (route.gasEstimate === null) return Effect.fail(new Internal({ detail: `the route from ${route.source} has no gas estimate to price the relayer fee with` }))
  const gas = route.gasEstimate + ORDER_ENTRY_GAS_OVERHEAD + (terms.permit ? PERMIT_GAS_OVERHEAD : 0n)
  const fee = relayerFeeOf(priced.world, priced.tokenOut, gas, terms.marginBps)
  return fee === undefined
    ? Effect.fail(new NoRoute({ message: `tokenOut: ${priced.tokenOut.symbol || priced.tokenOut.erc20Address} has no reference price, so the relayer's gas cannot be charged in it; gasless swaps need a tokenOut with one` }))
    : Effect.succeed(fee)
}

/**
 * The request priced on `world` with its relayer fee. `request` is the order's terms: exact input
 * with the amount paid in, or exact output with what the recipient must receive (the fee is added).
 */
export const priceWithRelayerFee = (services: QuoteServices, world: World, request: QuoteRequest, terms: RelayerFeeTerms): Effect.Effect<OrderPricing, QuoteError> =>
  Effect.gen(function* () {
    if (request.tradeType === "exactInput") {
      const priced = yield* pricedOn(services, world, request, {})
      const route = priced.candidates[0]!
      return { priced, route, quote: priced.respond(route), relayerFee: yield* feeOf(priced, route, terms) }
    }
    // start from the route of amountOut alone; each round prices amountOut + the fee found before
    let fee = 0n
    let pricing: OrderPricing | undefined
    for (let round = 0; round < EXACT_OUTPUT_ROUNDS; round++) {
      const priced = yield* pricedOn(services, world, { ...request, amountOut: request.amountOut + fee }, {})
      const route = priced.candidates[0]!
      const next = yield* feeOf(priced, route, terms)
      // this route delivers `fee` on top, which covers its own gas: settled
      pricing = { priced, route, quote: priced.respond(route), relayerFee: fee }
      if (round > 0 && next <= fee) return pricing
      fee = next
    }
    // the last route delivers the fee of the round before: the relayer is paid by that fee
    return pricing!
  })
