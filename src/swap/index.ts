// The swap room's door: the request programs (their interface, requests,
// answers and errors) and their wiring over the live services.
export {
  SwapPrograms,
  type Approval,
  type SwapProgramsShape,
  type SwapRequest,
  type SwapResponse,
  type SwapTx,
} from "./programs.ts"
export { Internal, InvalidRequest, NoRoute, SimulationFailed, Timeout, Unavailable, type QuoteError, type SwapError } from "./errors.ts"
export { chainServices, livePrograms, liveServices } from "./live.ts"
export { decimalPrice, sourcesOf, tokensOf, type SourceInfo, type SourcesAnswer, type TokenInfo, type TokensAnswer, type VenueName } from "./catalog.ts"
export { decodeQuoteId, encodeQuoteId, priceChangeBps, priceChangeOf, QUOTE_ID_TTL_SECONDS, quoteIdKey, sameRequest, type QuotedTerms } from "./quote-id.ts"
export { senderIssues, type AllowanceIssue, type BalanceIssue, type InputKind, type SenderIssues } from "./sender-issues.ts"
export { canonicalSignature, checkPermitSignature, permitToSign, type PermitToSign, type PermitSignature } from "./permit.ts"
export { GaslessDisabled, OrderNotFound, type GaslessError } from "./errors.ts"
export {
  GaslessPrograms,
  orderToSign,
  type GaslessProgramsShape,
  type GaslessQuoteRequest,
  type GaslessQuoteResponse,
  type GaslessStatusResponse,
  type GaslessSubmitRequest,
  type GaslessSubmitResponse,
  type OrderToSign,
} from "./gasless.ts"
export { freshNonce, type GaslessSettings } from "./gasless-quote.ts"
