// The token registry: metadata read from the chain and cached, USDC's two forms
// mapped onto the ERC-20 the pools hold, and the routability check that keeps
// tokens whose transfers do not move exactly what they say out of every route.
import { Context, Data, Effect, Layer, Request, RequestResolver } from "effect"
import {
  getAddress,
  hexToString,
  isAddress,
  parseAbi,
  trim,
  type Address,
  type Hex,
} from "viem"
import { makeKeptAnswers, read, Rpc, type Read, type RpcBlock, type RpcError } from "../chain/index.ts"
import { readPermitDomain, type PermitDomain } from "./permit-domain.ts"
import { makeRoutabilityCheck } from "./routability.ts"
import { cleanSymbol } from "./symbol-text.ts"
import {
  isNativePlaceholder,
  isUsdc,
  USDC_ERC20_ADDRESS,
  USDC_ERC20_DECIMALS,
  USDC_NATIVE_DECIMALS,
  USDC_NATIVE_SCALE,
  USDC_SYMBOL,
  type NormalizedToken,
  type Routability,
} from "../domain/index.ts"

export class TokenError extends Data.TaggedError("TokenError")<{
  readonly reason: "invalid-address" | "not-a-token"
  readonly token: string
  readonly message: string
}> {}

export interface TokenMetadata {
  /** checksummed ERC-20 address */
  readonly address: Address
  /** as the token answers symbol(), cleaned: no control or bidi characters, at most 32 characters */
  readonly symbol: string
  readonly decimals: number
}

export interface TokensConfig {
  /** how far ahead in time balances are read to detect rebasing (seconds; default one year) */
  readonly rebaseHorizonSeconds?: bigint
}

export interface TokensService {
  /** decimals and symbol read from the chain, cached; USDC answers without a read */
  readonly metadata: (token: Address) => Effect.Effect<TokenMetadata, TokenError | RpcError>
  /**
   * Maps a token address as a client sends it onto its ERC-20 form: the native placeholders
   * (any letter case) are native USDC at scale 10^12. Mixed-case addresses must be correctly
   * checksummed.
   */
  readonly normalize: (address: string) => Effect.Effect<NormalizedToken, TokenError | RpcError>
  /**
   * Whether the token may be routed, from simulated transfers out of and back into a holder
   * (one of `holders`, e.g. the pools holding it) and a balance read a year ahead. USDC is
   * always routable. Answers are cached per token for ten minutes, except "unverified";
   * concurrent look-ups of one token are one probe, and look-ups of many tokens made at once
   * with request batching (`Effect.forEach(…, { batching: true })`) are checked together.
   */
  readonly routability: (
    token: Address,
    options?: { readonly holders?: readonly Address[] },
  ) => Effect.Effect<Routability, RpcError>
  /**
   * The EIP-712 domain the token's EIP-2612 permits are signed in, or null when it takes none
   * (native USDC never does: ask with the ERC-20 address). Cached per token for ten minutes.
   */
  readonly permitDomain: (token: Address) => Effect.Effect<PermitDomain | null, RpcError>
}

const ERC20_ABI = parseAbi([
  "function decimals() view returns (uint8)",
  "function symbol() view returns (string)",
])

const YEAR = 365n * 24n * 60n * 60n
const ROUTABLE: Routability = { routable: true }
/** how long a token's routability answer is trusted before it is checked again, ms */
const ROUTABILITY_TTL_MS = 10 * 60_000
/** addresses as clients send them, and tokens: the most each cache holds */
const CACHE_CAPACITY = 10_000


/** One token's check, as a request: the checks asked together (with batching) run together. */
class RoutabilityRequest extends Request.TaggedClass("RoutabilityRequest")<
  Routability,
  RpcError,
  { readonly token: Address; readonly holders: readonly Address[] }
> {}

const USDC_METADATA: TokenMetadata = {
  address: getAddress(USDC_ERC20_ADDRESS),
  symbol: USDC_SYMBOL,
  decimals: USDC_ERC20_DECIMALS,
}

/** symbol() as a string, or as bytes32 for the old tokens that return one. */
const symbolRead = (token: Address): Read<string> => {
  const base = read({ address: token, abi: ERC20_ABI, functionName: "symbol", args: [] })
  return {
    ...base,
    decode: (data: Hex) => {
      try {
        return base.decode(data)
      } catch {
        if (data.length !== 66) throw new Error("symbol is neither string nor bytes32")
        return hexToString(trim(data, { dir: "right" }))
      }
    },
  }
}

/** A client-given address checked for shape and, when mixed-case, for its checksum. */
export const parseTokenAddress = (address: string): Effect.Effect<Address, TokenError> =>
  isAddress(address, { strict: true })
    ? Effect.succeed(getAddress(address))
    : Effect.fail(
        new TokenError({ reason: "invalid-address", token: address, message: `${address} is not an address (or its checksum is wrong)` }),
      )

export const makeTokens = (config: TokensConfig = {}) =>
  Effect.gen(function* () {
    const rpc = yield* Rpc
    // the checks of a market's new tokens run together: one read of the head serves them for a second
    const head = makeKeptAnswers<RpcBlock, RpcError>({ capacity: 1, ttlMs: 1_000 })
    const checkAll = makeRoutabilityCheck(rpc, config.rebaseHorizonSeconds ?? YEAR, head.get("latest", () => rpc.getBlock()))
    // the checks asked at once (a market's new tokens) are made together: one batched read of
    // their balances, a few eth_simulateV1 requests for their probes
    const checks = RequestResolver.makeBatched((requests: ReadonlyArray<RoutabilityRequest>) =>
      checkAll(requests).pipe(
        Effect.flatMap((answers) => Effect.forEach(requests, (request, i) => Request.completeEffect(request, answers[i]!), { discard: true })),
        Effect.catchAll((e) => Effect.forEach(requests, (request) => Request.fail(request, e), { discard: true })),
      ),
    )

    const readMetadata = (token: string) =>
      Effect.gen(function* () {
        if (token === USDC_ERC20_ADDRESS) return USDC_METADATA
        const [decimals, symbol] = yield* rpc.multicall([
          read({ address: token as Address, abi: ERC20_ABI, functionName: "decimals", args: [] }) as Read<unknown>,
          symbolRead(token as Address) as Read<unknown>,
        ])
        if (!decimals!.success) return yield* new TokenError({ reason: "not-a-token", token, message: `${token} does not answer decimals()` })
        return { address: getAddress(token), decimals: Number(decimals!.value), symbol: symbol!.success ? cleanSymbol(String(symbol!.value)) : "" } satisfies TokenMetadata
      })
    // a token's decimals and symbol do not change; a failed read is not kept
    const metadataKept = makeKeptAnswers<TokenMetadata, TokenError | RpcError>({ capacity: CACHE_CAPACITY, ttlMs: Number.POSITIVE_INFINITY })
    const metadata = (token: Address) => {
      const key = token.toLowerCase()
      return metadataKept.get(key, () => readMetadata(key))
    }

    const normalizeUncached = (address: string) =>
      Effect.gen(function* () {
        if (isNativePlaceholder(address)) {
          return {
            input: address,
            native: true,
            erc20Address: USDC_METADATA.address,
            scale: USDC_NATIVE_SCALE,
            decimals: USDC_NATIVE_DECIMALS,
            symbol: USDC_SYMBOL,
          } satisfies NormalizedToken
        }
        const token = yield* parseTokenAddress(address)
        const meta = yield* metadata(token)
        return { input: token, native: false, erc20Address: meta.address, scale: 1n, decimals: meta.decimals, symbol: meta.symbol } satisfies NormalizedToken
      })
    // by the address exactly as sent: the look-up every request makes
    const normalizedKept = makeKeptAnswers<NormalizedToken, TokenError | RpcError>({ capacity: CACHE_CAPACITY, ttlMs: Number.POSITIVE_INFINITY })

    // a token can change (an upgradeable proxy that starts taxing): answers are checked again after a
    // while; "unverified" (no holder to probe with yet) is not kept, nor is a failed probe
    // the holders to probe with ride along with the first asker's check (a later asker's do not make another probe)
    const verified = (answer: Routability) => answer.routable || answer.reason !== "unverified"
    const routabilityKept = makeKeptAnswers<Routability, RpcError>({ capacity: CACHE_CAPACITY, ttlMs: ROUTABILITY_TTL_MS, keep: verified })
    const routability = (token: Address, options?: { readonly holders?: readonly Address[] }): Effect.Effect<Routability, RpcError> =>
      isUsdc(token)
        ? Effect.succeed(ROUTABLE)
        : routabilityKept.get(token.toLowerCase(), () => Effect.request(new RoutabilityRequest({ token: getAddress(token), holders: options?.holders ?? [] }), checks))

    // a token's domain is fixed at deployment unless it is an upgradeable proxy: asked again after a while
    const permitDomainKept = makeKeptAnswers<PermitDomain | null, RpcError>({ capacity: CACHE_CAPACITY, ttlMs: ROUTABILITY_TTL_MS })
    const permitDomain = (token: Address) =>
      isNativePlaceholder(token) ? Effect.succeed(null) : permitDomainKept.get(token.toLowerCase(), () => readPermitDomain(rpc, getAddress(token)))
    const normalize = (address: string) => normalizedKept.get(address, () => normalizeUncached(address))

    return { metadata, normalize, routability, permitDomain } satisfies TokensService
  })

export class Tokens extends Context.Tag("tokens/Tokens")<Tokens, TokensService>() {
  static readonly layer = (config: TokensConfig = {}): Layer.Layer<Tokens, never, Rpc> => Layer.effect(Tokens, makeTokens(config))
}
