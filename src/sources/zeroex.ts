// 0x Swap API v2, allowance-holder flow: GET {url}/swap/allowance-holder/quote
// with the route executor as taker (and so as recipient). The executor approves
// transaction.to, which must be the allowance target, for exactly sellAmount
// and calls it with transaction.data.
import { Effect } from "effect"
import {
  expectSame,
  externalSource,
  invalidAnswer,
  isRecord,
  parseAddress,
  parseAmount,
  parseCalldata,
  parseOptionalAmount,
  type AggregatorConfig,
  type ExternalAnswer,
  type ExternalContext,
  type ExternalSource,
} from "./external.ts"
import { exchange } from "./http.ts"
import type { SourceRequest } from "../pricer/index.ts"
import { SourceError } from "./source.ts"

export const ZEROEX_QUOTE_PATH = "/swap/allowance-holder/quote"

/** 400 answers that mean "no route for this trade", not "something is wrong". */
const NO_ROUTE_ERRORS = new Set(["TOKEN_NOT_SUPPORTED", "INSUFFICIENT_LIQUIDITY", "SELL_AMOUNT_TOO_SMALL", "NO_LIQUIDITY"])

const errorName = (json: unknown): string => (isRecord(json) && typeof json.name === "string" ? json.name : "")

export const zeroExSource = (config: AggregatorConfig, context: ExternalContext): ExternalSource => {
  const name = config.name
  const base = config.url.replace(/\/+$/, "")
  const headers: Record<string, string> = { "0x-version": "v2", ...(config.apiKey !== undefined ? { "0x-api-key": config.apiKey } : {}) }

  const fetchAnswer = (request: SourceRequest): Effect.Effect<ExternalAnswer | undefined, SourceError> =>
    Effect.gen(function* () {
      const params = new URLSearchParams({
        chainId: String(context.chainId),
        sellToken: request.tokenIn,
        buyToken: request.tokenOut,
        sellAmount: request.amountIn.toString(),
        taker: context.executor,
        ...(request.slippageBps !== undefined ? { slippageBps: String(request.slippageBps) } : {}),
        ...(request.sender !== undefined ? { txOrigin: request.sender } : {}),
      })
      const answer = yield* exchange(name, { method: "GET", url: `${base}${ZEROEX_QUOTE_PATH}?${params}`, headers })
      if (answer.status === 400 && NO_ROUTE_ERRORS.has(errorName(answer.json))) return undefined
      if (answer.status !== 200) {
        const detail = errorName(answer.json)
        return yield* new SourceError({ source: name, reason: "unavailable", message: `HTTP ${answer.status}${detail ? ` ${detail}` : ""}` })
      }
      const body = answer.json
      if (!isRecord(body)) return yield* invalidAnswer(name, "the answer is not a JSON object")
      if (body.liquidityAvailable === false) return undefined
      if (body.liquidityAvailable !== true) return yield* invalidAnswer(name, "liquidityAvailable is missing")
      if (body.chainId !== undefined && body.chainId !== context.chainId) return yield* invalidAnswer(name, `chainId ${String(body.chainId)} is not ${context.chainId}`)

      yield* expectSame(name, "sellToken", yield* parseAddress(name, body.sellToken, "sellToken"), request.tokenIn)
      yield* expectSame(name, "buyToken", yield* parseAddress(name, body.buyToken, "buyToken"), request.tokenOut)
      const sellAmount = yield* parseAmount(name, body.sellAmount, "sellAmount")
      if (sellAmount !== request.amountIn) return yield* invalidAnswer(name, `sellAmount ${sellAmount} is not the requested ${request.amountIn}`)
      const buyAmount = yield* parseAmount(name, body.buyAmount, "buyAmount")

      const tx = body.transaction
      if (!isRecord(tx)) return yield* invalidAnswer(name, "transaction is missing")
      const router = yield* parseAddress(name, tx.to, "transaction.to")
      const data = yield* parseCalldata(name, tx.data, "transaction.data")
      const value = yield* parseOptionalAmount(name, tx.value, "transaction.value")
      if (value !== undefined && value !== 0n) return yield* invalidAnswer(name, `transaction.value ${value}: the executor sends no value to a router`)
      const gas = yield* parseOptionalAmount(name, tx.gas, "transaction.gas")
      // the executor approves the contract it calls: the allowance target must be that contract
      if (body.allowanceTarget !== undefined && body.allowanceTarget !== null) {
        yield* expectSame(name, "allowanceTarget", yield* parseAddress(name, body.allowanceTarget, "allowanceTarget"), router)
      }
      return { amountOut: buyAmount, router, data, gas }
    })

  return externalSource(config, context, fetchAnswer)
}
