// The edge: one Effect program per request, from a web Request to a web Response.
// In order: request id → route (404 NOT_FOUND) → switch (404 API_DISABLED) →
// method (405) → server in-flight cap (503 OVERLOADED) → declared body length
// (413) → API key (401, or 429 RATE_LIMITED past the per-IP bad-key limit) →
// key's rate (429 RATE_LIMITED) → key's in-flight slots (429 CONCURRENCY_LIMITED)
// → content type, body (400 past BODY_TIMEOUT_MS), JSON, fields (400 / 413) →
// program under its time budget (504 TIMEOUT) → encoded answer. Every response
// carries X-Request-Id equal to the body's requestId; responses after a valid key
// carry X-RateLimit-Limit/Remaining.
// Every log line written while a request runs carries its request id (annotation
// `requestId`), and every answer is timed into http_request_duration_seconds.
// The limits may be shared (Redis): when their store cannot be reached and the
// service is set to refuse, the answer is 503 UNAVAILABLE.
import { Cause, Clock, Effect, Either } from "effect"
import { randomUUID } from "node:crypto"
import {
  ApiKeys,
  BadKeyLimits,
  InFlight,
  makeInFlight,
  RateLimits,
  type KeyRecord,
  type LimitStoreUnavailable,
} from "../access/index.ts"
import type { AppConfigShape } from "../config.ts"
import { makeBudgetRunner } from "./budget.ts"
import { BODY_LIMIT_BYTES, checkContentType, checkDeclaredLength, readJsonBody } from "./body.ts"
import {
  ApiDisabled,
  ConcurrencyLimited,
  Internal,
  MethodNotAllowed,
  NotFound,
  Overloaded,
  RateLimited,
  Timeout,
  Unauthorized,
  Unavailable,
  errorBody,
  renderError,
  type ApiError,
} from "./errors.ts"
import { observeRequest, type EndpointLabel } from "./metrics.ts"
import { SwapPrograms } from "./programs.ts"
import { decodeQuoteRequest, decodeSwapRequest } from "./requests.ts"
import { encodeQuoteResponse, encodeSwapResponse } from "./responses.ts"

export const BASE_PATH = "/api/v1"
const QUOTE_PATH = `${BASE_PATH}/quote`
const SWAP_PATH = `${BASE_PATH}/swap`

/** The settings the edge reads (a subset of AppConfig). */
export type EdgeSettings = Pick<AppConfigShape, "apiDisabled" | "quoteTimeoutMs" | "swapTimeoutMs" | "bodyTimeoutMs" | "maxInFlight" | "badKeyLimitPerMinute">

export interface Edge {
  /** Answers one request; never fails. `ip` is the client's address (per-IP bad-key limit). */
  readonly handle: (request: Request, ip: string) => Effect.Effect<Response>
  /** Switches every endpoint to 404 API_DISABLED (true) or back (false). */
  readonly setDisabled: (disabled: boolean) => void
  readonly isDisabled: () => boolean
}

/** Per-request state the error renderer needs. */
interface Exchange {
  readonly requestId: string
  /** set once a key is accepted: the limit headers go on every later response */
  rate: { readonly limit: number; readonly remaining: number } | undefined
  /** the spec's code of the answer ("OK" until an error is rendered) */
  code: string
}

const pathOf = (url: string): string => {
  // absolute URL from the server: scheme://host[:port]/path?query
  const start = url.indexOf("/", url.indexOf("//") + 2)
  if (start === -1) return "/"
  const query = url.indexOf("?", start)
  const hash = url.indexOf("#", start)
  const end = query === -1 ? (hash === -1 ? url.length : hash) : query
  return url.slice(start, end)
}

/** The key a request presents: x-api-key, else Authorization: Bearer. Nothing is trimmed. */
export const presentedKey = (headers: Headers): { readonly key: string } | { readonly problem: string } => {
  const header = headers.get("x-api-key")
  if (header !== null) return { key: header }
  const authorization = headers.get("authorization")
  if (authorization === null) return { problem: "missing API key: send it as x-api-key: <API_KEY> or Authorization: Bearer <API_KEY>" }
  // one space after the scheme; anything else around the key makes it a wrong key
  if (authorization.length > 7 && authorization.slice(0, 7).toLowerCase() === "bearer ") return { key: authorization.slice(7) }
  return { problem: "Authorization: must be Bearer <API_KEY>" }
}

const baseHeaders = (x: Exchange): Record<string, string> => {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    "cache-control": "no-store",
    "x-request-id": x.requestId,
  }
  if (x.rate !== undefined) {
    headers["x-ratelimit-limit"] = String(x.rate.limit)
    headers["x-ratelimit-remaining"] = String(x.rate.remaining)
  }
  return headers
}

const errorResponse = (error: ApiError, x: Exchange): Response => {
  const rendered = renderError(error)
  x.code = rendered.code
  return new Response(errorBody(rendered, x.requestId), { status: rendered.status, headers: { ...baseHeaders(x), ...rendered.headers } })
}

const okResponse = (body: string, x: Exchange): Response => new Response(body, { status: 200, headers: baseHeaders(x) })

/** Builds the edge over the access services and the programs. */
export const makeEdge = (settings: EdgeSettings) =>
  Effect.gen(function* () {
    const keys = yield* ApiKeys
    const rates = yield* RateLimits
    const badKeys = yield* BadKeyLimits
    const inFlight = yield* InFlight
    const programs = yield* SwapPrograms
    const withBudget = makeBudgetRunner(yield* Effect.runtime<never>())
    const serverSlots = makeInFlight()
    let disabled = settings.apiDisabled
    const quoteTimeout = () => new Timeout({ detail: `quote over ${settings.quoteTimeoutMs} ms` })
    const swapTimeout = () => new Timeout({ detail: `swap over ${settings.swapTimeoutMs} ms` })

    // The steps below are written as plain flatMap chains rather than Effect.gen:
    // this is the per-request hot path, and each generator costs a few µs here.

    // the shared limit store is unreachable and set to refuse
    const limitsDown = (e: LimitStoreUnavailable) => new Unavailable({ detail: e.message, retryAfterSeconds: 1 })

    // a request without a valid key: 401, or 429 once this IP has sent too many
    const refuse = (ip: string, message: string) =>
      Effect.flatMap(Effect.mapError(badKeys.take(ip, settings.badKeyLimitPerMinute), limitsDown), (d) =>
        Effect.fail(
          d.allowed
            ? new Unauthorized({ message })
            : new RateLimited({ message: "too many requests with a missing or bad API key from this address", retryAfterSeconds: d.retryAfterSeconds }),
        ))

    const authenticate = (request: Request, ip: string): Effect.Effect<KeyRecord, Unauthorized | RateLimited | Unavailable> => {
      const presented = presentedKey(request.headers)
      if ("problem" in presented) return refuse(ip, presented.problem)
      return Effect.catchAll(keys.verify(presented.key), (e): Effect.Effect<never, Unauthorized | RateLimited | Unavailable> =>
        e._tag === "KeyRejected"
          ? refuse(ip, e.reason === "revoked" ? "API key revoked" : "invalid API key")
          : Effect.fail(new Unavailable({ detail: e.message })))
    }

    // per-key requests a minute; the limit headers go on this and every later response
    const admitRate = (key: KeyRecord, x: Exchange): Effect.Effect<void, RateLimited | Unavailable> =>
      Effect.flatMap(Effect.mapError(rates.take(key.id, key.rpm), limitsDown), (rate) => {
        x.rate = { limit: rate.limit, remaining: rate.remaining }
        return rate.allowed
          ? Effect.void
          : Effect.fail(new RateLimited({ message: `over this API key's limit of ${key.rpm} requests a minute`, retryAfterSeconds: rate.retryAfterSeconds }))
      })

    const runProgram = (endpoint: "quote" | "swap", body: unknown, x: Exchange): Effect.Effect<string, ApiError> =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => {
        const rules = { executor: programs.executor, nowSeconds: Math.floor(now / 1000) }
        if (endpoint === "quote") {
          return Either.match(decodeQuoteRequest(body, rules), {
            onLeft: Effect.fail,
            onRight: (req) =>
              Effect.flatMap(withBudget(Effect.annotateLogs(programs.quote(req), "requestId", x.requestId), settings.quoteTimeoutMs, quoteTimeout), (answer) =>
                encodeQuoteResponse(req, answer, x.requestId)),
          })
        }
        return Either.match(decodeSwapRequest(body, rules), {
          onLeft: Effect.fail,
          onRight: (req) =>
            Effect.flatMap(withBudget(Effect.annotateLogs(programs.swap(req), "requestId", x.requestId), settings.swapTimeoutMs, swapTimeout), (answer) =>
              encodeSwapResponse(req, answer, programs.executor, x.requestId)),
        })
      })

    const bodyOptions = { limit: BODY_LIMIT_BYTES, timeoutMs: settings.bodyTimeoutMs }

    // content type, body (16 KB, within its deadline), JSON, fields, program, encoded answer
    const exchange = (endpoint: "quote" | "swap", request: Request, x: Exchange): Effect.Effect<Response, ApiError> =>
      Effect.zipRight(checkContentType(request.headers), readJsonBody(request, bodyOptions)).pipe(
        Effect.flatMap((body) => runProgram(endpoint, body, x)),
        Effect.map((body) => okResponse(body, x)),
      )

    const pipeline = (request: Request, ip: string, path: string, endpoint: EndpointLabel, x: Exchange): Effect.Effect<Response, ApiError> => {
      if (endpoint === "other") return Effect.fail(new NotFound({ path: path.length > 200 ? `${path.slice(0, 200)}…` : path }))
      if (disabled) return Effect.fail(new ApiDisabled())
      if (request.method !== "POST") return Effect.fail(new MethodNotAllowed({ method: request.method }))
      const admitted = checkDeclaredLength(request.headers).pipe(
        Effect.zipRight(authenticate(request, ip)),
        Effect.tap((key) => admitRate(key, x)),
        Effect.flatMap((key) =>
          Effect.mapError(inFlight.withSlot(key.id, key.concurrency, exchange(endpoint, request, x)), (e) =>
            e._tag === "InFlightFull" ? new ConcurrencyLimited({ max: e.max }) : e._tag === "LimitStoreUnavailable" ? limitsDown(e) : e)),
      )
      return Effect.mapError(serverSlots.withSlot("server", settings.maxInFlight, admitted), (e) =>
        e._tag === "InFlightFull" ? new Overloaded({ retryAfterSeconds: 1 }) : e)
    }

    const logged = (request: Request, x: Exchange, cause: Cause.Cause<ApiError>): Effect.Effect<Response> => {
      const failure = Cause.failureOption(cause)
      if (failure._tag === "Some") {
        const error = failure.value
        const response = errorResponse(error, x)
        if (error._tag !== "Internal" && error._tag !== "Unavailable" && error._tag !== "Timeout") return Effect.succeed(response)
        const detail = error.detail === undefined ? "" : `: ${error.detail}`
        return Effect.as(Effect.annotateLogs(Effect.logWarning(`${request.method} ${pathOf(request.url)}: ${error._tag}${detail}`), { requestId: x.requestId }), response)
      }
      // a defect anywhere (a program dying included) is a 502 INTERNAL, logged with its cause
      return Effect.as(
        Effect.annotateLogs(Effect.logError(`${request.method} ${pathOf(request.url)}: defect`, Cause.pretty(cause)), { requestId: x.requestId }),
        errorResponse(new Internal({}), x),
      )
    }

    const handle = (request: Request, ip: string): Effect.Effect<Response> =>
      Effect.suspend(() => {
        const started = performance.now()
        const x: Exchange = { requestId: randomUUID(), rate: undefined, code: "OK" }
        const path = pathOf(request.url)
        const endpoint: EndpointLabel = path === QUOTE_PATH ? "quote" : path === SWAP_PATH ? "swap" : "other"
        return Effect.catchAllCause(pipeline(request, ip, path, endpoint, x), (cause) => logged(request, x, cause)).pipe(
          Effect.tap((response) => observeRequest(endpoint, response.status, x.code, (performance.now() - started) / 1000)),
          Effect.annotateLogs("requestId", x.requestId),
        )
      })

    return {
      handle,
      setDisabled: (value: boolean) => {
        disabled = value
      },
      isDisabled: () => disabled,
    } satisfies Edge
  })
