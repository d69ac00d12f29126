// Two venues of every kind on one chain: the same pair, pool key or coins on two venues are
// two pools, each found only through its own venue; stable pools of 2 and 4 coins hold exactly
// what the scenario deposited; the executor knows each venue by its id and each stable pool.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { parseScenario } from "../../src/devnet/index.ts"
import { startTestDevnet, type TestDevnet } from "../support/devnet.ts"
import { checkExecutorRegistration, checkPoolsOnTheirVenue, checkStableFactories, checkStablePools, checkVenueList, deployedPlan } from "./venue-checks.ts"

const scenarioText = JSON.stringify({
  dexes: [
    { name: "curve-a", kind: "curve-stableswap" },
    { name: "second-v2", kind: "uniswap-v2" },
    { name: "second-v3", kind: "uniswap-v3" },
    { name: "second-v4", kind: "uniswap-v4" },
    { name: "curve-b", kind: "curve-stableswap" },
  ],
  tokens: [
    { symbol: "EURC", decimals: 6 },
    { symbol: "USDT", decimals: 6 },
    { symbol: "DAI", decimals: 18 },
    { symbol: "PYUSD", decimals: 6 },
  ],
  pools: [
    { dex: "uniswap-v2", tokens: ["USDC", "EURC"], reserves: ["116000", "100000"] },
    { dex: "second-v2", tokens: ["EURC", "USDC"], reserves: ["50000", "58500"] },
    { dex: "uniswap-v3", tokens: ["USDC", "USDT"], fee: 500, price: "1", positions: [{ lower: "0.99", upper: "1.01", amount0: "100000" }] },
    { dex: "second-v3", tokens: ["USDT", "USDC"], fee: 500, price: "1.001", positions: [{ lower: "0.98", upper: "1.02", amount0: "70000" }] },
    { dex: "uniswap-v4", tokens: ["EURC", "USDC"], fee: 3000, tickSpacing: 60, price: "1.16", positions: [{ lower: "1.1", upper: "1.2", amount0: "10000" }] },
    { dex: "second-v4", tokens: ["EURC", "USDC"], fee: 3000, tickSpacing: 60, price: "1.17", positions: [{ lower: "1.1", upper: "1.2", amount0: "20000" }] },
    { dex: "second-v4", tokens: ["USDT", "DAI"], fee: 100, tickSpacing: 1, price: "1", positions: [{ lower: "0.999", upper: "1.001", amount0: "5000" }] },
    { dex: "curve-a", tokens: ["DAI", "USDC", "PYUSD", "USDT"], A: 200, fee: "0.0003", balances: ["400000.5", "300000", "200000.000001", "100000"] },
    { dex: "curve-b", tokens: ["USDT", "DAI"], A: 1500, fee: "0.00015", balances: ["250000", "260000"] },
    { dex: "curve-b", tokens: ["USDC", "USDT"], A: 50, fee: "0", balances: ["1000", "999.999999"] },
  ],
  balances: [{ account: 0, amounts: { USDC: "1000", DAI: "1000" } }],
})
const scenario = parseScenario(scenarioText)

let devnet: TestDevnet
beforeAll(async () => {
  devnet = await startTestDevnet({ scenarioText })
})
afterAll(async () => {
  await devnet?.stop()
})

describe("two venues of every kind", () => {
  test("the manifest lists the default venues first, then the scenario's, in order, each its own deployment", () => {
    expect(Object.keys(devnet.manifest.dexes)).toEqual(["uniswap-v2", "uniswap-v3", "uniswap-v4", "curve-a", "second-v2", "second-v3", "second-v4", "curve-b"])
    checkVenueList(scenario, devnet.manifest)
    expect(devnet.manifest.dexes["curve-b"]).toEqual({
      kind: "curve-stableswap",
      pools: [devnet.manifest.pools[8]!.pool, devnet.manifest.pools[9]!.pool],
      factory: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
    })
  })

  test("the same pair, pool key or coins on two venues are two pools, each found only through its venue", async () => {
    const plan = deployedPlan(scenario, devnet.manifest)
    // the V4 pools share a key and so an id: the managers hold them apart, at their own prices
    expect(devnet.manifest.pools[4]!.pool).toBe(devnet.manifest.pools[5]!.pool)
    expect(plan.pools[4]!.kind === "uniswap-v4" && plan.pools[5]!.kind === "uniswap-v4" && plan.pools[4]!.sqrtPriceX96 !== plan.pools[5]!.sqrtPriceX96).toBe(true)
    expect(devnet.manifest.pools[0]!.pool).not.toBe(devnet.manifest.pools[1]!.pool)
    expect(devnet.manifest.pools[2]!.pool).not.toBe(devnet.manifest.pools[3]!.pool)
    await checkPoolsOnTheirVenue(devnet.client, scenario, devnet.manifest)
  })

  test("stable pools of 2 and 4 coins of 6 and 18 decimals hold exactly the deposits, with their coins, A and fee", async () => {
    expect(await checkStablePools(devnet.client, scenario, devnet.manifest)).toBe(3)
    expect(devnet.manifest.pools[7]).toMatchObject({ tokens: ["DAI", "USDC", "PYUSD", "USDT"], A: 200, fee: 3_000_000 })
    expect(devnet.manifest.pools[9]).toMatchObject({ A: 50, fee: 0 })
  })

  test("each stable venue has a factory of its own whose pool_list holds exactly the venue's pools", async () => {
    expect(await checkStableFactories(devnet.client, devnet.manifest)).toBe(2)
  })

  test("the executor: uniswap-v2 = 1, uniswap-v3 = 2, uniswap-v4 = 3, second-v2 = 4, second-v3 = 5, second-v4 = 6; every stable pool registered", async () => {
    expect(await checkExecutorRegistration(devnet.client, devnet.manifest)).toEqual({ venues: 6, stablePools: 3 })
  })
})
