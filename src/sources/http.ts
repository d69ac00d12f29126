// One HTTP exchange with an aggregator API: fetch under the caller's fiber (an
// interruption, such as the source's time budget running out, aborts it), the
// body read until its end or until it passes the cap (then the rest is never
// read, so a huge or endless answer never sits in memory), JSON parsed. A GET, which is idempotent, is tried
// once more when the connection itself failed; nothing is retried after an answer.
import { Effect } from "effect"
import { SourceError } from "./source.ts"

export interface HttpExchange {
  readonly method: "GET" | "POST"
  readonly url: string
  readonly headers?: Readonly<Record<string, string>>
  /** JSON-encoded for a POST */
  readonly body?: unknown
}

export interface HttpAnswer {
  readonly status: number
  /** the parsed JSON body; undefined when the body is empty or not JSON */
  readonly json: unknown
}

/** Larger answers are refused: no aggregator quote is anywhere near this. */
export const MAX_ANSWER_BYTES = 1 << 20

/** The body's bytes until its end, or undefined as soon as they pass `limit` (the rest is cancelled unread). */
const readCapped = async (body: ReadableStream<Uint8Array> | null, limit: number): Promise<Uint8Array | undefined> => {
  if (body === null) return new Uint8Array(0)
  const reader = body.getReader()
  const chunks: Uint8Array[] = []
  let size = 0
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    size += value.byteLength
    if (size > limit) {
      // the connection is closed without waiting for the sender to notice
      reader.cancel().catch(() => undefined)
      return undefined
    }
    chunks.push(value)
  }
  return new Uint8Array(Bun.concatArrayBuffers(chunks))
}

type Attempt =
  | { readonly ok: true; readonly answer: HttpAnswer }
  | { readonly ok: false; readonly connection: boolean; readonly message: string }

const attempt = (exchange: HttpExchange): Effect.Effect<Attempt> =>
  Effect.tryPromise({
    try: async (signal): Promise<Attempt> => {
      let response: Response
      try {
        response = await fetch(exchange.url, {
          method: exchange.method,
          headers: { accept: "application/json", ...(exchange.body !== undefined ? { "content-type": "application/json" } : {}), ...exchange.headers },
          ...(exchange.body !== undefined ? { body: JSON.stringify(exchange.body) } : {}),
          signal,
          redirect: "error",
        })
      } catch (e) {
        return { ok: false, connection: !signal.aborted, message: `connection failed: ${e instanceof Error ? e.message : String(e)}` }
      }
      const declared = Number(response.headers.get("content-length") ?? "0")
      if (declared > MAX_ANSWER_BYTES) {
        await response.body?.cancel()
        return { ok: false, connection: false, message: `answer of ${declared} bytes is over the ${MAX_ANSWER_BYTES}-byte limit` }
      }
      const bytes = await readCapped(response.body, MAX_ANSWER_BYTES)
      if (bytes === undefined) return { ok: false, connection: false, message: `answer is over the ${MAX_ANSWER_BYTES}-byte limit` }
      const text = new TextDecoder().decode(bytes)
      let json: unknown
      try {
        json = text === "" ? undefined : JSON.parse(text)
      } catch {
        json = undefined
      }
      return { ok: true, answer: { status: response.status, json } }
    },
    catch: (e) => e,
  }).pipe(
    // a failure reading the body after the headers arrived (connection reset mid-answer)
    Effect.catchAll((e) => Effect.succeed<Attempt>({ ok: false, connection: false, message: `answer could not be read: ${e instanceof Error ? e.message : String(e)}` })),
  )

/** Sends one exchange; fails with SourceError "unavailable" when no answer arrives. */
export const exchange = (source: string, request: HttpExchange): Effect.Effect<HttpAnswer, SourceError> =>
  Effect.gen(function* () {
    let result = yield* attempt(request)
    if (!result.ok && result.connection && request.method === "GET") result = yield* attempt(request)
    if (!result.ok) return yield* new SourceError({ source, reason: "unavailable", message: result.message })
    return result.answer
  })
