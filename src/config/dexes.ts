// DEXES: the venues the own router reads, a JSON array of { name, kind, … },
// each one deployment of an AMM family:
//   uniswap-v2        { factory, feeBps? }        a factory and its pairs (feeBps when the fee is not 30)
//   uniswap-v3        { factory, deployer?, quoter? }  a factory and its pools (deployer: the
//                                               contract that CREATE2s them, when not the factory)
//   uniswap-v4        { poolManager, stateView, quoter? }
//   curve-stableswap  { pools?, factory? }        plain pools, listed and/or found through a Curve-style
//                                               factory (pool_count, pool_list): the union of both
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

const UniswapV3Venue = Schema.Struct({ name, kind: Schema.Literal("uniswap-v3"), factory: address, deployer: optionalAddress, quoter: optionalAddress })

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

/**
 * A venue as the service serves it: its name, its kind and the contracts the
 * market reads (and matches against the executor's registered venues).
 */
export type ServedVenue =
  | { readonly name: string; readonly kind: "uniswap-v2"; readonly factory: Address; readonly feeBps: number }
  | { readonly name: string; readonly kind: "uniswap-v3"; readonly factory: Address; readonly deployer: Address }
  | { readonly name: string; readonly kind: "uniswap-v4"; readonly poolManager: Address; readonly stateView: Address }
  | { readonly name: string; readonly kind: "curve-stableswap"; readonly pools: readonly Address[]; readonly factory?: Address }

/**
 * The contract that identifies a Uniswap-kind venue on chain (and in the executor's registry),
 * lower-case; a stable venue has none (the executor registers its pools one by one).
 */
export const venueContract = (venue: ServedVenue): string | undefined => {
  switch (venue.kind) {
    case "uniswap-v2":
      return venue.factory.toLowerCase()
    case "uniswap-v3":
      return venue.deployer.toLowerCase()
    case "uniswap-v4":
      return venue.poolManager.toLowerCase()
    case "curve-stableswap":
      return undefined
  }
}

/**
 * The venues as the service serves them, or a line for each it cannot serve:
 * names are unique and no two venues share a contract (a factory, pool
 * deployer, PoolManager, stable pool or stable factory).
 */
export const servedVenues = (venues: ReadonlyArray<Venue>): Either.Either<ServedVenue[], string[]> => {
  const problems: string[] = []
  const names = new Set<string>()
  const contracts = new Map<string, string>()
  const served: ServedVenue[] = []
  for (const venue of venues) {
    if (names.has(venue.name)) problems.push(`DEXES: the name ${venue.name} is used twice`)
    names.add(venue.name)
    const refuse = (why: string) => problems.push(`DEXES: venue ${venue.name} (${venue.kind}) cannot be served: ${why}`)
    let entry: ServedVenue
    switch (venue.kind) {
      case "uniswap-v2":
        entry = { name: venue.name, kind: venue.kind, factory: venue.factory, feeBps: venue.feeBps ?? UNISWAP_V2_FEE_BPS }
        break
      case "uniswap-v3":
        entry = { name: venue.name, kind: venue.kind, factory: venue.factory, deployer: venue.deployer ?? venue.factory }
        break
      case "uniswap-v4":
        entry = { name: venue.name, kind: venue.kind, poolManager: venue.poolManager, stateView: venue.stateView }
        break
      case "curve-stableswap":
        entry = { name: venue.name, kind: venue.kind, pools: venue.pools ?? [], ...(venue.factory !== undefined ? { factory: venue.factory } : {}) }
        break
    }
    // a factory, deployer, PoolManager, stable pool or stable factory belongs to one venue, once
    const owned = entry.kind === "curve-stableswap"
      ? [...entry.pools, ...(entry.factory !== undefined ? [entry.factory] : [])].map((a) => a.toLowerCase())
      : [venueContract(entry)!]
    for (const contract of owned) {
      const owner = contracts.get(contract)
      if (owner !== undefined) refuse(owner === venue.name ? `it lists ${contract} twice` : `its contract ${contract} is venue ${owner}'s too`)
      else contracts.set(contract, venue.name)
    }
    served.push(entry)
  }
  return problems.length > 0 ? Either.left(problems) : Either.right(served)
}
