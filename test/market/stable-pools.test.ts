// MarketState over every venue of the default devnet, with the route executor
// configured (as the service runs it): the pools of both venues of a Uniswap
// kind and the Curve-style stable pools, each under its venue; a stable pool
// followed through a real exchange; the executor's venue ids; and a venue (or a
// stable pool) the executor's owner removes from its registry is no longer
// published, while the market keeps following it for when it comes back.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Effect, Either, ManagedRuntime } from "effect"
import { getAddress, maxUint256, parseEventLogs, zeroAddress, type Abi, type Address, type Hex } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import type { ConcentratedPoolState, PoolState, StablePoolState, V2PoolState } from "../../src/amm/index.ts"
import type { Rpc } from "../../src/chain/index.ts"
import { chainSettings } from "../../src/config/index.ts"
import { ownArtifact, uniswapArtifact } from "../../src/contracts/artifacts.ts"
import {
  executorVenueIds,
  isPairPool,
  manifestVenue,
  poolKind,
  stablePools,
  testAccounts,
  venuesOfKind,
  type ManifestPool,
  type ManifestStablePool,
} from "../../src/devnet/index.ts"
import { MarketState } from "../../src/market/index.ts"
import type { Tokens } from "../../src/tokens/index.ts"
import { startTestDevnet, type TestDevnet } from "../support/devnet.ts"
import { marketConfig, marketLayer, marketVenues, poolKey, recordingRpc, routablePools, rpcConfig, tokenAddress, type MulticallRecord } from "./support.ts"
import type { World } from "../../src/domain/index.ts"

let devnet: TestDevnet
let runtime: ManagedRuntime.ManagedRuntime<MarketState | Tokens | Rpc, unknown>
const multicalls: MulticallRecord[] = []
const run = <A, E>(effect: Effect.Effect<A, E, MarketState | Tokens | Rpc>) => runtime.runPromise(effect)
const snapshot = () => run(Effect.flatMap(MarketState, (m) => m.snapshot))
const awaitBlock = (n: bigint) => run(Effect.flatMap(MarketState, (m) => m.awaitBlock(n)).pipe(Effect.timeout("10 seconds")))

const STABLE_POOL = ownArtifact("StableSwapPool").abi
const EXECUTOR = ownArtifact("RouteExecutor").abi
const ERC20 = ownArtifact("TestToken").abi
const V2_PAIR = uniswapArtifact("UniswapV2Pair").abi
const V3_POOL = uniswapArtifact("UniswapV3Pool").abi
const STATE_VIEW = uniswapArtifact("StateView").abi

const alice = testAccounts[1]!.address
const GAS = 5_000_000n

const keyOf = (pool: ManifestPool) => poolKey(devnet.manifest, pool)

const readAt = <T>(address: string, abi: Abi, functionName: string, args: readonly unknown[], blockNumber: bigint) =>
  devnet.client.readContract({ address: address as Address, abi, functionName, args, blockNumber }) as Promise<T>

/** Sends as `from`: an unlocked test account's address, or the executor owner's key from the manifest. */
const send = async (from: Address | ReturnType<typeof privateKeyToAccount>, address: Address, abi: Abi, functionName: string, args: readonly unknown[]) => {
  const hash = await devnet.client.writeContract({ address, abi, functionName, args, account: from, chain: devnet.client.chain, gas: GAS } as never)
  const receipt = await devnet.client.waitForTransactionReceipt({ hash })
  if (receipt.status !== "success") throw new Error(`${functionName} reverted`)
  return receipt
}

const owner = () => privateKeyToAccount(devnet.manifest.owner.privateKey as Hex)

/** The stable pool's state read directly at `block`: coins in pool order, balances(i), A_precise, fee, the coins' rates. */
const stableStateOnChain = async (pool: ManifestStablePool, block: bigint): Promise<StablePoolState> => {
  const coins = pool.tokens.map((symbol) => getAddress(tokenAddress(devnet.manifest, symbol)))
  return {
    kind: "curve-stableswap",
    venue: pool.dex,
    id: getAddress(pool.pool),
    coins,
    balances: await Promise.all(coins.map((_, i) => readAt<bigint>(pool.pool, STABLE_POOL, "balances", [BigInt(i)], block))),
    rates: pool.tokens.map((symbol) => 10n ** BigInt(36 - devnet.manifest.tokens[symbol]!.decimals)),
    amp: await readAt<bigint>(pool.pool, STABLE_POOL, "A_precise", [], block),
    fee: await readAt<bigint>(pool.pool, STABLE_POOL, "fee", [], block),
  }
}

/** The facts of a pair pool's state that depend on nothing but the chain at `block` (ticks are market-state.test.ts's). */
const pairFactsOnChain = async (pool: ManifestPool, block: bigint) => {
  const kind = poolKind(devnet.manifest, pool)
  if (kind === "uniswap-v2") {
    const [reserve0, reserve1] = await readAt<[bigint, bigint, number]>(pool.pool, V2_PAIR, "getReserves", [], block)
    return { reserve0, reserve1 }
  }
  const [sqrtPriceX96, tick] =
    kind === "uniswap-v3"
      ? await readAt<[bigint, number]>(pool.pool, V3_POOL, "slot0", [], block)
      : await readAt<[bigint, number]>(manifestVenue(devnet.manifest, pool.dex, "uniswap-v4").stateView, STATE_VIEW, "getSlot0", [pool.pool], block)
  const liquidity =
    kind === "uniswap-v3"
      ? await readAt<bigint>(pool.pool, V3_POOL, "liquidity", [], block)
      : await readAt<bigint>(manifestVenue(devnet.manifest, pool.dex, "uniswap-v4").stateView, STATE_VIEW, "getLiquidity", [pool.pool], block)
  return { sqrtPriceX96, tick, liquidity }
}

const pairFactsOf = (state: PoolState) =>
  state.kind === "uniswap-v2"
    ? { reserve0: state.reserve0, reserve1: state.reserve1 }
    : state.kind === "curve-stableswap"
      ? undefined
      : { sqrtPriceX96: state.sqrtPriceX96, tick: state.tick, liquidity: state.liquidity }

/** Waits for `block`; checks that only `keys` were read for it and every other published pool's state object is the previous one. */
const expectOnlyRefreshed = async (before: World, block: bigint, keys: readonly string[]) => {
  const after = await awaitBlock(block)
  expect(after.blockNumber).toBe(block)
  expect(after.refreshed).toEqual([...keys].sort())
  for (const [key, state] of before.pools) if (!keys.includes(key) && after.pools.has(key)) expect(after.pools.get(key)).toBe(state)
  return after
}

beforeAll(async () => {
  devnet = await startTestDevnet()
  const config = marketConfig(devnet.manifest, { executor: devnet.manifest.executor as Address })
  runtime = ManagedRuntime.make(marketLayer(recordingRpc(rpcConfig(devnet.manifest), multicalls), config))
  await runtime.runPromise(Effect.void)
})

afterAll(async () => {
  await runtime?.dispose()
  await devnet?.stop()
})

describe("every venue", () => {
  test("the market is told every venue of the manifest, as the service's configuration serves them", () => {
    const lower = (x: unknown) => JSON.parse(JSON.stringify(x).toLowerCase()) as unknown
    const served = Either.getOrThrow(chainSettings({}, devnet.manifest)).venues
    expect(lower(marketVenues(devnet.manifest))).toEqual(lower(served))
    expect(served.map((v) => `${v.name}:${v.kind}`)).toEqual([
      "uniswap-v2:uniswap-v2",
      "uniswap-v3:uniswap-v3",
      "uniswap-v4:uniswap-v4",
      "arcade-v2:uniswap-v2",
      "synthra-v3:uniswap-v3",
      "xylonet:curve-stableswap",
    ])
  })

  test("the World holds every routable pool of every venue, each under its venue, with the chain's state", async () => {
    const snap = await snapshot()
    const pools = routablePools(devnet.manifest)
    expect([...snap.pools.keys()].sort()).toEqual(pools.map(keyOf).sort())
    // both venues of uniswap-v2 and of uniswap-v3 have pools (the default scenario has one uniswap-v4 venue)
    for (const kind of ["uniswap-v2", "uniswap-v3", "uniswap-v4", "curve-stableswap"] as const) {
      for (const venue of venuesOfKind(devnet.manifest, kind)) {
        expect(pools.filter((p) => p.dex === venue.name).length).toBeGreaterThan(0)
      }
    }
    expect(venuesOfKind(devnet.manifest, "uniswap-v2").length).toBe(2)
    expect(venuesOfKind(devnet.manifest, "uniswap-v3").length).toBe(2)
    for (const pool of pools) {
      const state = snap.pools.get(keyOf(pool))!
      expect({ kind: state.kind, venue: state.venue }).toEqual({ kind: poolKind(devnet.manifest, pool), venue: pool.dex })
      if (!isPairPool(pool)) continue
      const [a, b] = pool.tokens.map((s) => getAddress(tokenAddress(devnet.manifest, s)))
      const s = state as V2PoolState | ConcentratedPoolState
      expect([s.token0, s.token1]).toEqual(a!.toLowerCase() < b!.toLowerCase() ? [a!, b!] : [b!, a!])
      expect(s.id.toLowerCase()).toBe(pool.pool.toLowerCase())
      expect(pairFactsOf(state)).toEqual(await pairFactsOnChain(pool, snap.blockNumber))
    }
  })

  test("the stable pools: coins in pool order, balances equal to balances(i), A_precise, fee and rates", async () => {
    const snap = await snapshot()
    const stable = stablePools(devnet.manifest)
    expect(stable.map((p) => p.tokens)).toEqual([["USDC", "USDT", "DAI"], ["USDC", "USDT"]])
    for (const pool of stable) {
      const state = snap.pools.get(keyOf(pool)) as StablePoolState
      expect(state).toEqual(await stableStateOnChain(pool, snap.blockNumber))
      // as the scenario built them: A and fee (1e-10 units) as the manifest says, DAI at 18 decimals
      expect([state.amp, state.fee]).toEqual([BigInt(pool.A) * 100n, BigInt(pool.fee)])
      expect(state.balances.every((b) => b > 0n)).toBe(true)
      for (const coin of state.coins) expect(snap.poolsByToken.get(coin.toLowerCase())).toContain(keyOf(pool))
    }
    expect((snap.pools.get(keyOf(stable[0]!)) as StablePoolState).rates).toEqual([10n ** 30n, 10n ** 30n, 10n ** 18n])
  })

  test("World.executor.venueIds maps each Uniswap venue to the id the executor registered it under", async () => {
    const snap = await snapshot()
    const expected = executorVenueIds(devnet.manifest)
    expect([...expected.keys()]).toEqual(["uniswap-v2", "uniswap-v3", "uniswap-v4", "arcade-v2", "synthra-v3"])
    expect(new Map(snap.executor!.venueIds)).toEqual(expected)
    // and the chain agrees: each id names the venue's factory or PoolManager, of its kind
    const KIND = { "uniswap-v2": 1, "uniswap-v3": 2, "uniswap-v4": 3 } as const
    for (const [name, id] of expected) {
      const venue = devnet.manifest.dexes[name]!
      const [kind, factory] = await readAt<[number, Address, Hex, number]>(devnet.manifest.executor, EXECUTOR, "venue", [id], snap.blockNumber)
      const contract = venue.kind === "uniswap-v4" ? venue.poolManager : venue.kind === "curve-stableswap" ? "" : venue.factory
      expect([kind, factory.toLowerCase()]).toEqual([KIND[venue.kind as keyof typeof KIND], contract.toLowerCase()])
    }
  })
})

describe("following a stable pool", () => {
  test("an exchange on the three-coin pool: the next World has its new balances, equal to the chain's; nothing else was read or changed", async () => {
    const pool = stablePools(devnet.manifest).find((p) => p.tokens.length === 3)!
    const [i, j] = [pool.tokens.indexOf("USDT"), pool.tokens.indexOf("DAI")]
    const usdt = tokenAddress(devnet.manifest, "USDT")
    const dx = 25_000n * 10n ** 6n
    await send(alice, usdt, ERC20, "approve", [pool.pool, maxUint256])
    const before = await snapshot()
    const previous = before.pools.get(keyOf(pool)) as StablePoolState
    expect(previous.balances).toEqual((await stableStateOnChain(pool, before.blockNumber)).balances)
    const receipt = await send(alice, pool.pool as Address, STABLE_POOL, "exchange", [BigInt(i), BigInt(j), dx, 0n])
    const [exchanged] = parseEventLogs({ abi: STABLE_POOL, eventName: "TokenExchange", logs: receipt.logs }) as unknown as [{ args: { tokens_sold: bigint; tokens_bought: bigint } }]
    expect(exchanged.args.tokens_sold).toBe(dx)
    const dy = exchanged.args.tokens_bought
    expect(dy).toBeGreaterThan(0n)

    const after = await expectOnlyRefreshed(before, receipt.blockNumber, [keyOf(pool)])
    // one batched read for the block, its own: the exchange's log said the balances it left
    const reads = multicalls.filter((m) => m.blockNumber === receipt.blockNumber)
    expect(reads.length).toBe(1)
    expect(reads[0]!.targets).not.toContain(pool.pool.toLowerCase())
    const state = after.pools.get(keyOf(pool)) as StablePoolState
    expect(state).not.toBe(previous)
    expect(state).toEqual(await stableStateOnChain(pool, after.blockNumber))
    expect(state.balances).toEqual(previous.balances.map((b, k) => (k === i ? b + dx : k === j ? b - dy : b)))
    // the facts that never change are the same objects
    expect(state.coins).toBe(previous.coins)
    expect(state.rates).toBe(previous.rates)
    expect(after.pools.size).toBe(before.pools.size)
  })
})

/** The two-coin add_liquidity overload of StableSwapPool. */
const ADD_LIQUIDITY_2 = [STABLE_POOL.find((item) => item.type === "function" && item.name === "add_liquidity" && item.inputs[0]?.type === "uint256[2]")!] as Abi

/** Sends the transactions (each waiting only to be in the pool), then mines them in one block; returns that block. */
const inOneBlock = async (sends: readonly (() => Promise<Hex>)[]): Promise<bigint> => {
  await devnet.client.request({ method: "evm_setAutomine", params: [false] } as never)
  try {
    const hashes: Hex[] = []
    for (const sent of sends) hashes.push(await sent())
    await devnet.client.request({ method: "evm_mine", params: [] } as never)
    const receipts = await Promise.all(hashes.map((hash) => devnet.client.waitForTransactionReceipt({ hash })))
    for (const r of receipts) if (r.status !== "success") throw new Error(`transaction ${r.transactionHash} reverted`)
    expect(new Set(receipts.map((r) => r.blockNumber)).size).toBe(1)
    return receipts[0]!.blockNumber
  } finally {
    await devnet.client.request({ method: "evm_setAutomine", params: [true] } as never)
  }
}
const sendOnly = (address: Address, abi: Abi, functionName: string, args: readonly unknown[]) => () =>
  devnet.client.writeContract({ address, abi, functionName, args, account: alice, chain: devnet.client.chain, gas: GAS } as never) as Promise<Hex>

describe("a stable pool's block from its logs", () => {
  test("exchanges both ways on one pool in one block: run again in order, nothing read; an exchange beside a deposit on another: that pool is read; both equal the chain's", async () => {
    const three = stablePools(devnet.manifest).find((p) => p.tokens.length === 3)!
    const two = stablePools(devnet.manifest).find((p) => p.tokens.length === 2)!
    const [usdt, dai] = ["USDT", "DAI"].map((symbol) => tokenAddress(devnet.manifest, symbol))
    const coinsOfTwo = two.tokens.map((symbol) => tokenAddress(devnet.manifest, symbol))
    for (const token of [usdt!, dai!]) await send(alice, token, ERC20, "approve", [three.pool, maxUint256])
    for (const token of coinsOfTwo) await send(alice, token, ERC20, "approve", [two.pool, maxUint256])
    const [i, j] = [three.tokens.indexOf("USDT"), three.tokens.indexOf("DAI")]
    const unit = (symbol: string) => 10n ** BigInt(devnet.manifest.tokens[symbol]!.decimals)
    const before = await snapshot()
    const block = await inOneBlock([
      sendOnly(three.pool as Address, STABLE_POOL, "exchange", [BigInt(i), BigInt(j), 12_345n * unit("USDT") + 678n, 0n]),
      sendOnly(three.pool as Address, STABLE_POOL, "exchange", [BigInt(j), BigInt(i), 9_876n * unit("DAI") + 5n, 0n]),
      sendOnly(two.pool as Address, STABLE_POOL, "exchange", [0n, 1n, 1_000n * unit(two.tokens[0]!), 0n]),
      sendOnly(two.pool as Address, ADD_LIQUIDITY_2, "add_liquidity", [[500n * unit(two.tokens[0]!), 700n * unit(two.tokens[1]!)], 0n]),
    ])
    const after = await expectOnlyRefreshed(before, block, [keyOf(three), keyOf(two)])
    expect(after.pools.get(keyOf(three))).toEqual(await stableStateOnChain(three, block))
    expect(after.pools.get(keyOf(two))).toEqual(await stableStateOnChain(two, block))
    const targets = multicalls.filter((m) => m.blockNumber === block).flatMap((m) => m.targets)
    expect(targets).not.toContain(three.pool.toLowerCase())
    expect(targets).toContain(two.pool.toLowerCase())
  })
})

describe("the executor's registry", () => {
  test("a venue the executor's owner removes is no longer published; registered again, its pools come back as the chain has them", async () => {
    const arcadeId = executorVenueIds(devnet.manifest).get("arcade-v2")!
    const arcadePools = routablePools(devnet.manifest).filter((p) => p.dex === "arcade-v2")
    expect(arcadePools.length).toBe(2)
    const arcadeKeys = arcadePools.map(keyOf)
    const registered = await devnet.client.readContract({ address: devnet.manifest.executor as Address, abi: EXECUTOR, functionName: "venue", args: [arcadeId] }) as [number, Address, Hex, number]

    const before = await snapshot()
    for (const key of arcadeKeys) expect(before.pools.has(key)).toBe(true)
    const removed = await send(owner(), devnet.manifest.executor as Address, EXECUTOR, "setVenue", [arcadeId, 0, zeroAddress, `0x${"0".repeat(64)}`, 0])
    const without = await expectOnlyRefreshed(before, removed.blockNumber, [])
    for (const key of arcadeKeys) expect(without.pools.has(key)).toBe(false)
    for (const list of without.poolsByToken.values()) for (const key of arcadeKeys) expect(list).not.toContain(key)
    expect(without.executor!.venueIds.has("arcade-v2")).toBe(false)
    // the other venues' pools are published as they were
    expect([...without.pools.keys()].sort()).toEqual([...before.pools.keys()].filter((k) => !arcadeKeys.includes(k)).sort())
    expect(new Map(without.executor!.venueIds)).toEqual(new Map([...executorVenueIds(devnet.manifest)].filter(([name]) => name !== "arcade-v2")))

    // a swap on an arcade-v2 pair while it is not published: the market still follows it
    const pool = arcadePools.find((p) => p.tokens.includes("USDC") && p.tokens.includes("USDT"))!
    const usdc = tokenAddress(devnet.manifest, "USDC")
    const [r0, r1] = await readAt<[bigint, bigint]>(pool.pool, V2_PAIR, "getReserves", [], without.blockNumber)
    const [token0] = [pool.tokens[0], pool.tokens[1]].map((s) => tokenAddress(devnet.manifest, s!)).sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1))
    const usdcIs0 = token0!.toLowerCase() === usdc.toLowerCase()
    const amountIn = 1_000n * 10n ** 6n
    const [reserveIn, reserveOut] = usdcIs0 ? [r0, r1] : [r1, r0]
    const out = (amountIn * 997n * reserveOut) / (reserveIn * 1000n + amountIn * 997n)
    await send(alice, usdc, ERC20, "transfer", [pool.pool, amountIn])
    const swapped = await send(alice, pool.pool as Address, V2_PAIR, "swap", [usdcIs0 ? 0n : out, usdcIs0 ? out : 0n, alice, "0x"])
    const hidden = await awaitBlock(swapped.blockNumber)
    expect(hidden.pools.has(keyOf(pool))).toBe(false)

    const restored = await send(owner(), devnet.manifest.executor as Address, EXECUTOR, "setVenue", [arcadeId, ...registered])
    const back = await awaitBlock(restored.blockNumber)
    expect(back.executor!.venueIds.get("arcade-v2")).toBe(arcadeId)
    for (const p of arcadePools) {
      const state = back.pools.get(keyOf(p)) as V2PoolState
      expect(state).toMatchObject({ kind: "uniswap-v2", venue: "arcade-v2" })
      expect(pairFactsOf(state)).toEqual(await pairFactsOnChain(p, back.blockNumber))
    }
    expect((back.pools.get(keyOf(pool)) as V2PoolState)[usdcIs0 ? "reserve0" : "reserve1"]).toBe((usdcIs0 ? r0 : r1) + amountIn)
    expect([...back.pools.keys()].sort()).toEqual([...before.pools.keys()].sort())
  })

  test("a stable pool the owner unregisters is no longer published; registered again, it is back", async () => {
    const pool = stablePools(devnet.manifest).find((p) => p.tokens.length === 2)!
    const before = await snapshot()
    expect(before.pools.has(keyOf(pool))).toBe(true)
    const removed = await send(owner(), devnet.manifest.executor as Address, EXECUTOR, "setStablePool", [pool.pool, false])
    const without = await expectOnlyRefreshed(before, removed.blockNumber, [])
    expect(without.pools.has(keyOf(pool))).toBe(false)
    for (const list of without.poolsByToken.values()) expect(list).not.toContain(keyOf(pool))
    expect(without.pools.size).toBe(before.pools.size - 1)
    const restored = await send(owner(), devnet.manifest.executor as Address, EXECUTOR, "setStablePool", [pool.pool, true])
    const back = await awaitBlock(restored.blockNumber)
    expect(back.pools.get(keyOf(pool))).toEqual(await stableStateOnChain(pool, back.blockNumber))
  })
})
