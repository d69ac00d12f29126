// Layers over a running devnet for the market and tokens tests: Rpc, Tokens and
// MarketState built from the manifest, and an Rpc that records every batched read.
import { Effect, Layer, ManagedRuntime } from "effect"
import type { Address } from "viem"
import { makeRpc, Rpc, type RpcConfig, type RpcError } from "../../src/chain/index.ts"
import type { Manifest } from "../../src/devnet/index.ts"
import { MarketState, type MarketConfig } from "../../src/market/index.ts"
import { Tokens } from "../../src/tokens/index.ts"

export const rpcConfig = (manifest: Manifest, urls: readonly string[] = [manifest.rpcUrl]): RpcConfig => ({
  urls,
  chainId: manifest.chainId,
  multicall3: manifest.multicall3 as Address,
  timeoutMs: 2_000,
})

export const marketConfig = (manifest: Manifest, overrides: Partial<MarketConfig> = {}): MarketConfig => ({
  v2Factory: manifest.dexes["uniswap-v2"].factory as Address,
  v3Factory: manifest.dexes["uniswap-v3"].factory as Address,
  poolManager: manifest.dexes["uniswap-v4"].poolManager as Address,
  stateView: manifest.dexes["uniswap-v4"].stateView as Address,
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
}

/** An Rpc whose multicalls are recorded in `log` (the real service underneath). */
export const recordingRpc = (config: RpcConfig, log: MulticallRecord[]): Layer.Layer<Rpc, RpcError> =>
  Layer.effect(
    Rpc,
    Effect.map(makeRpc(config), (rpc) => ({
      ...rpc,
      multicall: ((reads, options) =>
        Effect.zipRight(
          Effect.sync(() => log.push({ calls: reads.length, blockNumber: options?.blockNumber })),
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

export const tokenAddress = (manifest: Manifest, symbol: string): Address => manifest.tokens[symbol]!.address as Address
