// A viem transport for one JSON-RPC endpoint over HTTP, failing as viem's own
// http transport fails (HttpRequestError with the status and headers,
// TimeoutError, RpcRequestError with the node's error, with and without an HTTP
// error status), so that a failure reads the same everywhere after it
// (rpc-error.ts). It does what a request needs and no more: no signals merged,
// no Headers made or body streamed per request (measured with the node in another
// process: viem's http transport took ~35 µs of CPU a request over a bare
// fetch's ~88 µs; this one ~2 µs).
// Requests made in the same turn of the event loop (a /swap's head, the sender's
// funds and the simulation) go as one JSON-RPC batch, up to `batchSize`: one
// HTTP request and one answer to read instead of several, for the service and
// the node alike. An endpoint that refuses a batch (an answer that is not one
// per request, or an HTTP status other than a rate limit's or a server fault's)
// is sent each request alone from then on.
import { createTransport, HttpRequestError, ResponseBodyTooLargeError, RpcRequestError, stringify, TimeoutError, type EIP1193RequestFn, type Transport } from "viem"

export interface JsonRpcTransportOptions {
  /** the most a request may take, answer read included, ms */
  readonly timeoutMs: number
  /** the most requests sent in one batch (default 1: each alone) */
  readonly batchSize?: number
}

/** the largest answer read per request, bytes: viem's own bound */
const MAX_ANSWER_BYTES = 10 * 1024 * 1024

interface NodeError {
  readonly code: number
  readonly message: string
  readonly data?: unknown
}

/** A request as the errors name it. */
interface Body {
  readonly method: string
  readonly params?: unknown
}

/** A request waiting for the turn's batch. */
interface Queued {
  readonly body: Body
  readonly resolve: (result: unknown) => void
  readonly reject: (error: unknown) => void
}

/** One HTTP exchange: the response and its body as JSON (or, on an error status, `{ error: text }`). */
interface Exchanged {
  readonly response: Response
  readonly answer: unknown
}

const isNodeError = (value: unknown): value is NodeError =>
  typeof (value as { code?: unknown } | null)?.code === "number" && typeof (value as { message?: unknown }).message === "string"

/** The request's text: JSON, with a bigint written as viem writes it (a method's params are hex text, but not always). */
const requestText = (payload: object): string => {
  try {
    return JSON.stringify(payload)
  } catch {
    return stringify(payload)
  }
}

/** The fetch's abort at its deadline (AbortSignal.timeout rejects with a DOMException named TimeoutError). */
const isDeadline = (cause: unknown): boolean => (cause as { name?: unknown } | null)?.name === "TimeoutError"

/** The URL without credentials, and the Authorization header they stand for (a URL with credentials cannot be fetched). */
const withoutCredentials = (url: string): { readonly url: string; readonly headers: Record<string, string> } => {
  const parsed = new URL(url)
  if (parsed.username === "") return { url, headers: { "content-type": "application/json" } }
  const credentials = `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`
  parsed.username = ""
  parsed.password = ""
  return { url: parsed.toString(), headers: { "content-type": "application/json", authorization: `Basic ${btoa(credentials)}` } }
}

/** A batch's answer is the endpoint's fault for all its requests (they wait out the limit or go elsewhere), not a refusal of batches. */
const faultForAll = (status: number): boolean => status === 429 || status >= 500

/** The transport of `url` (http or https, optionally with user:password@). */
export const jsonRpcTransport = (endpoint: string, options: JsonRpcTransportOptions): Transport => () => {
  const { url, headers } = withoutCredentials(endpoint)
  const batchSize = Math.max(1, Math.floor(options.batchSize ?? 1))
  let batching = batchSize > 1
  let id = 0

  /** One POST of `text`, its answer read within the deadline and `maxBytes`; throws what the fetch or the read threw. */
  const exchange = async (text: string, maxBytes: number): Promise<Exchanged> => {
    const response = await fetch(url, { method: "POST", headers, body: text, signal: AbortSignal.timeout(options.timeoutMs) })
    const declared = Number(response.headers.get("content-length") ?? 0)
    if (declared > maxBytes) throw new ResponseBodyTooLargeError({ maxSize: maxBytes, size: declared })
    const raw = await response.text()
    // an answer of undeclared length is bounded once read (a JSON answer's characters are its bytes but for escapes)
    if (raw.length > maxBytes) throw new ResponseBodyTooLargeError({ maxSize: maxBytes, size: raw.length })
    try {
      return { response, answer: JSON.parse(raw === "" ? "{}" : raw) }
    } catch (cause) {
      // a body that is not JSON: the failure itself when the status says so, else a broken answer
      if (response.ok) throw cause
      return { response, answer: { error: raw } }
    }
  }

  /** What the fetch or the read threw, as viem's http transport throws it for `body`. */
  const failure = (cause: unknown, body: Body): Error => {
    if (cause instanceof ResponseBodyTooLargeError) return cause
    if (isDeadline(cause)) return new TimeoutError({ body: { ...body }, url })
    return new HttpRequestError({ body: { ...body }, cause: cause as Error, url })
  }

  /** The request's result from its answer, or the error viem's http transport throws for it. */
  const settle = (response: Response, answer: unknown, body: Body): unknown => {
    const error = (answer as { error?: unknown } | null)?.error
    if (!response.ok) {
      if (isNodeError(error)) throw new RpcRequestError({ body: { ...body }, error, headers: response.headers, status: response.status, url })
      throw new HttpRequestError({ body: { ...body }, details: stringify(error) || response.statusText, headers: response.headers, status: response.status, url })
    }
    if (error !== undefined && error !== null) throw new RpcRequestError({ body: { ...body }, error: error as NodeError, url })
    return (answer as { result?: unknown } | null)?.result
  }

  const single = async (body: Body): Promise<unknown> => {
    let exchanged: Exchanged
    try {
      exchanged = await exchange(requestText({ jsonrpc: "2.0", id: ++id, method: body.method, params: body.params }), MAX_ANSWER_BYTES)
    } catch (cause) {
      throw failure(cause, body)
    }
    return settle(exchanged.response, exchanged.answer, body)
  }

  const alone = (q: Queued) => {
    single(q.body).then(q.resolve, q.reject)
  }

  /** A batched request settled by its own answer. */
  const answerWith = (q: Queued, response: Response, answer: unknown) => {
    try {
      q.resolve(settle(response, answer, q.body))
    } catch (error) {
      q.reject(error)
    }
  }

  const batch = async (requests: readonly Queued[]): Promise<void> => {
    const first = id + 1
    id += requests.length
    const text = requestText(requests.map((q, k) => ({ jsonrpc: "2.0", id: first + k, method: q.body.method, params: q.body.params })))
    let exchanged: Exchanged
    try {
      exchanged = await exchange(text, MAX_ANSWER_BYTES * requests.length)
    } catch (cause) {
      for (const q of requests) q.reject(failure(cause, q.body))
      return
    }
    const { response, answer } = exchanged
    if (!response.ok && faultForAll(response.status)) {
      // a limit's or a fault's answer, per request when the endpoint wrote one each
      for (const [k, q] of requests.entries()) {
        const own = Array.isArray(answer) ? answer.find((a) => (a as { id?: unknown } | null)?.id === first + k) : undefined
        answerWith(q, response, own ?? answer)
      }
      return
    }
    if (!response.ok || !Array.isArray(answer)) {
      batching = false
      for (const q of requests) alone(q)
      return
    }
    const byId = new Map<unknown, unknown>()
    for (const a of answer) byId.set((a as { id?: unknown } | null)?.id, a)
    for (const [k, q] of requests.entries()) {
      const own = byId.get(first + k)
      // a request the endpoint left out of its answer is asked again alone
      if (own === undefined) alone(q)
      else answerWith(q, response, own)
    }
  }

  let queued: Queued[] = []
  const flush = () => {
    const due = queued
    queued = []
    for (let i = 0; i < due.length; i += batchSize) {
      const part = due.slice(i, i + batchSize)
      if (part.length === 1) alone(part[0]!)
      else void batch(part)
    }
  }

  const request = ({ method, params }: Body): Promise<unknown> => {
    if (!batching) return single({ method, params })
    return new Promise((resolve, reject) => {
      queued.push({ body: { method, params }, resolve, reject })
      if (queued.length === 1) setImmediate(flush)
    })
  }
  // the answer's type is the caller's to know (viem's actions give each method's), as with viem's own transports
  return createTransport({ key: "http", name: "HTTP JSON-RPC", type: "http", request: request as EIP1193RequestFn, retryCount: 0, timeout: options.timeoutMs }, { url })
}
