// The devnet room's door: a local chain that behaves like Arc, with real Uniswap liquidity.
import type { RunningDevnet } from "./devnet.ts"

export { startAnvil, portInUse, ARC_CHAIN_ID, AnvilStartError, type AnvilNode, type AnvilOptions } from "./anvil.ts"
export { Devnet, DevnetError, startDevnet, DEFAULT_SCENARIO_PATH, type DevnetOptions, type RunningDevnet } from "./devnet.ts"
export {
  DEFAULT_MANIFEST_PATH,
  decodeManifest,
  executorVenueIds,
  isPairPool,
  isStablePool,
  Manifest,
  manifestVenue,
  ManifestVenueError,
  pairPoolsOfKind,
  poolKind,
  readManifest,
  stablePools,
  venuesOfKind,
  writeManifest,
  type ManifestPairPool,
  type ManifestPool,
  type ManifestStablePool,
  type ManifestVenue,
  type ManifestVenueKind,
  type ManifestVenueOf,
} from "./manifest.ts"
export {
  ScenarioError,
  parseScenario,
  planScenario,
  type PlannedConcentratedPool,
  type PlannedPool,
  type PlannedStablePool,
  type PlannedV2Pool,
  type ScenarioPlan,
} from "./scenario.ts"
export { devnetClient, arcDevnet, type DevnetClient } from "./clients.ts"
export { testAccounts, OWNER_INDEX, FEE_COLLECTOR_INDEX } from "./accounts.ts"
export { DEVNET_RELAYER_USDC, devnetRelayer, fundDevnetRelayer, RELAYER_INDEX } from "./relayer-account.ts"
export { INITIAL_PROTOCOL_FEE_BPS, v4PoolId, type V4PoolKey } from "./deploy.ts"
export { PERMIT_VERSION, USDC_ADDRESS, USDC_PERMIT_DOMAIN, USDC_SCALE, installArcUsdc } from "./usdc.ts"
export {
  DEVNET_AGGREGATOR_API_KEY,
  DEVNET_AGGREGATOR_KIND,
  DEVNET_AGGREGATOR_NAME,
  makeAggregatorLiquidity,
  startDevnetAggregator,
  type AggregatorLiquidity,
  type AggregatorMode,
  type AggregatorPool,
  type DevnetAggregator,
} from "./aggregator/index.ts"

/** A few lines for the console once the devnet is ready. */
export const describeDevnet = (devnet: RunningDevnet, manifestPath?: string): string => {
  const m = devnet.manifest
  const aggregatorPools = m.aggregatorDex?.pools.length ?? 0
  const lines = [
    `devnet ready: chain ${m.chainId} at ${m.rpcUrl}${devnet.fromCache ? " (state from cache)" : ""}`,
    `  executor ${m.executor}, ${Object.keys(m.tokens).length} tokens, ${m.pools.length} pools`,
    `  venues ${Object.entries(m.dexes).map(([name, venue]) => (name === venue.kind ? name : `${name} (${venue.kind})`)).join(", ")}`,
    `  aggregator ${devnet.aggregator.name} (${devnet.aggregator.kind}) at ${devnet.aggregator.url}, over ${aggregatorPools} pool${aggregatorPools === 1 ? "" : "s"} only it knows`,
  ]
  if (manifestPath !== undefined) lines.push(`  manifest ${manifestPath}`)
  return lines.join("\n")
}
export { startNodeProxy, type NodeProxy, type NodeProxyCounts, type NodeProxyLimits } from "./node-proxy.ts"
