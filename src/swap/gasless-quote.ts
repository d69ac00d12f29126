// /gasless/quote: the swap priced with the relayer fee (relayer-fee.ts) on the
// head's World, amountOut and minAmountOut net of that fee too, and the order
// for the sender to sign (maxRelayerFee = the fee, a fresh 256-bit unordered
// nonce, the request's deadline), with the permit, approval and shortfalls as
// /swap gives them: the sender sends no transaction, so no gas is counted. A
// sender who signs a permit with the order pays its gas in the relayer fee.
import { Effect } from "effect"
import { randomBytes } from "node:crypto"
import { zeroAddress, type Address } from "viem"
import { senderFunds, type SenderFunds } from "../chain/index.ts"
import type { SwapOrder } from "../domain/index.ts"
import { minAmountOut } from "../pricer/index.ts"
import { InvalidRequest, type QuoteError } from "./errors.ts"
import { orderToSign, type GaslessQuoteRequest, type GaslessQuoteResponse } from "./gasless.ts"
import { permitToSign } from "./permit.ts"
import type { QuoteServices } from "./quote.ts"
import { priceWithRelayerFee, type OrderPricing } from "./relayer-fee.ts"
import { atHead, type ProgramServices } from "./swap.ts"
import { senderIssues } from "./sender-issues.ts"
import type { ArcChainId, QuoteRequest } from "../domain/index.ts"

export interface GaslessSettings {
  /** the chain served: the orders' EIP-712 domain */
  readonly chainId: ArcChainId
  /** the route executor: the orders' verifyingContract, the spender of approvals and permits */
  readonly executor: Address
  /** RELAYER_FEE_MARGIN_BPS */
  readonly feeMarginBps: number
  /** the venues a gasless order may route over (never an aggregator: the relayer routes anew when it sends) */
  readonly venues: ReadonlySet<string>
}

/** A fresh unordered nonce: 256 random bits, so that no two orders of a sender ever share one. */
export const freshNonce = (): bigint => BigInt(`0x${randomBytes(32).toString("hex")}`)

/** The request routed over the venues only: includeSources / excludeSources narrow them further. */
export const overVenues = (request: QuoteRequest, venues: ReadonlySet<string>): QuoteRequest | InvalidRequest => {
  const allowed = request.allowedSources === undefined ? venues : new Set([...request.allowedSources].filter((name) => venues.has(name)))
  if (allowed.size === 0) {
    return new InvalidRequest({ message: `includeSources: a gasless order routes over the venues only (${[...venues].join(", ")}), never an aggregator: the relayer routes anew when it sends` })
  }
  return { ...request, allowedSources: allowed }
}

interface OrderAmounts {
  readonly amountIn: bigint
  readonly maxAmountIn: bigint
  readonly amountOut: bigint
  readonly minAmountOut: bigint
}

/** The quote's amounts net of the relayer fee too: exact input's output pays the relayer first. */
const amountsOf = (request: GaslessQuoteRequest, pricing: OrderPricing): Effect.Effect<OrderAmounts, InvalidRequest> => {
  const { quote, relayerFee } = pricing
  if (request.tradeType === "exactOutput") {
    return Effect.succeed({ amountIn: quote.amountIn, maxAmountIn: quote.maxAmountIn, amountOut: request.amountOut, minAmountOut: request.amountOut })
  }
  if (quote.amountOut <= relayerFee) {
    return Effect.fail(new InvalidRequest({ message: `amountIn: the swap pays ${quote.amountOut} of tokenOut after fees, which does not cover the relayer fee of ${relayerFee}; swap a larger amount` }))
  }
  const amountOut = quote.amountOut - relayerFee
  return Effect.succeed({ amountIn: request.amountIn, maxAmountIn: request.amountIn, amountOut, minAmountOut: minAmountOut(amountOut, request.slippageBps) })
}

export const gaslessQuoteProgram = (
  services: QuoteServices,
  { rpc, tokens }: ProgramServices,
  settings: GaslessSettings,
  request: GaslessQuoteRequest,
): Effect.Effect<GaslessQuoteResponse, QuoteError> =>
  Effect.gen(function* () {
    const routed = overVenues(request, settings.venues)
    if (routed instanceof InvalidRequest) return yield* routed
    const { executor } = settings
    // priced on the head's World, and the sender's funds read at that block: the head is read in
    // the same JSON-RPC batch as the funds
    const { world, withoutPermit, permitDomain, funds } = yield* atHead(services.market, rpc, (world) =>
      Effect.gen(function* () {
        const withoutPermit = yield* priceWithRelayerFee(services, world, routed, { marginBps: settings.feeMarginBps, permit: false })
        const { priced } = withoutPermit
        // whether tokenIn takes permits, and the sender's funds at the priced block; a node that cannot
        // be read leaves the permit and the shortfalls out of the answer, as /swap does
        const permitDomain = yield* tokens.permitDomain(priced.tokenIn.erc20Address).pipe(
          Effect.catchTag("RpcError", (e) => Effect.as(Effect.logWarning(`tokenIn's permit domain could not be read: ${e.message}`), null)),
        )
        const funds = yield* senderFunds(rpc, {
          sender: request.sender,
          blockNumber: world.blockNumber,
          token: { address: priced.tokenIn.erc20Address, spender: executor, permitNonce: permitDomain !== null },
        }).pipe(
          Effect.map((f): SenderFunds | undefined => f),
          Effect.catchTag("RpcError", (e) => Effect.as(Effect.logWarning(`the sender's funds could not be read: ${e.message}`), undefined)),
        )
        return { world, withoutPermit, permitDomain, funds }
      }),
    )
    // a sender whose allowance is short signs a permit with the order, and the relayer pays its gas too
    const short = funds?.allowance !== undefined && funds.allowance < (yield* amountsOf(request, withoutPermit)).maxAmountIn && funds.permitNonce !== undefined && permitDomain !== null
    const pricing = short ? yield* priceWithRelayerFee(services, world, routed, { marginBps: settings.feeMarginBps, permit: true }) : withoutPermit
    const { quote, relayerFee } = pricing
    const amounts = yield* amountsOf(request, pricing)
    // the order's input: exactly amountIn, or at most maxAmountIn; its output: at least minAmountOut, or exactly amountOut
    const takes = amounts.maxAmountIn
    const order: SwapOrder = {
      sender: request.sender,
      recipient: request.recipient,
      tokenIn: request.tokenIn,
      tokenOut: request.tokenOut,
      exactOutput: request.tradeType === "exactOutput",
      amountIn: takes,
      amountOut: amounts.minAmountOut,
      maxRelayerFee: relayerFee,
      feeBps: request.feeBps,
      feeRecipient: request.feeRecipient ?? zeroAddress,
      nonce: freshNonce(),
      deadline: BigInt(request.deadline),
    }
    // the sender pays no gas: only the input counts
    const issues = funds === undefined ? null : senderIssues({ token: request.tokenIn, kind: "erc20", spender: executor, amountIn: takes, gasWei: 0n, funds })
    return {
      ...quote,
      ...amounts,
      relayerFee: { token: request.tokenOut, amount: relayerFee },
      order: { typedData: orderToSign(settings.chainId, executor, order) },
      permit: !short ? null : {
        typedData: permitToSign(permitDomain, { owner: request.sender, spender: executor, value: takes, nonce: funds.permitNonce!, deadline: order.deadline }),
      },
      approval: { token: request.tokenIn, spender: executor, amount: takes },
      issues,
    }
  })
