// The devnet scenario file's shape (INTERFACE.md, "Devnet scenario"). Amounts
// and prices are decimal strings in whole tokens; they become bigints in
// scenario.ts, with each token's decimals.
import { Schema } from "effect"

const Decimal = Schema.String.pipe(
  Schema.pattern(/^\d+(\.\d+)?$/, { message: () => "expected a decimal string such as \"2500.5\"" }),
)

const Symbol = Schema.String.pipe(
  Schema.pattern(/^[A-Za-z][A-Za-z0-9._-]{0,15}$/, { message: () => "expected a token symbol (letters, digits, . _ -; at most 16)" }),
)

const strict = { onExcessProperty: "error" } as const

export const TokenEntry = Schema.Struct({
  symbol: Symbol,
  decimals: Schema.Int.pipe(Schema.between(0, 36)),
  behavior: Schema.optional(Schema.Literal("standard", "fee-on-transfer", "rebasing")),
  feeBps: Schema.optional(Schema.Int.pipe(Schema.between(1, 10_000))),
})

export const PositionEntry = Schema.Struct({
  lower: Decimal,
  upper: Decimal,
  liquidity: Schema.optional(Schema.String.pipe(Schema.pattern(/^\d+$/, { message: () => "expected a whole number string" }))),
  amount0: Schema.optional(Decimal),
  amount1: Schema.optional(Decimal),
})

const Pair = Schema.Tuple(Symbol, Symbol)

export const V2PoolEntry = Schema.Struct({
  dex: Schema.Literal("uniswap-v2"),
  tokens: Pair,
  reserves: Schema.Tuple(Decimal, Decimal),
})

export const V3PoolEntry = Schema.Struct({
  dex: Schema.Literal("uniswap-v3"),
  tokens: Pair,
  fee: Schema.Literal(100, 500, 3000, 10000),
  price: Decimal,
  positions: Schema.NonEmptyArray(PositionEntry),
})

export const V4PoolEntry = Schema.Struct({
  dex: Schema.Literal("uniswap-v4"),
  tokens: Pair,
  // static LP fee in hundredths of a bip, below 100%
  fee: Schema.Int.pipe(Schema.between(0, 999_999)),
  tickSpacing: Schema.Int.pipe(Schema.between(1, 32_767)),
  price: Decimal,
  positions: Schema.NonEmptyArray(PositionEntry),
})

export const PoolEntry = Schema.Union(V2PoolEntry, V3PoolEntry, V4PoolEntry)

export const BalanceEntry = Schema.Struct({
  account: Schema.Int.pipe(Schema.between(0, 9)),
  amounts: Schema.Record({ key: Symbol, value: Decimal }),
})

/**
 * Liquidity only the devnet's aggregator routes through: Uniswap V3 pools on a
 * factory of their own, which the service's market never discovers.
 */
export const AggregatorEntry = Schema.Struct({
  pools: Schema.Array(V3PoolEntry),
})

export const ScenarioFile = Schema.Struct({
  tokens: Schema.Array(TokenEntry),
  priceFeeds: Schema.optional(Schema.Record({ key: Symbol, value: Decimal })),
  pools: Schema.Array(PoolEntry),
  aggregator: Schema.optional(AggregatorEntry),
  balances: Schema.optional(Schema.Array(BalanceEntry)),
})

export type ScenarioFile = typeof ScenarioFile.Type
export type PoolEntry = typeof PoolEntry.Type
export type PositionEntry = typeof PositionEntry.Type

export const decodeScenarioFile = Schema.decodeUnknownEither(ScenarioFile, strict)
