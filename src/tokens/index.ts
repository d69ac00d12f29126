// The tokens room's door: the token registry service and the routability check.
export {
  Tokens,
  TokenError,
  makeTokens,
  parseTokenAddress,
  type TokenMetadata,
  type TokensConfig,
  type TokensService,
} from "./tokens.ts"
export { readPermitDomain, type PermitDomain } from "./permit-domain.ts"
export { PROBE_RECEIVER } from "./routability.ts"
