// MarketState over a stable venue configured with its factory alone (no pools
// listed), with the route executor configured: the World holds every pool the
// factory made, with the chain's state; a pool deployed through the factory
// after start is found at the factory's log and published once the executor's
// owner registers it; a pool deployed directly (not through the factory) is never
// found, registered or not.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Effect, Layer, Logger, ManagedRuntime } from "effect"
import { getAddress, maxUint256, parseEventLogs, zeroAddress, type Abi, type Address, type Hex } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import type { StablePoolState } from "../../src/amm/index.ts"
import { Rpc } from "../../src/chain/index.ts"
import { ownArtifact } from "../../src/contracts/artifacts.ts"
import { manifestVenue, stablePools, type ManifestStablePool } from "../../src/devnet/index.ts"
import { MarketState } from "../../src/market/index.ts"
import type { Tokens } from "../../src/tokens/index.ts"
import { startTestDevnet, type TestDevnet } from "../support/devnet.ts"
import { marketConfig, marketLayer, rpcConfig, tokenAddress } from "./support.ts"
import type { World } from "../../src/domain/index.ts"

let devnet: TestDevnet
/** the market's warnings, as logged */
const warnings: string[] = []
let runtime: ManagedRuntime.ManagedRuntime<MarketState | Tokens | Rpc, unknown>
const run = <A, E>(effect: Effect.Effect<A, E, MarketState | Tokens | Rpc>) => runtime.runPromise(effect)
const snapshot = () => run(Effect.flatMap(MarketState, (m) => m.snapshot))
const excluded = () => run(Effect.flatMap(MarketState, (m) => m.excluded))
const awaitBlock = (n: bigint) => run(Effect.flatMap(MarketState, (m) => m.awaitBlock(n)).pipe(Effect.timeout("10 seconds")))

const STABLE_POOL = ownArtifact("StableSwapPool")
const STABLE_FACTORY = ownArtifact("StableSwapFactory").abi
const EXECUTOR = ownArtifact("RouteExecutor").abi
const ERC20 = ownArtifact("TestToken").abi
const GAS = 8_000_000n
const VENUE = "xylonet"

/** The two-coin add_liquidity overload of StableSwapPool. */
const ADD_LIQUIDITY_2: Abi = STABLE_POOL.abi.filter(
  (item) => item.type === "function" && item.name === "add_liquidity" && item.inputs[0]?.type === "uint256[2]",
)

const owner = () => privateKeyToAccount(devnet.manifest.owner.privateKey as Hex)
const factory = () => manifestVenue(devnet.manifest, VENUE, "curve-stableswap").factory as Address

/** Sends as the manifest's owner (the deployer of the tokens, the factory and the executor). */
const send = async (address: Address, abi: Abi, functionName: string, args: readonly unknown[]) => {
  const hash = await devnet.client.writeContract({ address, abi, functionName, args, account: owner(), chain: devnet.client.chain, gas: GAS } as never)
  const receipt = await devnet.client.waitForTransactionReceipt({ hash })
  if (receipt.status !== "success") throw new Error(`${functionName} reverted`)
  return receipt
}

const readAt = <T>(address: Address, abi: Abi, functionName: string, args: readonly unknown[], blockNumber: bigint) =>
  devnet.client.readContract({ address, abi, functionName, args, blockNumber }) as Promise<T>

/** A stable pool's state read directly at `block`, as the market publishes it. */
const stableStateOnChain = async (pool: Address, symbols: readonly string[], block: bigint): Promise<StablePoolState> => {
  const coins = symbols.map((s) => getAddress(tokenAddress(devnet.manifest, s)))
  return {
    kind: "curve-stableswap",
    venue: VENUE,
    id: getAddress(pool),
    coins,
    balances: await Promise.all(coins.map((_, i) => readAt<bigint>(pool, STABLE_POOL.abi, "balances", [BigInt(i)], block))),
    rates: symbols.map((s) => 10n ** BigInt(36 - devnet.manifest.tokens[s]!.decimals)),
    amp: await readAt<bigint>(pool, STABLE_POOL.abi, "A_precise", [], block),
    fee: await readAt<bigint>(pool, STABLE_POOL.abi, "fee", [], block),
  }
}

/** Mints the owner `amounts` of the coins and makes the first deposit in a two-coin pool. */
const depositIn = async (pool: Address, symbols: readonly [string, string], amounts: readonly [bigint, bigint]) => {
  for (const [k, symbol] of symbols.entries()) {
    const token = tokenAddress(devnet.manifest, symbol)
    await send(token, ERC20, "mint", [owner().address, amounts[k]!])
    await send(token, ERC20, "approve", [pool, maxUint256])
  }
  return send(pool, ADD_LIQUIDITY_2, "add_liquidity", [amounts, 0n])
}

const register = (pool: Address) => send(devnet.manifest.executor as Address, EXECUTOR, "setStablePool", [pool, true])

const poolCount = () => devnet.client.readContract({ address: factory(), abi: STABLE_FACTORY, functionName: "pool_count" }) as Promise<bigint>

const COINS = ["USDT", "DAI"] as const
const AMOUNTS = [500_000n * 10n ** 6n, 500_000n * 10n ** 18n] as const

beforeAll(async () => {
  devnet = await startTestDevnet()
  // the stable venue alone, known by its factory only
  const config = marketConfig(devnet.manifest, {
    executor: devnet.manifest.executor as Address,
    venues: [{ name: VENUE, kind: "curve-stableswap", pools: [], factory: factory() }],
  })
  const logger = Logger.make(({ logLevel, message }) => {
    if (logLevel._tag === "Warning") warnings.push(Array.isArray(message) ? message.join(" ") : String(message))
  })
  runtime = ManagedRuntime.make(marketLayer(Rpc.layer(rpcConfig(devnet.manifest)), config).pipe(Layer.provide(Logger.replace(Logger.defaultLogger, logger))))
  await runtime.runPromise(Effect.void)
})

afterAll(async () => {
  await runtime?.dispose()
  await devnet?.stop()
})

describe("a stable venue known by its factory alone", () => {
  test("the World holds every pool the factory made, under the venue, with the chain's state", async () => {
    const snap = await snapshot()
    const made: ManifestStablePool[] = stablePools(devnet.manifest).filter((p) => p.dex === VENUE)
    expect(made.length).toBe(2)
    expect(await poolCount()).toBe(2n)
    expect([...snap.pools.keys()].sort()).toEqual(made.map((p) => p.pool.toLowerCase()).sort())
    for (const pool of made) {
      const state = snap.pools.get(pool.pool.toLowerCase()) as StablePoolState
      expect(state).toEqual(await stableStateOnChain(pool.pool as Address, pool.tokens, snap.blockNumber))
      expect(state.balances.every((b) => b > 0n)).toBe(true)
      for (const coin of state.coins) expect(snap.poolsByToken.get(coin.toLowerCase())).toContain(pool.pool.toLowerCase())
    }
  })

  test("a pool deployed through the factory after start is found at its log, followed, and published once registered", async () => {
    const before = await snapshot()
    const coins = COINS.map((s) => tokenAddress(devnet.manifest, s))
    const deployed = await send(factory(), STABLE_FACTORY, "deploy_plain_pool", ["xylonet USDT/DAI", "USDTDAI", [...coins, zeroAddress, zeroAddress], 200n, 2_000_000n])
    // Curve's event does not name the pool: the factory's list does
    const [event] = parseEventLogs({ abi: STABLE_FACTORY, eventName: "PlainPoolDeployed", logs: deployed.logs }) as unknown as [{ args: { A: bigint; deployer: Address } }]
    expect([event.args.A, event.args.deployer]).toEqual([200n, getAddress(owner().address)])
    expect(await poolCount()).toBe(3n)
    const pool = getAddress((await devnet.client.readContract({ address: factory(), abi: STABLE_FACTORY, functionName: "pool_list", args: [2n] })) as Address)
    const key = pool.toLowerCase()

    // found at the factory's log; not published while the executor does not know it
    const found = await awaitBlock(deployed.blockNumber)
    expect(found.pools.has(key)).toBe(false)
    expect((await excluded()).has(key)).toBe(true)

    const deposited = await depositIn(pool, COINS, AMOUNTS)
    const funded = await awaitBlock(deposited.blockNumber)
    expect(funded.pools.has(key)).toBe(false)
    expect((await excluded()).get(key)).toBe("stable pool not registered on the executor")
    // said once, when found, though every block since had the venue's pools followed and not routed
    const unregistered = () => warnings.filter((w) => w.includes("stable pools not registered on the executor") && w.includes(pool))
    expect(deposited.blockNumber).toBeGreaterThan(deployed.blockNumber + 4n)
    expect(unregistered()).toHaveLength(1)

    const registered = await register(pool)
    const after: World = await awaitBlock(registered.blockNumber)
    const state = after.pools.get(key) as StablePoolState
    expect(state).toEqual(await stableStateOnChain(pool, COINS, after.blockNumber))
    expect(state.balances).toEqual([...AMOUNTS])
    expect(state.rates).toEqual([10n ** 30n, 10n ** 18n])
    expect([state.amp, state.fee]).toEqual([20_000n, 2_000_000n])
    // the pools known before are published as they were
    expect([...after.pools.keys()].sort()).toEqual([...before.pools.keys(), key].sort())
    // registered: not said again
    expect(unregistered()).toHaveLength(1)
    const unregister = await send(devnet.manifest.executor as Address, EXECUTOR, "setStablePool", [pool, false])
    await awaitBlock(unregister.blockNumber)
    expect(unregistered()).toHaveLength(2)
    await awaitBlock((await register(pool)).blockNumber)
  })

  test("a pool deployed directly, not through the factory, is never found, even registered on the executor", async () => {
    const before = await snapshot()
    const count = await poolCount()
    const hash = await devnet.client.deployContract({
      abi: STABLE_POOL.abi,
      bytecode: STABLE_POOL.bytecode,
      args: [COINS.map((s) => tokenAddress(devnet.manifest, s)), 300n, 1_000_000n],
      account: owner(),
      chain: devnet.client.chain,
    })
    const pool = getAddress((await devnet.client.waitForTransactionReceipt({ hash })).contractAddress!)
    await depositIn(pool, COINS, AMOUNTS)
    const registered = await register(pool)
    const after = await awaitBlock(registered.blockNumber)
    expect(after.pools.has(pool.toLowerCase())).toBe(false)
    expect((await excluded()).has(pool.toLowerCase())).toBe(false)
    expect(await poolCount()).toBe(count)
    expect([...after.pools.keys()].sort()).toEqual([...before.pools.keys()].sort())
  })
})
