// Response encoding of the gasless endpoints through their Schemas. A gasless
// quote that contradicts its request, the fee formulas or its own order is not
// sent: it becomes 502 INTERNAL.
import { Either, ParseResult, Schema } from "effect"
import type { Address } from "viem"
import { maxAmountIn, minAmountOut, splitFees } from "../pricer/index.ts"
import { Internal, type GaslessQuoteRequest, type GaslessQuoteResponse, type GaslessStatusResponse, type GaslessSubmitResponse } from "../swap/index.ts"
import { GaslessQuoteResponseJson, GaslessStatusResponseJson, GaslessSubmitResponseJson } from "./response-schemas.ts"

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()

/** What is wrong with a gasless quote for this request, or undefined. */
export const gaslessQuoteInconsistency = (request: GaslessQuoteRequest, q: GaslessQuoteResponse, executor: Address): string | undefined => {
  if (q.chainId !== request.chainId || !same(q.tokenIn, request.tokenIn) || !same(q.tokenOut, request.tokenOut)) return "chain or tokens differ from the request"
  if (q.tradeType !== request.tradeType) return "tradeType differs from the request"
  const fee = q.relayerFee.amount
  if (!same(q.relayerFee.token, request.tokenOut) || fee < 0n) return "relayerFee is not in tokenOut"
  let net
  try {
    net = splitFees(q.grossAmountOut, { protocolBps: q.fees.protocolBps, partnerBps: q.fees.partnerBps }).amountOut
  } catch (e) {
    return `fees: ${(e as Error).message}`
  }
  if (q.tradeType === "exactInput") {
    if (request.tradeType === "exactInput" && q.amountIn !== request.amountIn) return "amountIn differs from the request"
    if (q.amountOut + fee !== net) return "amountOut is not the net output less the relayer fee"
    if (q.minAmountOut !== minAmountOut(q.amountOut, q.slippageBps) || q.maxAmountIn !== q.amountIn) return "minAmountOut or maxAmountIn does not follow slippageBps"
  } else {
    if (request.tradeType === "exactOutput" && q.amountOut !== request.amountOut) return "amountOut differs from the request"
    if (net < q.amountOut + fee) return "grossAmountOut does not pay amountOut and the relayer fee after the fees"
    if (q.minAmountOut !== q.amountOut || q.maxAmountIn !== maxAmountIn(q.amountIn, q.slippageBps)) return "minAmountOut or maxAmountIn does not follow slippageBps"
  }
  const { domain, message } = q.order.typedData
  if (domain.chainId !== request.chainId || !same(domain.verifyingContract, executor)) return "the order's domain is not this chain's executor"
  if (!same(message.sender, request.sender) || !same(message.recipient, request.recipient) || !same(message.tokenIn, request.tokenIn) || !same(message.tokenOut, request.tokenOut)) {
    return "the order's parties or tokens differ from the request"
  }
  if (message.exactOutput !== (q.tradeType === "exactOutput") || message.amountIn !== q.maxAmountIn || message.amountOut !== q.minAmountOut) return "the order's amounts are not the quote's"
  if (message.maxRelayerFee !== fee || message.feeBps !== request.feeBps || message.deadline !== BigInt(request.deadline)) return "the order's fee or deadline is not the quote's"
  if (!same(q.approval.spender, executor) || !same(q.approval.token, request.tokenIn) || q.approval.amount !== message.amountIn) return "approval is not the order's input to the executor"
  if (q.permit !== null) {
    const p = q.permit.typedData
    if (!same(p.domain.verifyingContract, request.tokenIn) || !same(p.message.owner, request.sender) || !same(p.message.spender, executor)) return "the permit is not the sender's of tokenIn to the executor"
    if (p.message.value !== message.amountIn || p.message.deadline !== message.deadline) return "the permit's value or deadline is not the order's"
  }
  return undefined
}

const encodingFailed = (what: string, error: ParseResult.ParseError) =>
  new Internal({ detail: `the ${what} answer does not fit its schema: ${ParseResult.TreeFormatter.formatErrorSync(error)}` })

const encodeQuote = Schema.encodeEither(GaslessQuoteResponseJson)
const encodeSubmit = Schema.encodeEither(GaslessSubmitResponseJson)
const encodeStatus = Schema.encodeEither(GaslessStatusResponseJson)

const toJson = (what: string) => <A>(encoded: Either.Either<A, ParseResult.ParseError>): Either.Either<string, Internal> =>
  Either.match(encoded, { onLeft: (e) => Either.left(encodingFailed(what, e)), onRight: (json) => Either.right(JSON.stringify(json)) })

/** The 200 body of POST /gasless/quote, or Internal when the answer does not hold together. */
export const encodeGaslessQuoteResponse = (
  request: GaslessQuoteRequest,
  q: GaslessQuoteResponse,
  executor: Address,
  quoteId: string,
  requestId: string,
): Either.Either<string, Internal> => {
  const problem = gaslessQuoteInconsistency(request, q, executor)
  if (problem !== undefined) return Either.left(new Internal({ detail: `gasless quote program answered an inconsistent quote: ${problem}` }))
  return toJson("gasless quote")(encodeQuote({ ...q, quoteId, requestId }))
}

export const encodeGaslessSubmitResponse = (answer: GaslessSubmitResponse, requestId: string): Either.Either<string, Internal> =>
  toJson("gasless submit")(encodeSubmit({ ...answer, requestId }))

export const encodeGaslessStatusResponse = (answer: GaslessStatusResponse, requestId: string): Either.Either<string, Internal> =>
  toJson("gasless status")(encodeStatus({ ...answer, requestId }))
