// Calldata for RouteExecutor.executeExactOutput (API 1.2 exact output): the recipient gets
// exactly amountOut net of both fees, the sender pays what the route needs, at most maxAmountIn.
import { functionEncoder } from "./calldata-abi.ts"
import { decodeFunctionData, zeroAddress, type Address, type Hex } from "viem"
import { isNativeToken, poolToken, routeBytesFor, routeExecutorAbi } from "./execute-call.ts"
import { decodeRoute, RouteEncodingError, type Route } from "./route-encoding.ts"

export interface ExactOutputParams {
  readonly tokenIn: Address
  readonly tokenOut: Address
  /** what the recipient must receive after both fees, tokenOut's smallest unit (native: wei) */
  readonly amountOut: bigint
  /** the most taken from the sender, tokenIn's smallest unit (native USDC: wei, sent as the transaction's value) */
  readonly maxAmountIn: bigint
  readonly recipient: Address
  /** unix seconds */
  readonly deadline: bigint
  /** partner fee, 0..100 */
  readonly feeBps: number
  /** receives the partner fee; may be omitted (zero address) when feeBps is 0 */
  readonly feeRecipient?: Address
  /** the protocol fee rate the quote used; must equal the executor's live protocolFeeBps */
  readonly protocolFeeBps: number
  /** an exact-output route (hop kinds v2, v3, v4, stableExactOutput; shares of the gross output), or one already encoded */
  readonly route: Route | Hex
}

const executeExactOutputCalldata = functionEncoder(routeExecutorAbi, "executeExactOutput")

/** executeExactOutput()'s calldata. A Route is checked to be an exact-output route from tokenIn to tokenOut (as pools hold them). */
export const encodeExecuteExactOutput = (params: ExactOutputParams): Hex => {
  const route = routeBytesFor(params.route, "exactOutput", params.tokenIn, params.tokenOut)
  return executeExactOutputCalldata([
      {
        tokenIn: params.tokenIn,
        tokenOut: params.tokenOut,
        amountOut: params.amountOut,
        maxAmountIn: params.maxAmountIn,
        recipient: params.recipient,
        deadline: params.deadline,
        feeBps: params.feeBps,
        feeRecipient: params.feeRecipient ?? zeroAddress,
        protocolFeeBps: params.protocolFeeBps,
        route,
      },
    ])
}

/** The transaction's value: maxAmountIn for native input (what the route does not use comes back), else 0. */
export const executeExactOutputValue = (params: Pick<ExactOutputParams, "tokenIn" | "maxAmountIn">): bigint =>
  isNativeToken(params.tokenIn) ? params.maxAmountIn : 0n

export interface DecodedExecuteExactOutput extends Omit<ExactOutputParams, "route" | "feeRecipient"> {
  readonly feeRecipient: Address
  readonly route: Route
  readonly routeBytes: Hex
}

/** Reads executeExactOutput() calldata back (for tests, logs and support). */
export const decodeExecuteExactOutput = (data: Hex): DecodedExecuteExactOutput => {
  const { functionName, args } = decodeFunctionData({ abi: routeExecutorAbi, data })
  if (functionName !== "executeExactOutput") throw new RouteEncodingError(`not an executeExactOutput call: ${functionName}`)
  const p = (args as readonly [Record<string, unknown>])[0]
  const tokenIn = p.tokenIn as Address
  return {
    tokenIn,
    tokenOut: p.tokenOut as Address,
    amountOut: p.amountOut as bigint,
    maxAmountIn: p.maxAmountIn as bigint,
    recipient: p.recipient as Address,
    deadline: p.deadline as bigint,
    feeBps: p.feeBps as number,
    feeRecipient: p.feeRecipient as Address,
    protocolFeeBps: p.protocolFeeBps as number,
    route: decodeRoute(p.route as Hex, poolToken(tokenIn)),
    routeBytes: p.route as Hex,
  }
}
