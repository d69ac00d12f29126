// A World stamped with block N holds every pool's state at block N exactly: no swap of
// block N missing, none of block N+1 included. On a devnet with pools of every kind (V2
// reserves, V3 slot0 and liquidity, V4 through the StateView, stable balances), swapped in
// one transaction a block, in several transactions of one block, and in a burst of blocks
// the market follows as fast as it polls, every World it publishes is compared with the
// chain read directly at the World's block. The market reads the chain through a relay
// that can hold its answer to eth_blockNumber or eth_getLogs while a real swap is mined:
// the block after the one the step is reading then exists on the chain, and the World of
// that step must not hold it. In front of that relay, a node proxy can play the endpoint
// down (HTTP 503) and cap eth_getLogs' block range: the market cut off while hundreds
// of blocks are mined, some of them swapping, must catch up in one step to the head
// with every pool's state at the head.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Effect, Fiber, ManagedRuntime, Stream } from "effect"
import { getAddress, parseAbi, type Address, type Hex } from "viem"
import { Rpc } from "../../src/chain/index.ts"
import { devnetClient, manifestVenue, poolKind, startNodeProxy, type DevnetClient, type ManifestPool, type NodeProxy } from "../../src/devnet/index.ts"
import { MarketState } from "../../src/market/index.ts"
import type { PoolState } from "../../src/amm/index.ts"
import type { Tokens } from "../../src/tokens/index.ts"
import { startHistoryDevnet, type HistoryDevnet } from "../../bench/market-history/index.ts"
import { marketConfig, marketLayer, poolKey, rpcConfig } from "./support.ts"
import type { World } from "../../src/domain/index.ts"

const POOLS = 24

let fixture: HistoryDevnet
let client: DevnetClient
let relay: ReturnType<typeof Bun.serve>
/** between the market and the relay: an endpoint that can be down, or cap eth_getLogs' range */
let proxy: NodeProxy
let runtime: ManagedRuntime.ManagedRuntime<MarketState | Tokens | Rpc, unknown>
/** every World the market published, in order */
const published: World[] = []
let recorder: Fiber.RuntimeFiber<void, unknown>

/**
 * What the relay does, once, after the node answered the market's first request of this method
 * whose answer `when` accepts, and before the market sees the answer.
 */
let hold: { readonly method: string; readonly when: (result: unknown) => boolean; readonly then: () => Promise<void>; done?: Promise<void> } | undefined

const startRelay = (upstream: string) =>
  Bun.serve({
    port: 0,
    fetch: async (request) => {
      const body = await request.text()
      const answer = await fetch(upstream, { method: "POST", headers: { "content-type": "application/json" }, body }).then((r) => r.text())
      // a request alone or in a batch (the market's reads of one round go together)
      const calls = ([] as Array<{ id?: unknown; method?: string }>).concat(JSON.parse(body))
      const answers = ([] as Array<{ id?: unknown; result?: unknown }>).concat(JSON.parse(answer))
      const armed = hold
      const asked = armed === undefined ? undefined : calls.find((c) => c.method === armed.method)
      if (armed !== undefined && armed.done === undefined && asked !== undefined && armed.when(answers.find((a) => a.id === asked.id)?.result)) {
        armed.done = armed.then()
        await armed.done
      }
      return new Response(answer, { headers: { "content-type": "application/json" } })
    },
  })

const stateAbi = parseAbi([
  "function getReserves() view returns (uint112, uint112, uint32)",
  "function slot0() view returns (uint160, int24, uint16, uint16, uint16, uint8, bool)",
  "function liquidity() view returns (uint128)",
  "function getSlot0(bytes32) view returns (uint160, int24, uint24, uint24)",
  "function getLiquidity(bytes32) view returns (uint128)",
  "function balances(uint256) view returns (uint256)",
])

/** The part of a pool's state a swap changes: reserves, price, tick and liquidity, balances. */
const swapState = (state: PoolState | undefined) => {
  if (state === undefined) return undefined
  switch (state.kind) {
    case "uniswap-v2":
      return { reserve0: state.reserve0, reserve1: state.reserve1 }
    case "uniswap-v3":
    case "uniswap-v4":
      return { sqrtPriceX96: state.sqrtPriceX96, tick: state.tick, liquidity: state.liquidity }
    case "curve-stableswap":
      return { balances: state.balances }
  }
}

/** The same part of the pool's state, read from the chain at `blockNumber`. */
const chainState = async (pool: ManifestPool, blockNumber: bigint) => {
  const read = <T>(address: string, functionName: string, args: readonly unknown[] = []) =>
    client.readContract({ address: getAddress(address), abi: stateAbi, functionName, args, blockNumber } as never) as Promise<T>
  const kind = poolKind(fixture.devnet.manifest, pool)
  if (kind === "uniswap-v2") {
    const [reserve0, reserve1] = await read<readonly [bigint, bigint]>(pool.pool, "getReserves")
    return { reserve0, reserve1 }
  }
  if (kind === "uniswap-v3") {
    const [sqrtPriceX96, tick] = await read<readonly [bigint, number]>(pool.pool, "slot0")
    return { sqrtPriceX96, tick, liquidity: await read<bigint>(pool.pool, "liquidity") }
  }
  if (kind === "uniswap-v4") {
    const stateView = manifestVenue(fixture.devnet.manifest, pool.dex, "uniswap-v4").stateView
    const [sqrtPriceX96, tick] = await read<readonly [bigint, number]>(stateView, "getSlot0", [pool.pool as Hex])
    return { sqrtPriceX96, tick, liquidity: await read<bigint>(stateView, "getLiquidity", [pool.pool as Hex]) }
  }
  return { balances: await Promise.all(pool.tokens.map((_, i) => read<bigint>(pool.pool, "balances", [BigInt(i)]))) }
}

/** Every pool of the fixture, as the World holds it and as the chain holds it at the World's block. */
const compare = async (w: World) => {
  const pools = fixture.devnet.manifest.pools
  const world = Object.fromEntries(pools.map((p) => [poolKey(fixture.devnet.manifest, p), swapState(w.pools.get(poolKey(fixture.devnet.manifest, p)))]))
  const chain = Object.fromEntries(await Promise.all(pools.map(async (p) => [poolKey(fixture.devnet.manifest, p), await chainState(p, w.blockNumber)] as const)))
  return { world, chain }
}
const expectWorldAtItsBlock = async (w: World) => {
  const { world, chain } = await compare(w)
  expect({ block: w.blockNumber, pools: world }).toEqual({ block: w.blockNumber, pools: chain })
}

/** The pools whose state changed from block `n - 1` to block `n`, on the chain. */
const changedIn = async (n: bigint) => {
  const changed: string[] = []
  for (const p of fixture.devnet.manifest.pools) {
    const [before, after] = await Promise.all([chainState(p, n - 1n), chainState(p, n)])
    if (!Bun.deepEquals(before, after)) changed.push(poolKey(fixture.devnet.manifest, p))
  }
  return changed
}

const awaitBlock = (n: bigint) => runtime.runPromise(Effect.flatMap(MarketState, (m) => m.awaitBlock(n)).pipe(Effect.timeout("10 seconds")))
const head = () => client.getBlockNumber({ cacheTime: 0 })

beforeAll(async () => {
  fixture = await startHistoryDevnet({ pools: POOLS, blocks: 100, swaps: 0 })
  client = devnetClient(fixture.devnet.node.rpcUrl)
  relay = startRelay(fixture.devnet.node.rpcUrl)
  proxy = await startNodeProxy(`http://127.0.0.1:${relay.port}`)
  const manifest = fixture.devnet.manifest
  // the market's own speed: it polls the head every 20 ms
  runtime = ManagedRuntime.make(
    marketLayer(
      Rpc.layer(rpcConfig(manifest, [proxy.url])),
      marketConfig(manifest, { executor: manifest.executor as Address, fromBlock: fixture.fromBlock }),
    ),
  )
  recorder = runtime.runFork(Stream.runForEach(Stream.unwrap(Effect.map(MarketState, (m) => m.changes)), (w) => Effect.sync(() => void published.push(w))))
  const first = await awaitBlock(await head())
  expect(first.pools.size).toBe(fixture.devnet.manifest.pools.length)
}, 300_000)

afterAll(async () => {
  if (recorder !== undefined) await runtime.runPromise(Fiber.interrupt(recorder))
  await runtime?.dispose()
  await proxy?.stop()
  relay?.stop(true)
  await fixture?.stop()
})

describe("a World stamped N holds the pools' state at block N", () => {
  test("one transaction a block swapping every pool of every kind: the World of that block has every swap", async () => {
    for (let round = 0; round < 5; round++) {
      const block = await fixture.touchPools(POOLS)
      const w = await awaitBlock(block)
      expect(w.blockNumber).toBe(block)
      // every pool changed in the block, and the World has the block's state of each
      expect((await changedIn(block)).length).toBe(POOLS)
      expect(w.refreshed?.length).toBe(POOLS)
      await expectWorldAtItsBlock(w)
    }
  })

  test("several transactions in one block, pools swapped more than once: the World has the last state of each", async () => {
    await client.request({ method: "evm_setAutomine", params: [false] } as never)
    try {
      const sent = [fixture.touchPools(POOLS), fixture.touchPools(POOLS / 2), fixture.touchPools(POOLS / 3)]
      // all three in the pool before the block is mined
      for (let i = 0; i < 100; i++) {
        const pending = (await client.request({ method: "txpool_status" } as never)) as { pending: string }
        if (BigInt(pending.pending) === 3n) break
        await Bun.sleep(10)
      }
      await client.request({ method: "evm_mine", params: [] } as never)
      const blocks = await Promise.all(sent)
      expect(new Set(blocks).size).toBe(1)
      const block = blocks[0]!
      const w = await awaitBlock(block)
      expect(w.blockNumber).toBe(block)
      await expectWorldAtItsBlock(w)
    } finally {
      await client.request({ method: "evm_setAutomine", params: [true] } as never)
    }
  })

  test("a burst of blocks followed as fast as the market polls: every World published holds its own block's state", async () => {
    const from = published.length
    const blocks: bigint[] = []
    for (let i = 0; i < 12; i++) blocks.push(await fixture.touchPools(1 + (i % 4) * 5))
    const last = await awaitBlock(blocks[blocks.length - 1]!)
    expect(last.blockNumber).toBe(blocks[blocks.length - 1]!)
    const seen = published.slice(from)
    expect(seen.length).toBeGreaterThan(1)
    for (const w of seen) await expectWorldAtItsBlock(w)
  })

  for (const method of ["eth_blockNumber", "eth_getLogs"]) {
    test(`a block mined after the market's ${method} answered and before it read the pools: the World of the head it read does not hold it, the next one does`, async () => {
      const before = await head()
      let during: bigint | undefined
      // held: the market's first view of the next block (its head, or that block's logs)
      hold = { method, when: (result) => method !== "eth_blockNumber" || BigInt(result as Hex) > before, then: async () => void (during = await fixture.touchPools(POOLS)) }
      try {
        expect(await fixture.touchPools(POOLS)).toBe(before + 1n)
        for (let i = 0; i < 500 && hold.done === undefined; i++) await Bun.sleep(10)
        await hold.done
      } finally {
        hold = undefined
      }
      expect(during).toBeDefined()
      const block = during! - 1n
      expect(block).toBe(before + 1n)
      const w = await awaitBlock(block)
      expect(w.blockNumber).toBe(block)
      // the World of `block` differs from the chain at `during` in every pool: it would show if it held `during`'s swaps
      expect((await changedIn(during!)).length).toBe(POOLS)
      await expectWorldAtItsBlock(w)
      const next = await awaitBlock(during!)
      expect(next.blockNumber).toBe(during!)
      await expectWorldAtItsBlock(next)
    })
  }

  test("the node cut while 600 blocks are mined, 3 of them swapping, then back with a 100-block getLogs cap: one World, at the head, with every pool's state there", async () => {
    const staleness = () => runtime.runPromise(Effect.flatMap(MarketState, (m) => m.staleness))
    const before = await awaitBlock(await head())
    const from = published.length
    proxy.setDown(true)
    const swapped: bigint[] = []
    try {
      for (let i = 0; i < 100 && (await staleness()).consecutiveFailures === 0; i++) await Bun.sleep(20)
      expect((await staleness()).failing).toBe(true)
      swapped.push(await fixture.touchPools(POOLS))
      await client.request({ method: "anvil_mine", params: ["0x12c"] } as never)
      swapped.push(await fixture.touchPools(POOLS / 2))
      await client.request({ method: "anvil_mine", params: ["0x12c"] } as never)
      swapped.push(await fixture.touchPools(POOLS / 3))
      await Bun.sleep(200)
      // nothing published while the endpoint was down
      expect(published.length).toBe(from)
      proxy.resetCounts()
      proxy.setLimits({ maxLogBlocks: 100 })
    } finally {
      proxy.setDown(false)
    }
    try {
      const last = swapped[swapped.length - 1]!
      expect(last - before.blockNumber).toBeGreaterThan(600n)
      const w = await awaitBlock(last)
      // one step from the block before the cut to the head: no World in between
      expect(published.slice(from).map((p) => p.blockNumber)).toEqual([last])
      expect(w.blockNumber).toBe(last)
      // the first swaps of the cut moved every pool, and the World holds where all three left each
      expect((await changedIn(swapped[0]!)).length).toBe(POOLS)
      await expectWorldAtItsBlock(w)
      // the range was walked within the cap: refused once, then windows of at most 100 blocks
      const counts = proxy.counts()
      expect(counts.rangeRefused).toBeGreaterThan(0)
      expect(counts.byMethod.eth_getLogs).toBeGreaterThanOrEqual(6)
      expect((await staleness()).failing).toBe(false)
    } finally {
      proxy.setLimits({})
    }
  }, 60_000)

  test("every World published while the tests ran held its own block's state", async () => {
    expect(published.length).toBeGreaterThan(10)
    for (const w of published) await expectWorldAtItsBlock(w)
  })
})
