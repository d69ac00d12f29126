// The devnet scenario file's shape (INTERFACE.md, "Devnet scenario"). Amounts
// and prices are decimal strings in whole tokens; they become bigints in
// scenario.ts, with each token's decimals.
//
// A pool entry's shape depends on the kind of the venue its `dex` names, which
// only the file's `dexes` tell: the file is decoded in two steps, the whole
// with each pool as an object naming its venue, then each pool with the schema
// of its venue's kind (scenario.ts).
import { Schema } from "effect"
import type { ArcChainId } from "../domain/index.ts"

const Decimal = Schema.String.pipe(
  Schema.pattern(/^\d+(\.\d+)?$/, { message: () => "expected a decimal string such as \"2500.5\"" }),
)

const Symbol = Schema.String.pipe(
  Schema.pattern(/^[A-Za-z][A-Za-z0-9._-]{0,15}$/, { message: () => "expected a token symbol (letters, digits, . _ -; at most 16)" }),
)

export const VENUE_KINDS = ["uniswap-v2", "uniswap-v3", "uniswap-v4", "curve-stableswap"] as const
export type VenueKind = (typeof VENUE_KINDS)[number]

/** The venues every scenario has, named like their kind. */
export const DEFAULT_VENUES = ["uniswap-v2", "uniswap-v3", "uniswap-v4"] as const

/**
 * A venue's name: 1-40 letters, digits, `.`, `_`, `-`, starting with a letter
 * or a digit (as the service's DEXES reads names), and not digits alone: a
 * JavaScript object lists such keys first, which would reorder the manifest's
 * `dexes` (whose order gives the executor's venue ids).
 */
export const VenueName = Schema.String.pipe(
  Schema.pattern(/^(?![0-9]+$)[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/, {
    message: () => "expected a venue name (1-40 letters, digits, . _ -; starting with a letter or digit; not digits alone)",
  }),
)

export const strict = { onExcessProperty: "error" } as const

export const DexEntry = Schema.Struct({
  name: VenueName,
  kind: Schema.Literal(...VENUE_KINDS),
})

/** A `dexes` entry as the first step decodes it (each is then checked by its place: scenario.ts). */
export const DexHead = Schema.Struct({ name: Schema.String, kind: Schema.String })

export const TokenEntry = Schema.Struct({
  symbol: Symbol,
  decimals: Schema.Int.pipe(Schema.between(0, 36)),
  behavior: Schema.optional(Schema.Literal("standard", "fee-on-transfer", "rebasing")),
  feeBps: Schema.optional(Schema.Int.pipe(Schema.between(1, 10_000))),
  // EIP-2612 permits (domain name = symbol, version "2"): true or false, checked by planScenario
  // (whose message names the entry)
  permit: Schema.optional(Schema.Unknown),
})

export const PositionEntry = Schema.Struct({
  lower: Decimal,
  upper: Decimal,
  liquidity: Schema.optional(Schema.String.pipe(Schema.pattern(/^\d+$/, { message: () => "expected a whole number string" }))),
  amount0: Schema.optional(Decimal),
  amount1: Schema.optional(Decimal),
})

const Pair = Schema.Tuple(Symbol, Symbol)

/** A pool of a `uniswap-v2` venue. */
export const V2PoolEntry = Schema.Struct({
  dex: VenueName,
  tokens: Pair,
  reserves: Schema.Tuple(Decimal, Decimal),
})

/** A pool of a `uniswap-v3` venue. */
export const V3PoolEntry = Schema.Struct({
  dex: VenueName,
  tokens: Pair,
  fee: Schema.Literal(100, 500, 3000, 10000),
  price: Decimal,
  positions: Schema.NonEmptyArray(PositionEntry),
})

/** A pool of a `uniswap-v4` venue. */
export const V4PoolEntry = Schema.Struct({
  dex: VenueName,
  tokens: Pair,
  // static LP fee in hundredths of a bip, below 100%
  fee: Schema.Int.pipe(Schema.between(0, 999_999)),
  tickSpacing: Schema.Int.pipe(Schema.between(1, 32_767)),
  price: Decimal,
  positions: Schema.NonEmptyArray(PositionEntry),
})

/** Curve's MAX_A */
export const MAX_STABLE_A = 1_000_000

/** A pool of a `curve-stableswap` venue: Curve's plain pool of 2 to 4 coins. */
export const StablePoolEntry = Schema.Struct({
  dex: VenueName,
  /** the coins in pool order */
  tokens: Schema.Array(Symbol).pipe(Schema.minItems(2), Schema.maxItems(4)),
  /** the amplification coefficient */
  A: Schema.Int.pipe(Schema.between(1, MAX_STABLE_A)),
  /** the swap fee as a fraction: "0.0004" is 4 bps */
  fee: Decimal,
  /** whole tokens of each coin, deposited at creation */
  balances: Schema.Array(Decimal),
})

/** The schema of a pool entry on a venue of each kind. */
export const POOL_ENTRY_BY_KIND = {
  "uniswap-v2": V2PoolEntry,
  "uniswap-v3": V3PoolEntry,
  "uniswap-v4": V4PoolEntry,
  "curve-stableswap": StablePoolEntry,
} as const

/** A pool entry as the first step decodes it: an object naming its venue. */
export const PoolHead = Schema.Struct({ dex: Schema.String }, Schema.Record({ key: Schema.String, value: Schema.Unknown }))

export const BalanceEntry = Schema.Struct({
  account: Schema.Int.pipe(Schema.between(0, 9)),
  amounts: Schema.Record({ key: Symbol, value: Decimal }),
})

/**
 * Liquidity only the devnet's aggregator routes through: Uniswap V3 pools on a
 * factory of their own, which the service's market never discovers.
 */
export const AggregatorPoolEntry = Schema.Struct({ ...V3PoolEntry.fields, dex: Schema.Literal("uniswap-v3") })

export const AggregatorEntry = Schema.Struct({
  pools: Schema.Array(AggregatorPoolEntry),
})

/**
 * The base fee floor in gwei: a number (20) or, below 1 gwei or in fractions,
 * a decimal string ("0.000000008" is 8 wei); 1 wei is the finest step.
 */
export const BaseFeeGwei = Schema.Union(Schema.NonNegative, Decimal)

/** The file as the first step decodes it: every field but the pools' own. */
export const ScenarioShape = Schema.Struct({
  // the chain the node reports: 5042 or 5042002, checked by parseScenario (whose message names the field alone)
  chainId: Schema.optional(Schema.Unknown),
  dexes: Schema.optional(Schema.Array(DexHead)),
  tokens: Schema.Array(TokenEntry),
  priceFeeds: Schema.optional(Schema.Record({ key: Symbol, value: Decimal })),
  pools: Schema.Array(PoolHead),
  aggregator: Schema.optional(AggregatorEntry),
  balances: Schema.optional(Schema.Array(BalanceEntry)),
  baseFeeGwei: Schema.optional(BaseFeeGwei),
})

export type DexEntry = typeof DexEntry.Type
export type PositionEntry = typeof PositionEntry.Type

/** A pool entry with the kind of the venue it names. */
export type PoolEntry =
  | (typeof V2PoolEntry.Type & { readonly kind: "uniswap-v2" })
  | (typeof V3PoolEntry.Type & { readonly kind: "uniswap-v3" })
  | (typeof V4PoolEntry.Type & { readonly kind: "uniswap-v4" })
  | (typeof StablePoolEntry.Type & { readonly kind: "curve-stableswap" })

export type AggregatorPoolEntry = typeof AggregatorPoolEntry.Type

/** A checked scenario file: every venue (the default ones first) and each pool with its venue's kind. */
export interface ScenarioFile {
  /** the file's chainId, Arc's (5042) when it names none */
  readonly chainId: ArcChainId
  /** every venue, in the manifest's order: uniswap-v2, uniswap-v3, uniswap-v4, then the file's `dexes` */
  readonly dexes: ReadonlyArray<DexEntry>
  readonly tokens: typeof ScenarioShape.Type["tokens"]
  readonly priceFeeds?: typeof ScenarioShape.Type["priceFeeds"]
  readonly pools: ReadonlyArray<PoolEntry>
  readonly aggregator?: { readonly pools: ReadonlyArray<AggregatorPoolEntry> }
  readonly balances?: typeof ScenarioShape.Type["balances"]
  readonly baseFeeGwei?: typeof ScenarioShape.Type["baseFeeGwei"]
}

export const decodeScenarioShape = Schema.decodeUnknownEither(ScenarioShape, strict)
