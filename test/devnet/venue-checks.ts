// Checks of a deployed scenario's venues, driven by the scenario and the manifest alone, for
// any scenario: each venue its own deployment, each pool on the venue it names and on no
// other, stable pools holding exactly what the scenario deposited and listed by their venue's
// own factory, and the executor knowing every venue and stable pool.
import { expect } from "bun:test"
import { getAddress, parseAbi, zeroAddress, zeroHash, type Address, type Hex } from "viem"
import { ownArtifact, uniswapArtifact } from "../../src/contracts/artifacts.ts"
import {
  executorVenueIds,
  manifestVenue,
  planScenario,
  stablePools,
  venuesOfKind,
  type DevnetClient,
  type Manifest,
  type ScenarioPlan,
} from "../../src/devnet/index.ts"
import { v2InitCodeHash, v3InitCodeHash } from "../../src/devnet/executor.ts"
import type { ScenarioFile } from "../../src/devnet/scenario-schema.ts"

export const stableAbi = parseAbi([
  "function coins(uint256) view returns (address)",
  "function balances(uint256) view returns (uint256)",
  "function A() view returns (uint256)",
  "function A_precise() view returns (uint256)",
  "function fee() view returns (uint256)",
  "function get_dy(int128, int128, uint256) view returns (uint256)",
])
const executorAbi = parseAbi([
  "function venue(uint8) view returns (uint8 kind, address factory, bytes32 initCodeHash, uint16 feeBps)",
  "function stableCoinIndex(address pool, address token) view returns (uint256)",
])
const stableFactoryAbi = parseAbi([
  "function pool_count() view returns (uint256)",
  "function pool_list(uint256) view returns (address)",
  "event PlainPoolDeployed(address[4] coins, uint256 A, uint256 fee, address deployer)",
])
const EXECUTOR_KIND = { "uniswap-v2": 1, "uniswap-v3": 2, "uniswap-v4": 3 } as const

/** The scenario planned with the deployed token addresses (the plan the devnet built). */
export const deployedPlan = (scenario: ScenarioFile, m: Manifest): ScenarioPlan =>
  planScenario(scenario, (symbol) => getAddress(m.tokens[symbol]!.address))

const token = (m: Manifest, symbol: string) => getAddress(m.tokens[symbol]!.address)

/** Every venue of the scenario, in order, with its kind; no two share a contract. */
export const checkVenueList = (scenario: ScenarioFile, m: Manifest) => {
  expect(Object.entries(m.dexes).map(([name, v]) => [name, v.kind])).toEqual(scenario.dexes.map((d) => [d.name, d.kind]))
  const contracts = Object.values(m.dexes).flatMap((v) => {
    switch (v.kind) {
      case "uniswap-v2":
        return [v.factory]
      case "uniswap-v3":
        return [v.factory, ...(v.quoter !== undefined ? [v.quoter] : [])]
      case "uniswap-v4":
        return [v.poolManager, v.stateView, ...(v.quoter !== undefined ? [v.quoter] : [])]
      case "curve-stableswap":
        return [...v.pools, ...(v.factory !== undefined ? [v.factory] : [])]
    }
  })
  expect(new Set(contracts.map((a) => a.toLowerCase())).size).toBe(contracts.length)
  // the default venues keep their quoters; the scenario's own have none
  expect(manifestVenue(m, "uniswap-v3", "uniswap-v3").quoter).toBeDefined()
  expect(manifestVenue(m, "uniswap-v4", "uniswap-v4").quoter).toBeDefined()
  for (const [name, v] of Object.entries(m.dexes)) {
    if (name !== v.kind && (v.kind === "uniswap-v3" || v.kind === "uniswap-v4")) expect(v.quoter).toBeUndefined()
  }
  // a stable venue lists exactly its pools, in the scenario's order
  for (const venue of venuesOfKind(m, "curve-stableswap")) {
    expect(venue.pools).toEqual(m.pools.filter((p) => p.dex === venue.name).map((p) => p.pool))
  }
}

/**
 * Each pool is at the address (or V4 id) the manifest gives, found through the venue it
 * names, and not through any other venue of its kind.
 */
export const checkPoolsOnTheirVenue = async (client: DevnetClient, scenario: ScenarioFile, m: Manifest) => {
  const plan = deployedPlan(scenario, m)
  const v2Factory = uniswapArtifact("UniswapV2Factory").abi
  const v3Factory = uniswapArtifact("UniswapV3Factory").abi
  const stateView = uniswapArtifact("StateView").abi
  let checked = 0
  for (const pool of plan.pools) {
    const entry = m.pools[pool.index]!
    expect(entry.dex).toBe(pool.dex)
    if (pool.kind === "curve-stableswap") {
      for (const venue of venuesOfKind(m, "curve-stableswap")) {
        expect(venue.pools.includes(entry.pool)).toBe(venue.name === pool.dex)
      }
      checked++
      continue
    }
    const [a, b] = [token(m, pool.token0), token(m, pool.token1)]
    if (pool.kind === "uniswap-v2") {
      for (const venue of venuesOfKind(m, "uniswap-v2")) {
        const pair = await client.readContract({ address: venue.factory as Address, abi: v2Factory, functionName: "getPair", args: [a, b] })
        if (venue.name === pool.dex) expect(pair).toBe(getAddress(entry.pool))
        else expect(pair).not.toBe(getAddress(entry.pool))
      }
    } else if (pool.kind === "uniswap-v3") {
      for (const venue of venuesOfKind(m, "uniswap-v3")) {
        const found = await client.readContract({ address: venue.factory as Address, abi: v3Factory, functionName: "getPool", args: [a, b, pool.fee] })
        if (venue.name === pool.dex) expect(found).toBe(getAddress(entry.pool))
        else expect(found).not.toBe(getAddress(entry.pool))
      }
    } else {
      // a V4 pool id is the same on every PoolManager: what tells pools apart is the manager's state
      const samePoolElsewhere = plan.pools.filter(
        (p) => p.kind === "uniswap-v4" && p.dex !== pool.dex && p.token0 === pool.token0 && p.token1 === pool.token1 && p.fee === pool.fee && p.tickSpacing === pool.tickSpacing,
      )
      for (const venue of venuesOfKind(m, "uniswap-v4")) {
        const [sqrtPriceX96] = (await client.readContract({ address: venue.stateView as Address, abi: stateView, functionName: "getSlot0", args: [entry.pool as Hex] })) as readonly [bigint, number, number, number]
        const own = venue.name === pool.dex ? pool : samePoolElsewhere.find((p) => p.dex === venue.name)
        expect(sqrtPriceX96).toBe(own?.kind === "uniswap-v4" ? own.sqrtPriceX96 : 0n)
      }
    }
    checked++
  }
  expect(checked).toBe(scenario.pools.length)
}

/** Each stable pool: its coins in the scenario's order, A, fee, and exactly the deposited balances. */
export const checkStablePools = async (client: DevnetClient, scenario: ScenarioFile, m: Manifest) => {
  const plan = deployedPlan(scenario, m)
  const erc20 = ownArtifact("TestToken").abi
  const stable = plan.pools.filter((p) => p.kind === "curve-stableswap")
  for (const pool of stable) {
    const entry = m.pools[pool.index]!
    const address = entry.pool as Address
    expect(entry).toEqual({ dex: pool.dex, pool: getAddress(address), tokens: pool.tokens, A: pool.A, fee: pool.fee })
    const read = (functionName: "A" | "A_precise" | "fee") => client.readContract({ address, abi: stableAbi, functionName })
    expect(await read("A")).toBe(BigInt(pool.A))
    expect(await read("A_precise")).toBe(BigInt(pool.A) * 100n)
    expect(await read("fee")).toBe(BigInt(pool.fee))
    for (const [k, symbol] of pool.tokens.entries()) {
      expect(await client.readContract({ address, abi: stableAbi, functionName: "coins", args: [BigInt(k)] })).toBe(token(m, symbol))
      expect(await client.readContract({ address, abi: stableAbi, functionName: "balances", args: [BigInt(k)] })).toBe(pool.balances[k]!)
      expect(await client.readContract({ address: token(m, symbol), abi: erc20, functionName: "balanceOf", args: [address] })).toBe(pool.balances[k]!)
    }
    // no coin past the last
    const past = await client.readContract({ address, abi: stableAbi, functionName: "coins", args: [BigInt(pool.tokens.length)] }).then(() => "answered", () => "reverted")
    expect(past).toBe("reverted")
  }
  return stable.length
}

/**
 * Each stable venue has a factory of its own whose pool_list holds exactly the venue's pools,
 * in order (pool_count of them, the zero address past the last), each announced by a
 * PlainPoolDeployed of its padded coins, A and fee, from the owner.
 */
export const checkStableFactories = async (client: DevnetClient, m: Manifest) => {
  const venues = venuesOfKind(m, "curve-stableswap")
  for (const venue of venues) {
    expect(venue.factory).toBeDefined()
    const factory = venue.factory as Address
    const listed = (i: number) => client.readContract({ address: factory, abi: stableFactoryAbi, functionName: "pool_list", args: [BigInt(i)] })
    expect(await client.readContract({ address: factory, abi: stableFactoryAbi, functionName: "pool_count" })).toBe(BigInt(venue.pools.length))
    expect(await Promise.all(venue.pools.map((_, i) => listed(i)))).toEqual(venue.pools.map((p) => getAddress(p)))
    expect(await listed(venue.pools.length)).toBe(zeroAddress)
    const events = await client.getContractEvents({ address: factory, abi: stableFactoryAbi, eventName: "PlainPoolDeployed", fromBlock: 0n })
    expect(events.map((e): unknown => e.args)).toEqual(
      stablePools(m).filter((p) => p.dex === venue.name).map((p) => ({
        coins: [...p.tokens.map((s) => token(m, s)), ...Array<Address>(4 - p.tokens.length).fill(zeroAddress)],
        A: BigInt(p.A),
        fee: BigInt(p.fee),
        deployer: getAddress(m.owner.address),
      })),
    )
  }
  return venues.length
}

/** The executor has every Uniswap venue under its id (manifest order from 1) and every stable pool with its coins. */
export const checkExecutorRegistration = async (client: DevnetClient, m: Manifest) => {
  const executor = m.executor as Address
  const ids = executorVenueIds(m)
  for (const [name, id] of ids) {
    const v = m.dexes[name]!
    if (v.kind === "curve-stableswap") throw new Error("a stable venue has no id")
    const [kind, factory, initCodeHash, feeBps] = await client.readContract({ address: executor, abi: executorAbi, functionName: "venue", args: [id] })
    expect(kind).toBe(EXECUTOR_KIND[v.kind])
    expect(factory).toBe(getAddress(v.kind === "uniswap-v4" ? v.poolManager : v.factory))
    expect(initCodeHash).toBe(v.kind === "uniswap-v2" ? v2InitCodeHash() : v.kind === "uniswap-v3" ? v3InitCodeHash() : zeroHash)
    expect(feeBps).toBe(v.kind === "uniswap-v2" ? (v.feeBps ?? 30) : 0)
  }
  // nothing under 0 or past the last id
  for (const id of [0, ids.size + 1]) {
    const [kind, factory] = await client.readContract({ address: executor, abi: executorAbi, functionName: "venue", args: [id] })
    expect([kind, factory]).toEqual([0, zeroAddress])
  }
  const stable = m.pools.filter((p) => "A" in p)
  for (const pool of stable) {
    for (const [k, symbol] of pool.tokens.entries()) {
      const index = await client.readContract({ address: executor, abi: executorAbi, functionName: "stableCoinIndex", args: [pool.pool as Address, token(m, symbol)] })
      expect(index).toBe(BigInt(k + 1))
    }
    const other = Object.keys(m.tokens).find((s) => !pool.tokens.includes(s))!
    expect(await client.readContract({ address: executor, abi: executorAbi, functionName: "stableCoinIndex", args: [pool.pool as Address, token(m, other)] })).toBe(0n)
  }
  return { venues: ids.size, stablePools: stable.length }
}
