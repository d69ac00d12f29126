// The devnet manifest (INTERFACE.md, "Devnet manifest"): everything a client of
// the devnet needs, written only once the chain is ready, atomically, and
// readable by its owner alone (it holds private keys and the demo API key).
import { Schema } from "effect"
import { randomBytes } from "node:crypto"
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs"
import { dirname } from "node:path"
import { ARC_CHAIN_IDS } from "../domain/index.ts"

const Address = Schema.String.pipe(Schema.pattern(/^0x[0-9a-fA-F]{40}$/))
const Bytes32 = Schema.String.pipe(Schema.pattern(/^0x[0-9a-fA-F]{64}$/))

export const ManifestToken = Schema.Struct({
  address: Address,
  decimals: Schema.Int,
  native: Schema.optional(Address),
  behavior: Schema.optional(Schema.Literal("fee-on-transfer", "rebasing")),
  /** the EIP-712 domain of its EIP-2612 permits, when it has them */
  permit: Schema.optional(Schema.Struct({ name: Schema.String, version: Schema.String })),
})

/** A venue's kind: the AMM family whose contracts it deploys. */
export const MANIFEST_VENUE_KINDS = ["uniswap-v2", "uniswap-v3", "uniswap-v4", "curve-stableswap"] as const
export type ManifestVenueKind = (typeof MANIFEST_VENUE_KINDS)[number]

/** A Uniswap V2 factory and its pairs (or a fork's, with the same pair interface). */
export const UniswapV2Venue = Schema.Struct({
  kind: Schema.Literal("uniswap-v2"),
  factory: Address,
  /** the pairs' swap fee, present only when it is not 30 */
  feeBps: Schema.optional(Schema.Int),
})

/** A Uniswap V3 factory and its pools. */
export const UniswapV3Venue = Schema.Struct({
  kind: Schema.Literal("uniswap-v3"),
  factory: Address,
  /** QuoterV2 over the factory, when one is deployed */
  quoter: Schema.optional(Address),
})

/** A Uniswap V4 PoolManager and its StateView. */
export const UniswapV4Venue = Schema.Struct({
  kind: Schema.Literal("uniswap-v4"),
  poolManager: Address,
  stateView: Address,
  /** V4Quoter over the PoolManager, when one is deployed */
  quoter: Schema.optional(Address),
})

/** Curve plain pools (StableSwap), listed or found through a factory. */
export const CurveStableSwapVenue = Schema.Struct({
  kind: Schema.Literal("curve-stableswap"),
  pools: Schema.Array(Address),
  /** the Curve-style factory that lists them (pool_count, pool_list), when there is one */
  factory: Schema.optional(Address),
})

export const ManifestVenue = Schema.Union(UniswapV2Venue, UniswapV3Venue, UniswapV4Venue, CurveStableSwapVenue)
export type ManifestVenue = typeof ManifestVenue.Type
/** The venue of one kind, e.g. `ManifestVenueOf<"uniswap-v3">` has `factory` and `quoter?`. */
export type ManifestVenueOf<K extends ManifestVenueKind> = Extract<ManifestVenue, { readonly kind: K }>

/** A pool of a Uniswap venue: two tokens. */
export const ManifestPairPool = Schema.Struct({
  /** the venue's name (a key of `dexes`) */
  dex: Schema.String,
  /** pair or pool address; on a uniswap-v4 venue the 32-byte pool id */
  pool: Schema.Union(Address, Bytes32),
  tokens: Schema.Tuple(Schema.String, Schema.String),
  fee: Schema.optional(Schema.Int),
  tickSpacing: Schema.optional(Schema.Int),
  hooks: Schema.optional(Address),
})

/** A pool of a curve-stableswap venue: its coins in pool order, A and fee (1e-10 units). */
export const ManifestStablePool = Schema.Struct({
  dex: Schema.String,
  pool: Address,
  tokens: Schema.Array(Schema.String).pipe(Schema.minItems(2), Schema.maxItems(4)),
  /** the amplification coefficient, A() (not A_precise()) */
  A: Schema.Int,
  /** fee() in units of 1e-10 */
  fee: Schema.Int,
})

// the stable member first: a pair pool has no A, while a two-coin stable pool would pass as a pair
export const ManifestPool = Schema.Union(ManifestStablePool, ManifestPairPool)

export const ManifestAccount = Schema.Struct({ address: Address, privateKey: Bytes32 })

export const Manifest = Schema.Struct({
  /** the node's: Arc (5042) or Arc testnet (5042002), as the scenario says */
  chainId: Schema.Literal(...ARC_CHAIN_IDS),
  rpcUrl: Schema.String,
  /** no block's base fee is below it: native USDC wei, a decimal string (the scenario's baseFeeGwei) */
  baseFeeFloorWei: Schema.optional(Schema.String.pipe(Schema.pattern(/^[1-9]\d*$/))),
  executor: Address,
  owner: ManifestAccount,
  feeCollector: Address,
  tokens: Schema.Record({ key: Schema.String, value: ManifestToken }),
  /** venues by name, in order: uniswap-v2, uniswap-v3, uniswap-v4, then the scenario's own */
  dexes: Schema.Record({ key: Schema.String, value: ManifestVenue }),
  pools: Schema.Array(ManifestPool),
  priceFeeds: Schema.Record({ key: Schema.String, value: Address }),
  multicall3: Address,
  aggregators: Schema.Array(
    Schema.Struct({ name: Schema.String, kind: Schema.String, url: Schema.String, apiKey: Schema.optional(Schema.String) }),
  ),
  /** the liquidity only the devnet aggregator routes through (the service's market never reads it) */
  aggregatorDex: Schema.optional(
    Schema.Struct({
      dex: Schema.Literal("uniswap-v3"),
      factory: Address,
      quoter: Address,
      /** Uniswap's SwapRouter over `factory`, allowlisted on the executor */
      router: Address,
      pools: Schema.Array(ManifestPairPool),
    }),
  ),
  accounts: Schema.Array(ManifestAccount),
  api: Schema.optional(Schema.Struct({ baseUrl: Schema.String, apiKey: Schema.String })),
  /** the account gasless swaps are sent from, when the API was started with a relayer (`bun start`) */
  relayer: Schema.optional(Schema.Struct({ address: Address })),
})

export type Manifest = typeof Manifest.Type
export type ManifestPool = typeof ManifestPool.Type
export type ManifestPairPool = typeof ManifestPairPool.Type
export type ManifestStablePool = typeof ManifestStablePool.Type

export class ManifestVenueError extends Error {
  override readonly name = "ManifestVenueError"
}

const isVenueKind = (kind: unknown): kind is ManifestVenueKind => (MANIFEST_VENUE_KINDS as readonly unknown[]).includes(kind)

/**
 * The venue `name` of the manifest, which must be of `kind`:
 * `manifestVenue(m, "uniswap-v3", "uniswap-v3").quoter`. Throws when there is none.
 */
export const manifestVenue = <K extends ManifestVenueKind>(
  manifest: Pick<Manifest, "dexes">,
  name: string,
  kind: K,
): ManifestVenueOf<K> => {
  const venue = manifest.dexes[name]
  if (venue === undefined) throw new ManifestVenueError(`the manifest has no venue ${name}`)
  if (venue.kind !== kind) throw new ManifestVenueError(`the manifest's venue ${name} is ${venue.kind}, not ${kind}`)
  return venue as ManifestVenueOf<K>
}

/** The venues of one kind, in the manifest's order, each with its name. */
export const venuesOfKind = <K extends ManifestVenueKind>(
  manifest: Pick<Manifest, "dexes">,
  kind: K,
): Array<ManifestVenueOf<K> & { readonly name: string }> =>
  Object.entries(manifest.dexes).flatMap(([name, venue]) => (venue.kind === kind ? [{ ...(venue as ManifestVenueOf<K>), name }] : []))

/** The kind of the venue a pool names. Throws when the manifest has no such venue. */
export const poolKind = (manifest: Pick<Manifest, "dexes">, pool: Pick<ManifestPool, "dex">): ManifestVenueKind => {
  const venue = manifest.dexes[pool.dex]
  if (venue === undefined) throw new ManifestVenueError(`the manifest has no venue ${pool.dex}`)
  return venue.kind
}

/** A stable pool (of a curve-stableswap venue): 2-4 coins, A and fee. */
export const isStablePool = (pool: ManifestPool): pool is ManifestStablePool => "A" in pool

/** A pool of two tokens (of a Uniswap venue). */
export const isPairPool = (pool: ManifestPool): pool is ManifestPairPool => !("A" in pool)

/** The manifest's pools on the venues of one Uniswap kind. */
export const pairPoolsOfKind = (
  manifest: Pick<Manifest, "dexes" | "pools">,
  kind: Exclude<ManifestVenueKind, "curve-stableswap">,
): ManifestPairPool[] => manifest.pools.filter((p): p is ManifestPairPool => isPairPool(p) && manifest.dexes[p.dex]?.kind === kind)

/** The manifest's stable pools. */
export const stablePools = (manifest: Pick<Manifest, "pools">): ManifestStablePool[] => manifest.pools.filter(isStablePool)

/**
 * The executor's id of each Uniswap venue: 1, 2, 3, … in the manifest's order
 * of `dexes` (uniswap-v2 = 1, uniswap-v3 = 2, uniswap-v4 = 3, then the
 * scenario's own). Stable pools are registered one by one, without an id.
 */
export const executorVenueIds = (manifest: Pick<Manifest, "dexes">): Map<string, number> => {
  const ids = new Map<string, number>()
  for (const [name, venue] of Object.entries(manifest.dexes)) if (venue.kind !== "curve-stableswap") ids.set(name, ids.size + 1)
  return ids
}

/** A manifest's JSON with the kind of a venue that states none: the kind of its own name (INTERFACE.md). */
const withVenueKinds = (json: unknown): unknown => {
  if (typeof json !== "object" || json === null || !("dexes" in json)) return json
  const dexes = (json as { dexes: unknown }).dexes
  if (typeof dexes !== "object" || dexes === null || Array.isArray(dexes)) return json
  const filled = Object.fromEntries(
    Object.entries(dexes).map(([name, venue]) =>
      typeof venue === "object" && venue !== null && !("kind" in venue) && isVenueKind(name) ? [name, { kind: name, ...venue }] : [name, venue],
    ),
  )
  return { ...json, dexes: filled }
}

/** Decodes a manifest's parsed JSON (a venue without `kind` takes its name's). */
export const decodeManifest = (json: unknown): Manifest => Schema.decodeUnknownSync(Manifest)(withVenueKinds(json))

export const DEFAULT_MANIFEST_PATH = ".devnet/manifest.json"

/** Mode of the manifest: it holds private keys, so only its owner reads it. */
export const MANIFEST_MODE = 0o600

/**
 * Writes the manifest whole or not at all, mode 0600 from its first byte: a new
 * temporary file beside it, renamed into place. A failed write leaves the
 * previous manifest, if any, and no temporary file.
 */
export const writeManifest = (path: string, manifest: Manifest): void => {
  const text = `${JSON.stringify(Schema.encodeSync(Manifest)(manifest), null, 2)}\n`
  mkdirSync(dirname(path), { recursive: true })
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`
  try {
    // "wx": always a new file, so the mode applies; chmod in case the umask took bits away
    writeFileSync(tmp, text, { mode: MANIFEST_MODE, flag: "wx" })
    chmodSync(tmp, MANIFEST_MODE)
    renameSync(tmp, path)
  } catch (e) {
    rmSync(tmp, { force: true })
    throw e
  }
}

export const readManifest = (path: string): Manifest => decodeManifest(JSON.parse(readFileSync(path, "utf8")))
