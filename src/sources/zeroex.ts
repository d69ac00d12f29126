// 0x Swap API v2, allowance-holder flow: GET {url}/swap/allowance-holder/quote
// with the route executor as taker (and so as recipient). The executor approves
// transaction.to, which must be the allowance target, for exactly sellAmount
// and calls it with transaction.data. An exact output asks with buyAmount in
// place of sellAmount (0x's "Exact Buy"): the answer's sellAmount is the input
// expected and maxSellAmount the most the call may take, which the executor
// approves instead and of which it pays back what was not spent.
import { HttpClientRequest } from "@effect/platform"
import { Effect, Option, Schema } from "effect"
import { Amount, Calldata, ChecksummedAddress, decodeAnswer, ObjectWith, OptionalAmount, required } from "./answer-fields.ts"
import {
  expectSame,
  externalSource,
  invalidAnswer,
  type AggregatorConfig,
  type ExternalAnswer,
  type ExternalBuyAnswer,
  type ExternalContext,
  type ExternalSource,
} from "./external.ts"
import { exchange } from "./http.ts"
import type { ExactOutputSourceRequest, SourceRequest } from "../pricer/index.ts"
import { SourceError } from "./source.ts"

export const ZEROEX_QUOTE_PATH = "/swap/allowance-holder/quote"

/** 400 answers that mean "no route for this trade", not "something is wrong". */
const NO_ROUTE_ERRORS = new Set(["TOKEN_NOT_SUPPORTED", "INSUFFICIENT_LIQUIDITY", "SELL_AMOUNT_TOO_SMALL", "BUY_AMOUNT_TOO_SMALL", "NO_LIQUIDITY"])
/** The executor takes an exact output's ceiling in a uint128. */
const MAX_UINT128 = (1n << 128n) - 1n

/** An error answer's name, when it has one. */
const errorName = (json: unknown): string =>
  Option.getOrElse(Option.map(Schema.decodeUnknownOption(Schema.Struct({ name: Schema.String }))(json), (error) => error.name), () => "")

/** Whether 0x found liquidity at all (when it did not, the rest of the answer is absent), and for which chain. */
const liquidityOf = (chainId: number) =>
  ObjectWith(
    {
      liquidityAvailable: Schema.Boolean.annotations({ message: () => "is missing" }),
      chainId: Schema.optional(Schema.Literal(chainId).annotations({ message: (issue) => `${String(issue.actual)} is not ${chainId}` })),
    },
    "the answer is not a JSON object",
  )

/** The quote, in the order its fields are checked. */
const Quote = Schema.Struct({
  sellToken: required(ChecksummedAddress),
  buyToken: required(ChecksummedAddress),
  sellAmount: required(Amount),
  buyAmount: required(Amount),
  transaction: ObjectWith({ to: required(ChecksummedAddress), data: required(Calldata), value: OptionalAmount, gas: OptionalAmount }),
  allowanceTarget: Schema.optionalWith(ChecksummedAddress, { nullable: true }),
})

/** An Exact Buy quote: the same, and maxSellAmount, the most the call may take. */
const BuyQuote = Schema.Struct({ ...Quote.fields, maxSellAmount: required(Amount) })

export const zeroExSource = (config: AggregatorConfig, context: ExternalContext): ExternalSource => {
  const name = config.name
  const base = config.url.replace(/\/+$/, "")
  const headers: Record<string, string> = { "0x-version": "v2", ...(config.apiKey !== undefined ? { "0x-api-key": config.apiKey } : {}) }
  const decodeLiquidity = decodeAnswer(name, liquidityOf(context.chainId))
  const decodeQuote = decodeAnswer(name, Quote)

  const decodeBuyQuote = decodeAnswer(name, BuyQuote)

  /** The answer to one quote request, or undefined for "no route"; any other failure is a SourceError. */
  const ask = (request: SourceRequest | ExactOutputSourceRequest, amount: { readonly sellAmount: string } | { readonly buyAmount: string }) =>
    Effect.gen(function* () {
      const query = {
        chainId: String(context.chainId),
        sellToken: request.tokenIn,
        buyToken: request.tokenOut,
        ...amount,
        taker: context.executor,
        ...(request.slippageBps !== undefined ? { slippageBps: String(request.slippageBps) } : {}),
        ...(request.sender !== undefined ? { txOrigin: request.sender } : {}),
      }
      const answer = yield* exchange(name, HttpClientRequest.get(`${base}${ZEROEX_QUOTE_PATH}`, { urlParams: query, headers }))
      if (answer.status === 400 && NO_ROUTE_ERRORS.has(errorName(answer.json))) return undefined
      if (answer.status !== 200) {
        const detail = errorName(answer.json)
        return yield* new SourceError({ source: name, reason: "unavailable", message: `HTTP ${answer.status}${detail ? ` ${detail}` : ""}` })
      }
      if (!(yield* decodeLiquidity(answer.json)).liquidityAvailable) return undefined
      return answer.json
    })

  /** The checks every quote gets: its tokens, no value, the allowance target is the router. */
  const checked = (request: SourceRequest | ExactOutputSourceRequest, quote: typeof Quote.Type) =>
    Effect.gen(function* () {
      yield* expectSame(name, "sellToken", quote.sellToken, request.tokenIn)
      yield* expectSame(name, "buyToken", quote.buyToken, request.tokenOut)
      const { to: router, data, value, gas } = quote.transaction
      if (value !== undefined && value !== 0n) return yield* invalidAnswer(name, `transaction.value ${value}: the executor sends no value to a router`)
      // the executor approves the contract it calls: the allowance target must be that contract
      if (quote.allowanceTarget !== undefined) yield* expectSame(name, "allowanceTarget", quote.allowanceTarget, router)
      return { router, data, gas }
    })

  const exactInput = (request: SourceRequest): Effect.Effect<ExternalAnswer | undefined, SourceError> =>
    Effect.gen(function* () {
      const json = yield* ask(request, { sellAmount: request.amountIn.toString() })
      if (json === undefined) return undefined
      const quote = yield* decodeQuote(json)
      if (quote.sellAmount !== request.amountIn) return yield* invalidAnswer(name, `sellAmount ${quote.sellAmount} is not the requested ${request.amountIn}`)
      return { amountOut: quote.buyAmount, ...(yield* checked(request, quote)) }
    })

  const exactOutput = (request: ExactOutputSourceRequest): Effect.Effect<ExternalBuyAnswer | undefined, SourceError> =>
    Effect.gen(function* () {
      const json = yield* ask(request, { buyAmount: request.amountOut.toString() })
      if (json === undefined) return undefined
      const quote = yield* decodeBuyQuote(json)
      if (quote.buyAmount !== request.amountOut) return yield* invalidAnswer(name, `buyAmount ${quote.buyAmount} is not the requested ${request.amountOut}`)
      if (quote.sellAmount === 0n) return yield* invalidAnswer(name, "sellAmount 0 for a positive buyAmount")
      if (quote.maxSellAmount < quote.sellAmount) return yield* invalidAnswer(name, `maxSellAmount ${quote.maxSellAmount} is below sellAmount ${quote.sellAmount}`)
      if (quote.maxSellAmount > MAX_UINT128) return yield* invalidAnswer(name, `maxSellAmount ${quote.maxSellAmount} is above what the executor takes (2^128 - 1)`)
      return { amountOut: quote.buyAmount, amountIn: quote.sellAmount, maxAmountIn: quote.maxSellAmount, ...(yield* checked(request, quote)) }
    })

  return externalSource(config, context, { exactInput, exactOutput })
}
