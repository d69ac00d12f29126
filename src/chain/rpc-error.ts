// Every failure of a JSON-RPC request as one tagged error, with the reason a
// caller can act on (unreachable, a refusal, a revert and its data, …), and the
// counter of failures by method and reason.
import { Data, Metric } from "effect"
import {
  BaseError,
  CallExecutionError,
  ContractFunctionRevertedError,
  ExecutionRevertedError,
  HttpRequestError,
  MethodNotFoundRpcError,
  MethodNotSupportedRpcError,
  RawContractError,
  RpcRequestError,
  TimeoutError,
  type Hex,
} from "viem"

export type RpcErrorReason =
  /** no endpoint answered (connection refused, DNS, reset) */
  | "unreachable"
  /** an endpoint did not answer within the timeout */
  | "timeout"
  /** an endpoint answered with an HTTP error status */
  | "http"
  /** an endpoint answered with a JSON-RPC error */
  | "rpc"
  /** the call itself reverted */
  | "revert"
  /** the answer could not be decoded */
  | "decode"
  /** the endpoint serves another chain */
  | "chain-mismatch"
  /** the configuration is unusable (no URL, say) */
  | "config"
  /** the endpoint does not offer the method (JSON-RPC -32601 / -32004) */
  | "unsupported"
  /** the endpoint refused for its request rate (HTTP 429, or a JSON-RPC rate-limit error) */
  | "rate-limited"
  /** the request is over one of the endpoint's limits: an eth_getLogs range or result count */
  | "limit"

/** Which of a provider's eth_getLogs limits a request ran into. */
export type LogLimit = "range" | "results"

export class RpcError extends Data.TaggedError("RpcError")<{
  readonly reason: RpcErrorReason
  /** the JSON-RPC method (or service method) that failed */
  readonly method: string
  readonly message: string
  /** with reason "revert": the revert data, when the node gave it */
  readonly revertData?: Hex
  /** with reason "rate-limited": how long the endpoint asked to wait (Retry-After), ms */
  readonly retryAfterMs?: number
  /** with reason "limit": which limit */
  readonly limit?: LogLimit
}> {}

// What providers answer, in their own words: Infura, Alchemy, QuickNode, Ankr, geth, reth, erigon
const RATE_LIMITED = /rate.?limit|too many requests|request rate|requests per second|exceeded .*(capacity|quota|credits)|\b429\b/i
const RANGE_LIMIT = /block range|range (is )?too (large|wide|big)|blocks? range|max(imum)? (block )?range|range limit|range exceeds|exceed(s|ed)? .*range|too (many|wide) blocks/i
const RESULTS_LIMIT = /more than \d+ (results|logs)|too many (results|logs)|response size|results? (limit|exceed)|log response|query timeout|limit exceeded/i

/** The Retry-After header's wait in ms: seconds, or an HTTP date. */
export const retryAfterMs = (value: string | null | undefined, now: number): number | undefined => {
  if (value === null || value === undefined || value.trim() === "") return undefined
  const text = value.trim()
  if (/^\d+(\.\d+)?$/.test(text)) return Math.round(Number(text) * 1000)
  const at = Date.parse(text)
  return Number.isNaN(at) ? undefined : Math.max(0, at - now)
}

/** The node's own words in a viem error: every message and detail along its causes. */
const nodeText = (cause: BaseError): string => {
  const parts: string[] = []
  cause.walk((e) => {
    const err = e as { details?: unknown; message?: unknown }
    if (typeof err.details === "string" && !parts.includes(err.details)) parts.push(err.details)
    return false
  })
  if (!parts.includes(cause.shortMessage)) parts.push(cause.shortMessage)
  return parts.join(" | ")
}

const isHex = (value: unknown): value is Hex => typeof value === "string" && /^0x([0-9a-fA-F]{2})*$/.test(value)

/** The revert data a node attached to an error: `data` as hex, or `data.data` (some nodes nest it). */
const revertDataOf = (cause: BaseError): Hex | undefined => {
  let found: Hex | undefined
  cause.walk((e) => {
    const data = (e as { data?: unknown }).data
    const hex = isHex(data) ? data : isHex((data as { data?: unknown } | undefined)?.data) ? (data as { data: Hex }).data : undefined
    if (hex !== undefined && found === undefined) found = hex
    return false
  })
  return found
}

const reverted = (method: string, message: string, cause: BaseError): RpcError => {
  const revertData = revertDataOf(cause)
  return new RpcError({ reason: "revert", method, message, ...(revertData !== undefined ? { revertData } : {}) })
}

/** Maps any failure of a viem request to an RpcError with the reason a caller can act on. */
export const toRpcError = (method: string) => (cause: unknown): RpcError => {
  if (cause instanceof RpcError) return cause
  if (!(cause instanceof BaseError)) {
    return new RpcError({ reason: "rpc", method, message: cause instanceof Error ? cause.message : String(cause) })
  }
  const message = cause.shortMessage
  const found = (type: abstract new (...args: never[]) => unknown) => cause.walk((e) => e instanceof type) !== null
  if (found(TimeoutError)) return new RpcError({ reason: "timeout", method, message })
  if (found(MethodNotFoundRpcError) || found(MethodNotSupportedRpcError)) return new RpcError({ reason: "unsupported", method, message })
  if (found(ContractFunctionRevertedError) || found(RawContractError) || found(ExecutionRevertedError)) {
    return reverted(method, message, cause)
  }
  // an HTTP status, on a bare HTTP failure or on a JSON-RPC error sent with a non-2xx status
  const http = cause.walk((e) => (e instanceof HttpRequestError || e instanceof RpcRequestError) && e.status !== undefined && e.status !== 200) as
    | HttpRequestError
    | RpcRequestError
    | null
  if (http?.status === 429) {
    const wait = retryAfterMs(http.headers?.get("retry-after"), Date.now())
    return new RpcError({ reason: "rate-limited", method, message: `HTTP 429${wait !== undefined ? `, retry after ${wait} ms` : ""}`, ...(wait !== undefined ? { retryAfterMs: wait } : {}) })
  }
  if (found(HttpRequestError)) {
    const failed = cause.walk((e) => e instanceof HttpRequestError) as HttpRequestError
    return new RpcError({ reason: failed.status === undefined ? "unreachable" : "http", method, message: failed.status === undefined ? message : `HTTP ${failed.status}` })
  }
  if (cause instanceof CallExecutionError && /revert/i.test(cause.details ?? "")) return reverted(method, message, cause)
  const text = nodeText(cause)
  if (RATE_LIMITED.test(text)) return new RpcError({ reason: "rate-limited", method, message: text })
  if (http !== null && http.status !== undefined && http.status >= 500) return new RpcError({ reason: "http", method, message: `HTTP ${http.status}: ${text}` })
  if (method === "eth_getLogs") {
    if (RANGE_LIMIT.test(text)) return new RpcError({ reason: "limit", limit: "range", method, message: text })
    if (RESULTS_LIMIT.test(text)) return new RpcError({ reason: "limit", limit: "results", method, message: text })
  }
  return new RpcError({ reason: "rpc", method, message: found(RpcRequestError) ? text : message })
}

/** A provider's limits met (rate-limited, log-range, log-results, log-timeout, batch-split), by limit. */
export const rpcLimits = Metric.counter("rpc_limits_total", {
  description: "Times a provider's limit was met and worked around: rate limits waited out, eth_getLogs ranges shrunk, batches split",
  incremental: true,
})

/** Requests an endpoint failed that another endpoint (or a later attempt) took over, by endpoint and reason. */
export const rpcEndpointFaults = Metric.counter("rpc_endpoint_faults_total", {
  description: "JSON-RPC requests an endpoint failed (unreachable, timeout, HTTP error, rate-limited), by endpoint and reason",
  incremental: true,
})

/** Failed JSON-RPC requests (after the fallback over every URL), by method and reason. */
export const rpcErrors = Metric.counter("rpc_errors_total", {
  description: "JSON-RPC requests that failed after trying every endpoint, by method and reason",
  incremental: true,
})
