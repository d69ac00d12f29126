// Calldata for RouteExecutor.permitAndCall (API 1.2 permits): the sender's EIP-2612 permit for
// the executor, then an execute or executeExactOutput call, in one transaction.
import { functionEncoder } from "./calldata-abi.ts"
import {
  compactSignatureToSignature,
  decodeFunctionData,
  parseCompactSignature,
  parseSignature,
  size,
  type Address,
  type Hex,
} from "viem"
import { routeExecutorAbi } from "./execute-call.ts"
import { RouteEncodingError } from "./route-encoding.ts"

/** A permit signed by the sender for the executor (spender), as permitAndCall takes it. */
export interface SignedPermit {
  readonly token: Address
  /** the allowance the permit sets, token's smallest unit */
  readonly value: bigint
  /** unix seconds */
  readonly deadline: bigint
  /** 65 bytes (r ‖ s ‖ v, v 27/28 or 0/1) or 64 bytes (EIP-2098 compact: r ‖ yParity·s) */
  readonly signature: Hex
}

/** The permit's (v, r, s), v as 27 or 28. */
export const splitPermitSignature = (signature: Hex): { readonly v: number; readonly r: Hex; readonly s: Hex } => {
  const bytes = size(signature)
  if (bytes !== 65 && bytes !== 64) throw new RouteEncodingError(`a permit signature is 65 or 64 bytes, not ${bytes}`)
  const parsed = bytes === 65 ? parseSignature(signature) : compactSignatureToSignature(parseCompactSignature(signature))
  return { v: 27 + parsed.yParity!, r: parsed.r, s: parsed.s }
}

const permitAndCallCalldata = functionEncoder(routeExecutorAbi, "permitAndCall")

/** permitAndCall()'s calldata; `call` is execute() or executeExactOutput() calldata (encodeExecute, encodeExecuteExactOutput). */
export const encodePermitAndCall = (permit: SignedPermit, call: Hex): Hex => {
  const { v, r, s } = splitPermitSignature(permit.signature)
  return permitAndCallCalldata([{ token: permit.token, value: permit.value, deadline: permit.deadline, v, r, s }, call])
}

export interface DecodedPermitAndCall {
  readonly permit: { readonly token: Address; readonly value: bigint; readonly deadline: bigint; readonly v: number; readonly r: Hex; readonly s: Hex }
  /** the execute or executeExactOutput calldata */
  readonly call: Hex
}

/** Reads permitAndCall() calldata back (for tests, logs and support). */
export const decodePermitAndCall = (data: Hex): DecodedPermitAndCall => {
  const { functionName, args } = decodeFunctionData({ abi: routeExecutorAbi, data })
  if (functionName !== "permitAndCall") throw new RouteEncodingError(`not a permitAndCall call: ${functionName}`)
  const [permit, call] = args as readonly [DecodedPermitAndCall["permit"], Hex]
  return { permit, call }
}
