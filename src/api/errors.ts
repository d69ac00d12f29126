// Errors are data. Each failure the API can answer is a tagged error; one table
// maps each to the spec's HTTP status and code, and `renderError` gives the
// client-facing message, reason and extra headers. Programs fail with the
// QuoteError / SwapError subsets (defined with the programs); the edge adds the rest.
import { Data } from "effect"

// the programs' errors are theirs (src/swap); the edge adds its own and maps them all
import type { GaslessError } from "../swap/index.ts"
import { ERROR_CODES, type ErrorBodyJson } from "./response-schemas.ts"

// --- what the edge adds --------------------------------------------------------

export class Unauthorized extends Data.TaggedError("Unauthorized")<{ readonly message: string }> {}
export class NotFound extends Data.TaggedError("NotFound")<{ readonly path: string }> {}
export class ApiDisabled extends Data.TaggedError("ApiDisabled")<{}> {}
export class MethodNotAllowed extends Data.TaggedError("MethodNotAllowed")<{ readonly method: string }> {}
export class PayloadTooLarge extends Data.TaggedError("PayloadTooLarge")<{ readonly limit: number }> {}
/** The body did not arrive in full within the time allowed for reading it. */
export class BodyTimeout extends Data.TaggedError("BodyTimeout")<{ readonly ms: number }> {}
export class RateLimited extends Data.TaggedError("RateLimited")<{ readonly message: string; readonly retryAfterSeconds: number }> {}
export class ConcurrencyLimited extends Data.TaggedError("ConcurrencyLimited")<{ readonly max: number }> {}
export class Overloaded extends Data.TaggedError("Overloaded")<{ readonly retryAfterSeconds: number }> {}

export type ApiError =
  | GaslessError
  | Unauthorized
  | NotFound
  | ApiDisabled
  | MethodNotAllowed
  | PayloadTooLarge
  | BodyTimeout
  | RateLimited
  | ConcurrencyLimited
  | Overloaded

/** The spec's error codes (the error body's Schema lists them). */
export type ErrorCode = (typeof ERROR_CODES)[number]

/** The spec's Errors table: every tagged error → HTTP status and code. */
export const ERROR_TABLE = {
  InvalidRequest: { status: 400, code: "INVALID_REQUEST" },
  Unauthorized: { status: 401, code: "UNAUTHORIZED" },
  NotFound: { status: 404, code: "NOT_FOUND" },
  OrderNotFound: { status: 404, code: "NOT_FOUND" },
  GaslessDisabled: { status: 404, code: "NOT_FOUND" },
  ApiDisabled: { status: 404, code: "API_DISABLED" },
  MethodNotAllowed: { status: 405, code: "METHOD_NOT_ALLOWED" },
  SimulationFailed: { status: 409, code: "SIMULATION_FAILED" },
  PayloadTooLarge: { status: 413, code: "INVALID_REQUEST" },
  BodyTimeout: { status: 400, code: "INVALID_REQUEST" },
  NoRoute: { status: 422, code: "NO_ROUTE" },
  RateLimited: { status: 429, code: "RATE_LIMITED" },
  ConcurrencyLimited: { status: 429, code: "CONCURRENCY_LIMITED" },
  Internal: { status: 502, code: "INTERNAL" },
  Overloaded: { status: 503, code: "OVERLOADED" },
  Unavailable: { status: 503, code: "UNAVAILABLE" },
  Timeout: { status: 504, code: "TIMEOUT" },
} as const satisfies Record<ApiError["_tag"], { readonly status: number; readonly code: ErrorCode }>

export interface RenderedError {
  readonly status: number
  readonly code: ErrorCode
  readonly message: string
  readonly reason?: string
  /** extra response headers (Retry-After, Allow, Connection) */
  readonly headers: Readonly<Record<string, string>>
}

const NONE: Readonly<Record<string, string>> = {}

/** The longest SIMULATION_FAILED reason sent: a revert string is whatever the reverting contract chose. */
export const MAX_REASON_LENGTH = 200

/** `reason` cut to MAX_REASON_LENGTH characters (never inside one), the last one "…" when cut. */
const cappedReason = (reason: string): string => {
  if (reason.length <= MAX_REASON_LENGTH) return reason
  const characters = Array.from(reason)
  return characters.length <= MAX_REASON_LENGTH ? reason : `${characters.slice(0, MAX_REASON_LENGTH - 1).join("")}…`
}

const describe = (e: ApiError): { message: string; reason?: string; headers?: Record<string, string> } => {
  switch (e._tag) {
    case "InvalidRequest":
    case "Unauthorized":
    case "OrderNotFound":
      return { message: e.message }
    case "NotFound":
      return { message: `no endpoint at ${e.path}: use POST /api/v1/quote, /swap, /sources or /tokens (or /gasless/quote, /gasless/submit, /gasless/status)` }
    case "GaslessDisabled":
      return { message: "gasless swaps are not enabled on this service: it has no relayer (RELAYER_PRIVATE_KEY)" }
    case "ApiDisabled":
      return { message: "the API is temporarily switched off; retry later" }
    case "MethodNotAllowed":
      return { message: `method ${e.method} is not allowed: use POST with a JSON body`, headers: { allow: "POST" } }
    case "SimulationFailed": {
      // an absent message reads as "" on an Error
      if (e.reason === undefined) return { message: e.message || "the transaction would revert" }
      const reason = cappedReason(e.reason)
      return { message: e.message || `the transaction would revert: ${reason}`, reason }
    }
    case "PayloadTooLarge":
      // the rest of the body is not read, so the connection cannot carry another request
      return { message: `body: larger than ${e.limit} bytes`, headers: { connection: "close" } }
    case "BodyTimeout":
      // the rest of the body may still be on its way, so the connection cannot carry another request
      return { message: `body: not received within ${e.ms} ms`, headers: { connection: "close" } }
    case "NoRoute":
      return { message: e.message || "no route for this pair and amount" }
    case "RateLimited":
      return { message: e.message, headers: { "retry-after": String(e.retryAfterSeconds) } }
    case "ConcurrencyLimited":
      return { message: `more than ${e.max} requests in flight on this API key; wait for one to finish`, headers: { "retry-after": "1" } }
    case "Internal":
      return { message: "the route could not be prepared" }
    case "Overloaded":
      return { message: "the API is busy", headers: { "retry-after": String(e.retryAfterSeconds) } }
    case "Unavailable":
      return { message: e.message || "routing is briefly unavailable", headers: { "retry-after": String(e.retryAfterSeconds ?? 1) } }
    case "Timeout":
      return { message: "routing took too long" }
  }
}

export const renderError = (e: ApiError): RenderedError => {
  const { status, code } = ERROR_TABLE[e._tag]
  const d = describe(e)
  return d.reason === undefined
    ? { status, code, message: d.message, headers: d.headers ?? NONE }
    : { status, code, message: d.message, reason: d.reason, headers: d.headers ?? NONE }
}

/** The spec's error body: { error: { code, message, reason? }, requestId }. */
export const errorBody = (rendered: RenderedError, requestId: string): string => {
  const body: typeof ErrorBodyJson.Encoded = {
    error: rendered.reason === undefined
      ? { code: rendered.code, message: rendered.message }
      : { code: rendered.code, message: rendered.message, reason: rendered.reason },
    requestId,
  }
  return JSON.stringify(body)
}
