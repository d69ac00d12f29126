// The token registry: metadata read from the chain and cached, USDC's two forms
// mapped onto the ERC-20 the pools hold, and the routability check that keeps
// tokens whose transfers do not move exactly what they say out of every route.
import { Context, Data, Effect, Layer, Option, Ref } from "effect"
import {
  decodeAbiParameters,
  decodeFunctionResult,
  encodeFunctionData,
  getAddress,
  hexToString,
  isAddress,
  parseAbi,
  trim,
  type Address,
  type Hex,
} from "viem"
import { read, Rpc, type RpcError, type Read } from "../chain/rpc.ts"
import { ownArtifact } from "../contracts/artifacts.ts"
import {
  isNativePlaceholder,
  isUsdc,
  USDC_ERC20_ADDRESS,
  USDC_ERC20_DECIMALS,
  USDC_NATIVE_DECIMALS,
  USDC_NATIVE_SCALE,
  USDC_SYMBOL,
} from "./usdc.ts"

export class TokenError extends Data.TaggedError("TokenError")<{
  readonly reason: "invalid-address" | "not-a-token"
  readonly token: string
  readonly message: string
}> {}

export interface TokenMetadata {
  /** checksummed ERC-20 address */
  readonly address: Address
  readonly symbol: string
  readonly decimals: number
}

/** A token as a request names it, mapped onto the ERC-20 the pools hold. */
export interface NormalizedToken {
  /** the address as given (checksummed; a native placeholder as given) */
  readonly input: string
  /** true for native USDC (0x000…0 or 0xEeee…) */
  readonly native: boolean
  /** the ERC-20 pools hold: 0x3600… for USDC in either form, else the token itself (checksummed) */
  readonly erc20Address: Address
  /** units of the given form per ERC-20 unit: 10^12 for native USDC, 1 otherwise */
  readonly scale: bigint
  /** decimals of the given form (native USDC 18, ERC-20 USDC 6) */
  readonly decimals: number
  readonly symbol: string
}

export type UnroutableReason =
  /** a transfer delivers less than it debits */
  | "fee-on-transfer"
  /** balances change without transfers */
  | "rebasing"
  /** a plain transfer reverts */
  | "transfer-restricted"
  /** a transfer debits or credits something other than the amount */
  | "irregular-transfer"
  /** no ERC-20 answers at the address */
  | "not-a-token"
  /** no known account holds the token, so nothing could be checked (not cached) */
  | "unverified"

export type Routability =
  | { readonly routable: true }
  | { readonly routable: false; readonly reason: UnroutableReason; readonly detail: string }

export interface TokensConfig {
  /** how far ahead in time balances are read to detect rebasing (seconds; default one year) */
  readonly rebaseHorizonSeconds?: bigint
}

export interface TokensService {
  /** decimals and symbol read from the chain, cached; USDC answers without a read */
  readonly metadata: (token: Address) => Effect.Effect<TokenMetadata, TokenError | RpcError>
  /** metadata of many tokens in one batched read (cached ones not read again) */
  readonly metadataMany: (
    tokens: readonly Address[],
  ) => Effect.Effect<ReadonlyMap<string, TokenMetadata>, TokenError | RpcError>
  /**
   * Maps a token address as a client sends it onto its ERC-20 form: the native placeholders
   * (any letter case) are native USDC at scale 10^12. Mixed-case addresses must be correctly
   * checksummed.
   */
  readonly normalize: (address: string) => Effect.Effect<NormalizedToken, TokenError | RpcError>
  /**
   * Whether the token may be routed, from simulated transfers out of and back into a holder
   * (one of `holders`, e.g. the pools holding it) and a balance read a year ahead. USDC is
   * always routable. Answers are cached per token for ten minutes, except "unverified".
   */
  readonly routability: (
    token: Address,
    options?: { readonly holders?: readonly Address[] },
  ) => Effect.Effect<Routability, RpcError>
  /** answers already known, without an effect (the quote's hot path): undefined until first asked */
  readonly known: {
    readonly normalize: (address: string) => NormalizedToken | undefined
    readonly routability: (token: Address) => Routability | undefined
  }
}

const ERC20_ABI = parseAbi([
  "function decimals() view returns (uint8)",
  "function symbol() view returns (string)",
  "function balanceOf(address) view returns (uint256)",
])

const PROBE_ABI = parseAbi([
  "function probe(address token, address to, uint256 amount) returns (int256 sent, int256 received)",
  "function roundTrip(address token, address to, uint256 amount) returns (int256 sentOut, int256 receivedOut, bool backOk, int256 sentBack, int256 receivedBack)",
])

/** What one transfer moved, or undefined when it reverted. */
type Leg = { readonly sent: bigint; readonly received: bigint } | undefined

/** The probe's findings: both legs of the round trip, and the holder's balance now and a horizon later (undefined: unreadable). */
interface ProbeFindings {
  readonly out: Leg
  readonly back: Leg
  readonly balanceNow: bigint | undefined
  readonly balanceLater: bigint | undefined
}

/** The account that receives the probe's transfer and sends it back; it never exists on chain. */
export const PROBE_RECEIVER: Address = "0x7e57000000000000000000000000000000007e57"

const YEAR = 365n * 24n * 60n * 60n
const ROUTABLE: Routability = { routable: true }
/** how long a token's routability answer is trusted before it is checked again */
const ROUTABILITY_TTL_MS = 10 * 60 * 1000
/** addresses as clients send them: bounded, cleared when full */
const NORMALIZED_CACHE_SIZE = 10_000

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

const decodeInt = (data: Hex): readonly [bigint, bigint] =>
  decodeAbiParameters([{ type: "int256" }, { type: "int256" }], data)

export const makeTokens = (config: TokensConfig = {}) =>
  Effect.gen(function* () {
    const rpc = yield* Rpc
    const horizon = config.rebaseHorizonSeconds ?? YEAR
    const probeCode = ownArtifact("TokenTransferProbe").deployedBytecode
    const metadataCache = yield* Ref.make(new Map<string, TokenMetadata>([[USDC_ERC20_ADDRESS, USDC_METADATA]]))
    // written only by this service; a plain map so a cached answer costs no effect
    const routabilityCache = new Map<string, { readonly answer: Routability; readonly until: number }>()
    // a token can change (an upgradeable proxy that starts taxing): answers are checked again after a while
    const cachedRoutability = (key: string): Routability | undefined => {
      const hit = routabilityCache.get(key)
      if (hit === undefined) return undefined
      if (Date.now() < hit.until) return hit.answer
      routabilityCache.delete(key)
      return undefined
    }

    const metadataMany = Effect.fn("Tokens.metadataMany")(function* (tokens: readonly Address[]) {
      const cached = yield* Ref.get(metadataCache)
      const missing = [...new Set(tokens.map((t) => t.toLowerCase()))].filter((t) => !cached.has(t)) as Address[]
      if (missing.length > 0) {
        const reads = missing.flatMap((t) => [
          read({ address: t, abi: ERC20_ABI, functionName: "decimals", args: [] }) as Read<unknown>,
          symbolRead(t) as Read<unknown>,
        ])
        const results = yield* rpc.multicall(reads)
        const found = new Map<string, TokenMetadata>()
        for (const [i, token] of missing.entries()) {
          const decimals = results[2 * i]!
          const symbol = results[2 * i + 1]!
          if (!decimals.success) {
            return yield* new TokenError({ reason: "not-a-token", token, message: `${token} does not answer decimals()` })
          }
          found.set(token, {
            address: getAddress(token),
            decimals: Number(decimals.value),
            symbol: symbol.success ? String(symbol.value) : "",
          })
        }
        yield* Ref.update(metadataCache, (m) => new Map([...m, ...found]))
      }
      const all = yield* Ref.get(metadataCache)
      return new Map(tokens.map((t) => [t.toLowerCase(), all.get(t.toLowerCase())!])) as ReadonlyMap<string, TokenMetadata>
    })

    const metadata = Effect.fn("Tokens.metadata")(function* (token: Address) {
      const all = yield* metadataMany([token])
      return all.get(token.toLowerCase())!
    })

    // answers already given, by the address exactly as sent: the hot path of every request
    const normalized = new Map<string, NormalizedToken>()
    const normalizeUncached = Effect.fn("Tokens.normalize")(function* (address: string) {
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
    const normalize = (address: string): Effect.Effect<NormalizedToken, TokenError | RpcError> => {
      const hit = normalized.get(address)
      if (hit !== undefined) return Effect.succeed(hit)
      return Effect.tap(normalizeUncached(address), (answer) => {
        if (normalized.size >= NORMALIZED_CACHE_SIZE) normalized.clear()
        normalized.set(address, answer)
      })
    }

    const probeAt = (from: Address, to: Address, token: Address, amount: bigint) =>
      ({ to: from, data: encodeFunctionData({ abi: PROBE_ABI, functionName: "probe", args: [token, to, amount] }) }) as const
    const probeOverrides = (holder: Address) => [
      { address: holder, code: probeCode },
      { address: PROBE_RECEIVER, code: probeCode },
    ]
    const balanceCall = (token: Address, holder: Address) =>
      ({ to: token, data: encodeFunctionData({ abi: ERC20_ABI, functionName: "balanceOf", args: [holder] }) }) as const
    const leg = (call: { readonly success: boolean; readonly data: Hex }): Leg => {
      if (!call.success) return undefined
      const [sent, received] = decodeInt(call.data)
      return { sent, received }
    }
    const uint = (call: { readonly success: boolean; readonly data: Hex }) => (call.success && call.data.length === 66 ? BigInt(call.data) : undefined)

    /** eth_simulateV1: both legs and the balance in one block, the balance again a horizon later. */
    const probeBySimulation = (token: Address, holder: Address, amount: bigint, start: bigint) =>
      rpc
        .simulate([
          {
            blockOverrides: { time: start },
            stateOverrides: probeOverrides(holder),
            calls: [probeAt(holder, PROBE_RECEIVER, token, amount), probeAt(PROBE_RECEIVER, holder, token, amount), balanceCall(token, holder)],
          },
          { blockOverrides: { time: start + horizon }, calls: [balanceCall(token, holder)] },
        ])
        .pipe(
          Effect.map(([first, later]): ProbeFindings => ({
            out: leg(first![0]!),
            back: leg(first![1]!),
            balanceNow: uint(first![2]!),
            balanceLater: uint(later![0]!),
          })),
        )

    /** For a node without eth_simulateV1: the round trip in one eth_call, the balances in two (the later one with a block override). */
    const probeByCalls = (token: Address, holder: Address, amount: bigint, start: bigint) =>
      Effect.gen(function* () {
        const trip = yield* rpc
          .call({ to: holder, data: encodeFunctionData({ abi: PROBE_ABI, functionName: "roundTrip", args: [token, PROBE_RECEIVER, amount] }), stateOverride: probeOverrides(holder) })
          .pipe(
            Effect.map((data) => decodeFunctionResult({ abi: PROBE_ABI, functionName: "roundTrip", data })),
            // only a revert means the way out failed; any other failure is the node's
            Effect.map(Option.some),
            Effect.catchTag("RpcError", (e) => (e.reason === "revert" ? Effect.succeed(Option.none()) : Effect.fail(e))),
          )
        const balanceAt = (time: bigint) =>
          rpc.call({ ...balanceCall(token, holder), blockOverrides: { time } }).pipe(Effect.map((data) => uint({ success: true, data })))
        const [balanceNow, balanceLater] = yield* Effect.all([balanceAt(start), balanceAt(start + horizon)], { concurrency: 2 })
        if (trip._tag === "None") return { out: undefined, back: undefined, balanceNow, balanceLater } satisfies ProbeFindings
        const [sentOut, receivedOut, backOk, sentBack, receivedBack] = trip.value
        return {
          out: { sent: sentOut, received: receivedOut },
          back: backOk ? { sent: sentBack, received: receivedBack } : undefined,
          balanceNow,
          balanceLater,
        } satisfies ProbeFindings
      })

    // a node without eth_simulateV1 (method not found) is probed with eth_call from then on
    let simulateV1 = true
    const probeToken = (token: Address, holder: Address, amount: bigint, start: bigint): Effect.Effect<ProbeFindings, RpcError> =>
      !simulateV1
        ? probeByCalls(token, holder, amount, start)
        : probeBySimulation(token, holder, amount, start).pipe(
            Effect.catchTag("RpcError", (e) =>
              e.reason !== "unsupported"
                ? Effect.fail(e)
                : Effect.sync(() => (simulateV1 = false)).pipe(Effect.zipRight(probeByCalls(token, holder, amount, start))),
            ),
          )

    const check = (token: Address, holders: readonly Address[]) =>
      Effect.gen(function* () {
        const reads = [
          read({ address: token, abi: ERC20_ABI, functionName: "decimals", args: [] }) as Read<unknown>,
          ...holders.map((h) => read({ address: token, abi: ERC20_ABI, functionName: "balanceOf", args: [h] }) as Read<unknown>),
        ]
        const [head, results] = yield* Effect.all([rpc.getBlock(), rpc.multicall(reads)], { concurrency: 2 })
        if (!results[0]!.success) {
          return { routable: false, reason: "not-a-token", detail: `${token} does not answer decimals()` } satisfies Routability
        }
        let holder: Address | undefined
        let balance = 0n
        for (const [i, h] of holders.entries()) {
          const r = results[i + 1]!
          if (r.success && (r.value as bigint) > balance) {
            holder = h
            balance = r.value as bigint
          }
        }
        if (holder === undefined) {
          return { routable: false, reason: "unverified", detail: "no known holder has a balance to probe with" } satisfies Routability
        }
        // Half the holder's balance out to a fresh account and back, then the holder's balance
        // now and a horizon later. The probe's code stands in for both accounts' code for the
        // simulation only; the token still sees their real balances.
        const amount = balance / 2n > 0n ? balance / 2n : balance
        const findings = yield* probeToken(token, holder, amount, head.timestamp + 1n)
        const { out, back, balanceNow, balanceLater } = findings
        if (balanceNow !== undefined && balanceLater !== undefined && balanceNow !== balanceLater) {
          return {
            routable: false,
            reason: "rebasing",
            detail: `the holder's balance changes from ${balanceNow} to ${balanceLater} without a transfer`,
          } satisfies Routability
        }
        for (const [leg, outcome] of [["out of a holder", out], ["back to the holder", back]] as const) {
          if (outcome === undefined) {
            return { routable: false, reason: "transfer-restricted", detail: `a transfer ${leg} reverts` } satisfies Routability
          }
          const { sent, received } = outcome
          if (sent === amount && received < amount) {
            return {
              routable: false,
              reason: "fee-on-transfer",
              detail: `a transfer ${leg} of ${amount} delivers ${received}`,
            } satisfies Routability
          }
          if (sent !== amount || received !== amount) {
            return {
              routable: false,
              reason: "irregular-transfer",
              detail: `a transfer ${leg} of ${amount} debits ${sent} and credits ${received}`,
            } satisfies Routability
          }
        }
        return { routable: true } satisfies Routability
      })

    const routabilityUncached = Effect.fn("Tokens.routability")(function* (
      token: Address,
      options?: { readonly holders?: readonly Address[] },
    ) {
      const key = token.toLowerCase()
      const answer: Routability = yield* check(getAddress(token), options?.holders ?? [])
      if (answer.routable || answer.reason !== "unverified") {
        routabilityCache.set(key, { answer, until: Date.now() + ROUTABILITY_TTL_MS })
      }
      return answer
    })
    const routability = (token: Address, options?: { readonly holders?: readonly Address[] }): Effect.Effect<Routability, RpcError> => {
      if (isUsdc(token)) return Effect.succeed(ROUTABLE)
      const hit = cachedRoutability(token.toLowerCase())
      return hit !== undefined ? Effect.succeed(hit) : routabilityUncached(token, options)
    }

    const known = {
      normalize: (address: string) => normalized.get(address),
      routability: (token: Address) => (isUsdc(token) ? ROUTABLE : cachedRoutability(token.toLowerCase())),
    }

    return { metadata, metadataMany, normalize, routability, known } satisfies TokensService
  })

export class Tokens extends Context.Tag("tokens/Tokens")<Tokens, TokensService>() {
  static readonly layer = (config: TokensConfig = {}): Layer.Layer<Tokens, never, Rpc> => Layer.effect(Tokens, makeTokens(config))
}
