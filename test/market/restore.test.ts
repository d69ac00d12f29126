// The market across restarts, on the default devnet: the state written to the
// embedded store at start and at the end, a restart that restores it and catches
// up the swaps and liquidity changes made while it was down, and every stored state that must not be
// served (another chain, another venue set, another chain history, a damaged
// document, a pool that disagrees with the chain) refused with a log line, the
// market then loaded from the chain.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Effect, Layer, Logger, ManagedRuntime, Option } from "effect"
import { Database } from "bun:sqlite"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { maxUint256, zeroAddress, type Abi, type Address, type Hex } from "viem"
import { Rpc } from "../../src/chain/index.ts"
import { ownArtifact, uniswapArtifact } from "../../src/contracts/artifacts.ts"
import { manifestVenue, testAccounts, type ManifestPairPool } from "../../src/devnet/index.ts"
import type { ConcentratedPoolState, V2PoolState } from "../../src/amm/index.ts"
import { MarketState, type MarketConfig, type World } from "../../src/market/index.ts"
import { openSnapshotStore } from "../../src/market/snapshot-store.ts"
import { startTestDevnet, type TestDevnet } from "../support/devnet.ts"
import { marketConfig, marketLayer, poolKey, rpcConfig, tokenAddress, sendFrom } from "./support.ts"

let devnet: TestDevnet
let dir: string
const V2_PAIR = uniswapArtifact("UniswapV2Pair").abi
const V3_POOL = uniswapArtifact("UniswapV3Pool").abi
const ERC20 = ownArtifact("TestToken").abi
const alice = testAccounts[1]!.address
const owner = testAccounts[9]!.address
const send = sendFrom(() => devnet.client)

const poolOf = (dex: string, a: string, b: string) =>
  devnet.manifest.pools.find((p) => p.dex === dex && p.tokens.includes(a) && p.tokens.includes(b)) as ManifestPairPool

/** A market over the devnet with a snapshot store at `path`: started, its World read, stopped; and what it logged. */
const runMarket = async (path: string | undefined, overrides: Partial<MarketConfig> = {}) => {
  const lines: string[] = []
  const logger = Logger.replace(Logger.defaultLogger, Logger.make(({ message }) => void lines.push(Array.isArray(message) ? message.join(" ") : String(message))))
  const config = marketConfig(devnet.manifest, { ...(path !== undefined ? { snapshot: { path, sample: 100 } } : {}), ...overrides })
  const runtime = ManagedRuntime.make(marketLayer(Rpc.layer(rpcConfig(devnet.manifest)), config).pipe(Layer.provide(logger)))
  try {
    const world = await runtime.runPromise(Effect.flatMap(MarketState, (m) => m.snapshot))
    return { world, lines }
  } finally {
    await runtime.dispose()
  }
}

/** The stored document of chain 5042, edited by `edit`, written back (with a good checksum). */
const editStored = async (path: string, edit: (doc: any) => void) => {
  const store = await Effect.runPromise(openSnapshotStore(path))
  const stored = Option.getOrThrow(await Effect.runPromise(store.load(5042)))
  const doc = JSON.parse(stored.text)
  edit(doc)
  await Effect.runPromise(store.save(5042, JSON.stringify(doc)))
  await Effect.runPromise(store.close)
}

const v2Key = () => poolKey(devnet.manifest, poolOf("uniswap-v2", "WETH", "USDT"))

/** The published pools of two Worlds agree: same pools, same numbers (V3/V4 ticks where both windows overlap). */
const expectSameMarket = (a: World, b: World) => {
  expect([...a.pools.keys()].sort()).toEqual([...b.pools.keys()].sort())
  for (const [key, pool] of a.pools) {
    const other = b.pools.get(key)!
    if (pool.kind === "uniswap-v3" || pool.kind === "uniswap-v4") {
      const o = other as ConcentratedPoolState
      expect([key, pool.sqrtPriceX96, pool.tick, pool.liquidity]).toEqual([key, o.sqrtPriceX96, o.tick, o.liquidity])
      const lower = Math.max(pool.tickLower, o.tickLower)
      const upper = Math.min(pool.tickUpper, o.tickUpper)
      const inside = (ticks: ConcentratedPoolState["ticks"]) => ticks.filter((t) => t.tick >= lower && t.tick <= upper)
      expect(inside(pool.ticks)).toEqual(inside(o.ticks))
    } else expect(pool).toEqual(other as typeof pool)
  }
}

beforeAll(async () => {
  devnet = await startTestDevnet()
  dir = mkdtempSync(join(tmpdir(), "market-restore-"))
})

afterAll(async () => {
  await devnet?.stop()
  rmSync(dir, { recursive: true, force: true })
})

describe("restart without rebuilding", () => {
  test("the first start loads from the chain and stores the market; a restart restores it and catches up the pools changed while it was down", async () => {
    const path = join(dir, "restart.sqlite")
    const first = await runMarket(path)
    expect(first.lines.some((l) => l.includes("restored"))).toBe(false)
    const stored = await Effect.runPromise(Effect.flatMap(openSnapshotStore(path), (s) => Effect.zipLeft(s.load(5042), s.close)))
    expect(Option.isSome(stored)).toBe(true)

    // while the market is down: a V2 swap and a V3 swap
    const pair = poolOf("uniswap-v2", "WETH", "USDT")
    const weth = tokenAddress(devnet.manifest, "WETH")
    const [r0, r1] = (await devnet.client.readContract({ address: pair.pool as Address, abi: V2_PAIR, functionName: "getReserves" })) as [bigint, bigint]
    const wethIs0 = weth.toLowerCase() < tokenAddress(devnet.manifest, "USDT").toLowerCase()
    const amountIn = 10n ** 18n
    const [reserveIn, reserveOut] = wethIs0 ? [r0, r1] : [r1, r0]
    const out = (amountIn * 997n * reserveOut) / (reserveIn * 1000n + amountIn * 997n)
    await send(alice, weth, ERC20, "transfer", [pair.pool, amountIn])
    await send(alice, pair.pool as Address, V2_PAIR, "swap", [wethIs0 ? 0n : out, wethIs0 ? out : 0n, alice, "0x"])

    const v3 = poolOf("uniswap-v3", "WETH", "USDC")
    const routerArtifact = uniswapArtifact("SwapRouter")
    const hash = await devnet.client.deployContract({ abi: routerArtifact.abi, bytecode: routerArtifact.bytecode as Hex, args: [manifestVenue(devnet.manifest, "uniswap-v3", "uniswap-v3").factory, zeroAddress], account: alice, chain: devnet.client.chain } as never)
    const router = (await devnet.client.waitForTransactionReceipt({ hash })).contractAddress!
    await send(owner, weth, ERC20, "mint", [alice, 100n * 10n ** 18n])
    await send(alice, weth, ERC20, "approve", [router, maxUint256])
    await send(alice, router, routerArtifact.abi, "exactInputSingle", [
      { tokenIn: weth, tokenOut: tokenAddress(devnet.manifest, "USDC"), fee: 500, recipient: alice, deadline: maxUint256, amountIn: 50n * 10n ** 18n, amountOutMinimum: 0n, sqrtPriceLimitX96: 0n },
    ])
    // and a V3 position between a new tick and an existing one: only a liquidity log says so
    const usdcEurc = poolOf("uniswap-v3", "USDC", "EURC")
    const providerArtifact = ownArtifact("V3LiquidityProvider")
    const deployed = await devnet.client.deployContract({ abi: providerArtifact.abi, bytecode: providerArtifact.bytecode as Hex, args: [], account: alice, chain: devnet.client.chain } as never)
    const provider = (await devnet.client.waitForTransactionReceipt({ hash: deployed })).contractAddress!
    for (const symbol of ["USDC", "EURC"]) await send(alice, tokenAddress(devnet.manifest, symbol), ERC20, "transfer", [provider, 10_000n * 10n ** 6n])
    await send(alice, provider, providerArtifact.abi, "mint", [usdcEurc.pool, -1500, -1280, 10n ** 11n])

    const second = await runMarket(path)
    expect(second.lines.find((l) => l.includes("restored the market of block"))).toContain(`caught up to block ${second.world.blockNumber}`)
    // the swapped pools as the chain has them at the head
    const head = second.world.blockNumber
    const reserves = (await devnet.client.readContract({ address: pair.pool as Address, abi: V2_PAIR, functionName: "getReserves", blockNumber: head })) as [bigint, bigint]
    expect(second.world.pools.get(v2Key()) as V2PoolState).toMatchObject({ reserve0: reserves[0], reserve1: reserves[1] })
    expect([reserves[0], reserves[1]]).not.toEqual([r0, r1])
    const slot0 = (await devnet.client.readContract({ address: v3.pool as Address, abi: V3_POOL, functionName: "slot0", blockNumber: head })) as readonly [bigint, number]
    const liquidity = (await devnet.client.readContract({ address: v3.pool as Address, abi: V3_POOL, functionName: "liquidity", blockNumber: head })) as bigint
    const v3State = second.world.pools.get(poolKey(devnet.manifest, v3)) as ConcentratedPoolState
    expect([v3State.sqrtPriceX96, v3State.tick, v3State.liquidity]).toEqual([slot0[0], slot0[1], liquidity])
    expect((second.world.pools.get(poolKey(devnet.manifest, usdcEurc)) as ConcentratedPoolState).ticks.find((t) => t.tick === -1500)?.liquidityNet).toBe(10n ** 11n)
    // and the whole market as a load from the chain has it at the same block
    const fresh = await runMarket(undefined)
    expect(fresh.world.blockNumber).toBe(head)
    expectSameMarket(second.world, fresh.world)
  }, 60_000)
})

describe("a stored market that must not be served", () => {
  // each case: a good snapshot, edited or read under another configuration, then a start
  const refusedStart = async (name: string, edit: ((doc: any) => void) | undefined, overrides: Partial<MarketConfig> = {}) => {
    const path = join(dir, `${name}.sqlite`)
    await runMarket(path)
    // the stored WETH/USDT pair gets reserves the chain never had: served, they would show
    await editStored(path, (doc) => {
      const entry = doc.states.find(([key]: [string]) => key === v2Key())
      entry[1].reserve0 = "1"
      edit?.(doc)
    })
    const started = await runMarket(path, overrides)
    const reserves = (await devnet.client.readContract({ address: poolOf("uniswap-v2", "WETH", "USDT").pool as Address, abi: V2_PAIR, functionName: "getReserves", blockNumber: started.world.blockNumber })) as [bigint, bigint]
    if (overrides.venues === undefined || overrides.venues.some((v) => v.name === "uniswap-v2")) {
      expect((started.world.pools.get(v2Key()) as V2PoolState).reserve0).toBe(reserves[0])
    }
    expect(started.lines.some((l) => l.includes("restored"))).toBe(false)
    return started.lines.filter((l) => l.includes("stored snapshot not used"))
  }

  test("another chain's", async () => {
    const said = await refusedStart("chain", (doc) => void (doc.chainId = 1))
    expect(said).toEqual([expect.stringContaining("snapshot of chain 1, this node serves 5042")])
  }, 60_000)

  test("another venue set's", async () => {
    const venues = marketConfig(devnet.manifest).venues.filter((v) => v.name !== "arcade-v2")
    const said = await refusedStart("venues", undefined, { venues })
    expect(said).toEqual([expect.stringContaining("another market configuration")])
  }, 60_000)

  test("another chain history's: its block has another hash here", async () => {
    const said = await refusedStart("history", (doc) => void (doc.blockHash = `0x${"ab".repeat(32)}`))
    expect(said).toEqual([expect.stringContaining("has another hash on this chain")])
  }, 60_000)

  test("a damaged one: a changed field, or a document that no longer matches its checksum", async () => {
    const said = await refusedStart("damaged", (doc) => void (doc.states[0][1].kind = "uniswap-v9"))
    expect(said).toEqual([expect.stringContaining("corrupt snapshot")])
    const path = join(dir, "tampered.sqlite")
    await runMarket(path)
    const db = new Database(path)
    db.run("UPDATE market_snapshot SET document = replace(document, '\"block\"', '\"block\" ')")
    db.close()
    const started = await runMarket(path)
    expect(started.lines.filter((l) => l.includes("stored snapshot not used"))).toEqual([expect.stringContaining("checksum")])
  }, 60_000)

  test("one whose pool's ticks disagree with the chain though no log says they changed: the sample read whole at the head finds it", async () => {
    // every pool's price and reserves are read again at the start; a tick's liquidityNet only by the sample
    const v3 = poolKey(devnet.manifest, poolOf("uniswap-v3", "WETH", "USDC"))
    const said = await refusedStart("disagrees", (doc) => {
      const ticks = doc.states.find(([key]: [string]) => key === v3)[1].ticks
      ticks.liquidityNet[0] = (BigInt(ticks.liquidityNet[0]) + 1n).toString()
    })
    expect(said).toEqual([expect.stringContaining(`pool ${v3} disagrees with the chain`)])
  }, 60_000)
})
