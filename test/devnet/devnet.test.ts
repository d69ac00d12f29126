// The default scenario, built on a real node: Uniswap's own code, pools that
// hold what the scenario asked, funded accounts, price feeds.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { existsSync, readFileSync, rmSync } from "node:fs"
import { join } from "node:path"
import { createPublicClient, getAddress, hexToBytes, http, pad, type Address, type Hex } from "viem"
import { uniswapArtifact, ownArtifact, type UniswapContract } from "../../src/contracts/artifacts.ts"
import { getSqrtRatioAtTick, getTickAtSqrtRatio } from "../../src/amm/index.ts"
import {
  DEFAULT_SCENARIO_PATH,
  manifestVenue,
  parseScenario,
  planScenario,
  testAccounts,
  USDC_ADDRESS,
  USDC_SCALE,
  venuesOfKind,
  type Manifest,
} from "../../src/devnet/index.ts"
import { parseRational, parseUnitsExact } from "../../src/devnet/decimal.ts"
import { startDevnet } from "../../src/devnet/devnet.ts"
import { CACHE_DIR, stateKey } from "../../src/devnet/state-cache.ts"
import { startTestDevnet, type TestDevnet } from "../support/devnet.ts"
import { checkExecutorRegistration, checkPoolsOnTheirVenue, checkStableFactories, checkStablePools, checkVenueList, stableAbi } from "./venue-checks.ts"

let devnet: TestDevnet
const scenario = parseScenario(readFileSync(DEFAULT_SCENARIO_PATH, "utf8"))

beforeAll(async () => {
  devnet = await startTestDevnet()
})
afterAll(async () => {
  await devnet?.stop()
})

/**
 * Deployed code equals the artifact's except inside immutable slots: 32-byte
 * PUSH32 operands that are zero in the artifact. Returns the values the
 * constructor put there.
 */
const immutableValues = (deployed: Hex, artifact: Hex): Set<string> => {
  const chain = hexToBytes(deployed)
  const expected = hexToBytes(artifact)
  expect(chain.length).toBe(expected.length)
  const values = new Set<string>()
  let i = 0
  while (i < chain.length) {
    if (chain[i] === expected[i]) {
      i++
      continue
    }
    // find the PUSH32 operand this byte sits in
    let start = -1
    for (let s = Math.max(1, i - 31); s <= i; s++) {
      if (expected[s - 1] === 0x7f && expected.slice(s, s + 32).every((b) => b === 0)) {
        start = s
        break
      }
    }
    if (start < 0) throw new Error(`code differs at byte ${i}, outside any immutable slot`)
    values.add(Buffer.from(chain.slice(start, start + 32)).toString("hex"))
    i = start + 32
  }
  return values
}

const word = (address: string) => pad(address.toLowerCase() as Hex, { size: 32 }).slice(2)

/** The StateView of a uniswap-v4 venue. */
const stateViewOf = (m: Manifest, venue: string) => manifestVenue(m, venue, "uniswap-v4").stateView as Address

describe("the chain", () => {
  test("is Arc's chain id", async () => {
    expect(await devnet.client.getChainId()).toBe(5042)
    expect(devnet.manifest.chainId).toBe(5042)
  })

  test("every Uniswap contract runs its npm artifact's code", async () => {
    const m = devnet.manifest
    const v3 = manifestVenue(m, "uniswap-v3", "uniswap-v3")
    const v4 = manifestVenue(m, "uniswap-v4", "uniswap-v4")
    const checks: Array<[UniswapContract, string, string[]]> = [
      ["QuoterV2", v3.quoter!, [v3.factory, USDC_ADDRESS]],
      ["V4Quoter", v4.quoter!, [v4.poolManager]],
    ]
    // every venue's own contracts, the default ones and the scenario's
    for (const venue of venuesOfKind(m, "uniswap-v2")) checks.push(["UniswapV2Factory", venue.factory, []])
    for (const venue of venuesOfKind(m, "uniswap-v3")) checks.push(["UniswapV3Factory", venue.factory, [venue.factory]])
    for (const venue of venuesOfKind(m, "uniswap-v4")) {
      checks.push(["PoolManager", venue.poolManager, [venue.poolManager]], ["StateView", venue.stateView, [venue.poolManager]])
    }
    expect(checks.length).toBe(2 + 2 + 2 + 2)
    for (const pool of m.pools) {
      if (m.dexes[pool.dex]!.kind === "uniswap-v2") checks.push(["UniswapV2Pair", pool.pool, []])
    }
    for (const [name, address, allowed] of checks) {
      const code = await devnet.client.getCode({ address: address as Address })
      const values = immutableValues(code!, uniswapArtifact(name).deployedBytecode)
      for (const v of values) expect(allowed.map(word)).toContain(v)
    }
  })

  test("V3 pools run the pool artifact's code with their own tokens, fee and their venue's factory", async () => {
    const m = devnet.manifest
    const v3 = m.pools.filter((p) => m.dexes[p.dex]!.kind === "uniswap-v3")
    expect(v3.length).toBeGreaterThanOrEqual(6)
    for (const pool of v3) {
      const code = await devnet.client.getCode({ address: pool.pool as Address })
      const values = immutableValues(code!, uniswapArtifact("UniswapV3Pool").deployedBytecode)
      const [a, b] = pool.tokens.map((s) => m.tokens[s]!.address)
      // factory, both tokens, the pool's own address (no-delegatecall guard); fee, spacing and max liquidity per tick are numbers
      const factory = manifestVenue(m, pool.dex, "uniswap-v3").factory
      for (const expected of [factory, a!, b!, pool.pool]) expect(values).toContain(word(expected))
    }
  })

  test("USDC is installed at 0x3600…0000", async () => {
    const code = await devnet.client.getCode({ address: USDC_ADDRESS })
    expect(code).toBe(ownArtifact("ArcUsdc").deployedBytecode)
  })
})

describe("pools hold what the scenario asked", () => {
  const tokenDecimals = (symbol: string) => devnet.manifest.tokens[symbol]!.decimals

  test("every scenario pool is in the manifest, in order", () => {
    expect(devnet.manifest.pools.map((p) => `${p.dex}:${p.tokens.join("/")}`)).toEqual(
      scenario.pools.map((p) => `${p.dex}:${p.tokens.join("/")}`),
    )
    expect(devnet.manifest.pools.length).toBeGreaterThanOrEqual(12)
  })

  test("V2 reserves are exact", async () => {
    const pair = uniswapArtifact("UniswapV2Pair").abi
    for (const [i, entry] of scenario.pools.entries()) {
      if (entry.kind !== "uniswap-v2") continue
      const address = devnet.manifest.pools[i]!.pool as Address
      const [r0, r1] = (await devnet.client.readContract({ address, abi: pair, functionName: "getReserves" })) as [bigint, bigint, number]
      const token0 = (await devnet.client.readContract({ address, abi: pair, functionName: "token0" })) as Address
      const [a, b] = entry.tokens
      const want = [parseUnitsExact(entry.reserves[0], tokenDecimals(a))!, parseUnitsExact(entry.reserves[1], tokenDecimals(b))!]
      const aIsToken0 = getAddress(token0) === getAddress(devnet.manifest.tokens[a]!.address)
      const held = aIsToken0 ? [r0, r1] : [r1, r0]
      for (const [k, symbol] of [a, b].entries()) {
        // a rebasing token stores shares: minting an amount can land one unit short
        if (devnet.manifest.tokens[symbol]!.behavior === "rebasing") expect(want[k]! - held[k]!).toBeLessThanOrEqual(1n)
        else expect(held[k]).toBe(want[k]!)
      }
    }
  })

  test("V3 and V4 spot prices are within one tick of the scenario's price", async () => {
    const v3Pool = uniswapArtifact("UniswapV3Pool").abi
    const stateView = uniswapArtifact("StateView").abi
    for (const [i, entry] of scenario.pools.entries()) {
      if (entry.kind !== "uniswap-v3" && entry.kind !== "uniswap-v4") continue
      const pool = devnet.manifest.pools[i]!
      const [a, b] = entry.tokens
      const slot0 = entry.kind === "uniswap-v3"
        ? ((await devnet.client.readContract({ address: pool.pool as Address, abi: v3Pool, functionName: "slot0" })) as readonly [bigint, number])
        : ((await devnet.client.readContract({ address: stateViewOf(devnet.manifest, pool.dex), abi: stateView, functionName: "getSlot0", args: [pool.pool] })) as readonly [bigint, number])
      const [sqrtPriceX96, tick] = slot0
      expect(getTickAtSqrtRatio(sqrtPriceX96)).toBe(tick)
      // the scenario's price as a tick, computed independently with floating point logs
      const price = parseRational(entry.price)
      const aAddress = devnet.manifest.tokens[a]!.address.toLowerCase()
      const bAddress = devnet.manifest.tokens[b]!.address.toLowerCase()
      const raw = (Number(price.num) / Number(price.den)) * 10 ** (tokenDecimals(b) - tokenDecimals(a))
      const poolPrice = aAddress < bAddress ? raw : 1 / raw
      const expectedTick = Math.log(poolPrice) / Math.log(1.0001)
      expect(Math.abs(tick - expectedTick)).toBeLessThanOrEqual(1)
      // and the sqrt price itself lies within the tick it reports
      expect(sqrtPriceX96 >= getSqrtRatioAtTick(tick) && sqrtPriceX96 < getSqrtRatioAtTick(tick + 1)).toBe(true)
    }
  })

  test("V3 and V4 active liquidity is the sum of the planned positions in range", async () => {
    const v3Pool = uniswapArtifact("UniswapV3Pool").abi
    const stateView = uniswapArtifact("StateView").abi
    const addresses = new Map(Object.entries(devnet.manifest.tokens).map(([s, t]) => [s, t.address as Address]))
    const plan = planScenario(scenario, (s) => addresses.get(s)!)
    for (const pool of plan.pools) {
      if (pool.kind !== "uniswap-v3" && pool.kind !== "uniswap-v4") continue
      const entry = devnet.manifest.pools[pool.index]!
      const [liquidity, tick] = pool.kind === "uniswap-v3"
        ? [
            (await devnet.client.readContract({ address: entry.pool as Address, abi: v3Pool, functionName: "liquidity" })) as bigint,
            ((await devnet.client.readContract({ address: entry.pool as Address, abi: v3Pool, functionName: "slot0" })) as readonly [bigint, number])[1],
          ]
        : [
            (await devnet.client.readContract({ address: stateViewOf(devnet.manifest, entry.dex), abi: stateView, functionName: "getLiquidity", args: [entry.pool] })) as bigint,
            ((await devnet.client.readContract({ address: stateViewOf(devnet.manifest, entry.dex), abi: stateView, functionName: "getSlot0", args: [entry.pool] })) as readonly [bigint, number])[1],
          ]
      const inRange = pool.positions.filter((p) => p.tickLower <= tick && tick < p.tickUpper).reduce((sum, p) => sum + p.liquidity, 0n)
      expect(inRange).toBeGreaterThan(0n)
      expect(liquidity).toBe(inRange)
    }
    // a position given as raw L is deployed with exactly that L
    const raw = plan.pools.flatMap((p) => (p.kind === "uniswap-v3" || p.kind === "uniswap-v4" ? p.positions : [])).map((p) => p.liquidity)
    expect(raw).toContain(123456789012n)
  })
})

describe("accounts and feeds", () => {
  test("scenario balances are exact, USDC at both scales", async () => {
    const erc20 = ownArtifact("TestToken").abi
    for (const entry of scenario.balances ?? []) {
      const account = testAccounts[entry.account]!.address
      for (const [symbol, amount] of Object.entries(entry.amounts)) {
        const token = devnet.manifest.tokens[symbol]!
        const want = parseUnitsExact(amount, token.decimals)!
        const held = (await devnet.client.readContract({ address: token.address as Address, abi: erc20, functionName: "balanceOf", args: [account] })) as bigint
        if (token.behavior === "rebasing") {
          expect(held).toBeGreaterThanOrEqual(want - 1n)
        } else {
          expect(held).toBe(want)
        }
        if (symbol === "USDC") expect(await devnet.client.getBalance({ address: account })).toBe(want * USDC_SCALE)
      }
    }
  })

  test("price feeds answer the scenario's prices with 8 decimals", async () => {
    const feed = ownArtifact("PriceFeed").abi
    for (const [symbol, price] of Object.entries(scenario.priceFeeds ?? {})) {
      const address = devnet.manifest.priceFeeds[symbol] as Address
      expect(await devnet.client.readContract({ address, abi: feed, functionName: "decimals" })).toBe(8)
      const round = (await devnet.client.readContract({ address, abi: feed, functionName: "latestRoundData" })) as readonly bigint[]
      expect(round[1]).toBe(parseUnitsExact(price, 8)!)
    }
  })

  test("token behaviours and permit domains are in the manifest", () => {
    expect(devnet.manifest.tokens.TAX!.behavior).toBe("fee-on-transfer")
    expect(devnet.manifest.tokens.REB!.behavior).toBe("rebasing")
    expect(devnet.manifest.tokens.EURC!.behavior).toBeUndefined()
    expect(devnet.manifest.tokens.EURC!.permit).toEqual({ name: "EURC", version: "2" })
    expect(devnet.manifest.tokens.USDT!.permit).toBeUndefined()
    expect(devnet.manifest.tokens.USDC).toEqual({
      address: USDC_ADDRESS,
      decimals: 6,
      native: "0x0000000000000000000000000000000000000000",
      permit: { name: "USDC", version: "2" },
    })
  })
})

describe("venues", () => {
  test("every venue is listed in order with its kind, each a deployment of its own", () => {
    expect(Object.keys(devnet.manifest.dexes)).toEqual(["uniswap-v2", "uniswap-v3", "uniswap-v4", "arcade-v2", "synthra-v3", "xylonet"])
    checkVenueList(scenario, devnet.manifest)
  })

  test("every pool is where the manifest says, on the venue it names and no other", async () => {
    await checkPoolsOnTheirVenue(devnet.client, scenario, devnet.manifest)
  })

  test("stable pools hold exactly the scenario's balances, with their coins in order, A and fee", async () => {
    expect(await checkStablePools(devnet.client, scenario, devnet.manifest)).toBe(2)
  })

  test("the stable venue has a factory of its own whose pool_list holds exactly the venue's pools", async () => {
    expect(await checkStableFactories(devnet.client, devnet.manifest)).toBe(1)
  })

  test("the executor knows every Uniswap venue by its id and every stable pool", async () => {
    expect(await checkExecutorRegistration(devnet.client, devnet.manifest)).toEqual({ venues: 5, stablePools: 2 })
  })

  test("USDC -> USDT of 50,000 to 500,000 is better split between the stable pool and Uniswap V3 than in either alone", async () => {
    const m = devnet.manifest
    const stable = m.pools.find((p) => p.dex === "xylonet" && p.tokens.length === 2 && p.tokens.includes("USDT"))!
    const v3 = m.pools.find((p) => p.dex === "uniswap-v3" && p.tokens.includes("USDC") && p.tokens.includes("USDT"))!
    const quoter = manifestVenue(m, "uniswap-v3", "uniswap-v3").quoter as Address
    const [usdc, usdt] = [m.tokens.USDC!.address as Address, m.tokens.USDT!.address as Address]
    const viaStable = (amount: bigint) =>
      devnet.client.readContract({
        address: stable.pool as Address, abi: stableAbi, functionName: "get_dy",
        args: [BigInt(stable.tokens.indexOf("USDC")), BigInt(stable.tokens.indexOf("USDT")), amount],
      })
    const viaV3 = async (amount: bigint) => {
      const { result } = await devnet.client.simulateContract({
        address: quoter, abi: uniswapArtifact("QuoterV2").abi, functionName: "quoteExactInputSingle",
        args: [{ tokenIn: usdc, tokenOut: usdt, amountIn: amount, fee: v3.fee!, sqrtPriceLimitX96: 0n }],
      })
      return (result as readonly bigint[])[0]!
    }
    for (const whole of [50_000n, 500_000n]) {
      const amount = whole * 10n ** 6n
      const alone = [await viaStable(amount), await viaV3(amount)]
      const third = amount / 3n
      const split = (await viaStable(third)) + (await viaV3(amount - third))
      for (const single of alone) expect(split).toBeGreaterThan(single)
    }
  })
})

describe("the state cache", () => {
  test("a devnet loaded from it has its head mined at the clock's time, not at the time the cached blocks were mined", async () => {
    // a scenario of this run's own (one account's DAI differs), so its cache entry is this test's
    const own = JSON.parse(readFileSync(DEFAULT_SCENARIO_PATH, "utf8")) as { balances: { amounts: Record<string, string> }[] }
    own.balances[0]!.amounts.DAI = String(100_000 + Math.floor(Math.random() * 1_000_000))
    const text = JSON.stringify(own)
    const entry = join(CACHE_DIR, `${stateKey(text)}.json`)
    try {
      const built = await startDevnet({ scenarioText: text, port: 0 })
      expect(built.fromCache).toBe(false)
      await built.stop()
      expect(existsSync(entry)).toBe(true)
      // the cached blocks grow older than a second
      await Bun.sleep(2_500)
      const loaded = await startDevnet({ scenarioText: text, port: 0 })
      try {
        expect(loaded.fromCache).toBe(true)
        const head = await createPublicClient({ transport: http(loaded.manifest.rpcUrl) }).getBlock({ blockTag: "latest" })
        const now = BigInt(Math.floor(Date.now() / 1000))
        expect(head.timestamp).toBeGreaterThanOrEqual(now - 1n)
        expect(head.timestamp).toBeLessThanOrEqual(now)
      } finally {
        await loaded.stop()
      }
    } finally {
      rmSync(entry, { force: true })
    }
  }, 60_000)
})
