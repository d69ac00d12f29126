// KyberSwap Aggregator API v1: GET {url}/api/v1/routes for the best route, then
// POST {url}/api/v1/route/build with that routeSummary for the calldata, the
// route executor as sender and recipient. `url` includes the chain segment
// (https://aggregator-api.kyberswap.com/<chain>). Only the GET is retried.
import { HttpClientRequest } from "@effect/platform"
import { Effect, Option, Schema } from "effect"
import { Amount, Calldata, ChecksummedAddress, decodeAnswer, JsonObject, ObjectWith, OptionalAmount, required } from "./answer-fields.ts"
import {
  expectSame,
  externalSource,
  invalidAnswer,
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

/** Every answer's envelope, each field read when it has its type: `code` 0 and `data` on success. */
const codeOf = Schema.decodeUnknownOption(Schema.Struct({ code: Schema.Number }))
const messageOf = Schema.decodeUnknownOption(Schema.Struct({ message: Schema.String }))
const WithData = Schema.Struct({ data: JsonObject.annotations({ message: () => "is missing" }) })

/** The routes answer's data: the best route's summary (passed to the build as it came), then its router (read only for a route that delivers). */
const Routes = Schema.Struct({ routeSummary: ObjectWith({ tokenIn: required(ChecksummedAddress), tokenOut: required(ChecksummedAddress), amountIn: required(Amount), amountOut: required(Amount) }) })
const Router = Schema.Struct({ routerAddress: required(ChecksummedAddress) })

/** The build answer's data; `gas` falls back to the route summary's. */
const Built = Schema.Struct({
  routerAddress: required(ChecksummedAddress),
  amountIn: required(Amount),
  amountOut: required(Amount),
  data: required(Calldata),
  transactionValue: OptionalAmount,
  gas: OptionalAmount,
})

export const kyberSwapSource = (config: AggregatorConfig, context: ExternalContext): ExternalSource => {
  const name = config.name
  const base = config.url.replace(/\/+$/, "")
  const clientId = config.apiKey ?? KYBERSWAP_DEFAULT_CLIENT_ID
  const headers = { "x-client-id": clientId }
  const decodeData = { routes: decodeAnswer(name, WithData, () => "routes: data"), build: decodeAnswer(name, WithData, () => "build: data") }
  const decodeRoutes = decodeAnswer(name, Routes, (path) => (path === "routeSummary" ? "routes: routeSummary" : path))
  const decodeRouter = decodeAnswer(name, Router)
  const decodeBuilt = decodeAnswer(name, Built, (path) => `build ${path}`)

  /** The answer's `data`, or undefined for "no route"; any other failure is a SourceError. */
  const dataOf = (step: "routes" | "build", answer: HttpAnswer): Effect.Effect<Readonly<Record<string, unknown>> | undefined, SourceError> => {
    const code = Option.getOrUndefined(Option.map(codeOf(answer.json), (envelope) => envelope.code))
    if (code !== undefined && NO_ROUTE_CODES.has(code)) return Effect.succeed(undefined)
    if (answer.status !== 200 || code !== 0) {
      const message = Option.match(messageOf(answer.json), { onNone: () => "", onSome: (envelope) => ` ${envelope.message.slice(0, 120)}` })
      return Effect.fail(new SourceError({ source: name, reason: "unavailable", message: `${step}: HTTP ${answer.status}, code ${code ?? "none"}${message}` }))
    }
    return Effect.map(decodeData[step](answer.json), (envelope) => envelope.data)
  }

  const fetchAnswer = (request: SourceRequest): Effect.Effect<ExternalAnswer | undefined, SourceError> =>
    Effect.gen(function* () {
      const query = { tokenIn: request.tokenIn, tokenOut: request.tokenOut, amountIn: request.amountIn.toString(), gasInclude: "true" }
      const routesData = yield* dataOf("routes", yield* exchange(name, HttpClientRequest.get(`${base}${KYBERSWAP_ROUTES_PATH}`, { urlParams: query, headers })))
      if (routesData === undefined) return undefined
      const routes = yield* decodeRoutes(routesData)
      const summary = routes.routeSummary
      yield* expectSame(name, "routeSummary.tokenIn", summary.tokenIn, request.tokenIn)
      yield* expectSame(name, "routeSummary.tokenOut", summary.tokenOut, request.tokenOut)
      if (summary.amountIn !== request.amountIn) return yield* invalidAnswer(name, `routeSummary.amountIn ${summary.amountIn} is not the requested ${request.amountIn}`)
      if (summary.amountOut === 0n) return undefined
      const { routerAddress: router } = yield* decodeRouter(routesData)
      // a router the executor refuses is not worth building calldata for
      yield* requireAllowedRouter(name, request, router)

      // the summary goes back exactly as it came (an object, as decoded above), fields this client does not read included
      const rawSummary = routesData.routeSummary as Readonly<Record<string, unknown>>
      const builtData = yield* dataOf(
        "build",
        yield* exchange(
          name,
          HttpClientRequest.post(`${base}${KYBERSWAP_BUILD_PATH}`, { headers }).pipe(
            HttpClientRequest.bodyUnsafeJson({
              routeSummary: rawSummary,
              sender: context.executor,
              recipient: context.executor,
              ...(request.sender !== undefined ? { origin: request.sender } : {}),
              slippageTolerance: request.slippageBps ?? DEFAULT_SLIPPAGE_BPS,
              deadline: Math.floor(Date.now() / 1000) + BUILD_DEADLINE_SECONDS,
              source: clientId,
            }),
          ),
        ),
      )
      if (builtData === undefined) return undefined
      const built = yield* decodeBuilt({ ...builtData, gas: builtData.gas ?? rawSummary.gas })
      yield* expectSame(name, "build routerAddress", built.routerAddress, router)
      if (built.amountIn !== request.amountIn) return yield* invalidAnswer(name, `build amountIn ${built.amountIn} is not the requested ${request.amountIn}`)
      if (built.transactionValue !== undefined && built.transactionValue !== 0n) {
        return yield* invalidAnswer(name, `build transactionValue ${built.transactionValue}: the executor sends no value to a router`)
      }
      return { amountOut: built.amountOut, router, data: built.data, gas: built.gas }
    })

  // KyberSwap's API has no exact output: it does not compete on exact-output requests
  return externalSource(config, context, { exactInput: fetchAnswer })
}
