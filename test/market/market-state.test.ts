// MarketState on the default devnet: discovery, full state equal to direct reads
// (ticks derived independently from the liquidity events), and per-block refresh of
// exactly the pools a block touched, after real swaps and liquidity changes on chain.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Effect, ManagedRuntime } from "effect"
import { readFileSync } from "node:fs"
import { resolve } from "node:path"
import { getAddress, maxUint256, parseAbi, zeroAddress, type Abi, type AbiEvent, type Address, type Hex } from "viem"
import type { Rpc } from "../../src/chain/index.ts"
import { ownArtifact, uniswapArtifact } from "../../src/contracts/artifacts.ts"
import { getSqrtRatioAtTick } from "../../src/amm/index.ts"
import { isPairPool, manifestVenue, poolKind, testAccounts, venuesOfKind, type ManifestPairPool, type ManifestPool } from "../../src/devnet/index.ts"
import type { ConcentratedPoolState, PoolState, StablePoolState } from "../../src/amm/index.ts"
import { MAX_TICK, MIN_TICK } from "../../src/amm/index.ts"
import { MarketState } from "../../src/market/index.ts"
import type { Tokens } from "../../src/tokens/index.ts"
import { startTestDevnet, type TestDevnet } from "../support/devnet.ts"
import { marketConfig, marketLayer, poolKey, recordingRpc, routablePools, rpcConfig, tokenAddress, type MulticallRecord, sendFrom } from "./support.ts"
import type { World } from "../../src/domain/index.ts"

let devnet: TestDevnet
let runtime: ManagedRuntime.ManagedRuntime<MarketState | Tokens | Rpc, unknown>
const multicalls: MulticallRecord[] = []
const run = <A, E>(effect: Effect.Effect<A, E, MarketState | Tokens | Rpc>) => runtime.runPromise(effect)
const snapshot = () => run(Effect.flatMap(MarketState, (m) => m.snapshot))
const awaitBlock = (n: bigint) => run(Effect.flatMap(MarketState, (m) => m.awaitBlock(n)).pipe(Effect.timeout("10 seconds")))

const V2_PAIR = uniswapArtifact("UniswapV2Pair").abi
const V3_POOL = uniswapArtifact("UniswapV3Pool").abi
const STATE_VIEW = uniswapArtifact("StateView").abi
const POOL_MANAGER = uniswapArtifact("PoolManager").abi
const STABLE_POOL = ownArtifact("StableSwapPool").abi
const ERC20 = ownArtifact("TestToken").abi
const event = (abi: Abi, name: string) => abi.find((i) => i.type === "event" && i.name === name) as AbiEvent

const alice = testAccounts[1]!.address
const owner = testAccounts[9]!.address

/** The pool's key in World.pools (V4: its id @ its venue's PoolManager). */
const idOf = (pool: ManifestPool) => poolKey(devnet.manifest, pool)

const readAt = <T>(address: string, abi: Abi, functionName: string, args: readonly unknown[], blockNumber: bigint) =>
  devnet.client.readContract({ address: address as Address, abi, functionName, args, blockNumber }) as Promise<T>

const send = sendFrom(() => devnet.client)

const deploy = async (from: Address, artifact: { abi: Abi; bytecode: Hex }, args: readonly unknown[]) => {
  const hash = await devnet.client.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode, args, account: from, chain: devnet.client.chain } as never)
  const receipt = await devnet.client.waitForTransactionReceipt({ hash })
  if (receipt.status !== "success" || !receipt.contractAddress) throw new Error("deployment failed")
  return receipt.contractAddress
}

/** Initialized ticks of a pool from its liquidity events alone: Σ of each position's L at its bounds. */
const ticksFromEvents = async (pool: ManifestPairPool, toBlock: bigint) => {
  const gross = new Map<number, bigint>()
  const net = new Map<number, bigint>()
  // amount: + for a mint, - for a burn; a tick is initialized while its gross liquidity is > 0
  const add = (lower: number, upper: number, amount: bigint) => {
    gross.set(lower, (gross.get(lower) ?? 0n) + amount)
    gross.set(upper, (gross.get(upper) ?? 0n) + amount)
    net.set(lower, (net.get(lower) ?? 0n) + amount)
    net.set(upper, (net.get(upper) ?? 0n) - amount)
  }
  if (poolKind(devnet.manifest, pool) === "uniswap-v3") {
    const logs = await devnet.client.getLogs({
      address: pool.pool as Address,
      events: [event(V3_POOL, "Mint"), event(V3_POOL, "Burn")],
      fromBlock: 0n,
      toBlock,
      strict: true,
    })
    for (const log of logs) {
      const args = log.args as { tickLower: number; tickUpper: number; amount: bigint }
      add(args.tickLower, args.tickUpper, log.eventName === "Mint" ? args.amount : -args.amount)
    }
  } else {
    const logs = await devnet.client.getLogs({
      address: manifestVenue(devnet.manifest, pool.dex, "uniswap-v4").poolManager as Address,
      event: event(POOL_MANAGER, "ModifyLiquidity"),
      args: { id: pool.pool as Hex },
      fromBlock: 0n,
      toBlock,
      strict: true,
    })
    for (const log of logs) {
      const args = log.args as { tickLower: number; tickUpper: number; liquidityDelta: bigint }
      add(args.tickLower, args.tickUpper, args.liquidityDelta)
    }
  }
  return [...net.entries()]
    .filter(([tick]) => gross.get(tick)! > 0n)
    .map(([tick, liquidityNet]) => ({ tick, liquidityNet }))
    .sort((a, b) => a.tick - b.tick)
}

const tokensOf = (pool: ManifestPairPool): [Address, Address] => {
  const [a, b] = pool.tokens.map((s) => getAddress(tokenAddress(devnet.manifest, s)))
  return a!.toLowerCase() < b!.toLowerCase() ? [a!, b!] : [b!, a!]
}

/** The pool's state read directly (not through the market's batched reads) at `block`. */
const expectPoolMatchesChain = async (pool: ManifestPool, state: PoolState | undefined, block: bigint, window: number) => {
  expect(state).toBeDefined()
  const kind = poolKind(devnet.manifest, pool)
  // the pool's venue as the manifest names it, and its family
  expect({ kind: state!.kind, venue: state!.venue }).toEqual({ kind, venue: pool.dex })
  if (!isPairPool(pool)) {
    // a stable pool: its coins in pool order, the chain's balances, A_precise and fee, the coins' rates
    const coins = pool.tokens.map((symbol) => getAddress(tokenAddress(devnet.manifest, symbol)))
    const balances = await Promise.all(coins.map((_, i) => readAt<bigint>(pool.pool, STABLE_POOL, "balances", [BigInt(i)], block)))
    const amp = await readAt<bigint>(pool.pool, STABLE_POOL, "A_precise", [], block)
    const fee = await readAt<bigint>(pool.pool, STABLE_POOL, "fee", [], block)
    const rates = pool.tokens.map((symbol) => 10n ** BigInt(36 - devnet.manifest.tokens[symbol]!.decimals))
    expect(state).toEqual({ kind: "curve-stableswap", venue: pool.dex, id: getAddress(pool.pool), coins, balances, rates, amp, fee } satisfies StablePoolState)
    expect([amp, fee]).toEqual([BigInt(pool.A) * 100n, BigInt(pool.fee)])
    return
  }
  const pair = state as Exclude<PoolState, StablePoolState>
  const [token0, token1] = tokensOf(pool)
  expect([pair.token0, pair.token1]).toEqual([token0, token1])
  if (kind === "uniswap-v2") {
    const [reserve0, reserve1] = await readAt<[bigint, bigint, number]>(pool.pool, V2_PAIR, "getReserves", [], block)
    const feeBps = manifestVenue(devnet.manifest, pool.dex, "uniswap-v2").feeBps ?? 30
    expect(state).toEqual({ kind: "uniswap-v2", venue: pool.dex, id: getAddress(pool.pool), token0, token1, reserve0, reserve1, feeBps })
    return
  }
  const s = state as ConcentratedPoolState
  let sqrtPriceX96: bigint, tick: number, liquidity: bigint
  if (kind === "uniswap-v3") {
    ;[sqrtPriceX96, tick] = await readAt<[bigint, number]>(pool.pool, V3_POOL, "slot0", [], block)
    liquidity = await readAt<bigint>(pool.pool, V3_POOL, "liquidity", [], block)
    expect(s.id).toBe(getAddress(pool.pool))
    expect(s.hooks).toBeUndefined()
  } else {
    // through the StateView of the pool's own venue
    const stateView = manifestVenue(devnet.manifest, pool.dex, "uniswap-v4").stateView
    ;[sqrtPriceX96, tick] = await readAt<[bigint, number]>(stateView, STATE_VIEW, "getSlot0", [pool.pool], block)
    liquidity = await readAt<bigint>(stateView, STATE_VIEW, "getLiquidity", [pool.pool], block)
    expect(s.id).toBe(pool.pool.toLowerCase() as Hex)
    expect(s.hooks).toBe(zeroAddress)
  }
  expect({ fee: s.fee, tickSpacing: s.tickSpacing, sqrtPriceX96: s.sqrtPriceX96, tick: s.tick, liquidity: s.liquidity }).toEqual({
    fee: pool.fee!,
    tickSpacing: pool.tickSpacing!,
    sqrtPriceX96,
    tick,
    liquidity,
  })
  // the window reaches at least half its half-width either side of the current tick (it is
  // read again around the tick when the tick drifts closer to an edge)
  expect(s.tickLower <= Math.max(MIN_TICK, tick - window / 2)).toBe(true)
  expect(s.tickUpper >= Math.min(MAX_TICK, tick + window / 2)).toBe(true)
  const all = await ticksFromEvents(pool, block)
  const expected = all.filter((t) => t.tick >= s.tickLower && t.tick <= s.tickUpper)
  expect(s.ticks).toEqual(expected)
  // with every position inside the window, the active liquidity is the sum of the nets at or below the tick
  if (expected.length === all.length) {
    expect(s.ticks.filter((t) => t.tick <= s.tick).reduce((sum, t) => sum + t.liquidityNet, 0n)).toBe(liquidity)
  }
}

const expectSnapshotMatchesChain = async (snap: World) => {
  const window = await run(Effect.map(MarketState, (m) => m.tickWindow))
  for (const pool of routablePools(devnet.manifest)) {
    await expectPoolMatchesChain(pool, snap.pools.get(idOf(pool)), snap.blockNumber, window)
  }
}

/** The sizes of the batched reads at `block`, smallest first: the block's own (2: timestamp, base fee), then any of pools. */
const readsAt = (block: bigint) =>
  multicalls
    .filter((m) => m.blockNumber === block)
    .map((m) => m.calls)
    .sort((a, b) => a - b)

/** Waits for the block, then checks that only `pool` changed, with at most one batched read of pools beside the block's own. */
const expectOnlyRefreshed = async (before: World, block: bigint, pool: ManifestPool) => {
  const after = await awaitBlock(block)
  expect(after.blockNumber).toBe(block)
  expect(after.refreshed).toEqual([idOf(pool)])
  for (const [id, state] of before.pools) {
    if (id !== idOf(pool)) expect(after.pools.get(id)).toBe(state)
  }
  expect(after.pools.get(idOf(pool))).not.toBe(before.pools.get(idOf(pool)))
  expect(readsAt(block).length).toBeLessThanOrEqual(2)
  expect(readsAt(block)[0]).toBe(2)
  return after
}

/** The pair pool of venue `dex` between `a` and `b`. */
const poolOf = (dex: string, a: string, b: string): ManifestPairPool =>
  devnet.manifest.pools.find((p): p is ManifestPairPool => isPairPool(p) && p.dex === dex && p.tokens.includes(a) && p.tokens.includes(b))!

beforeAll(async () => {
  devnet = await startTestDevnet()
  runtime = ManagedRuntime.make(marketLayer(recordingRpc(rpcConfig(devnet.manifest), multicalls), marketConfig(devnet.manifest)))
  await runtime.runPromise(Effect.void)
})

afterAll(async () => {
  await runtime?.dispose()
  await devnet?.stop()
})

describe("discovery", () => {
  test("publishes the 19 routable pools of every venue of the default scenario and excludes the TAX and REB pools", async () => {
    const snap = await snapshot()
    const expected = routablePools(devnet.manifest).map(idOf).sort()
    expect(expected.length).toBe(19)
    expect([...snap.pools.keys()].sort()).toEqual(expected)
    // every venue, each pool under its own
    const perVenue: Record<string, number> = {}
    for (const pool of snap.pools.values()) perVenue[pool.venue] = (perVenue[pool.venue] ?? 0) + 1
    expect(perVenue).toEqual({ "uniswap-v2": 3, "uniswap-v3": 6, "uniswap-v4": 4, "arcade-v2": 2, "synthra-v3": 2, xylonet: 2 })
    const excluded = await run(Effect.flatMap(MarketState, (m) => m.excluded))
    const tax = idOf(poolOf("uniswap-v2", "TAX", "USDC"))
    const reb = idOf(poolOf("uniswap-v2", "REB", "USDC"))
    expect([...excluded.keys()].sort()).toEqual([tax, reb].sort())
    expect(excluded.get(tax)).toContain("fee-on-transfer")
    expect(excluded.get(reb)).toContain("rebasing")
  })

  test("indexes pools by token, every coin of a stable pool included", async () => {
    const snap = await snapshot()
    // EURC: pair pools only; USDT: pairs and both stable pools; DAI: the three-coin stable pool alone
    for (const symbol of ["EURC", "USDT", "DAI"]) {
      const token = tokenAddress(devnet.manifest, symbol).toLowerCase()
      const expected = routablePools(devnet.manifest).filter((p) => p.tokens.includes(symbol)).map(idOf).sort()
      expect(expected.length).toBeGreaterThan(0)
      expect(snap.poolsByToken.get(token)).toEqual(expected)
    }
    expect(snap.poolsByToken.has(tokenAddress(devnet.manifest, "TAX").toLowerCase())).toBe(false)
  })

  test("every pool's state equals direct reads at the snapshot's block", async () => {
    await expectSnapshotMatchesChain(await snapshot())
  })

  test("the snapshot is stamped with the head block, its time and its gas price", async () => {
    const snap = await snapshot()
    const block = await devnet.client.getBlock({ blockNumber: snap.blockNumber })
    expect(snap.blockNumber).toBe(await devnet.client.getBlockNumber({ cacheTime: 0 }))
    expect(snap.chainId).toBe(5042)
    expect(snap.blockTimestamp).toBe(block.timestamp)
    const priority = BigInt((await devnet.client.request({ method: "eth_maxPriorityFeePerGas" } as never)) as string)
    expect(snap.gasPriceWei).toBe(block.baseFeePerGas! + priority)
  })
})

describe("following blocks", () => {
  test("a V2 swap: the next snapshot has the pair's new reserves, from its Sync log: nothing was read but the block", async () => {
    const pool = poolOf("uniswap-v2", "WETH", "USDT")
    const weth = tokenAddress(devnet.manifest, "WETH")
    const before = await snapshot()
    const [r0, r1] = await readAt<[bigint, bigint]>(pool.pool, V2_PAIR, "getReserves", [], before.blockNumber)
    const wethIs0 = tokensOf(pool)[0].toLowerCase() === weth.toLowerCase()
    const amountIn = 10n ** 18n
    const [reserveIn, reserveOut] = wethIs0 ? [r0, r1] : [r1, r0]
    const out = (amountIn * 997n * reserveOut) / (reserveIn * 1000n + amountIn * 997n)
    await send(alice, weth, ERC20, "transfer", [pool.pool, amountIn])
    const receipt = await send(alice, pool.pool as Address, V2_PAIR, "swap", [wethIs0 ? 0n : out, wethIs0 ? out : 0n, alice, "0x"])
    const after = await expectOnlyRefreshed(before, receipt.blockNumber, pool)
    const state = after.pools.get(idOf(pool))
    expect(state).toMatchObject(wethIs0 ? { reserve0: r0 + amountIn, reserve1: r1 - out } : { reserve0: r0 - out, reserve1: r1 + amountIn })
    await expectPoolMatchesChain(pool, state, after.blockNumber, 32_768)
    // the transfer's block touched no pool, the swap's said its reserves: nothing was read but the block itself
    // (the market may have stepped over the transfer's block to the swap's at once)
    expect(readsAt(receipt.blockNumber - 1n).every((calls) => calls === 2)).toBe(true)
    expect(readsAt(receipt.blockNumber)).toEqual([2])
  })

  test("a V3 swap across an initialized tick: new price, tick and liquidity from its Swap log; the ticks kept as they were", async () => {
    const pool = poolOf("uniswap-v3", "WETH", "USDC")
    const weth = tokenAddress(devnet.manifest, "WETH")
    const usdc = tokenAddress(devnet.manifest, "USDC")
    const router = await deploy(alice, uniswapArtifact("SwapRouter"), [manifestVenue(devnet.manifest, "uniswap-v3", "uniswap-v3").factory, zeroAddress])
    await send(owner, weth, ERC20, "mint", [alice, 1_000n * 10n ** 18n])
    await send(alice, weth, ERC20, "approve", [router, maxUint256])
    const before = await snapshot()
    const previous = before.pools.get(idOf(pool)) as ConcentratedPoolState
    // selling 800 WETH lifts the price past the 196260 tick (the narrower position's upper bound)
    const receipt = await send(alice, router, uniswapArtifact("SwapRouter").abi, "exactInputSingle", [
      { tokenIn: weth, tokenOut: usdc, fee: 500, recipient: alice, deadline: maxUint256, amountIn: 800n * 10n ** 18n, amountOutMinimum: 0n, sqrtPriceLimitX96: 0n },
    ])
    const after = await expectOnlyRefreshed(before, receipt.blockNumber, pool)
    const state = after.pools.get(idOf(pool)) as ConcentratedPoolState
    expect(previous.tick).toBeLessThan(196_260)
    expect(state.tick).toBeGreaterThanOrEqual(196_260)
    expect(state.liquidity).toBeLessThan(previous.liquidity)
    expect(state.ticks).toBe(previous.ticks)
    // the block alone: the Swap log said the pool's price, tick and liquidity
    expect(readsAt(receipt.blockNumber)).toEqual([2])
    await expectPoolMatchesChain(pool, state, after.blockNumber, 32_768)
  })

  test("a V3 mint: the two named ticks are re-read (one new, one existing), no bitmap scan", async () => {
    const pool = poolOf("uniswap-v3", "USDC", "EURC")
    const provider = await deploy(alice, ownArtifact("V3LiquidityProvider"), [])
    for (const symbol of ["USDC", "EURC"]) {
      await send(alice, tokenAddress(devnet.manifest, symbol), ERC20, "transfer", [provider, 10_000n * 10n ** 6n])
    }
    const before = await snapshot()
    const previous = before.pools.get(idOf(pool)) as ConcentratedPoolState
    expect(previous.ticks.map((t) => t.tick)).toContain(-1280)
    expect(previous.ticks.map((t) => t.tick)).not.toContain(-1500)
    const added = 10n ** 11n
    const receipt = await send(alice, provider, ownArtifact("V3LiquidityProvider").abi, "mint", [pool.pool, -1500, -1280, added])
    const after = await expectOnlyRefreshed(before, receipt.blockNumber, pool)
    const state = after.pools.get(idOf(pool)) as ConcentratedPoolState
    expect(state.liquidity).toBe(previous.liquidity + added)
    expect(state.ticks.find((t) => t.tick === -1500)!.liquidityNet).toBe(added)
    expect(state.ticks.find((t) => t.tick === -1280)!.liquidityNet).toBe(previous.ticks.find((t) => t.tick === -1280)!.liquidityNet - added)
    // the block's own read (2) in the logs' round, then the pool's: slot0 and liquidity (2), the two named ticks (2)
    expect(readsAt(receipt.blockNumber)).toEqual([2, 4])
    await expectPoolMatchesChain(pool, state, after.blockNumber, 32_768)
  })

  test("a V4 swap and a V4 liquidity change are followed through the PoolManager's events", async () => {
    const pool = poolOf("uniswap-v4", "EURC", "USDC")
    const [currency0, currency1] = tokensOf(pool)
    const key = { currency0, currency1, fee: pool.fee!, tickSpacing: pool.tickSpacing!, hooks: zeroAddress }
    const swapTest = JSON.parse(
      readFileSync(resolve(import.meta.dir, "../../node_modules/@uniswap/v4-core/out/PoolSwapTest.sol/PoolSwapTest.json"), "utf8"),
    )
    const swapper = await deploy(alice, { abi: swapTest.abi, bytecode: swapTest.bytecode.object }, [manifestVenue(devnet.manifest, "uniswap-v4", "uniswap-v4").poolManager])
    await send(alice, currency0, ERC20, "approve", [swapper, maxUint256])
    const before = await snapshot()
    const previous = before.pools.get(idOf(pool)) as ConcentratedPoolState
    const swapAbi = parseAbi([
      "function swap((address currency0, address currency1, uint24 fee, int24 tickSpacing, address hooks) key, (bool zeroForOne, int256 amountSpecified, uint160 sqrtPriceLimitX96) params, (bool takeClaims, bool settleUsingBurn) testSettings, bytes hookData) payable returns (int256)",
    ])
    const receipt = await send(alice, swapper, swapAbi, "swap", [
      key,
      { zeroForOne: true, amountSpecified: -(5_000n * 10n ** 6n), sqrtPriceLimitX96: 4295128740n },
      { takeClaims: false, settleUsingBurn: false },
      "0x",
    ])
    const swapped = await expectOnlyRefreshed(before, receipt.blockNumber, pool)
    // the Swap log said the state: the block's own read alone
    expect(readsAt(receipt.blockNumber)).toEqual([2])
    const state = swapped.pools.get(idOf(pool)) as ConcentratedPoolState
    expect(state.sqrtPriceX96).toBeLessThan(previous.sqrtPriceX96)
    expect(state.ticks).toBe(previous.ticks)
    await expectPoolMatchesChain(pool, state, swapped.blockNumber, 32_768)

    const provider = await deploy(alice, ownArtifact("V4LiquidityProvider"), [manifestVenue(devnet.manifest, "uniswap-v4", "uniswap-v4").poolManager])
    for (const token of [currency0, currency1]) await send(alice, token, ERC20, "transfer", [provider, 10_000n * 10n ** 6n])
    const beforeAdd = await snapshot()
    const added = 10n ** 12n
    const added_receipt = await send(alice, provider, ownArtifact("V4LiquidityProvider").abi, "addLiquidity", [key, -1600, -1400, added, `0x${"0".repeat(64)}`])
    const afterAdd = await expectOnlyRefreshed(beforeAdd, added_receipt.blockNumber, pool)
    // the block's own read, then the pool's slot0 and liquidity and the two named ticks
    expect(readsAt(added_receipt.blockNumber)).toEqual([2, 4])
    const grown = afterAdd.pools.get(idOf(pool)) as ConcentratedPoolState
    expect(grown.ticks.find((t) => t.tick === -1600)!.liquidityNet).toBe(added)
    expect(grown.ticks.find((t) => t.tick === -1400)!.liquidityNet).toBe(-added)
    await expectPoolMatchesChain(pool, grown, afterAdd.blockNumber, 32_768)
  })

  test("swaps on the scenario's own venues (arcade-v2's pairs, synthra-v3's pools) are followed from their own contracts", async () => {
    const usdc = tokenAddress(devnet.manifest, "USDC")
    const usdt = tokenAddress(devnet.manifest, "USDT")
    // every uniswap-v2 venue but the one the test above swapped on
    for (const venue of venuesOfKind(devnet.manifest, "uniswap-v2").filter((v) => v.name !== "uniswap-v2")) {
      const pool = poolOf(venue.name, "USDC", "USDT")
      const before = await snapshot()
      const [r0, r1] = await readAt<[bigint, bigint]>(pool.pool, V2_PAIR, "getReserves", [], before.blockNumber)
      const usdcIs0 = tokensOf(pool)[0].toLowerCase() === usdc.toLowerCase()
      const amountIn = 1_000n * 10n ** 6n
      const [reserveIn, reserveOut] = usdcIs0 ? [r0, r1] : [r1, r0]
      const fee = BigInt(venue.feeBps ?? 30)
      const out = (amountIn * (10_000n - fee) * reserveOut) / (reserveIn * 10_000n + amountIn * (10_000n - fee))
      await send(alice, usdc, ERC20, "transfer", [pool.pool, amountIn])
      const receipt = await send(alice, pool.pool as Address, V2_PAIR, "swap", [usdcIs0 ? 0n : out, usdcIs0 ? out : 0n, alice, "0x"])
      const after = await expectOnlyRefreshed(before, receipt.blockNumber, pool)
      expect(after.pools.get(idOf(pool))).toMatchObject(usdcIs0 ? { reserve0: r0 + amountIn, reserve1: r1 - out } : { reserve0: r0 - out, reserve1: r1 + amountIn })
      await expectPoolMatchesChain(pool, after.pools.get(idOf(pool)), after.blockNumber, 32_768)
    }
    // every uniswap-v3 venue but uniswap-v3 itself, through a SwapRouter over its own factory
    for (const venue of venuesOfKind(devnet.manifest, "uniswap-v3").filter((v) => v.name !== "uniswap-v3")) {
      const pool = poolOf(venue.name, "USDC", "USDT")
      const router = await deploy(alice, uniswapArtifact("SwapRouter"), [venue.factory, zeroAddress])
      await send(alice, usdt, ERC20, "approve", [router, maxUint256])
      const before = await snapshot()
      const previous = before.pools.get(idOf(pool)) as ConcentratedPoolState
      const receipt = await send(alice, router, uniswapArtifact("SwapRouter").abi, "exactInputSingle", [
        { tokenIn: usdt, tokenOut: usdc, fee: pool.fee!, recipient: alice, deadline: maxUint256, amountIn: 5_000n * 10n ** 6n, amountOutMinimum: 0n, sqrtPriceLimitX96: 0n },
      ])
      const after = await expectOnlyRefreshed(before, receipt.blockNumber, pool)
      const state = after.pools.get(idOf(pool)) as ConcentratedPoolState
      expect(state.sqrtPriceX96).not.toBe(previous.sqrtPriceX96)
      expect(state.ticks).toBe(previous.ticks)
      await expectPoolMatchesChain(pool, state, after.blockNumber, 32_768)
    }
  })

  test("after all that, the whole snapshot still equals direct reads", async () => {
    await expectSnapshotMatchesChain(await snapshot())
  })

  test("a new V2 pair is discovered, checked and published at its block, on every uniswap-v2 venue", async () => {
    const factoryAbi = uniswapArtifact("UniswapV2Factory").abi
    const [eurc, wbtc] = [tokenAddress(devnet.manifest, "EURC"), tokenAddress(devnet.manifest, "WBTC")]
    const venues = venuesOfKind(devnet.manifest, "uniswap-v2")
    expect(venues.map((v) => v.name)).toEqual(["uniswap-v2", "arcade-v2"])
    for (const venue of venues) {
      const factory = venue.factory as Address
      await send(alice, factory, factoryAbi, "createPair", [eurc, wbtc])
      const pair = (await devnet.client.readContract({ address: factory, abi: factoryAbi, functionName: "getPair", args: [eurc, wbtc] })) as Address
      await send(alice, eurc, ERC20, "transfer", [pair, 1_000n * 10n ** 6n])
      await send(alice, wbtc, ERC20, "transfer", [pair, 10n ** 7n])
      const receipt = await send(alice, pair, V2_PAIR, "mint", [alice])
      const snap = await awaitBlock(receipt.blockNumber)
      const state = snap.pools.get(pair.toLowerCase())
      expect(state).toBeDefined()
      const [reserve0, reserve1] = await readAt<[bigint, bigint]>(pair, V2_PAIR, "getReserves", [], snap.blockNumber)
      expect(state).toMatchObject({ kind: "uniswap-v2", venue: venue.name, id: getAddress(pair), reserve0, reserve1, feeBps: venue.feeBps ?? 30 })
      expect(snap.poolsByToken.get(wbtc.toLowerCase())).toContain(pair.toLowerCase())
    }
  })
})

describe("a narrow tick window", () => {
  test("a swap that carries the tick near the window's edge reads the window again around the new tick", async () => {
    const narrow: MulticallRecord[] = []
    const half = 2_048
    const narrowRuntime = ManagedRuntime.make(
      marketLayer(recordingRpc(rpcConfig(devnet.manifest), narrow), marketConfig(devnet.manifest, { tickWindow: half })),
    )
    try {
      const pool = poolOf("uniswap-v3", "WETH", "USDC")
      const weth = tokenAddress(devnet.manifest, "WETH")
      const usdc = tokenAddress(devnet.manifest, "USDC")
      const before = await narrowRuntime.runPromise(Effect.flatMap(MarketState, (m) => m.snapshot))
      const previous = before.pools.get(idOf(pool)) as ConcentratedPoolState
      expect(previous.tickUpper - previous.tickLower).toBeLessThan(4 * half + 2 * 256 * 10)
      const router = await deploy(alice, uniswapArtifact("SwapRouter"), [manifestVenue(devnet.manifest, "uniswap-v3", "uniswap-v3").factory, zeroAddress])
      await send(owner, weth, ERC20, "mint", [alice, 300n * 10n ** 18n])
      await send(alice, weth, ERC20, "approve", [router, maxUint256])
      const receipt = await send(alice, router, uniswapArtifact("SwapRouter").abi, "exactInputSingle", [
        // selling WETH (token1) lifts the price; the limit stops it 500 ticks below the window's upper edge
        { tokenIn: weth, tokenOut: usdc, fee: 500, recipient: alice, deadline: maxUint256, amountIn: 300n * 10n ** 18n, amountOutMinimum: 0n, sqrtPriceLimitX96: getSqrtRatioAtTick(previous.tickUpper - 500) },
      ])
      const after = await narrowRuntime.runPromise(
        Effect.flatMap(MarketState, (m) => m.awaitBlock(receipt.blockNumber)).pipe(Effect.timeout("10 seconds")),
      )
      const state = after.pools.get(idOf(pool)) as ConcentratedPoolState
      expect(previous.tickUpper - state.tick).toBeLessThanOrEqual(500)
      expect(after.refreshed).toEqual([idOf(pool)])
      // the block's read; the window is read again through the tick lens, not in batched reads
      expect(narrow.filter((m) => m.blockNumber === receipt.blockNumber).length).toBe(1)
      expect(state.tickLower).toBeLessThanOrEqual(state.tick - half)
      expect(state.tickUpper).toBeGreaterThanOrEqual(state.tick + half)
      await expectPoolMatchesChain(pool, state, after.blockNumber, half)
    } finally {
      await narrowRuntime.dispose()
    }
  })
})
