// KyberSwap Aggregator API v1: GET {url}/api/v1/routes for the best route, then
// POST {url}/api/v1/route/build with that routeSummary for the calldata, the
// route executor as sender and recipient. `url` includes the chain segment
// (https://aggregator-api.kyberswap.com/<chain>). Only the GET is retried.
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
  requireAllowedRouter,
  type AggregatorConfig,
  type ExternalAnswer,
  type ExternalContext,
  type ExternalSource,
} from "./external.ts"
import { exchange, type HttpAnswer } from "./http.ts"
import type { SourceRequest } from "../pricer/index.ts"
import { SourceError } from "./source.ts"

export const KYBERSWAP_ROUTES_PATH = "/api/v1/routes"
export const KYBERSWAP_BUILD_PATH = "/api/v1/route/build"
/** Sent as x-client-id (and the build's source) when the entry has no apiKey. */
export const KYBERSWAP_DEFAULT_CLIENT_ID = "arc-swap-aggregator"

/** Answer codes meaning "no route for this trade": route not found, amount too large, no eligible pools, token not found. */
const NO_ROUTE_CODES = new Set([4008, 4009, 4010, 4011])
const DEFAULT_SLIPPAGE_BPS = 50
/** The build's deadline, seconds ahead; the executor's own deadline is what protects the user. */
const BUILD_DEADLINE_SECONDS = 1200

const codeOf = (json: unknown): number | undefined => (isRecord(json) && typeof json.code === "number" ? json.code : undefined)

export const kyberSwapSource = (config: AggregatorConfig, context: ExternalContext): ExternalSource => {
  const name = config.name
  const base = config.url.replace(/\/+$/, "")
  const clientId = config.apiKey ?? KYBERSWAP_DEFAULT_CLIENT_ID
  const headers = { "x-client-id": clientId }

  /** The answer's `data`, or undefined for "no route"; any other failure is a SourceError. */
  const dataOf = (step: string, answer: HttpAnswer): Effect.Effect<Record<string, unknown> | undefined, SourceError> => {
    const code = codeOf(answer.json)
    if (code !== undefined && NO_ROUTE_CODES.has(code)) return Effect.succeed(undefined)
    if (answer.status !== 200 || code !== 0) {
      const message = isRecord(answer.json) && typeof answer.json.message === "string" ? ` ${answer.json.message.slice(0, 120)}` : ""
      return Effect.fail(new SourceError({ source: name, reason: "unavailable", message: `${step}: HTTP ${answer.status}, code ${code ?? "none"}${message}` }))
    }
    const data = (answer.json as Record<string, unknown>).data
    return isRecord(data) ? Effect.succeed(data) : Effect.fail(invalidAnswer(name, `${step}: data is missing`))
  }

  const fetchAnswer = (request: SourceRequest): Effect.Effect<ExternalAnswer | undefined, SourceError> =>
    Effect.gen(function* () {
      const params = new URLSearchParams({ tokenIn: request.tokenIn, tokenOut: request.tokenOut, amountIn: request.amountIn.toString(), gasInclude: "true" })
      const routes = yield* dataOf("routes", yield* exchange(name, { method: "GET", url: `${base}${KYBERSWAP_ROUTES_PATH}?${params}`, headers }))
      if (routes === undefined) return undefined
      const summary = routes.routeSummary
      if (!isRecord(summary)) return yield* invalidAnswer(name, "routes: routeSummary is missing")
      yield* expectSame(name, "routeSummary.tokenIn", yield* parseAddress(name, summary.tokenIn, "routeSummary.tokenIn"), request.tokenIn)
      yield* expectSame(name, "routeSummary.tokenOut", yield* parseAddress(name, summary.tokenOut, "routeSummary.tokenOut"), request.tokenOut)
      const summaryIn = yield* parseAmount(name, summary.amountIn, "routeSummary.amountIn")
      if (summaryIn !== request.amountIn) return yield* invalidAnswer(name, `routeSummary.amountIn ${summaryIn} is not the requested ${request.amountIn}`)
      if ((yield* parseAmount(name, summary.amountOut, "routeSummary.amountOut")) === 0n) return undefined
      const router = yield* parseAddress(name, routes.routerAddress, "routerAddress")
      // a router the executor refuses is not worth building calldata for
      yield* requireAllowedRouter(name, request, router)

      const built = yield* dataOf(
        "build",
        yield* exchange(name, {
          method: "POST",
          url: `${base}${KYBERSWAP_BUILD_PATH}`,
          headers,
          body: {
            routeSummary: summary,
            sender: context.executor,
            recipient: context.executor,
            ...(request.sender !== undefined ? { origin: request.sender } : {}),
            slippageTolerance: request.slippageBps ?? DEFAULT_SLIPPAGE_BPS,
            deadline: Math.floor(Date.now() / 1000) + BUILD_DEADLINE_SECONDS,
            source: clientId,
          },
        }),
      )
      if (built === undefined) return undefined
      yield* expectSame(name, "build routerAddress", yield* parseAddress(name, built.routerAddress, "build routerAddress"), router)
      const builtIn = yield* parseAmount(name, built.amountIn, "build amountIn")
      if (builtIn !== request.amountIn) return yield* invalidAnswer(name, `build amountIn ${builtIn} is not the requested ${request.amountIn}`)
      const amountOut = yield* parseAmount(name, built.amountOut, "build amountOut")
      const data = yield* parseCalldata(name, built.data, "build data")
      const value = yield* parseOptionalAmount(name, built.transactionValue, "build transactionValue")
      if (value !== undefined && value !== 0n) return yield* invalidAnswer(name, `build transactionValue ${value}: the executor sends no value to a router`)
      const gas = yield* parseOptionalAmount(name, built.gas ?? summary.gas, "build gas")
      return { amountOut, router, data, gas }
    })

  return externalSource(config, context, fetchAnswer)
}
