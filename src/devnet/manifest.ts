// The devnet manifest (INTERFACE.md, "Devnet manifest"): everything a client of
// the devnet needs, written only once the chain is ready, atomically, and
// readable by its owner alone (it holds private keys and the demo API key).
import { Schema } from "effect"
import { randomBytes } from "node:crypto"
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs"
import { dirname } from "node:path"

const Address = Schema.String.pipe(Schema.pattern(/^0x[0-9a-fA-F]{40}$/))
const Bytes32 = Schema.String.pipe(Schema.pattern(/^0x[0-9a-fA-F]{64}$/))

export const ManifestToken = Schema.Struct({
  address: Address,
  decimals: Schema.Int,
  native: Schema.optional(Address),
  behavior: Schema.optional(Schema.Literal("fee-on-transfer", "rebasing")),
})

export const ManifestPool = Schema.Struct({
  dex: Schema.Literal("uniswap-v2", "uniswap-v3", "uniswap-v4"),
  /** pair or pool address; for uniswap-v4 the 32-byte pool id */
  pool: Schema.Union(Address, Bytes32),
  tokens: Schema.Tuple(Schema.String, Schema.String),
  fee: Schema.optional(Schema.Int),
  tickSpacing: Schema.optional(Schema.Int),
  hooks: Schema.optional(Address),
})

export const ManifestAccount = Schema.Struct({ address: Address, privateKey: Bytes32 })

export const Manifest = Schema.Struct({
  chainId: Schema.Int,
  rpcUrl: Schema.String,
  executor: Address,
  owner: ManifestAccount,
  feeCollector: Address,
  tokens: Schema.Record({ key: Schema.String, value: ManifestToken }),
  dexes: Schema.Struct({
    "uniswap-v2": Schema.Struct({ factory: Address }),
    "uniswap-v3": Schema.Struct({ factory: Address, quoter: Address }),
    "uniswap-v4": Schema.Struct({ poolManager: Address, quoter: Address, stateView: Address }),
  }),
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
      pools: Schema.Array(ManifestPool),
    }),
  ),
  accounts: Schema.Array(ManifestAccount),
  api: Schema.optional(Schema.Struct({ baseUrl: Schema.String, apiKey: Schema.String })),
})

export type Manifest = typeof Manifest.Type
export type ManifestPool = typeof ManifestPool.Type

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

export const readManifest = (path: string): Manifest =>
  Schema.decodeUnknownSync(Manifest)(JSON.parse(readFileSync(path, "utf8")))
