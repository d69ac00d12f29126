// The API described once with @effect/platform's HttpApi, over the same
// Schemas the edge decodes requests and encodes answers with, and the OpenAPI
// 3.1 document generated from it (committed as openapi.json; a test fails when
// the code would generate another). The edge itself is the measured Bun.serve
// router of server.ts: this description is not served, it is published.
import { HttpApi, HttpApiEndpoint, HttpApiGroup, HttpApiMiddleware, HttpApiSecurity, OpenApi } from "@effect/platform"
import { Schema } from "effect"
import { BASE_PATH } from "./admission.ts"
import { ERROR_TABLE } from "./errors.ts"
import { GaslessStatusBody, GaslessSubmitBody } from "./gasless-requests.ts"
import { GaslessQuoteBody, QuoteBody, SwapBody } from "./requests.ts"
import {
  EmptyBody,
  ErrorBodyJson,
  GaslessQuoteResponseJson,
  GaslessStatusResponseJson,
  GaslessSubmitResponseJson,
  QuoteResponseJson,
  SourcesResponseJson,
  SwapResponseJson,
  TokensResponseJson,
} from "./response-schemas.ts"

export const API_VERSION = "1.2.0"

/** Every status an error can have, with the codes it carries. */
const errorStatuses = (): ReadonlyMap<number, ReadonlyArray<string>> => {
  const byStatus = new Map<number, string[]>()
  for (const { status, code } of Object.values(ERROR_TABLE)) {
    const codes = byStatus.get(status) ?? []
    if (!codes.includes(code)) codes.push(code)
    byStatus.set(status, codes)
  }
  return new Map([...byStatus].sort((a, b) => a[0] - b[0]))
}

/** The error body at one status, its code narrowed to that status's codes. */
const errorAt = (status: number, codes: ReadonlyArray<string>) =>
  Schema.Struct({
    ...ErrorBodyJson.fields,
    error: Schema.Struct({ ...ErrorBodyJson.fields.error.fields, code: Schema.Literal(...(codes as [string, ...string[]])) }),
  }).annotations({ identifier: `Error${status}`, description: codes.join(", ") })

const RequestHeaders = Schema.Struct({
  "x-request-id": Schema.optional(Schema.String.pipe(Schema.pattern(/^[A-Za-z0-9._-]{1,64}$/))).annotations({
    description: "your own id for this request (1-64 of A-Za-z0-9._-): used as requestId; anything else is replaced",
  }),
})

class ApiKeyAuth extends HttpApiMiddleware.Tag<ApiKeyAuth>()("ApiKeyAuth", {
  security: {
    apiKey: HttpApiSecurity.apiKey({ key: "x-api-key", in: "header" }),
    bearer: HttpApiSecurity.bearer,
  },
}) {}

// every endpoint can answer every error status (the key, the limits and the body come first)
const withErrors = <E extends HttpApiEndpoint.HttpApiEndpoint.Any>(endpoint: E): E => {
  let out = endpoint as unknown as HttpApiEndpoint.HttpApiEndpoint<string, "POST">
  for (const [status, codes] of errorStatuses()) out = out.addError(errorAt(status, codes), { status }) as unknown as typeof out
  return out as unknown as E
}

const quote = withErrors(
  HttpApiEndpoint.post("quote", `${BASE_PATH}/quote`)
    .setHeaders(RequestHeaders)
    .setPayload(QuoteBody)
    .addSuccess(QuoteResponseJson)
    .annotate(OpenApi.Summary, "Price a swap: exact input (amountIn) or exact output (amountOut)")
    .annotate(
      OpenApi.Description,
      "The best route over the on-chain venues and the external aggregators, after gas and fees, at the latest block: the most output for amountIn, or the least input that pays amountOut after every fee (the route executor's own router only: the external aggregators quote exact input). Nothing is built or simulated.",
    ),
)

const swap = withErrors(
  HttpApiEndpoint.post("swap", `${BASE_PATH}/swap`)
    .setHeaders(RequestHeaders)
    .setPayload(SwapBody)
    .addSuccess(SwapResponseJson)
    .annotate(OpenApi.Summary, "Price a swap again and build its transaction")
    .annotate(
      OpenApi.Description,
      "Priced at the head block, encoded as a call to the route executor (execute for exact input, executeExactOutput for exact output) and simulated from the sender with the balance and allowance it will have. Send approval first when it is not null and the allowance is short, then tx exactly as returned. With a quoteId, priceChangeBps compares the output (exact input) or the input (exact output) with the quote's.",
    ),
)

const sources = withErrors(
  HttpApiEndpoint.post("sources", `${BASE_PATH}/sources`)
    .setHeaders(RequestHeaders)
    .setPayload(EmptyBody)
    .addSuccess(SourcesResponseJson)
    .annotate(OpenApi.Summary, "The venues and aggregators routes may use")
    .annotate(OpenApi.Description, "Their names are what includeSources, excludeSources and route[].hops[].dex use."),
)

const tokens = withErrors(
  HttpApiEndpoint.post("tokens", `${BASE_PATH}/tokens`)
    .setHeaders(RequestHeaders)
    .setPayload(EmptyBody)
    .addSuccess(TokensResponseJson)
    .annotate(OpenApi.Summary, "The tokens routes may use")
    .annotate(OpenApi.Description, "Every token held by a published pool, with its reference price when a feed gives one."),
)

const GASLESS_OFF = "Offered when the service has a relayer; otherwise 404 NOT_FOUND (gasless swaps are not enabled)."

const gaslessQuote = withErrors(
  HttpApiEndpoint.post("gaslessQuote", `${BASE_PATH}/gasless/quote`)
    .setHeaders(RequestHeaders)
    .setPayload(GaslessQuoteBody)
    .addSuccess(GaslessQuoteResponseJson)
    .annotate(OpenApi.Summary, "Price a gasless swap and give the order to sign")
    .annotate(
      OpenApi.Description,
      `The swap priced as /quote prices it, over the venues only (the relayer routes anew when it sends), with the relayer's fee: the gas of the relayed transaction at the block's base fee, priced in tokenOut, plus the service's margin; amountOut and minAmountOut are net of it too. order.typedData is the EIP-712 SwapOrder to sign (a fresh random nonce, the request's deadline); permit, when not null, is the EIP-2612 permit to sign with it so that no approval is needed. tokenIn must be an ERC-20. A relayer short of USDC answers 503 UNAVAILABLE with Retry-After. ${GASLESS_OFF}`,
    ),
)

const gaslessSubmit = withErrors(
  HttpApiEndpoint.post("gaslessSubmit", `${BASE_PATH}/gasless/submit`)
    .setHeaders(RequestHeaders)
    .setPayload(GaslessSubmitBody)
    .addSuccess(GaslessSubmitResponseJson)
    .annotate(OpenApi.Summary, "Hand a signed order to the relayer")
    .annotate(
      OpenApi.Description,
      `The order's signature must recover to order.sender (or its ERC-1271 wallet accept it) for this chain and executor; its deadline must be ahead and its nonce unused; the permit's signature must recover to the sender. The order is priced again at the head and simulated with the signatures from the relayer account, then accepted: the relayer sends it, pays the gas and takes at most maxRelayerFee of tokenOut. The same signed order again answers the same tradeHash and is sent once. 400 names the field; 409 SIMULATION_FAILED when it cannot pay its terms at the head. ${GASLESS_OFF}`,
    ),
)

const gaslessStatus = withErrors(
  HttpApiEndpoint.post("gaslessStatus", `${BASE_PATH}/gasless/status`)
    .setHeaders(RequestHeaders)
    .setPayload(GaslessStatusBody)
    .addSuccess(GaslessStatusResponseJson)
    .annotate(OpenApi.Summary, "Follow a gasless order")
    .annotate(OpenApi.Description, `The order's status, its transactions and, once confirmed, what was paid. A tradeHash unknown, or submitted with another API key, is 404 NOT_FOUND. ${GASLESS_OFF}`),
)

const HEADERS = {
  requestId: { description: "the body's requestId", schema: { type: "string" } },
  limit: { description: "the key's requests a minute (once the key was accepted)", schema: { type: "integer" } },
  remaining: { description: "requests left in the key's bucket (once the key was accepted)", schema: { type: "integer" } },
  reset: { description: "seconds until the key's bucket is full again (once the key was accepted)", schema: { type: "integer" } },
  retryAfter: { description: "seconds to wait before retrying", schema: { type: "integer" } },
  allow: { description: "the methods allowed: POST", schema: { type: "string" } },
} as const

const DECODE_ERROR_SCHEMAS = ["HttpApiDecodeError", "Issue", "PropertyKey"]

/**
 * What the generator cannot be told: the response headers (on every response, and the
 * status-specific ones); the error bodies as shared components; and no HttpApi decode error,
 * since the edge answers every invalid request with the API's own 400 body.
 */
const finish = (spec: Record<string, any>): Record<string, any> => {
  const schemas: Record<string, unknown> = spec.components.schemas
  for (const name of DECODE_ERROR_SCHEMAS) delete schemas[name]
  for (const item of Object.values<Record<string, any>>(spec.paths ?? {})) {
    for (const operation of Object.values<Record<string, any>>(item)) {
      // a quote or swap body fixes exactly one amount: amountIn (exact input) or amountOut (exact output)
      const payload = operation.requestBody?.content?.["application/json"]?.schema
      if (payload?.properties?.amountIn !== undefined && payload.properties.amountOut !== undefined) {
        payload.oneOf = [{ required: ["amountIn"] }, { required: ["amountOut"] }]
      }
      for (const [status, response] of Object.entries<Record<string, any>>(operation.responses ?? {})) {
        const content = response.content?.["application/json"]
        if (status !== "200" && content !== undefined) {
          const options: unknown[] = content.schema.anyOf ?? [content.schema]
          const body = options.find((o) => JSON.stringify(o).indexOf("HttpApiDecodeError") === -1)
          schemas[`Error${status}`] = body
          content.schema = { $ref: `#/components/schemas/Error${status}` }
          response.description = `${(body as any).properties.error.properties.code.enum.join(", ")}: see the error codes`
        }
        const headers: Record<string, unknown> = { "X-Request-Id": HEADERS.requestId }
        if (status !== "401" && status !== "404" && status !== "405") {
          headers["X-RateLimit-Limit"] = HEADERS.limit
          headers["X-RateLimit-Remaining"] = HEADERS.remaining
          headers["X-RateLimit-Reset"] = HEADERS.reset
        }
        if (status === "429" || status === "503") headers["Retry-After"] = HEADERS.retryAfter
        if (status === "405") headers["Allow"] = HEADERS.allow
        response.headers = headers
      }
    }
  }
  return spec
}

export const Api = HttpApi.make("arc-swap")
  .add(HttpApiGroup.make("swap", { topLevel: true }).add(quote).add(swap).add(sources).add(tokens).add(gaslessQuote).add(gaslessSubmit).add(gaslessStatus).middleware(ApiKeyAuth))
  .annotateContext(
    OpenApi.annotations({
      title: "Arc swap aggregator API",
      version: API_VERSION,
      description:
        "Quotes, exact input (amountIn) or exact output (amountOut), and ready-to-sign swap transactions on Arc (chain id 5042) or Arc testnet (5042002), whichever the service serves (every answer's chainId), routed over on-chain venues and external aggregators; and gasless swaps, where the sender signs an order and the service's relayer sends it, paying the gas and taking it back in tokenOut (when the service has a relayer). Amounts are integer strings in a token's smallest unit; addresses are EIP-55 checksummed in answers. Every endpoint is POST with a JSON body of at most 16 KB and an API key.",
      transform: finish,
    }),
  )

/** The OpenAPI 3.1 document of the API, as committed in openapi.json. */
export const openApiDocument = (): Record<string, unknown> => OpenApi.fromApi(Api) as unknown as Record<string, unknown>

/** The document as the file holds it. */
export const openApiJson = (): string => `${JSON.stringify(openApiDocument(), null, 2)}\n`
