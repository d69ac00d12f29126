// The chain room's door: the JSON-RPC service and its errors, batched reads,
// the route executor's calldata (with a permit ahead of it, and its gasless orders) and errors, and the simulation of a /swap
// transaction with the gas limit it needs.
export { Rpc, makeRpc, readTogether, type CallParams, type EstimateGasParams, type RpcBlock, type RpcConfig, type RpcLog, type RpcService, type SimulatedBlock, type SimulatedCall } from "./rpc.ts"
export { RpcError, rpcErrors, toRpcError, type RpcErrorReason } from "./rpc-error.ts"
export { read, type Read, type ReadResult } from "./multicall.ts"
export { traced } from "./traced.ts"
export { makeKeptAnswers, type KeptAnswers, type KeptAnswersOptions } from "./kept-answers.ts"
export { Simulator, gasLimitSearches, makeSimulator, simulatedExecutions, type SimulateExecute, type SimulationOutcome, type SimulatorShape } from "./simulator.ts"
export {
  CONFIG_FAULTS,
  decodeExecute,
  decodeExecutorError,
  encodeExecute,
  executeValue,
  isNativeToken,
  NATIVE_PLACEHOLDER,
  NATIVE_SCALE,
  poolToken,
  ROUTE_FAULTS,
  routeExecutorAbi,
  SIMULATION_FAILED_REASONS,
  USDC_ERC20,
  type ConfigFault,
  type DecodedExecute,
  type ExecuteParams,
  type ExecutorError,
  type RouteFault,
  type SimulationFailedReason,
} from "./execute-call.ts"
export {
  decodeExecuteExactOutput,
  encodeExecuteExactOutput,
  executeExactOutputValue,
  type DecodedExecuteExactOutput,
  type ExactOutputParams,
} from "./exact-output-call.ts"
export {
  CANCEL_NONCE_ABI,
  decodeExecuteOrder,
  decodeOrderFilled,
  encodeCancelNonce,
  encodeExecuteOrder,
  encodeNonceUsed,
  EXECUTE_ORDER_ABI,
  NONCE_CANCELLED_EVENT,
  NONCE_USED_ABI,
  ORDER_ENTRY_GAS_OVERHEAD,
  ORDER_ERRORS,
  ORDER_FILLED_EVENT,
  readNonceUsed,
  type DecodedExecuteOrder,
  type ExecuteOrderParams,
  type NonceReader,
  type OrderError,
  type OrderFilled,
  type OrderPermit,
} from "./order-call.ts"
export { decodePermitAndCall, encodePermitAndCall, splitPermitSignature, type DecodedPermitAndCall, type SignedPermit } from "./permit-call.ts"
export {
  decodeRoute,
  encodeRoute,
  HOP_KIND,
  RouteEncodingError,
  routeTokenIn,
  TRADE_HOP_KINDS,
  routeTokenOut,
  validateRoute,
  type ExternalExactOutputHop,
  type ExternalHop,
  type HopKind,
  type Route,
  type RouteHop,
  type RouteSplit,
  type StableExactOutputHop,
  type StableHop,
  type TradeType,
  type V2Hop,
  type V3Hop,
  type V4Hop,
} from "./route-encoding.ts"
export { allowanceKey, balanceKey, findAllowanceSlot, findBalanceSlot, type MappingLayout, type MappingSlot } from "./storage-slots.ts"
export { senderFunds, type SenderFunds } from "./sender-funds.ts"
