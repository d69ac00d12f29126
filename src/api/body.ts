// Request bodies: JSON only, at most 16 KB, received within a deadline. A declared
// Content-Length over the limit is refused before any of the body is read; a
// chunked body is counted as it arrives and refused (the stream cancelled) the
// moment it passes the limit; a body still incomplete at the deadline is refused
// and the request's slots are given back. An amount sent as a JSON number keeps
// its literal, so digits a double cannot hold are not silently lost.
import { Effect } from "effect"
import { InvalidRequest } from "../swap/index.ts"
import { BodyTimeout, PayloadTooLarge } from "./errors.ts"

export const BODY_LIMIT_BYTES = 16 * 1024

/** 413 (or 400 for a length that is not a number) by the declared length alone, no byte of the body read; undefined when it may be read. */
export const declaredLengthProblem = (headers: Headers, limit = BODY_LIMIT_BYTES): PayloadTooLarge | InvalidRequest | undefined => {
  const declared = headers.get("content-length")
  if (declared === null) return undefined
  if (!/^\d+$/.test(declared)) return new InvalidRequest({ message: "Content-Length: not a number" })
  return declared.length > 15 || Number(declared) > limit ? new PayloadTooLarge({ limit }) : undefined
}

/** Why the media type is refused (it must be application/json; parameters such as charset=utf-8 allowed), or undefined. */
export const contentTypeProblem = (headers: Headers): InvalidRequest | undefined => {
  const value = headers.get("content-type")
  if (value === null) return new InvalidRequest({ message: "Content-Type: is required and must be application/json" })
  const semicolon = value.indexOf(";")
  const media = (semicolon === -1 ? value : value.slice(0, semicolon)).trim().toLowerCase()
  if (media !== "application/json") return new InvalidRequest({ message: `Content-Type: must be application/json, got ${JSON.stringify(value.slice(0, 100))}` })
  return undefined
}

type ReadOutcome = Uint8Array | ArrayBuffer | "too-large" | "too-slow"

const unreadable = () => new InvalidRequest({ message: "body: could not be read" })

/**
 * A body of declared length (already checked against the limit, which bounds what the server accepts): one
 * read against the deadline. No canceler: an interrupted request's fiber ignores a later resume, and its
 * deadline timer (unref'd, so it never holds the process) fires once into nothing.
 */
const readDeclared = (request: Request, timeoutMs: number): Effect.Effect<ReadOutcome, InvalidRequest> =>
  // one callback pair rather than an async function and a promise race: this runs on every request
  Effect.async<ReadOutcome, InvalidRequest>((resume) => {
    let settled = false
    const timer = setTimeout(() => {
      if (settled) return
      settled = true
      // the read is abandoned; it fails once the connection is closed
      resume(Effect.succeed("too-slow"))
    }, timeoutMs)
    timer.unref()
    request.arrayBuffer().then(
      (buffer) => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        resume(Effect.succeed(buffer))
      },
      () => {
        if (settled) return
        settled = true
        clearTimeout(timer)
        resume(Effect.fail(unreadable()))
      },
    )
  })

/** A body without a declared length (chunked): counted as it arrives, cancelled past the limit or the deadline. */
const readCapped = async (request: Request, limit: number, timeoutMs: number): Promise<ReadOutcome> => {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<"too-slow">((resolve) => {
    timer = setTimeout(resolve, timeoutMs, "too-slow")
  })
  try {
    const body = request.body
    if (body === null) return new Uint8Array(0)
    const reader = body.getReader()
    const chunks: Uint8Array[] = []
    let total = 0
    for (;;) {
      const next = await Promise.race([reader.read(), late])
      if (next === "too-slow") {
        reader.cancel().catch(() => {})
        return next
      }
      if (next.done) break
      total += next.value.byteLength
      if (total > limit) {
        reader.cancel().catch(() => {})
        return "too-large"
      }
      chunks.push(next.value)
    }
    reader.releaseLock()
    if (chunks.length === 1) return chunks[0]!
    const out = new Uint8Array(total)
    let offset = 0
    for (const c of chunks) {
      out.set(c, offset)
      offset += c.byteLength
    }
    return out
  } finally {
    clearTimeout(timer)
  }
}

/**
 * A JSON number as written in the body: the double JSON.parse made of it and its
 * literal, which may say digits the double cannot hold (9007199254740993 parses to
 * the same double as 9007199254740992).
 */
export class JsonNumber {
  constructor(
    readonly value: number,
    readonly source: string,
  ) {}
}

type SourceReviver = (this: unknown, key: string, value: unknown, context?: { readonly source?: string }) => unknown
const parseWithSource = JSON.parse as (text: string, reviver: SourceReviver) => unknown

const AMOUNT_KEYS = ["amountIn", "amountOut"] as const

/**
 * JSON text → value. When the body is an object whose amountIn or amountOut is a number,
 * that number comes back as a JsonNumber with its literal (read from the text itself by
 * JSON.parse source text access); every other value is JSON.parse's own.
 */
export const parseJson = (text: string): unknown => {
  const value: unknown = JSON.parse(text)
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value
  const top = value as Record<string, unknown>
  if (!AMOUNT_KEYS.some((key) => typeof top[key] === "number")) return value
  // only bodies with a number amount are read a second time, for the literals of the top-level amounts
  const literals: Array<readonly [holder: unknown, key: string, source: string]> = []
  const again = parseWithSource(text, function (key, v, context) {
    if ((key === "amountIn" || key === "amountOut") && typeof v === "number" && context?.source !== undefined) literals.push([this, key, context.source])
    return v
  }) as Record<string, unknown>
  // without a literal (a runtime without source text access) the number stays as parsed
  for (const [holder, key, source] of literals) if (holder === again) again[key] = new JsonNumber(again[key] as number, source)
  return again
}

const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false })

export interface BodyOptions {
  /** bytes; default 16 KB */
  readonly limit?: number
  /** the whole body must have arrived within this many milliseconds of the start of reading */
  readonly timeoutMs: number
}

/** Reads at most `limit` bytes, within `timeoutMs`, and parses them as JSON; `then` continues with the value. */
export const readJsonBody = <A, E>(
  request: Request,
  options: BodyOptions,
  then: (body: unknown) => Effect.Effect<A, E>,
): Effect.Effect<A, E | PayloadTooLarge | BodyTimeout | InvalidRequest> => {
  const limit = options.limit ?? BODY_LIMIT_BYTES
  const read =
    request.headers.get("content-length") !== null
      ? readDeclared(request, options.timeoutMs)
      : Effect.tryPromise({ try: () => readCapped(request, limit, options.timeoutMs), catch: unreadable })
  // the parse and the continuation in one step (this runs on every request)
  return Effect.flatMap(read, (bytes): Effect.Effect<A, E | PayloadTooLarge | BodyTimeout | InvalidRequest> => {
    if (bytes === "too-large") return Effect.fail(new PayloadTooLarge({ limit }))
    if (bytes === "too-slow") return Effect.fail(new BodyTimeout({ ms: options.timeoutMs }))
    if (bytes.byteLength === 0) return Effect.fail(new InvalidRequest({ message: "body: is empty; send a JSON object" }))
    let body: unknown
    try {
      body = parseJson(utf8.decode(bytes))
    } catch {
      return Effect.fail(new InvalidRequest({ message: "body: is not valid JSON" }))
    }
    return then(body)
  })
}
