// Layers over a running devnet for the market and tokens tests: Rpc, Tokens and
// MarketState built from the manifest, and an Rpc that records every batched read.
import { Effect, Layer, ManagedRuntime } from "effect"
import type { Abi, Address } from "viem"
import { makeRpc, Rpc, type RpcConfig, type RpcError } from "../../src/chain/index.ts"
import { manifestVenue, poolKind, type DevnetClient, type Manifest, type ManifestPool } from "../../src/devnet/index.ts"
import { MarketState, type MarketConfig, type MarketVenue } from "../../src/market/index.ts"
import { Tokens } from "../../src/tokens/index.ts"

export const rpcConfig = (manifest: Manifest, urls: readonly string[] = [manifest.rpcUrl]): RpcConfig => ({
  urls,
  chainId: manifest.chainId,
  multicall3: manifest.multicall3 as Address,
  timeoutMs: 2_000,
})

/** The swap fee of a uniswap-v2 venue's pairs when the manifest states none. */
const UNISWAP_V2_FEE_BPS = 30

/**
 * Every venue of the manifest, in its order, as the service serves it (src/config/dexes.ts
 * servedVenues): a V2 venue's fee 30 bps unless stated, a V3 venue's pools deployed by its
 * factory, a V4 venue's PoolManager and StateView, a stable venue's listed pools and its factory.
 */
export const marketVenues = (manifest: Pick<Manifest, "dexes">): MarketVenue[] =>
  Object.entries(manifest.dexes).map(([name, venue]): MarketVenue => {
    switch (venue.kind) {
      case "uniswap-v2":
        return { name, kind: venue.kind, factory: venue.factory as Address, feeBps: venue.feeBps ?? UNISWAP_V2_FEE_BPS }
      case "uniswap-v3":
        return { name, kind: venue.kind, factory: venue.factory as Address, deployer: venue.factory as Address }
      case "uniswap-v4":
        return { name, kind: venue.kind, poolManager: venue.poolManager as Address, stateView: venue.stateView as Address }
      case "curve-stableswap":
        return { name, kind: venue.kind, pools: venue.pools as Address[], ...(venue.factory !== undefined ? { factory: venue.factory as Address } : {}) }
    }
  })

/** A market over every venue of the manifest (no executor unless the overrides give one: every pool is published). */
export const marketConfig = (manifest: Manifest, overrides: Partial<MarketConfig> = {}): MarketConfig => ({
  venues: marketVenues(manifest),
  multicall3: manifest.multicall3 as Address,
  fromBlock: 0n,
  pollInterval: "20 millis",
  retryBase: "20 millis",
  retryMax: "200 millis",
  ...overrides,
})

/** One batched read as the Rpc saw it: how many calls, at which block. */
export interface MulticallRecord {
  readonly calls: number
  readonly blockNumber: bigint | undefined
  /** the contracts read, lower-case, in the batch's order */
  readonly targets: readonly string[]
}

/** An Rpc whose multicalls are recorded in `log` (the real service underneath). */
export const recordingRpc = (config: RpcConfig, log: MulticallRecord[]): Layer.Layer<Rpc, RpcError> =>
  Layer.effect(
    Rpc,
    Effect.map(makeRpc(config), (rpc) => ({
      ...rpc,
      multicall: ((reads, options) =>
        Effect.zipRight(
          Effect.sync(() => log.push({ calls: reads.length, blockNumber: options?.blockNumber, targets: reads.map((r) => r.target.toLowerCase()) })),
          rpc.multicall(reads, options),
        )) as typeof rpc.multicall,
    })),
  )

export const tokensRuntime = (manifest: Manifest) =>
  ManagedRuntime.make(Tokens.layer().pipe(Layer.provideMerge(Rpc.layer(rpcConfig(manifest)))))

export const marketLayer = (rpc: Layer.Layer<Rpc, RpcError>, config: MarketConfig) =>
  MarketState.layer(config).pipe(Layer.provideMerge(Tokens.layer()), Layer.provideMerge(rpc))

/** The manifest's pools whose tokens are all standard (what the market must publish). */
export const routablePools = (manifest: Manifest) =>
  manifest.pools.filter((p) => p.tokens.every((symbol) => manifest.tokens[symbol]?.behavior === undefined))

/**
 * A manifest pool's key in World.pools: its lower-case address, or for a V4 pool its id and its
 * venue's PoolManager (`${id}@${poolManager}`, both lower-case): pool ids are unique per PoolManager only.
 */
export const poolKey = (manifest: Pick<Manifest, "dexes">, pool: ManifestPool): string =>
  poolKind(manifest, pool) === "uniswap-v4"
    ? `${pool.pool.toLowerCase()}@${manifestVenue(manifest, pool.dex, "uniswap-v4").poolManager.toLowerCase()}`
    : pool.pool.toLowerCase()

export const tokenAddress = (manifest: Manifest, symbol: string): Address => manifest.tokens[symbol]!.address as Address

/**
 * A fixed gas limit for test transactions: an estimate made in one second can fall short
 * when the transaction is mined in the next (a V3 pool then writes a new oracle observation).
 */
const GAS = 5_000_000n

/** Sends a contract call from a devnet account and waits for it; a revert throws. */
export const sendFrom = (client: () => DevnetClient) => async (from: Address, address: Address, abi: Abi, functionName: string, args: readonly unknown[]) => {
  const c = client()
  const hash = await c.writeContract({ address, abi, functionName, args, account: from, chain: c.chain, gas: GAS } as never)
  const receipt = await c.waitForTransactionReceipt({ hash })
  if (receipt.status !== "success") throw new Error(`${functionName} reverted`)
  return receipt
}
