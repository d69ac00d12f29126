// The HTTP edge of /api/v1: the server, request decoding and response
// encoding, the edge's own errors and the table mapping every error to HTTP.
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
  ApiDisabled,
  BodyTimeout,
  ConcurrencyLimited,
  ERROR_TABLE,
  MethodNotAllowed,
  NotFound,
  Overloaded,
  PayloadTooLarge,
  RateLimited,
  renderError,
  Unauthorized,
  type ApiError,
  type ErrorCode,
} from "./errors.ts"
export {
  DEFAULT_DEADLINE_SECONDS,
  DEFAULT_SLIPPAGE_BPS,
  decodeQuoteRequest,
  decodeSwapRequest,
  exactIntegerOf,
  MAX_DEADLINE_SECONDS,
  MAX_JSON_NUMBER_AMOUNT,
  parseAddress,
  parseAmount,
  type RequestRules,
} from "./requests.ts"
export { BODY_LIMIT_BYTES, JsonNumber, parseJson } from "./body.ts"
export { SYNTHETIC, syntheticPrograms, syntheticQuote, syntheticSwap, type SyntheticOptions } from "./synthetic-programs.ts"
export { API_VERSION, openApiDocument, openApiJson } from "./openapi.ts"
export { ErrorBodyJson, QuoteResponseJson, SourcesResponseJson, SwapResponseJson, TokensResponseJson } from "./response-schemas.ts"
export { quoteJson } from "./quote-json.ts"
export { swapJson } from "./swap-json.ts"
