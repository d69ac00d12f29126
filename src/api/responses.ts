// Response encoding: typed program answers → the spec's JSON through the
// response Schemas (amounts as decimal strings, addresses checksummed, requestId
// last); /quote's and /swap's answers are written directly as those Schemas write
// them (quote-json.ts, swap-json.ts). An answer that contradicts its request or
// the fee formulas is not sent: it becomes 502 INTERNAL.
import { Either, ParseResult, Schema } from "effect"
import type { Address } from "viem"
import { quoteJson } from "./quote-json.ts"
import { swapJson } from "./swap-json.ts"
import { QuoteResponseJson, SourcesResponseJson, SwapResponseJson, TokensResponseJson } from "./response-schemas.ts"
import type { SourcesAnswer, TokensAnswer } from "../swap/index.ts"
import { maxAmountIn, minAmountOut, splitFees } from "../pricer/index.ts"
import { Internal, type SwapRequest, type SwapResponse } from "../swap/index.ts"
import type { QuoteRequest, QuoteResponse } from "../domain/index.ts"

// equal strings first: an answer usually names the request's own address strings
const same = (a: string | null, b: string | null) => a === b || (a !== null && b !== null && a.toLowerCase() === b.toLowerCase())

/** What is wrong with a quote answer for this request, or undefined. */
export const quoteInconsistency = (request: QuoteRequest, q: QuoteResponse): string | undefined => {
  if (q.chainId !== request.chainId) return `chainId ${q.chainId} is not the request's ${request.chainId}`
  if (!same(q.tokenIn, request.tokenIn) || !same(q.tokenOut, request.tokenOut)) return "tokens differ from the request"
  if (q.tradeType !== request.tradeType) return "tradeType differs from the request"
  if (request.tradeType === "exactInput" && q.amountIn !== request.amountIn) return "amountIn differs from the request"
  if (request.tradeType === "exactOutput" && q.amountOut !== request.amountOut) return "amountOut differs from the request"
  if (q.slippageBps !== request.slippageBps) return "slippageBps differs from the request"
  if (!same(q.fees.token, q.tokenOut)) return "fees.token is not tokenOut"
  if (q.fees.partnerBps !== request.feeBps || !same(q.fees.partnerRecipient, request.feeRecipient)) return "partner fee differs from the request"
  let expected
  try {
    expected = splitFees(q.grossAmountOut, { protocolBps: q.fees.protocolBps, partnerBps: q.fees.partnerBps })
  } catch (e) {
    return `fees: ${(e as Error).message}`
  }
  if (q.fees.protocolAmount !== expected.protocolAmount || q.fees.partnerAmount !== expected.partnerAmount) return "amounts do not follow the fee formulas"
  if (q.tradeType === "exactInput") {
    if (q.amountOut !== expected.amountOut) return "amounts do not follow the fee formulas"
    if (q.minAmountOut !== minAmountOut(q.amountOut, q.slippageBps)) return "minAmountOut does not follow slippageBps"
    if (q.maxAmountIn !== q.amountIn) return "maxAmountIn is not amountIn"
  } else {
    // the least gross whose net reaches amountOut nets to it exactly (the net grows by at most one a unit)
    if (expected.amountOut !== q.amountOut) return "grossAmountOut does not pay amountOut after the fees"
    if (q.minAmountOut !== q.amountOut) return "minAmountOut is not amountOut"
    if (q.maxAmountIn !== maxAmountIn(q.amountIn, q.slippageBps)) return "maxAmountIn does not follow slippageBps"
  }
  if (q.priceImpactBps !== null && !Number.isSafeInteger(q.priceImpactBps)) return "priceImpactBps is not an integer"
  if (q.gasEstimate !== null && q.gasEstimate < 0n) return "negative gasEstimate"
  if (q.route.length === 0) return "empty route"
  let shares = 0
  for (const entry of q.route) {
    if (!Number.isInteger(entry.shareBps) || entry.shareBps <= 0 || entry.hops.length === 0) return "malformed route entry"
    shares += entry.shareBps
  }
  if (shares !== 10_000) return `route shares add up to ${shares}`
  if (q.blockNumber < 0n) return "negative blockNumber"
  return undefined
}

/** What is wrong with a swap answer for this request, or undefined (the shape of its fields, tx.data hex among them, is the encoding's to check). */
export const swapInconsistency = (request: SwapRequest, s: SwapResponse, executor: Address): string | undefined => {
  const quote = quoteInconsistency(request, s)
  if (quote !== undefined) return quote
  if (!same(s.sender, request.sender) || !same(s.recipient, request.recipient)) return "sender or recipient differs from the request"
  if (s.deadline !== request.deadline) return "deadline differs from the request"
  if (!same(s.tx.to, executor)) return "tx.to is not the route executor"
  if (s.tx.value < 0n || (s.tx.gas !== null && s.tx.gas <= 0n)) return "tx value or gas out of range"
  if (s.simulated !== (s.tx.gas !== null)) return "tx.gas must be set exactly when simulated"
  if (s.approval !== null && (!same(s.approval.spender, executor) || !same(s.approval.token, request.tokenIn))) return "approval is not for tokenIn to the executor"
  if (request.permit !== undefined && (s.approval !== null || s.permit !== null)) return "a swap with a permit answers no approval and no permit"
  if (s.permit !== null) {
    const { domain, message } = s.permit.typedData
    if (!same(domain.verifyingContract, request.tokenIn) || domain.chainId !== request.chainId) return "permit domain is not tokenIn's on this chain"
    if (!same(message.owner, request.sender) || !same(message.spender, executor)) return "permit is not from the sender to the executor"
    if (message.value !== s.maxAmountIn || message.deadline !== BigInt(request.deadline)) return "permit value or deadline is not the transaction's"
  }
  return undefined
}

const encodeQuote = Schema.encodeEither(QuoteResponseJson)
const encodeSwap = Schema.encodeEither(SwapResponseJson)

const encodingFailed = (what: string, error: ParseResult.ParseError) =>
  new Internal({ detail: `the ${what} answer does not fit its schema: ${ParseResult.TreeFormatter.formatErrorSync(error)}` })

/** The 200 body of POST /quote, or Internal when the answer does not hold together. */
export const encodeQuoteResponse = (request: QuoteRequest, q: QuoteResponse, quoteId: string, requestId: string): Either.Either<string, Internal> => {
  const problem = quoteInconsistency(request, q)
  if (problem !== undefined) return Either.left(new Internal({ detail: `quote program answered an inconsistent quote: ${problem}` }))
  const written = quoteJson(q, quoteId, requestId)
  if (written !== undefined) return Either.right(written)
  return Either.match(encodeQuote({ ...q, quoteId, requestId }), {
    onLeft: (e) => Either.left(encodingFailed("quote", e)),
    onRight: (json) => Either.right(JSON.stringify(json)),
  })
}

/** The 200 body of POST /swap, or Internal when the answer does not hold together. */
export const encodeSwapResponse = (
  request: SwapRequest,
  s: SwapResponse,
  executor: Address,
  priceChangeBps: number | null,
  requestId: string,
): Either.Either<string, Internal> => {
  const problem = swapInconsistency(request, s, executor)
  if (problem !== undefined) return Either.left(new Internal({ detail: `swap program answered an inconsistent swap: ${problem}` }))
  const written = swapJson(s, priceChangeBps, requestId)
  if (written !== undefined) return Either.right(written)
  return Either.match(encodeSwap({ ...s, priceChangeBps, requestId }), {
    onLeft: (e) => Either.left(encodingFailed("swap", e)),
    onRight: (json) => Either.right(JSON.stringify(json)),
  })
}

const encodeSources = Schema.encodeEither(SourcesResponseJson)
const encodeTokens = Schema.encodeEither(TokensResponseJson)

/** The 200 body of POST /sources. */
export const encodeSourcesResponse = (answer: SourcesAnswer, requestId: string): Either.Either<string, Internal> =>
  Either.match(encodeSources({ ...answer, requestId }), {
    onLeft: (e) => Either.left(encodingFailed("sources", e)),
    onRight: (json) => Either.right(JSON.stringify(json)),
  })

/** The 200 body of POST /tokens. */
export const encodeTokensResponse = (answer: TokensAnswer, requestId: string): Either.Either<string, Internal> =>
  Either.match(encodeTokens({ ...answer, requestId }), {
    onLeft: (e) => Either.left(encodingFailed("tokens", e)),
    onRight: (json) => Either.right(JSON.stringify(json)),
  })
