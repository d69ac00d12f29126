// The edge's answers: the headers every response carries (X-Request-Id equal to
// the body's requestId; X-RateLimit-Limit/Remaining/Reset once a key was accepted),
// the error and ok responses, and the answer to a failed request, logged when
// it is the service's fault (Internal, Unavailable, Timeout, a defect).
import { Cause, Effect } from "effect"
import { Internal } from "../swap/index.ts"
import { errorBody, renderError, type ApiError } from "./errors.ts"

/** Per-request state the error renderer needs. */
export interface Exchange {
  readonly requestId: string
  /** set once a key is accepted: the limit headers go on every later response */
  rate: { readonly limit: number; readonly remaining: number; readonly resetSeconds: number } | undefined
  /** the accepted key's id, once a key was accepted (a gasless order belongs to it) */
  keyId?: string
  /** the spec's code of the answer ("OK" until an error is rendered) */
  code: string
  /** set when the program's budget ran out: the request's fiber is interrupted and answers this */
  timedOut?: ApiError
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
    headers["x-ratelimit-reset"] = String(x.rate.resetSeconds)
  }
  return headers
}

const errorResponse = (error: ApiError, x: Exchange): Response => {
  const rendered = renderError(error)
  x.code = rendered.code
  return new Response(errorBody(rendered, x.requestId), { status: rendered.status, headers: { ...baseHeaders(x), ...rendered.headers } })
}

export const okResponse = (body: string, x: Exchange): Response => new Response(body, { status: 200, headers: baseHeaders(x) })

/**
 * The answer to a request that failed at `path`: its error's response, or 502 INTERNAL for a defect.
 * An interrupted request answers its budget's Timeout when that is why it was interrupted; otherwise
 * (its client gone, the server stopping) the interruption goes on.
 */
export const failureResponse = (request: Request, path: string, x: Exchange, cause: Cause.Cause<ApiError>): Effect.Effect<Response> => {
  if (Cause.isInterruptedOnly(cause)) return x.timedOut === undefined ? Effect.failCause(cause as Cause.Cause<never>) : failureResponse(request, path, x, Cause.fail(x.timedOut))
  const failure = Cause.failureOption(cause)
  if (failure._tag === "Some") {
    const error = failure.value
    const response = errorResponse(error, x)
    if (error._tag !== "Internal" && error._tag !== "Unavailable" && error._tag !== "Timeout") return Effect.succeed(response)
    const detail = error.detail === undefined ? "" : `: ${error.detail}`
    return Effect.as(Effect.annotateLogs(Effect.logWarning(`${request.method} ${path}: ${error._tag}${detail}`), { requestId: x.requestId }), response)
  }
  // a defect anywhere (a program dying included) is a 502 INTERNAL, logged with its cause
  return Effect.as(
    Effect.annotateLogs(Effect.logError(`${request.method} ${path}: defect`, Cause.pretty(cause)), { requestId: x.requestId }),
    errorResponse(new Internal({}), x),
  )
}
