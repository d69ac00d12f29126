// The exchange of an admitted request: content type, body (16 KB, within
// BODY_TIMEOUT_MS), JSON, fields (400 / 413), the program under its time
// budget (504 TIMEOUT), the encoded answer. Every log line the program writes
// carries the request id (the program's fiber inherits the request's annotations).
import { Clock, Effect, Either } from "effect"
import type { AppConfigShape } from "../config/index.ts"
import { withBudget } from "./budget.ts"
import { BODY_LIMIT_BYTES, checkContentType, readJsonBody } from "./body.ts"
import { SwapPrograms, Timeout } from "../swap/index.ts"
import type { ApiError } from "./errors.ts"
import { decodeQuoteRequest, decodeSwapRequest } from "./requests.ts"
import { encodeQuoteResponse, encodeSwapResponse } from "./responses.ts"
import { okResponse, type Exchange } from "./respond.ts"

/** The settings the exchange reads (a subset of AppConfig). */
export type ExchangeSettings = Pick<AppConfigShape, "quoteTimeoutMs" | "swapTimeoutMs" | "bodyTimeoutMs">

/** Builds the exchange over the programs: request body in, encoded answer out. */
export const makeExchange = (settings: ExchangeSettings) =>
  Effect.gen(function* () {
    const programs = yield* SwapPrograms
    const quoteTimeout = () => new Timeout({ detail: `quote over ${settings.quoteTimeoutMs} ms` })
    const swapTimeout = () => new Timeout({ detail: `swap over ${settings.swapTimeoutMs} ms` })

    // The steps below are written as plain flatMap chains rather than Effect.gen:
    // this is the per-request hot path, and each generator costs a few µs here.

    const runProgram = (endpoint: "quote" | "swap", body: unknown, x: Exchange): Effect.Effect<string, ApiError> =>
      Effect.flatMap(Clock.currentTimeMillis, (now) => {
        const rules = { executor: programs.executor, nowSeconds: Math.floor(now / 1000) }
        if (endpoint === "quote") {
          return Either.match(decodeQuoteRequest(body, rules), {
            onLeft: Effect.fail,
            onRight: (req) =>
              Effect.flatMap(withBudget(programs.quote(req), settings.quoteTimeoutMs, quoteTimeout), (answer) =>
                encodeQuoteResponse(req, answer, x.requestId)),
          })
        }
        return Either.match(decodeSwapRequest(body, rules), {
          onLeft: Effect.fail,
          onRight: (req) =>
            Effect.flatMap(withBudget(programs.swap(req), settings.swapTimeoutMs, swapTimeout), (answer) =>
              encodeSwapResponse(req, answer, programs.executor, x.requestId)),
        })
      })

    const bodyOptions = { limit: BODY_LIMIT_BYTES, timeoutMs: settings.bodyTimeoutMs }

    // content type, body (16 KB, within its deadline), JSON, fields, program, encoded answer
    return (endpoint: "quote" | "swap", request: Request, x: Exchange): Effect.Effect<Response, ApiError> =>
      Effect.zipRight(checkContentType(request.headers), readJsonBody(request, bodyOptions)).pipe(
        Effect.flatMap((body) => runProgram(endpoint, body, x)),
        Effect.map((body) => okResponse(body, x)),
      )
  })
