// The edge: one Effect program per request, from a web Request to a web Response.
// In order: request id → admission (admission.ts: route, switch, method, server
// and key slots, declared length, key, rate) → exchange (exchange.ts: content
// type, body, JSON, fields, the program under its budget, the encoded answer) →
// the response or the failure's (respond.ts). Every response carries
// X-Request-Id equal to the body's requestId: the client's own X-Request-Id when
// it is a safe token (1 to 64 of A-Za-z0-9._-), else a fresh UUID. Responses
// after a valid key carry X-RateLimit-Limit/Remaining/Reset.
// Every log line written while a request runs carries its request id (annotation
// `requestId`, on the request's own fiber), and every answer is timed into
// http_request_duration_seconds.
import { Effect, FiberRef, HashMap } from "effect"
import type { AppConfigShape } from "../config/index.ts"
import { endpointOf, makeAdmission, pathOf } from "./admission.ts"
import { makeExchange } from "./exchange.ts"
import { observeRequest, type EndpointLabel } from "./metrics.ts"
import { failureResponse, type Exchange } from "./respond.ts"

export { BASE_PATH, presentedKey } from "./admission.ts"

const SAFE_REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/

/** The request's id: the client's X-Request-Id when it is a safe token, else a fresh UUID. */
const requestIdOf = (headers: Headers): string => {
  const given = headers.get("x-request-id")
  return given !== null && given.length <= 64 && SAFE_REQUEST_ID.test(given) ? given : crypto.randomUUID()
}

/** The settings the edge reads (a subset of AppConfig). */
export type EdgeSettings = Pick<AppConfigShape, "apiDisabled" | "quoteTimeoutMs" | "swapTimeoutMs" | "bodyTimeoutMs" | "maxInFlight" | "badKeyLimitPerMinute">

export interface Edge {
  /**
   * Answers one request; fails only when interrupted for another reason than its budget (its
   * client gone, the server stopping). `ip` gives the client's address (per-IP bad-key limit),
   * asked only for a request refused for its key. Run it on an uninterruptible fiber of its own
   * (the request runner's): it annotates that fiber's log lines with the request id, and a
   * program past its budget interrupts that fiber, which then answers 504 TIMEOUT.
   */
  readonly handle: (request: Request, ip: () => string) => Effect.Effect<Response>
  /** Switches every endpoint to 404 API_DISABLED (true) or back (false). */
  readonly setDisabled: (disabled: boolean) => void
  readonly isDisabled: () => boolean
}

/** Builds the edge over the access services and the programs. */
export const makeEdge = (settings: EdgeSettings) =>
  Effect.gen(function* () {
    const admission = yield* makeAdmission(settings)
    const exchange = yield* makeExchange(settings)

    // a plain chain rather than Effect.gen: this is the per-request hot path
    const handle = (request: Request, ip: () => string): Effect.Effect<Response> =>
      Effect.withFiberRuntime((fiber) => {
        const started = performance.now()
        const x: Exchange = { requestId: requestIdOf(request.headers), rate: undefined, code: "OK" }
        const path = pathOf(request.url)
        const endpoint: EndpointLabel = endpointOf(path)
        // the request id annotates every log line from here on: handle runs on a fiber of its own
        // per request (the request runner's, or the platform's behind HttpRouter), which ends with
        // the answer, so nothing is put back (setting and restoring cost ~3.5 µs a request)
        const annotations = fiber.getFiberRef(FiberRef.currentLogAnnotations)
        const answered = (response: Response) => {
          observeRequest(endpoint, response.status, x.code, (performance.now() - started) / 1000)
          return Effect.succeed(response)
        }
        return Effect.zipRight(
          FiberRef.set(FiberRef.currentLogAnnotations, HashMap.set(annotations, "requestId", x.requestId)),
          // interruptible only within admission: an interrupted request (its budget run out) still answers
          Effect.matchCauseEffect(admission.admit(request, ip, path, endpoint, x, exchange), {
            onFailure: (cause) => Effect.flatMap(failureResponse(request, path, x, cause), answered),
            onSuccess: answered,
          }),
        )
      })

    return {
      handle,
      setDisabled: admission.setDisabled,
      isDisabled: admission.isDisabled,
    } satisfies Edge
  })
