// One devnet: a node, the scenario built on it, the manifest written last.
import { Context, Data, Effect, Layer, Schema } from "effect"
import { readFileSync } from "node:fs"
import { resolve } from "node:path"
import { getAddress, type Address } from "viem"
import { DEVNET_AGGREGATOR_API_KEY, startDevnetAggregator, type DevnetAggregator } from "./aggregator/index.ts"
import { PortInUseError, startAnvil, type AnvilNode } from "./anvil.ts"
import { devnetClient } from "./clients.ts"
import { deployScenario, plannedTokenAddresses } from "./deploy.ts"
import { decodeManifest, Manifest, writeManifest } from "./manifest.ts"
import { parseScenario, planScenario, ScenarioError, USDC_SYMBOL } from "./scenario.ts"
import { readCachedState, stateKey, writeCachedState } from "./state-cache.ts"
import { USDC_ADDRESS } from "./usdc.ts"

export const DEFAULT_SCENARIO_PATH = resolve(import.meta.dir, "scenarios/default.json")

export interface DevnetOptions {
  /** scenario file; the default scenario when absent */
  readonly scenarioPath?: string
  /** scenario JSON text, instead of a file */
  readonly scenarioText?: string
  /** node port; 0 picks a free one */
  readonly port?: number
  /** where to write the manifest; none written when absent */
  readonly manifestPath?: string
  /** reuse (and fill) the chain-state cache */
  readonly useCache?: boolean
  /** the local aggregator's port; 0 (the default) picks a free one */
  readonly aggregatorPort?: number
}

export interface RunningDevnet {
  readonly manifest: Manifest
  readonly node: AnvilNode
  /** the local aggregator API (0x v2 shape) over the liquidity only it knows; listed in the manifest's aggregators */
  readonly aggregator: DevnetAggregator
  /** true when the chain state came from the cache */
  readonly fromCache: boolean
  readonly stop: () => Promise<void>
}

export class DevnetError extends Data.TaggedError("DevnetError")<{ readonly message: string }> {}

const readScenarioFile = (path: string): string => {
  try {
    return readFileSync(path, "utf8")
  } catch (e) {
    throw new ScenarioError({ message: `cannot read the scenario file ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}` })
  }
}

/**
 * Starts a node and builds the scenario on it; a bad scenario is refused before
 * the node starts, a node port another process holds fails with PortInUseError.
 */
export const startDevnet = async (options: DevnetOptions = {}): Promise<RunningDevnet> => {
  const source = options.scenarioPath ?? (options.scenarioText !== undefined ? "scenario" : DEFAULT_SCENARIO_PATH)
  const text = options.scenarioText ?? readScenarioFile(options.scenarioPath ?? DEFAULT_SCENARIO_PATH)
  const scenario = parseScenario(text, source)
  const tokenAddresses = plannedTokenAddresses(scenario.tokens.map((t) => t.symbol))
  const addressOf = (symbol: string): Address =>
    symbol === USDC_SYMBOL ? USDC_ADDRESS : tokenAddresses.get(symbol)!
  // checks every entry (references, amounts, ranges) before anything runs
  const plan = planScenario(scenario, addressOf)

  const useCache = options.useCache ?? true
  const key = useCache ? stateKey(text) : undefined
  const cached = key !== undefined ? readCachedState(key) : undefined

  const node = await startAnvil({ port: options.port ?? 8545, chainId: plan.chainId, baseFeeFloorWei: plan.baseFeeFloorWei })
  let aggregator: DevnetAggregator | undefined
  try {
    const client = devnetClient(node.rpcUrl, undefined, plan.chainId)
    let manifest: Manifest
    if (cached) {
      await client.request({ method: "anvil_loadState" as never, params: [cached.state] as never })
      manifest = { ...decodeManifest(cached.manifest), rpcUrl: node.rpcUrl }
    } else {
      manifest = await deployScenario(client, plan, node.rpcUrl)
      if (key !== undefined) {
        const state = (await client.request({ method: "anvil_dumpState" as never, params: [] as never })) as string
        writeCachedState(key, { state, manifest: Schema.encodeSync(Manifest)(manifest) })
      }
    }
    // a block mined now, built or loaded alike: the chain's time is the clock's, not the time a cached
    // state's blocks were mined at (a deadline or a permit's expiry is judged against the head's time)
    await client.request({ method: "evm_mine" as never, params: [] as never })
    aggregator = startAggregator(manifest, node, options.aggregatorPort ?? 0)
    manifest = { ...manifest, aggregators: [{ name: aggregator.name, kind: aggregator.kind, url: aggregator.url, apiKey: DEVNET_AGGREGATOR_API_KEY }] }
    if (options.manifestPath !== undefined) writeManifest(options.manifestPath, manifest)
    const running = aggregator
    let stopped: Promise<void> | undefined
    const stop = () => (stopped ??= running.stop().catch(() => undefined).then(node.stop))
    return { manifest, node, aggregator: running, fromCache: cached !== undefined, stop }
  } catch (error) {
    await aggregator?.stop()
    await node.stop()
    if (error instanceof ScenarioError) throw error
    throw new DevnetError({ message: `devnet could not be built: ${error instanceof Error ? error.message : String(error)}` })
  }
}

/** The aggregator over the manifest's aggregatorDex, started on the running node. */
const startAggregator = (manifest: Manifest, node: AnvilNode, port: number): DevnetAggregator => {
  const dex = manifest.aggregatorDex
  if (dex === undefined) throw new DevnetError({ message: "the deployment has no aggregator liquidity (aggregatorDex)" })
  const address = (symbol: string): Address => getAddress(manifest.tokens[symbol]!.address)
  return startDevnetAggregator({
    rpcUrl: node.rpcUrl,
    chainId: manifest.chainId,
    quoter: getAddress(dex.quoter),
    router: getAddress(dex.router),
    pools: dex.pools.map((p) => ({ address: getAddress(p.pool), tokens: [address(p.tokens[0]), address(p.tokens[1])] as const, fee: p.fee! })),
    symbols: new Map(Object.entries(manifest.tokens).map(([symbol, t]) => [t.address.toLowerCase(), symbol])),
    apiKey: DEVNET_AGGREGATOR_API_KEY,
    host: node.host,
    port,
  })
}

/** The running devnet as a service. */
export class Devnet extends Context.Tag("devnet/Devnet")<Devnet, RunningDevnet>() {
  /** Starts the devnet for the life of the layer; the node stops when the layer is released. */
  static readonly layer = (options: DevnetOptions = {}) =>
    Layer.scoped(
      Devnet,
      Effect.acquireRelease(
        Effect.tryPromise({
          try: () => startDevnet(options),
          catch: (e) =>
            e instanceof ScenarioError || e instanceof DevnetError || e instanceof PortInUseError
              ? e
              : new DevnetError({ message: e instanceof Error ? e.message : String(e) }),
        }),
        (devnet) => Effect.promise(() => devnet.stop()),
      ),
    )
}
