// DEXES: the venues the own router reads, a JSON array of { name, kind, … },
// each one deployment of an AMM family:
//   uniswap-v2        { factory, feeBps? }        a factory and its pairs (feeBps when the fee is not 30)
//   uniswap-v3        { factory, quoter? }        a factory and its pools
//   uniswap-v4        { poolManager, stateView, quoter? }
//   curve-stableswap  { pools?, factory? }        plain pools, listed or found through a factory
// An entry without `kind` is read as the kind of its own name. The manifest's
// `dexes` are read the same way.
import { Either, ParseResult, Schema } from "effect"
import { AddressFromString, type Address } from "./address.ts"
import type { JsonVariable } from "./json-variable.ts"

export const VENUE_KINDS = ["uniswap-v2", "uniswap-v3", "uniswap-v4", "curve-stableswap"] as const
export type VenueKind = (typeof VENUE_KINDS)[number]

/** The swap fee of a uniswap-v2 pair unless its venue says otherwise. */
export const UNISWAP_V2_FEE_BPS = 30

const address = AddressFromString
const optionalAddress = Schema.optionalWith(AddressFromString, { exact: true })
const name = Schema.String.annotations({ message: () => "must be a string" }).pipe(
  Schema.filter((s) => /^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/.test(s) || `must be 1-40 letters, digits, . _ -, got "${s}"`),
)

const UniswapV2Venue = Schema.Struct({
  name,
  kind: Schema.Literal("uniswap-v2"),
  factory: address,
  feeBps: Schema.optionalWith(
    Schema.Number.annotations({ message: () => "must be a number" }).pipe(Schema.filter((n) => (Number.isInteger(n) && n >= 1 && n < 10_000) || "must be an integer from 1 to 9999")),
    { exact: true },
  ),
})

const UniswapV3Venue = Schema.Struct({ name, kind: Schema.Literal("uniswap-v3"), factory: address, quoter: optionalAddress })

const UniswapV4Venue = Schema.Struct({ name, kind: Schema.Literal("uniswap-v4"), poolManager: address, stateView: address, quoter: optionalAddress })

const CurveStableSwapVenue = Schema.Struct({
  name,
  kind: Schema.Literal("curve-stableswap"),
  pools: Schema.optionalWith(Schema.Array(address), { exact: true }),
  factory: optionalAddress,
}).pipe(Schema.filter((venue) => (venue.pools ?? []).length > 0 || venue.factory !== undefined || "needs its pools or a factory"))

export const Venue = Schema.Union(UniswapV2Venue, UniswapV3Venue, UniswapV4Venue, CurveStableSwapVenue)
export type Venue = typeof Venue.Type

const isVenueKind = (kind: string): kind is VenueKind => (VENUE_KINDS as readonly string[]).includes(kind)

/** An entry as given: its name, its kind when stated (else the kind of its name), its fields. */
const VenueEntry = Schema.Struct(
  { name: Schema.String.annotations({ message: () => "must be a string" }), kind: Schema.optionalWith(Schema.String.annotations({ message: () => "must be a string" }), { exact: true }) },
  Schema.Record({ key: Schema.String, value: Schema.Unknown }),
).annotations({ message: () => "must be an object" })

const VenueFromEntry = Schema.transformOrFail(VenueEntry, Schema.Unknown, {
  strict: false,
  decode: (entry, _, ast) => {
    const kind = entry.kind ?? entry.name
    if (isVenueKind(kind)) return ParseResult.succeed({ ...entry, kind })
    const message = entry.kind === undefined
      ? `has no kind, and its name is not one of ${VENUE_KINDS.join(", ")}`
      : `kind "${kind}" is not one of ${VENUE_KINDS.join(", ")}`
    return ParseResult.fail(new ParseResult.Type(ast, entry, message))
  },
  encode: ParseResult.succeed,
}).pipe(Schema.compose(Venue, { strict: false }))

export const DEXES: JsonVariable<ReadonlyArray<Venue>, ReadonlyArray<typeof VenueEntry.Encoded>> = {
  name: "DEXES",
  schema: Schema.Array(VenueFromEntry).annotations({ message: () => "not an array" }),
  shape: 'a JSON array of venues { "name", "kind", … }',
  entry: (key, value) => {
    const entry = Array.isArray(value) ? (value[Number(key)] as { name?: unknown } | undefined) : undefined
    return typeof entry?.name === "string" ? `venue ${entry.name}` : `entry ${String(key)}`
  },
}

/** The DEX contracts the service reads pools from: one venue of each Uniswap kind. */
export interface ServedVenues {
  readonly v2Factory?: Address
  readonly v3Factory?: Address
  readonly poolManager?: Address
  readonly stateView?: Address
}

/**
 * The venues as the service serves them, or a line for each it cannot serve:
 * it reads one venue of each Uniswap kind, named like its kind, at the
 * standard uniswap-v2 fee; names are unique.
 */
export const servedVenues = (venues: ReadonlyArray<Venue>): Either.Either<ServedVenues, string[]> => {
  const problems: string[] = []
  const names = new Set<string>()
  let served: ServedVenues = {}
  for (const venue of venues) {
    if (names.has(venue.name)) problems.push(`DEXES: the name ${venue.name} is used twice`)
    names.add(venue.name)
    const refuse = (why: string) => problems.push(`DEXES: venue ${venue.name} (${venue.kind}) cannot be served: ${why}`)
    if (venue.kind === "curve-stableswap") {
      refuse("the service does not read curve-stableswap venues")
      continue
    }
    if (venue.name !== venue.kind) {
      refuse(`the service reads one ${venue.kind} venue, named ${venue.kind}`)
      continue
    }
    switch (venue.kind) {
      case "uniswap-v2":
        if (venue.feeBps !== undefined && venue.feeBps !== UNISWAP_V2_FEE_BPS) refuse(`the service prices uniswap-v2 pairs at ${UNISWAP_V2_FEE_BPS} bps, not ${venue.feeBps}`)
        else served = { ...served, v2Factory: venue.factory }
        break
      case "uniswap-v3":
        served = { ...served, v3Factory: venue.factory }
        break
      case "uniswap-v4":
        served = { ...served, poolManager: venue.poolManager, stateView: venue.stateView }
        break
    }
  }
  return problems.length > 0 ? Either.left(problems) : Either.right(served)
}
