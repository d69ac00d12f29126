// Calldata for RouteExecutor.execute and the executor's revert reasons, with the ABI from
// contracts/out/RouteExecutor.json.
import { functionEncoder } from "./calldata-abi.ts"
import {
  decodeErrorResult,
  decodeFunctionData,
  getAddress,
  zeroAddress,
  type Abi,
  type Address,
  type Hex,
} from "viem"
import { ownArtifact } from "../contracts/index.ts"
import { isNativePlaceholder, NATIVE_EEEE_PLACEHOLDER, USDC_ERC20_ADDRESS, USDC_NATIVE_SCALE } from "../domain/index.ts"
import { decodeRoute, encodeRoute, routeTokenIn, routeTokenOut, RouteEncodingError, type Route, type TradeType } from "./route-encoding.ts"

/** Arc's USDC ERC-20 (6 decimals); the same balance as the native currency (18 decimals). */
export const USDC_ERC20: Address = USDC_ERC20_ADDRESS
export const NATIVE_PLACEHOLDER: Address = NATIVE_EEEE_PLACEHOLDER
/** native (18 decimals) = ERC-20 (6 decimals) × NATIVE_SCALE */
export const NATIVE_SCALE = USDC_NATIVE_SCALE

/** 0x0 and 0xEeee…EeeE (any letter case) name native USDC. */
export const isNativeToken = (token: Address): boolean => isNativePlaceholder(token)

/** The token a pool holds for `token`: the ERC-20 USDC for native USDC, else the token itself. */
export const poolToken = (token: Address): Address => (isNativeToken(token) ? USDC_ERC20 : getAddress(token))

/**
 * What the executor answers: RouteExecutor's own ABI and, at the same address (its fallback
 * delegatecalls OrderEntry), the gasless orders' functions, events and errors.
 */
export const routeExecutorAbi: Abi = (() => {
  const own = ownArtifact("RouteExecutor").abi as Abi
  const key = (item: Abi[number]) => `${item.type}:${"name" in item ? item.name : ""}`
  const known = new Set(own.map(key))
  const delegated = (ownArtifact("OrderEntry").abi as Abi).filter(
    (item) => (item.type === "function" || item.type === "event" || item.type === "error") && !known.has(key(item)),
  )
  return [...own, ...delegated]
})()

export interface ExecuteParams {
  readonly tokenIn: Address
  readonly tokenOut: Address
  /** tokenIn's smallest unit (native USDC: 18 decimals, sent as the transaction's value) */
  readonly amountIn: bigint
  /** least the recipient gets after both fees, tokenOut's smallest unit (native: wei) */
  readonly minAmountOut: bigint
  readonly recipient: Address
  /** unix seconds */
  readonly deadline: bigint
  /** partner fee, 0..100 */
  readonly feeBps: number
  /** receives the partner fee; may be omitted (zero address) when feeBps is 0 */
  readonly feeRecipient?: Address
  /** the protocol fee rate the quote used; must equal the executor's live protocolFeeBps */
  readonly protocolFeeBps: number
  /** a route, or one already encoded */
  readonly route: Route | Hex
}

/**
 * A route's bytes for one of the executor's entries: a Route is encoded for that entry's hop
 * kinds and checked to lead from tokenIn to tokenOut (as pools hold them); bytes pass as given.
 */
export const routeBytesFor = (route: Route | Hex, tradeType: TradeType, tokenIn: Address, tokenOut: Address): Hex => {
  if (typeof route === "string") return route
  const bytes = encodeRoute(route, tradeType)
  if (poolToken(routeTokenIn(route)) !== poolToken(tokenIn)) {
    throw new RouteEncodingError(`the route starts at ${routeTokenIn(route)}, not at tokenIn ${tokenIn}`)
  }
  if (poolToken(routeTokenOut(route)) !== poolToken(tokenOut)) {
    throw new RouteEncodingError(`the route ends at ${routeTokenOut(route)}, not at tokenOut ${tokenOut}`)
  }
  return bytes
}

const executeCalldata = functionEncoder(routeExecutorAbi, "execute")

/** execute()'s calldata. A Route is checked to lead from tokenIn to tokenOut (as pools hold them). */
export const encodeExecute = (params: ExecuteParams): Hex => {
  const route = routeBytesFor(params.route, "exactInput", params.tokenIn, params.tokenOut)
  return executeCalldata([
      {
        tokenIn: params.tokenIn,
        tokenOut: params.tokenOut,
        amountIn: params.amountIn,
        minAmountOut: params.minAmountOut,
        recipient: params.recipient,
        deadline: params.deadline,
        feeBps: params.feeBps,
        feeRecipient: params.feeRecipient ?? zeroAddress,
        protocolFeeBps: params.protocolFeeBps,
        route,
      },
    ])
}

/** The transaction's value: amountIn for native input, else 0. */
export const executeValue = (params: Pick<ExecuteParams, "tokenIn" | "amountIn">): bigint =>
  isNativeToken(params.tokenIn) ? params.amountIn : 0n

export interface DecodedExecute extends Omit<ExecuteParams, "route" | "feeRecipient"> {
  readonly feeRecipient: Address
  readonly route: Route
  readonly routeBytes: Hex
}

/** Reads execute() calldata back (for tests, logs and support). */
export const decodeExecute = (data: Hex): DecodedExecute => {
  const { functionName, args } = decodeFunctionData({ abi: routeExecutorAbi, data })
  if (functionName !== "execute") throw new RouteEncodingError(`not an execute call: ${functionName}`)
  const p = (args as readonly [Record<string, unknown>])[0]
  const tokenIn = p.tokenIn as Address
  return {
    tokenIn,
    tokenOut: p.tokenOut as Address,
    amountIn: p.amountIn as bigint,
    minAmountOut: p.minAmountOut as bigint,
    recipient: p.recipient as Address,
    deadline: p.deadline as bigint,
    feeBps: p.feeBps as number,
    feeRecipient: p.feeRecipient as Address,
    protocolFeeBps: p.protocolFeeBps as number,
    route: decodeRoute(p.route as Hex, poolToken(tokenIn)),
    routeBytes: p.route as Hex,
  }
}

/** InvalidRoute(fault): the contract's RouteFault enum, by value. */
export const ROUTE_FAULTS = ["Malformed", "Shares", "TokenChain", "UnknownPool", "RouterNotAllowed", "PartialFill", "ZeroAmount"] as const
export type RouteFault = (typeof ROUTE_FAULTS)[number]
/** InvalidConfig(fault): the contract's ConfigFault enum, by value. */
export const CONFIG_FAULTS = ["PartnerFee", "Recipient", "FeeRecipient", "ProtocolFee", "FeeCollector", "Owner", "Router", "Venue", "StablePool", "OrderEntry"] as const
export type ConfigFault = (typeof CONFIG_FAULTS)[number]

/** The executor errors that are SIMULATION_FAILED reasons of the API, named the same. */
export const SIMULATION_FAILED_REASONS = [
  "Slippage",
  "Expired",
  "Paused",
  "StaleFeeConfig",
  "InvalidRoute",
  "InvalidConfig",
  "InvalidValue",
  "UnsupportedToken",
  "NativeTransferFailed",
] as const
export type SimulationFailedReason = (typeof SIMULATION_FAILED_REASONS)[number]

export interface ExecutorError {
  /** the custom error's name (Slippage, InvalidRoute, Reentrancy, …) */
  readonly name: string
  readonly args: readonly unknown[]
  /** the API's reason when the error is one of them */
  readonly reason?: SimulationFailedReason
  /** InvalidRoute / InvalidConfig: which check failed */
  readonly fault?: RouteFault | ConfigFault
}

/** Decodes revert data as one of the executor's custom errors; undefined for anything else. */
export const decodeExecutorError = (data: Hex): ExecutorError | undefined => {
  try {
    const { errorName, args } = decodeErrorResult({ abi: routeExecutorAbi, data })
    // viem decodes Solidity's own Error(string) and Panic(uint256) with any ABI: they are not the executor's
    if (errorName === "Error" || errorName === "Panic") return undefined
    const list = (args ?? []) as readonly unknown[]
    const reason = (SIMULATION_FAILED_REASONS as readonly string[]).includes(errorName)
      ? (errorName as SimulationFailedReason)
      : undefined
    const fault = errorName === "InvalidRoute"
      ? ROUTE_FAULTS[Number(list[0])]
      : errorName === "InvalidConfig"
        ? CONFIG_FAULTS[Number(list[0])]
        : undefined
    return { name: errorName, args: list, ...(reason ? { reason } : {}), ...(fault ? { fault } : {}) }
  } catch {
    return undefined
  }
}
