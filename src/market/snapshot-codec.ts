// The market actor's state as a document: what a restart loads instead of
// rebuilding the market from the chain. Pure: JSON text in, JSON text out.
//
// The document (format 1) is one JSON object:
//   { format: 1, chainId, fingerprint,            which node it belongs to
//     block: "123", blockHash: "0x…",             bigints are decimal strings
//     metas:    [[key, Meta], …],                 Maps are [key, value] pairs,
//     excluded: [[key, { reason, recheck }], …],
//     states:   [[key, PoolState], …],            V3/V4 ticks as parallel arrays:
//                                                 ticks: { tick: [..], liquidityNet: ["..", ..] }
//     hidden: [key, …], ramping: [key, …],        Sets are arrays
//     registry: { allowedRouters: [..], venues: [[id, { kind, factory, feeBps }], …], stablePools: [..] },
//     factoryCounts: [[factory, "n"], …] }
// The fingerprint is a sha256 of everything in the configuration that makes a
// state belong to it (venues, executor, multicall3, feeds, fromBlock, tick
// window, format), so a snapshot taken under another venue set is refused.
//
// Decoding validates every field (effect/Schema): a truncated or edited
// document is refused whole ("corrupt"), never half-loaded.
import { Data, Either, ParseResult, Schema } from "effect"
import { createHash } from "node:crypto"
import type { Address, Hex } from "viem"
import type { PoolState, TickInfo } from "../amm/index.ts"
import type { Exclusion } from "./classification.ts"
import type { MarketConfig } from "./market-config.ts"
import type { Meta } from "./pool-meta.ts"
import type { RegisteredVenue, Registry } from "./registry.ts"
import type { ActorState } from "./step.ts"

/** The version of the document's shape; a document of another version is refused ("format"). */
export const FORMAT_VERSION = 1

/**
 * What the actor saves and loads: its state without the World it publishes (rebuilt at the next
 * step), and the hash of its block, by which a restart knows the chain's history is the same.
 */
export type MarketSnapshot = Omit<ActorState, "snapshot"> & { readonly blockHash: Hex }

/** Which node a snapshot belongs to: its chain and the fingerprint of its market configuration. */
export interface SnapshotIdentity {
  readonly chainId: number
  readonly fingerprint: string
}

/** Why a stored snapshot is not loaded; `message` is fit for a log line. */
export class SnapshotRefusal extends Data.TaggedError("SnapshotRefusal")<{
  readonly reason: "corrupt" | "other-chain" | "other-venues" | "format"
  readonly message: string
}> {}

// ---------------------------------------------------------------------------
// fingerprint

const lower = (address: string): string => address.toLowerCase()

/**
 * The sha256 (hex) of a canonical JSON of the configuration a snapshot belongs to. It depends on
 * the order of the venues (the executor's venue ids and the actor's discovery follow it) but not on
 * the order of a stable venue's listed pools nor of the price feeds; addresses are compared lower-case.
 */
export const snapshotFingerprint = (config: MarketConfig, tickWindow: number): string => {
  const venues = config.venues.map((venue) => {
    switch (venue.kind) {
      case "uniswap-v2":
        return { name: venue.name, kind: venue.kind, factory: lower(venue.factory), feeBps: venue.feeBps }
      case "uniswap-v3":
        return { name: venue.name, kind: venue.kind, factory: lower(venue.factory), deployer: lower(venue.deployer) }
      case "uniswap-v4":
        return { name: venue.name, kind: venue.kind, poolManager: lower(venue.poolManager), stateView: lower(venue.stateView) }
      case "curve-stableswap":
        return {
          name: venue.name,
          kind: venue.kind,
          pools: venue.pools.map(lower).sort(),
          factory: venue.factory === undefined ? null : lower(venue.factory),
        }
    }
  })
  const priceFeeds = (config.priceFeeds ?? [])
    .map((feed) => ({ token: lower(feed.token), feed: lower(feed.feed) }))
    .sort((a, b) => (a.token < b.token ? -1 : a.token > b.token ? 1 : a.feed < b.feed ? -1 : a.feed > b.feed ? 1 : 0))
  // every object is built with a fixed key order, so JSON.stringify is canonical
  const canonical = JSON.stringify({
    format: FORMAT_VERSION,
    venues,
    executor: config.executor === undefined ? null : lower(config.executor),
    multicall3: lower(config.multicall3),
    priceFeeds,
    fromBlock: config.fromBlock.toString(),
    tickWindow,
  })
  return createHash("sha256").update(canonical).digest("hex")
}

// ---------------------------------------------------------------------------
// encoding (hand-written for speed; the decoder's schema is its exact inverse, checked by the tests)

const str = (n: bigint): string => n.toString()

const encodeMeta = (meta: Meta): unknown => {
  switch (meta.kind) {
    case "uniswap-v2":
      return { key: meta.key, venue: meta.venue, kind: meta.kind, id: meta.id, token0: meta.token0, token1: meta.token1, feeBps: meta.feeBps }
    case "uniswap-v3":
      return {
        key: meta.key,
        venue: meta.venue,
        kind: meta.kind,
        id: meta.id,
        token0: meta.token0,
        token1: meta.token1,
        fee: meta.fee,
        tickSpacing: meta.tickSpacing,
      }
    case "uniswap-v4":
      return {
        key: meta.key,
        venue: meta.venue,
        kind: meta.kind,
        id: meta.id,
        token0: meta.token0,
        token1: meta.token1,
        fee: meta.fee,
        tickSpacing: meta.tickSpacing,
        hooks: meta.hooks,
        poolManager: meta.poolManager,
        stateView: meta.stateView,
      }
    case "curve-stableswap":
      return { key: meta.key, venue: meta.venue, kind: meta.kind, id: meta.id, coins: meta.coins, rates: meta.rates.map(str) }
  }
}

const encodeTicks = (ticks: readonly TickInfo[]): { tick: number[]; liquidityNet: string[] } => {
  const tick = new Array<number>(ticks.length)
  const liquidityNet = new Array<string>(ticks.length)
  for (let i = 0; i < ticks.length; i++) {
    tick[i] = ticks[i]!.tick
    liquidityNet[i] = ticks[i]!.liquidityNet.toString()
  }
  return { tick, liquidityNet }
}

const encodeState = (state: PoolState): unknown => {
  switch (state.kind) {
    case "uniswap-v2":
      return {
        kind: state.kind,
        venue: state.venue,
        id: state.id,
        token0: state.token0,
        token1: state.token1,
        reserve0: str(state.reserve0),
        reserve1: str(state.reserve1),
        feeBps: state.feeBps,
      }
    case "uniswap-v3":
    case "uniswap-v4":
      return {
        kind: state.kind,
        venue: state.venue,
        id: state.id,
        token0: state.token0,
        token1: state.token1,
        fee: state.fee,
        tickSpacing: state.tickSpacing,
        sqrtPriceX96: str(state.sqrtPriceX96),
        tick: state.tick,
        liquidity: str(state.liquidity),
        ticks: encodeTicks(state.ticks),
        tickLower: state.tickLower,
        tickUpper: state.tickUpper,
        ...(state.hooks === undefined ? {} : { hooks: state.hooks }),
      }
    case "curve-stableswap":
      return {
        kind: state.kind,
        venue: state.venue,
        id: state.id,
        coins: state.coins,
        balances: state.balances.map(str),
        rates: state.rates.map(str),
        amp: str(state.amp),
        fee: str(state.fee),
      }
  }
}

const entries = <K, V, E>(map: ReadonlyMap<K, V>, value: (v: V) => E): [K, E][] => {
  const out: [K, E][] = []
  for (const [k, v] of map) out.push([k, value(v)])
  return out
}

/** The document of a state: JSON text (see the top of this file). */
export const encodeSnapshot = (identity: SnapshotIdentity, state: MarketSnapshot): string =>
  JSON.stringify({
    format: FORMAT_VERSION,
    chainId: identity.chainId,
    fingerprint: identity.fingerprint,
    block: str(state.block),
    blockHash: state.blockHash,
    metas: entries(state.metas, encodeMeta),
    excluded: entries(state.excluded, (e: Exclusion) => ({ reason: e.reason, recheck: e.recheck })),
    states: entries(state.states, encodeState),
    hidden: [...state.hidden],
    ramping: [...state.ramping],
    registry: {
      allowedRouters: [...state.registry.allowedRouters],
      venues: entries(state.registry.venues, (v: RegisteredVenue) => ({ kind: v.kind, factory: v.factory, feeBps: v.feeBps })),
      stablePools: [...state.registry.stablePools],
    },
    factoryCounts: entries(state.factoryCounts, str),
  })

// ---------------------------------------------------------------------------
// decoding

/** A short rendering of a rejected value, for the refusal's message. */
const preview = (u: unknown): string => {
  const text = typeof u === "bigint" ? `${u}n` : (JSON.stringify(u) ?? String(u))
  return text.length > 80 ? `${text.slice(0, 80)}…` : text
}

/**
 * A leaf of the document checked (and, for bigints, converted) in one step: one schema node per
 * value rather than a type, a refinement and a transformation, which is what keeps 20,000 pools
 * fast to decode.
 */
const leaf = <A, I>(expected: string, decode: (u: unknown) => boolean, convert: (u: I) => A, encode: (a: A) => I) =>
  Schema.declare<A, I, readonly []>(
    [],
    {
      decode: () => (u, _, ast) =>
        decode(u) ? ParseResult.succeed(convert(u as I)) : ParseResult.fail(new ParseResult.Type(ast, u, `must be ${expected}, got ${preview(u)}`)),
      encode: () => (a) => ParseResult.succeed(encode(a as A)),
    },
    { identifier: expected },
  )
const same = <A>(a: A): A => a
const text = <A extends string = string>(expected: string, pattern: RegExp) =>
  leaf<A, A>(expected, (u) => typeof u === "string" && pattern.test(u), same, same)

const Int = leaf<number, number>("an integer", (u) => typeof u === "number" && Number.isSafeInteger(u), same, same)
const NonNegativeInt = leaf<number, number>("a non-negative integer", (u) => typeof u === "number" && Number.isSafeInteger(u) && u >= 0, same, same)
const ADDRESS = /^0x[0-9a-fA-F]{40}$/
const AddressString = text<Address>("an address (0x and 40 hex digits)", ADDRESS)
const LowerAddress = text("a lower-case address", /^0x[0-9a-f]{40}$/)
const PoolId = text<Hex>("a 32-byte pool id", /^0x[0-9a-fA-F]{64}$/)
/** a pool's market key: its lower-case address, or a V4 pool's `id@poolManager` */
const PoolKey = text("a pool key (a lower-case address, or a V4 pool id@PoolManager)", /^0x[0-9a-f]{40}(?:[0-9a-f]{24}@0x[0-9a-f]{40})?$/)

/** a signed decimal integer (liquidityNet); every other bigint of the state is non-negative */
const BIGINT = /^-?\d+$/
const toBigInt = (s: string): bigint => BigInt(s)
const toDecimal = (n: bigint): string => n.toString()
const NonNegativeBigInt = leaf<bigint, string>("a non-negative decimal integer string", (u) => typeof u === "string" && /^\d+$/.test(u), toBigInt, toDecimal)

/** A value checked only by its class (the output of a transformation whose contents were checked on the way in). */
const instanceOf = <A>(name: string, check: (u: unknown) => boolean) => Schema.declare((u: unknown): u is A => check(u), { identifier: name })

const mapOf = <K, KI, V, VI>(key: Schema.Schema<K, KI>, value: Schema.Schema<V, VI>) =>
  Schema.transformOrFail(
    Schema.Array(Schema.Tuple(key, value)),
    instanceOf<ReadonlyMap<K, V>>("Map", (u) => u instanceof Map),
    {
      strict: true,
      decode: (pairs, _, ast) => {
        const map = new Map(pairs)
        if (map.size === pairs.length) return ParseResult.succeed(map)
        const seen = new Set<K>()
        const twice = pairs.find(([k]) => seen.has(k) || !seen.add(k))
        return ParseResult.fail(new ParseResult.Type(ast, pairs, `the key ${preview(twice?.[0])} appears twice`))
      },
      encode: (map) => ParseResult.succeed([...map]),
    },
  )

const setOf = <A, I>(item: Schema.Schema<A, I>) =>
  Schema.transformOrFail(
    Schema.Array(item),
    instanceOf<ReadonlySet<A>>("Set", (u) => u instanceof Set),
    {
      strict: true,
      decode: (items, _, ast) => {
        const set = new Set(items)
        if (set.size === items.length) return ParseResult.succeed(set)
        const seen = new Set<A>()
        const twice = items.find((item) => seen.has(item) || !seen.add(item))
        return ParseResult.fail(new ParseResult.Type(ast, items, `${preview(twice)} appears twice`))
      },
      encode: (set) => ParseResult.succeed([...set]),
    },
  )

const V2Meta = Schema.Struct({
  key: PoolKey,
  venue: Schema.String,
  kind: Schema.Literal("uniswap-v2"),
  id: AddressString,
  token0: AddressString,
  token1: AddressString,
  feeBps: NonNegativeInt,
})
const V3Meta = Schema.Struct({
  key: PoolKey,
  venue: Schema.String,
  kind: Schema.Literal("uniswap-v3"),
  id: AddressString,
  token0: AddressString,
  token1: AddressString,
  fee: NonNegativeInt,
  tickSpacing: Int,
})
const V4Meta = Schema.Struct({
  key: PoolKey,
  venue: Schema.String,
  kind: Schema.Literal("uniswap-v4"),
  id: PoolId,
  token0: AddressString,
  token1: AddressString,
  fee: NonNegativeInt,
  tickSpacing: Int,
  hooks: AddressString,
  poolManager: AddressString,
  stateView: AddressString,
})
const StableMeta = Schema.Struct({
  key: PoolKey,
  venue: Schema.String,
  kind: Schema.Literal("curve-stableswap"),
  id: AddressString,
  coins: Schema.Array(AddressString),
  rates: Schema.Array(NonNegativeBigInt),
}).pipe(Schema.filter((m) => m.coins.length === m.rates.length || "coins and rates differ in length"))
const MetaSchema = Schema.Union(V2Meta, V3Meta, V4Meta, StableMeta)

const ExclusionSchema = Schema.Struct({ reason: Schema.String, recheck: Schema.Boolean })

/**
 * A tick list, encoded as parallel arrays of tick indices and liquidityNet strings: checked in one
 * loop (as strictly as the field schemas would: integer ticks in ascending order, decimal strings),
 * because a market holds hundreds of thousands of ticks.
 */
const UnknownArray = instanceOf<readonly unknown[]>("Array", Array.isArray)
const TickArrays = Schema.Struct({ tick: UnknownArray, liquidityNet: UnknownArray })
const Ticks = Schema.transformOrFail(TickArrays, instanceOf<readonly TickInfo[]>("TickInfo[]", Array.isArray), {
  strict: true,
  decode: ({ tick, liquidityNet }, _, ast) => {
    const fail = (message: string) => ParseResult.fail(new ParseResult.Type(ast, { tick, liquidityNet }, message))
    if (tick.length !== liquidityNet.length) return fail(`${tick.length} ticks but ${liquidityNet.length} liquidityNet values`)
    const out = new Array<TickInfo>(tick.length)
    let previous = -Infinity
    for (let i = 0; i < tick.length; i++) {
      const t = tick[i]
      const net = liquidityNet[i]
      if (typeof t !== "number" || !Number.isSafeInteger(t)) return fail(`tick[${i}] must be an integer, got ${JSON.stringify(t)}`)
      if (t <= previous) return fail(`tick[${i}] = ${t} is not above the tick before it`)
      if (typeof net !== "string" || !BIGINT.test(net)) return fail(`liquidityNet[${i}] must be a decimal integer, got ${JSON.stringify(net)}`)
      out[i] = { tick: t, liquidityNet: BigInt(net) }
      previous = t
    }
    return ParseResult.succeed(out)
  },
  encode: (ticks) => ParseResult.succeed(encodeTicks(ticks)),
})

const V2State = Schema.Struct({
  kind: Schema.Literal("uniswap-v2"),
  venue: Schema.String,
  id: AddressString,
  token0: AddressString,
  token1: AddressString,
  reserve0: NonNegativeBigInt,
  reserve1: NonNegativeBigInt,
  feeBps: NonNegativeInt,
})
const concentratedFields = {
  venue: Schema.String,
  token0: AddressString,
  token1: AddressString,
  fee: NonNegativeInt,
  tickSpacing: Int,
  sqrtPriceX96: NonNegativeBigInt,
  tick: Int,
  liquidity: NonNegativeBigInt,
  ticks: Ticks,
  tickLower: Int,
  tickUpper: Int,
  hooks: Schema.optionalWith(AddressString, { exact: true }),
}
const V3State = Schema.Struct({ kind: Schema.Literal("uniswap-v3"), id: AddressString, ...concentratedFields })
const V4State = Schema.Struct({ kind: Schema.Literal("uniswap-v4"), id: PoolId, ...concentratedFields })
const StableState = Schema.Struct({
  kind: Schema.Literal("curve-stableswap"),
  venue: Schema.String,
  id: AddressString,
  coins: Schema.Array(AddressString),
  balances: Schema.Array(NonNegativeBigInt),
  rates: Schema.Array(NonNegativeBigInt),
  amp: NonNegativeBigInt,
  fee: NonNegativeBigInt,
}).pipe(
  Schema.filter((s) => (s.coins.length === s.balances.length && s.coins.length === s.rates.length) || "coins, balances and rates differ in length"),
)
const PoolStateSchema = Schema.Union(V2State, V3State, V4State, StableState)

const RegistrySchema = Schema.Struct({
  allowedRouters: setOf(LowerAddress),
  venues: mapOf(
    NonNegativeInt,
    Schema.Struct({ kind: NonNegativeInt, factory: LowerAddress, feeBps: NonNegativeInt }),
  ),
  stablePools: setOf(LowerAddress),
})

const Header = Schema.Struct({ format: Int, chainId: Int, fingerprint: Schema.String })

const DocumentSchema = Schema.Struct({
  format: Schema.Literal(FORMAT_VERSION),
  chainId: Int,
  fingerprint: Schema.String,
  block: NonNegativeBigInt,
  blockHash: PoolId,
  metas: mapOf(PoolKey, MetaSchema),
  excluded: mapOf(PoolKey, ExclusionSchema),
  states: mapOf(PoolKey, PoolStateSchema),
  hidden: setOf(PoolKey),
  ramping: setOf(PoolKey),
  registry: RegistrySchema,
  factoryCounts: mapOf(LowerAddress, NonNegativeBigInt),
}).pipe(
  // the actor looks each state's meta up by its key
  Schema.filter((doc) => {
    for (const [key, meta] of doc.metas) if (meta.key !== key) return `meta under ${key} has key ${meta.key}`
    for (const [key, state] of doc.states) {
      const meta = doc.metas.get(key)
      if (meta === undefined) return `state ${key} has no meta`
      if (meta.kind !== state.kind) return `state ${key} is ${state.kind}, its meta ${meta.kind}`
    }
    return true
  }),
)

const decodeHeader = Schema.decodeUnknownEither(Header)
// unknown properties are dropped, not refused: Effect's check of each key against the expected
// ones costs more than the rest of the decoding, and a dropped field cannot reach the state
const decodeDocument = Schema.decodeUnknownEither(DocumentSchema)

const corrupt = (message: string) => Either.left(new SnapshotRefusal({ reason: "corrupt", message: `corrupt snapshot: ${message}` }))

/** The first problem of a parse error, as one line: where and what. */
const firstIssue = (error: ParseResult.ParseError): string => {
  const issue = ParseResult.ArrayFormatter.formatErrorSync(error)[0]
  if (issue === undefined) return error.message
  const path = issue.path.map((p) => (typeof p === "number" ? `[${p}]` : `.${String(p)}`)).join("")
  const text = issue.message.length > 300 ? `${issue.message.slice(0, 300)}…` : issue.message
  return path === "" ? text : `at ${path.replace(/^\./, "")}: ${text}`
}

/**
 * The state a document holds, if it is whole and belongs to `expected` (this chain, this market
 * configuration, this format); otherwise why it is refused.
 */
export const decodeSnapshot = (text: string, expected: SnapshotIdentity): Either.Either<MarketSnapshot, SnapshotRefusal> => {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (e) {
    return corrupt(`not JSON (${e instanceof Error ? e.message : String(e)})`)
  }
  const header = decodeHeader(json)
  if (Either.isLeft(header)) return corrupt(firstIssue(header.left))
  const { format, chainId, fingerprint } = header.right
  if (format !== FORMAT_VERSION) {
    return Either.left(new SnapshotRefusal({ reason: "format", message: `snapshot format ${format}, this node reads format ${FORMAT_VERSION}` }))
  }
  if (chainId !== expected.chainId) {
    return Either.left(new SnapshotRefusal({ reason: "other-chain", message: `snapshot of chain ${chainId}, this node serves ${expected.chainId}` }))
  }
  if (fingerprint !== expected.fingerprint) {
    return Either.left(
      new SnapshotRefusal({
        reason: "other-venues",
        message: `snapshot of another market configuration (fingerprint ${fingerprint.slice(0, 12)}…, this node's ${expected.fingerprint.slice(0, 12)}…)`,
      }),
    )
  }
  const document = decodeDocument(json)
  if (Either.isLeft(document)) return corrupt(firstIssue(document.left))
  const doc = document.right
  const state: MarketSnapshot = {
    block: doc.block,
    blockHash: doc.blockHash as Hex,
    metas: doc.metas as ReadonlyMap<string, Meta>,
    excluded: doc.excluded,
    states: doc.states as ReadonlyMap<string, PoolState>,
    hidden: doc.hidden,
    ramping: doc.ramping,
    registry: doc.registry satisfies Registry,
    factoryCounts: doc.factoryCounts,
  }
  return Either.right(state)
}
