// What a route may use, read from the latest World: the sources (every venue
// with its pools published at that block, every external aggregator with its
// circuit breaker's state) and the tokens held by published pools, with their
// reference prices. One answer per World, kept while the World is the latest.
import { Effect } from "effect"
import type { Address } from "viem"
import { USDC_ERC20_ADDRESS } from "../domain/index.ts"
import type { UsdPrice } from "../domain/index.ts"
import type { Source } from "../sources/index.ts"
import type { Tokens } from "../tokens/index.ts"
import { Unavailable, type QuoteError } from "./errors.ts"
import type { World, TradeType } from "../domain/index.ts"

export interface SourceInfo {
  readonly name: string
  readonly type: "venue" | "aggregator"
  readonly kind: string
  /** venues: pools published at the World's block; null for aggregators */
  readonly pools: number | null
  readonly healthy: boolean
  /** why it is not healthy; null when it is */
  readonly detail: string | null
  /** the requests it competes on: venues both; an aggregator exact input only (it is asked for a fixed input only) */
  readonly tradeTypes: readonly TradeType[]
}

export interface SourcesAnswer {
  readonly sources: readonly SourceInfo[]
  readonly blockNumber: bigint
}

export interface TokenInfo {
  readonly address: Address
  readonly symbol: string
  readonly decimals: number
  /** dollars per whole token, exactly as the feed answers (a decimal string); null without a feed */
  readonly priceUsd: string | null
}

export interface TokensAnswer {
  readonly tokens: readonly TokenInfo[]
  readonly blockNumber: bigint
}

/** A venue as configured: its name and kind. */
export interface VenueName {
  readonly name: string
  readonly kind: string
}

/** answer / 10^decimals as an exact decimal string, without trailing zeros. */
export const decimalPrice = (price: UsdPrice): string => {
  const digits = price.answer.toString().padStart(price.decimals + 1, "0")
  const whole = digits.slice(0, digits.length - price.decimals)
  const fraction = digits.slice(digits.length - price.decimals).replace(/0+$/, "")
  return fraction === "" ? whole : `${whole}.${fraction}`
}

/** USDC is the chain's unit of account: without a feed it is priced at one dollar, as the pricer does. */
const ONE_DOLLAR: UsdPrice = { answer: 1n, decimals: 0, updatedAt: 0n }
const USDC = USDC_ERC20_ADDRESS.toLowerCase()

/** Each venue's pools in a World. */
const poolCounts = (world: World): ReadonlyMap<string, number> => {
  const counts = new Map<string, number>()
  for (const pool of world.pools.values()) counts.set(pool.venue, (counts.get(pool.venue) ?? 0) + 1)
  return counts
}

const venueInfo = (world: World, counts: ReadonlyMap<string, number>, venue: VenueName): SourceInfo => {
  const pools = counts.get(venue.name) ?? 0
  // a stable venue's pools are registered one by one; the others as a venue
  const registered = venue.kind === "curve-stableswap" || world.executor?.venueIds.has(venue.name) === true
  const detail =
    world.executor === undefined ? "the route executor's settings could not be read"
    : !registered ? "not registered on the route executor"
    : pools === 0 ? "no pools published"
    : null
  return { name: venue.name, type: "venue", kind: venue.kind, pools, healthy: detail === null, detail, tradeTypes: ["exactInput", "exactOutput"] }
}

const aggregatorInfo = (source: Source): Effect.Effect<SourceInfo> =>
  Effect.map(source.health, (state) => ({
    name: source.name,
    type: "aggregator" as const,
    kind: source.kind,
    pools: null,
    healthy: state === "closed",
    detail: state === "closed" ? null : `its circuit breaker is ${state}: failing calls are not retried until it closes`,
    tradeTypes: source.tradeTypes,
  }))

/** The sources of the World, in the configured order: venues, then aggregators. */
export const sourcesOf = (world: World, venues: readonly VenueName[], sources: readonly Source[]): Effect.Effect<SourcesAnswer> => {
  const counts = poolCounts(world)
  return Effect.map(Effect.all(sources.map(aggregatorInfo)), (aggregators) => ({
    sources: [...venues.map((venue) => venueInfo(world, counts, venue)), ...aggregators],
    blockNumber: world.blockNumber,
  }))
}

/** The tokens of the World's pools, by address, with their metadata and reference prices. */
export const tokensOf = (world: World, tokens: Tokens["Type"]): Effect.Effect<TokensAnswer, Unavailable> =>
  Effect.map(
    Effect.forEach(
      [...world.poolsByToken.keys()].sort(),
      (address) =>
        tokens.metadata(address as Address).pipe(
          Effect.map((meta): TokenInfo => {
            const price = world.prices.get(address) ?? (address === USDC ? ONE_DOLLAR : undefined)
            return { address: meta.address, symbol: meta.symbol, decimals: meta.decimals, priceUsd: price === undefined ? null : decimalPrice(price) }
          }),
          Effect.catchAll((e) => Effect.fail(new Unavailable({ detail: `token ${address} could not be read: ${e.message}`, retryAfterSeconds: 1 }))),
        ),
      { concurrency: 16 },
    ),
    (list) => ({ tokens: list, blockNumber: world.blockNumber }),
  )

/** An answer computed once per World (the latest one): later requests of the same block share it. */
const perWorld = <A, E>(compute: (world: World) => Effect.Effect<A, E>) => {
  const answers = new WeakMap<World, A>()
  return (world: World): Effect.Effect<A, E> => {
    const known = answers.get(world)
    return known !== undefined ? Effect.succeed(known) : Effect.tap(compute(world), (answer) => Effect.sync(() => answers.set(world, answer)))
  }
}

/** The catalog endpoints' programs over the latest World. */
export const catalogPrograms = (
  latest: Effect.Effect<World, QuoteError>,
  venues: readonly VenueName[],
  sources: readonly Source[],
  tokens: Tokens["Type"],
) => {
  // an aggregator's health changes within a block: only the tokens are kept per World
  const tokensAt = perWorld((world: World) => tokensOf(world, tokens))
  return {
    sourceNames: new Set([...venues.map((v) => v.name), ...sources.map((s) => s.name)]) as ReadonlySet<string>,
    sources: Effect.flatMap(latest, (world) => sourcesOf(world, venues, sources)),
    tokens: Effect.flatMap(latest, tokensAt),
  }
}
