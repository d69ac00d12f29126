// The exchange of an admitted request: content type, body (16 KB, within
// BODY_TIMEOUT_MS), JSON, fields (400 / 413), the program under its time
// budget (504 TIMEOUT), the encoded answer; a quote's signed quoteId, and a
// swap's priceChangeBps against the quoteId it names. Every log line the program writes
// carries the request id (the program runs on the request's own fiber).
import { Effect, Either, Option } from "effect"
import type { AppConfigShape } from "../config/index.ts"
import { makeBudget, withBudget } from "./budget.ts"
import { BODY_LIMIT_BYTES, contentTypeProblem, readJsonBody } from "./body.ts"
import { ApiKeys } from "../access/index.ts"
import { decodeQuoteId, encodeQuoteId, GaslessDisabled, GaslessPrograms, Internal, InvalidRequest, priceChangeOf, QUOTE_ID_TTL_SECONDS, sameRequest, SwapPrograms, Timeout, type QuotedTerms } from "../swap/index.ts"
import { decodeGaslessStatus, decodeGaslessSubmit } from "./gasless-requests.ts"
import { encodeGaslessQuoteResponse, encodeGaslessStatusResponse, encodeGaslessSubmitResponse } from "./gasless-responses.ts"
import type { ApiError } from "./errors.ts"
import type { ApiEndpoint } from "./metrics.ts"
import { decodeEmptyBody, decodeGaslessQuoteRequest, decodeQuoteRequest, decodeSwapRequest, type SwapRequestWithQuote } from "./requests.ts"
import { encodeQuoteResponse, encodeSourcesResponse, encodeSwapResponse, encodeTokensResponse } from "./responses.ts"
import { okResponse, type Exchange } from "./respond.ts"
import type { QuoteRequest, QuoteResponse } from "../domain/index.ts"

/** The settings the exchange reads (a subset of AppConfig). */
export type ExchangeSettings = Pick<AppConfigShape, "quoteTimeoutMs" | "swapTimeoutMs" | "bodyTimeoutMs">

/** Builds the exchange over the programs: request body in, encoded answer out. */
export const makeExchange = (settings: ExchangeSettings) =>
  Effect.gen(function* () {
    const programs = yield* SwapPrograms
    // read once here rather than asked for on every request (an Effect step each)
    const clock = yield* Effect.clock
    // present only when the service has a relayer
    const gasless = yield* Effect.serviceOption(GaslessPrograms)
    const keys = yield* ApiKeys
    // quote ids are signed with a key every instance sharing the key store derives alike
    const quoteIdKey = keys.derivedKey("quoteId")
    const quoteBudget = makeBudget(settings.quoteTimeoutMs, () => new Timeout({ detail: `quote over ${settings.quoteTimeoutMs} ms` }))
    const swapBudget = makeBudget(settings.swapTimeoutMs, () => new Timeout({ detail: `swap over ${settings.swapTimeoutMs} ms` }))

    // The steps below are written as plain flatMap chains rather than Effect.gen:
    // this is the per-request hot path, and each generator costs a few µs here.

    const issueQuoteId = (req: QuoteRequest, answer: QuoteResponse, nowSeconds: number) =>
      encodeQuoteId(quoteIdKey, {
        chainId: req.chainId,
        tradeType: req.tradeType,
        tokenIn: req.tokenIn,
        tokenOut: req.tokenOut,
        amountIn: answer.amountIn,
        feeBps: req.feeBps,
        feeRecipient: req.feeRecipient,
        slippageBps: req.slippageBps,
        amountOut: answer.amountOut,
        blockNumber: answer.blockNumber,
        issuedAtSeconds: nowSeconds,
      })

    /** The quoted terms a swap request names, or why its quoteId is refused; undefined without one. */
    const quotedTerms = (req: SwapRequestWithQuote, nowSeconds: number): Either.Either<QuotedTerms | undefined, InvalidRequest> => {
      if (req.quoteId === undefined) return Either.right(undefined)
      const decoded = decodeQuoteId(quoteIdKey, req.quoteId, nowSeconds, QUOTE_ID_TTL_SECONDS)
      if (!decoded.ok) return Either.left(new InvalidRequest({ message: `quoteId: ${decoded.problem}` }))
      const differs = sameRequest(decoded.terms, req)
      if (differs !== undefined) return Either.left(new InvalidRequest({ message: `quoteId: was issued for another ${differs}` }))
      return Either.right(decoded.terms)
    }

    // the encoded answer as the 200 response, or the encoding's failure, in one step
    const respond = (encoded: Either.Either<string, ApiError>, x: Exchange): Effect.Effect<Response, ApiError> =>
      Either.isRight(encoded) ? Effect.succeed(okResponse(encoded.right, x)) : Effect.fail(encoded.left)

    // the catalog endpoints take an empty object and answer from the latest block
    const runCatalog = (endpoint: "sources" | "tokens", body: unknown, x: Exchange): Effect.Effect<Response, ApiError> =>
      Either.match(decodeEmptyBody(body), {
        onLeft: Effect.fail,
        onRight: () =>
          endpoint === "sources"
            ? withBudget(programs.sources, quoteBudget, x, (answer) => respond(encodeSourcesResponse(answer, x.requestId), x))
            : withBudget(programs.tokens, quoteBudget, x, (answer) => respond(encodeTokensResponse(answer, x.requestId), x)),
      })

    // the gasless endpoints: 404 without a relayer; an order belongs to the key that submitted it
    const runGasless = (endpoint: "gasless/quote" | "gasless/submit" | "gasless/status", body: unknown, x: Exchange, nowSeconds: number): Effect.Effect<Response, ApiError> => {
      if (Option.isNone(gasless)) return Effect.fail(new GaslessDisabled())
      const g = gasless.value
      const keyId = x.keyId
      if (keyId === undefined) return Effect.fail(new Internal({ detail: "a gasless request without an accepted key" }))
      if (endpoint === "gasless/quote") {
        const rules = { chainId: programs.chainId, executor: programs.executor, nowSeconds, sourceNames: programs.sourceNames }
        return Either.match(decodeGaslessQuoteRequest(body, rules), {
          onLeft: Effect.fail,
          onRight: (req) =>
            withBudget(g.quote(req), quoteBudget, x, (answer) =>
              respond(encodeGaslessQuoteResponse(req, answer, programs.executor, issueQuoteId(req, answer, nowSeconds), x.requestId), x)),
        })
      }
      if (endpoint === "gasless/submit") {
        return Either.match(decodeGaslessSubmit(body, { executor: programs.executor }), {
          onLeft: Effect.fail,
          onRight: (signed) =>
            withBudget(g.submit({ ...signed, keyId }), swapBudget, x, (answer) => respond(encodeGaslessSubmitResponse(answer, x.requestId), x)),
        })
      }
      return Either.match(decodeGaslessStatus(body), {
        onLeft: Effect.fail,
        onRight: (tradeHash) =>
          withBudget(g.status(tradeHash, keyId), quoteBudget, x, (answer) => respond(encodeGaslessStatusResponse(answer, x.requestId), x)),
      })
    }

    // runs once the body is read (the body's continuation): `now` is read then
    const runProgram = (endpoint: ApiEndpoint, body: unknown, x: Exchange): Effect.Effect<Response, ApiError> => {
      if (endpoint === "sources" || endpoint === "tokens") return runCatalog(endpoint, body, x)
      const nowSeconds = Math.floor(clock.unsafeCurrentTimeMillis() / 1000)
      if (endpoint === "gasless/quote" || endpoint === "gasless/submit" || endpoint === "gasless/status") return runGasless(endpoint, body, x, nowSeconds)
      const rules = { chainId: programs.chainId, executor: programs.executor, nowSeconds, sourceNames: programs.sourceNames }
      if (endpoint === "quote") {
        return Either.match(decodeQuoteRequest(body, rules), {
          onLeft: Effect.fail,
          onRight: (req) =>
            withBudget(programs.quote(req), quoteBudget, x, (answer) =>
              respond(encodeQuoteResponse(req, answer, issueQuoteId(req, answer, nowSeconds), x.requestId), x)),
        })
      }
      return Either.match(Either.flatMap(decodeSwapRequest(body, rules), (req) => Either.map(quotedTerms(req, nowSeconds), (terms) => ({ req, terms }))), {
        onLeft: Effect.fail,
        onRight: ({ req, terms }) =>
          withBudget(programs.swap(req), swapBudget, x, (answer) =>
            respond(encodeSwapResponse(req, answer, programs.executor, terms === undefined ? null : priceChangeOf(terms, answer), x.requestId), x)),
      })
    }

    const bodyOptions = { limit: BODY_LIMIT_BYTES, timeoutMs: settings.bodyTimeoutMs }

    // content type, body (16 KB, within its deadline), JSON, fields, program, encoded answer
    const isGasless = (endpoint: ApiEndpoint) => endpoint === "gasless/quote" || endpoint === "gasless/submit" || endpoint === "gasless/status"
    return (endpoint: ApiEndpoint, request: Request, x: Exchange): Effect.Effect<Response, ApiError> => {
      // without a relayer the gasless endpoints are off, whatever the body
      if (isGasless(endpoint) && Option.isNone(gasless)) return Effect.fail(new GaslessDisabled())
      const wrongType = contentTypeProblem(request.headers)
      if (wrongType !== undefined) return Effect.fail(wrongType)
      return readJsonBody(request, bodyOptions, (body) => runProgram(endpoint, body, x))
    }
  })
