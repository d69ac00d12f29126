// The tokens room's door: the token registry service and the routability check.
export {
  Tokens,
  TokenError,
  makeTokens,
  parseTokenAddress,
  type NormalizedToken,
  type TokenMetadata,
  type TokensConfig,
  type TokensService,
} from "./tokens.ts"
export { PROBE_RECEIVER, type Routability, type UnroutableReason } from "./routability.ts"
