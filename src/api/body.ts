// Request bodies: JSON only, at most 16 KB. A declared Content-Length over the
// limit is refused before any of the body is read; a chunked body is counted as
// it arrives and refused (the stream cancelled) the moment it passes the limit.
import { Effect } from "effect"
import { InvalidRequest, PayloadTooLarge } from "./errors.ts"

export const BODY_LIMIT_BYTES = 16 * 1024

/** 413 by the declared length alone (no byte of the body read). */
export const checkDeclaredLength = (headers: Headers, limit = BODY_LIMIT_BYTES): Effect.Effect<void, PayloadTooLarge | InvalidRequest> => {
  const declared = headers.get("content-length")
  if (declared === null) return Effect.void
  if (!/^\d+$/.test(declared)) return Effect.fail(new InvalidRequest({ message: "Content-Length: not a number" }))
  return declared.length > 15 || Number(declared) > limit ? Effect.fail(new PayloadTooLarge({ limit })) : Effect.void
}

/** The media type must be application/json (parameters such as charset=utf-8 allowed). */
export const checkContentType = (headers: Headers): Effect.Effect<void, InvalidRequest> => {
  const value = headers.get("content-type")
  if (value === null) return Effect.fail(new InvalidRequest({ message: "Content-Type: is required and must be application/json" }))
  const semicolon = value.indexOf(";")
  const media = (semicolon === -1 ? value : value.slice(0, semicolon)).trim().toLowerCase()
  if (media !== "application/json") return Effect.fail(new InvalidRequest({ message: `Content-Type: must be application/json, got ${JSON.stringify(value.slice(0, 100))}` }))
  return Effect.void
}

const readCapped = async (request: Request, limit: number): Promise<Uint8Array | "too-large"> => {
  // a declared length (already checked against the limit) bounds what the server accepts
  if (request.headers.get("content-length") !== null) return new Uint8Array(await request.arrayBuffer())
  const body = request.body
  if (body === null) return new Uint8Array(0)
  const reader = body.getReader()
  const chunks: Uint8Array[] = []
  let total = 0
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) break
      total += value.byteLength
      if (total > limit) {
        reader.cancel().catch(() => {})
        return "too-large"
      }
      chunks.push(value)
    }
  } finally {
    reader.releaseLock()
  }
  if (chunks.length === 1) return chunks[0]!
  const out = new Uint8Array(total)
  let offset = 0
  for (const c of chunks) {
    out.set(c, offset)
    offset += c.byteLength
  }
  return out
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false })

/** Reads at most `limit` bytes and parses them as JSON. */
export const readJsonBody = (request: Request, limit = BODY_LIMIT_BYTES): Effect.Effect<unknown, PayloadTooLarge | InvalidRequest> =>
  Effect.tryPromise({
    try: () => readCapped(request, limit),
    catch: () => new InvalidRequest({ message: "body: could not be read" }),
  }).pipe(
    Effect.flatMap((bytes): Effect.Effect<unknown, PayloadTooLarge | InvalidRequest> => {
      if (bytes === "too-large") return Effect.fail(new PayloadTooLarge({ limit }))
      if (bytes.byteLength === 0) return Effect.fail(new InvalidRequest({ message: "body: is empty; send a JSON object" }))
      try {
        return Effect.succeed(JSON.parse(utf8.decode(bytes)) as unknown)
      } catch {
        return Effect.fail(new InvalidRequest({ message: "body: is not valid JSON" }))
      }
    }),
  )
