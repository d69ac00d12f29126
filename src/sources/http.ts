// One HTTP exchange with an aggregator API, on @effect/platform's HttpClient
// over fetch: the request lives in the exchange's scope (an interruption, such
// as the source's time budget running out, or the end of the exchange aborts
// it); the body is read as a stream until its end or until it passes the cap
// (then the stream is cancelled, so a huge or endless answer never sits in
// memory); JSON parsed. A GET, which is idempotent, is tried once more when the
// connection itself failed; nothing is retried after an answer.
import { FetchHttpClient, HttpClient, HttpClientRequest, type HttpClientError, type HttpClientResponse } from "@effect/platform"
import { Chunk, Data, Effect, Layer, Option, Schedule, Schema, Stream, type Scope } from "effect"
import { SourceError } from "./source.ts"

export interface HttpAnswer {
  readonly status: number
  /** the parsed JSON body; undefined when the body is empty or not JSON */
  readonly json: unknown
}

/** Larger answers are refused: no aggregator quote is anywhere near this. */
export const MAX_ANSWER_BYTES = 1 << 20

/** The answer came, but is refused unread (or read no further). */
class Refused extends Data.TaggedError("Refused")<{ readonly message: string }> {}

/** A connection that failed before any answer: the only failure worth asking again, and only for a GET. */
const connectionFailed = (e: HttpClientError.HttpClientError): boolean => e._tag === "RequestError" && e.reason === "Transport"

/**
 * fetch, with redirects refused (an aggregator that redirects is not the one configured), no
 * span and no trace headers (the requests stay exactly what the aggregator's API documents; the
 * source's own span covers the call), each request tied to the scope it runs in. Built once:
 * the layer only hands over fetch.
 */
const aggregatorClient: HttpClient.HttpClient.With<HttpClientError.HttpClientError, Scope.Scope> = Effect.runSync(
  HttpClient.HttpClient.pipe(Effect.provide(FetchHttpClient.layer.pipe(Layer.provide(Layer.succeed(FetchHttpClient.RequestInit, { redirect: "error" }))))),
).pipe(
  HttpClient.withTracerDisabledWhen(() => true),
  HttpClient.withScope,
  HttpClient.retry({ schedule: Schedule.recurs(1), while: (e) => connectionFailed(e) && e.request.method === "GET" }),
)

/**
 * The body's bytes (decompressed, as fetch hands them on) until its end; fails as soon as they
 * pass `limit` (the stream is then cancelled, the rest unread).
 */
const readCapped = (response: HttpClientResponse.HttpClientResponse, limit: number) =>
  response.stream.pipe(
    // a response without a body reads as an empty one
    Stream.catchAll((e) => (e.reason === "EmptyBody" ? Stream.empty : Stream.fail(e))),
    Stream.mapAccumEffect(0, (size, chunk) =>
      size + chunk.byteLength > limit
        ? Effect.fail(new Refused({ message: `answer is over the ${limit}-byte limit` }))
        : Effect.succeed([size + chunk.byteLength, chunk] as const),
    ),
    Stream.runCollect,
    Effect.map((chunks) => new Uint8Array(Bun.concatArrayBuffers(Chunk.toArray(chunks)))),
  )

const parseJson = Schema.decodeUnknownOption(Schema.parseJson())

const answerOf = (response: HttpClientResponse.HttpClientResponse) =>
  Effect.gen(function* () {
    const declared = Number(response.headers["content-length"] ?? "0")
    if (declared > MAX_ANSWER_BYTES) return yield* new Refused({ message: `answer of ${declared} bytes is over the ${MAX_ANSWER_BYTES}-byte limit` })
    const text = new TextDecoder().decode(yield* readCapped(response, MAX_ANSWER_BYTES))
    return { status: response.status, json: Option.getOrUndefined(parseJson(text)) } satisfies HttpAnswer
  })

const causeText = (cause: unknown) => (cause instanceof Error ? cause.message : String(cause))

const failureText = (e: HttpClientError.HttpClientError | Refused): string =>
  e._tag === "Refused"
    ? e.message
    : e._tag === "RequestError"
      ? `connection failed: ${causeText(e.cause ?? e.description)}`
      : // a failure reading the body after the headers arrived (connection reset mid-answer)
        `answer could not be read: ${causeText(e.cause ?? e.description)}`

/** Sends one request (asking for JSON); fails with SourceError "unavailable" when no answer arrives. */
export const exchange = (source: string, request: HttpClientRequest.HttpClientRequest): Effect.Effect<HttpAnswer, SourceError> =>
  aggregatorClient.execute(HttpClientRequest.acceptJson(request)).pipe(
    Effect.flatMap(answerOf),
    Effect.scoped,
    Effect.mapError((e) => new SourceError({ source, reason: "unavailable", message: failureText(e) })),
  )
