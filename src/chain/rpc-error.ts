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

export class RpcError extends Data.TaggedError("RpcError")<{
  readonly reason: RpcErrorReason
  /** the JSON-RPC method (or service method) that failed */
  readonly method: string
  readonly message: string
  /** with reason "revert": the revert data, when the node gave it */
  readonly revertData?: Hex
}> {}

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
  if (found(HttpRequestError)) {
    const http = cause.walk((e) => e instanceof HttpRequestError) as HttpRequestError
    return new RpcError({ reason: http.status === undefined ? "unreachable" : "http", method, message })
  }
  if (cause instanceof CallExecutionError && /revert/i.test(cause.details ?? "")) return reverted(method, message, cause)
  if (found(RpcRequestError)) return new RpcError({ reason: "rpc", method, message })
  return new RpcError({ reason: "rpc", method, message })
}

/** Failed JSON-RPC requests (after the fallback over every URL), by method and reason. */
export const rpcErrors = Metric.counter("rpc_errors_total", {
  description: "JSON-RPC requests that failed after trying every endpoint, by method and reason",
  incremental: true,
})
