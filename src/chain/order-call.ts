// Calldata for the executor's gasless orders (API 1.2 section 3), which it answers through
// OrderEntry at its own address: executeOrder (the relayer's transaction), cancelNonce (the
// sender's), nonceUsed, the OrderFilled event and the refusals an order meets on chain.
import { functionEncoder } from "./calldata-abi.ts"
import {
  decodeEventLog,
  decodeFunctionData,
  encodeFunctionData,
  getAddress,
  zeroAddress,
  zeroHash,
  type Abi,
  type Address,
  type Hex,
} from "viem"
import type { SwapOrder } from "../domain/index.ts"
import { routeBytesFor, routeExecutorAbi } from "./execute-call.ts"
import { splitPermitSignature } from "./permit-call.ts"
import { RouteEncodingError, type Route } from "./route-encoding.ts"

const pick = (type: "function" | "event", name: string): Abi => {
  const item = routeExecutorAbi.find((i) => i.type === type && i.name === name)
  if (!item) throw new Error(`the executor ABI has no ${type} ${name}`)
  return [item]
}

/** executeOrder(SwapOrder order, bytes signature, Permit permit, uint256 relayerFee, uint16 protocolFeeBps, bytes route) returns (amountIn, amountOut) */
export const EXECUTE_ORDER_ABI: Abi = pick("function", "executeOrder")
/** cancelNonce(uint256 nonce): the caller's own nonce */
export const CANCEL_NONCE_ABI: Abi = pick("function", "cancelNonce")
/** nonceUsed(address sender, uint256 nonce) view returns (bool): filled or cancelled */
export const NONCE_USED_ABI: Abi = pick("function", "nonceUsed")
/** OrderFilled(bytes32 indexed orderHash, address indexed sender, address indexed relayer, uint256 amountIn, uint256 amountOut, uint256 relayerFee) */
export const ORDER_FILLED_EVENT = pick("event", "OrderFilled")[0]!
/** NonceCancelled(address indexed sender, uint256 nonce) */
export const NONCE_CANCELLED_EVENT = pick("event", "NonceCancelled")[0]!

/**
 * Extra gas of executeOrder over the sender's own execute of the same route (exact input, one
 * V3 hop, EURC -> USDC, relayer fee paid, no permit, the sender's first nonce of a bitmap word):
 * 59,100 to 59,500 measured on the devnet by test/contracts/route-executor-orders.test.ts,
 * rounded up. Add it to execute's estimate for the relayer fee; a permit adds about 20,000 more
 * (permitAndCall's figure in bench/executor-gas.ts), a relayer that never held tokenOut about
 * 17,000 (its first balance).
 */
export const ORDER_ENTRY_GAS_OVERHEAD = 62_000n

/** The sender's EIP-2612 permit for the executor, of the order's tokenIn. */
export interface OrderPermit {
  /** the allowance it sets (the order's amountIn) */
  readonly value: bigint
  /** unix seconds */
  readonly deadline: bigint
  /** 65 bytes (r ‖ s ‖ v) or 64 bytes (EIP-2098) */
  readonly signature: Hex
}

export interface ExecuteOrderParams {
  readonly order: SwapOrder
  /** the sender's EIP-712 signature of the order (65 bytes; a contract sender: what its isValidSignature takes) */
  readonly signature: Hex
  readonly permit: OrderPermit | null
  /** what the relayer takes, tokenOut's smallest unit (native: wei); at most order.maxRelayerFee */
  readonly relayerFee: bigint
  /** the protocol fee rate the relayer's quote used; must equal the executor's live protocolFeeBps */
  readonly protocolFeeBps: number
  /** the relayer's route (exact output: an exact-output route), or one already encoded */
  readonly route: Route | Hex
}

const NO_PERMIT = { token: zeroAddress, value: 0n, deadline: 0n, v: 0, r: zeroHash, s: zeroHash } as const

const executeOrderCalldata = functionEncoder(EXECUTE_ORDER_ABI, "executeOrder")

/** executeOrder()'s calldata. A Route is checked to lead from the order's tokenIn to its tokenOut. */
export const encodeExecuteOrder = (params: ExecuteOrderParams): Hex => {
  const { order } = params
  const route = routeBytesFor(params.route, order.exactOutput ? "exactOutput" : "exactInput", order.tokenIn, order.tokenOut)
  const permit = params.permit === null
    ? NO_PERMIT
    : { token: order.tokenIn, value: params.permit.value, deadline: params.permit.deadline, ...splitPermitSignature(params.permit.signature) }
  return executeOrderCalldata([order, params.signature, permit, params.relayerFee, params.protocolFeeBps, route])
}

export interface DecodedExecuteOrder {
  readonly order: SwapOrder
  readonly signature: Hex
  readonly permit: { readonly token: Address; readonly value: bigint; readonly deadline: bigint; readonly v: number; readonly r: Hex; readonly s: Hex }
  readonly relayerFee: bigint
  readonly protocolFeeBps: number
  readonly routeBytes: Hex
}

/** Reads executeOrder() calldata back (for tests, logs and support). */
export const decodeExecuteOrder = (data: Hex): DecodedExecuteOrder => {
  const { functionName, args } = decodeFunctionData({ abi: EXECUTE_ORDER_ABI, data })
  if (functionName !== "executeOrder") throw new RouteEncodingError(`not an executeOrder call: ${functionName}`)
  const [order, signature, permit, relayerFee, protocolFeeBps, routeBytes] = args as unknown as readonly [
    SwapOrder,
    Hex,
    DecodedExecuteOrder["permit"],
    bigint,
    number,
    Hex,
  ]
  return { order, signature, permit, relayerFee, protocolFeeBps, routeBytes }
}

/** cancelNonce()'s calldata: the sender's transaction that voids its order of `nonce`. */
export const encodeCancelNonce = (nonce: bigint): Hex =>
  encodeFunctionData({ abi: CANCEL_NONCE_ABI, functionName: "cancelNonce", args: [nonce] })

/** nonceUsed()'s calldata (sender, nonce); its result decodes with NONCE_USED_ABI to a boolean. */
export const encodeNonceUsed = (sender: Address, nonce: bigint): Hex =>
  encodeFunctionData({ abi: NONCE_USED_ABI, functionName: "nonceUsed", args: [sender, nonce] })

/** The reading side of any viem public client. */
export interface NonceReader {
  readContract(args: { address: Address; abi: Abi; functionName: string; args: readonly unknown[] }): Promise<unknown>
}

/** Whether `sender`'s order of `nonce` was filled or cancelled on the executor at `executor`. */
export const readNonceUsed = async (client: NonceReader, executor: Address, sender: Address, nonce: bigint): Promise<boolean> =>
  (await client.readContract({ address: executor, abi: NONCE_USED_ABI, functionName: "nonceUsed", args: [sender, nonce] })) as boolean

export interface OrderFilled {
  /** the order's EIP-712 digest (hashTypedData of swapOrderTypedData) */
  readonly orderHash: Hex
  readonly sender: Address
  readonly relayer: Address
  /** what the sender paid */
  readonly amountIn: bigint
  /** what the recipient received */
  readonly amountOut: bigint
  readonly relayerFee: bigint
}

/** An OrderFilled log of the executor, decoded; undefined for any other log. */
export const decodeOrderFilled = (log: { readonly data: Hex; readonly topics: readonly Hex[] }): OrderFilled | undefined => {
  try {
    const { eventName, args } = decodeEventLog({ abi: [ORDER_FILLED_EVENT], data: log.data, topics: log.topics as [Hex, ...Hex[]] })
    if (eventName !== "OrderFilled") return undefined
    const a = args as unknown as { orderHash: Hex; sender: Address; relayer: Address; amountIn: bigint; amountOut: bigint; relayerFee: bigint }
    return { orderHash: a.orderHash, sender: getAddress(a.sender), relayer: getAddress(a.relayer), amountIn: a.amountIn, amountOut: a.amountOut, relayerFee: a.relayerFee }
  } catch {
    return undefined
  }
}

/**
 * The executor's refusals of an order as such (decodeExecutorError names them), and the field of
 * /gasless/submit each one is about. The swap's own errors (Slippage, InvalidRoute, …) are
 * SIMULATION_FAILED reasons as for /swap; Expired is the order's deadline here.
 */
export const ORDER_ERRORS = {
  InvalidSignature: "signature",
  NonceUsed: "order.nonce",
  RelayerFeeTooHigh: "order.maxRelayerFee",
  NativeOrderInput: "order.tokenIn",
  PermitTokenMismatch: "permit",
  Expired: "order.deadline",
} as const
export type OrderError = keyof typeof ORDER_ERRORS
