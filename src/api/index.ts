// The HTTP edge of /api/v1: the server, the programs interface it serves, the
// request and response types, the errors and their table.
export {
  ApiServer,
  ApiServerLive,
  serveEdge,
  ServeError,
  startApiServer,
  type ApiServerShape,
  type RunningApi,
  type ServeOptions,
} from "./server.ts"
export { BASE_PATH, makeEdge, presentedKey, type Edge, type EdgeSettings } from "./edge.ts"
export {
  CHAIN_ID,
  SwapPrograms,
  type Approval,
  type QuoteFees,
  type QuoteRequest,
  type QuoteResponse,
  type RouteEntry,
  type RouteHop,
  type SwapProgramsShape,
  type SwapRequest,
  type SwapResponse,
  type SwapTx,
} from "./programs.ts"
export {
  ApiDisabled,
  BodyTimeout,
  ConcurrencyLimited,
  ERROR_TABLE,
  Internal,
  InvalidRequest,
  MethodNotAllowed,
  NoRoute,
  NotFound,
  Overloaded,
  PayloadTooLarge,
  RateLimited,
  renderError,
  SimulationFailed,
  Timeout,
  Unauthorized,
  Unavailable,
  type ApiError,
  type ErrorCode,
  type QuoteError,
  type SwapError,
} from "./errors.ts"
export {
  DEFAULT_DEADLINE_SECONDS,
  DEFAULT_SLIPPAGE_BPS,
  decodeQuoteRequest,
  decodeSwapRequest,
  exactIntegerOf,
  isNativeUsdc,
  isUsdc,
  MAX_DEADLINE_SECONDS,
  MAX_JSON_NUMBER_AMOUNT,
  NATIVE_PLACEHOLDER,
  parseAddress,
  parseAmount,
  USDC_ERC20_ADDRESS,
  ZERO_ADDRESS,
  type RequestRules,
} from "./requests.ts"
export { BODY_LIMIT_BYTES, JsonNumber, parseJson } from "./body.ts"
export { SYNTHETIC, syntheticPrograms, syntheticQuote, syntheticSwap, type SyntheticOptions } from "./synthetic-programs.ts"
