// The market within a public node's limits, on the default devnet served
// through a proxy that enforces them: eth_getLogs range and result caps and a
// request rate with 429 + Retry-After never fail the start, and the market
// comes up equal to one read without limits; a first endpoint that fails hands
// over to the second, at start and while following blocks.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Duration, Effect, ManagedRuntime, Metric } from "effect"
import { rpcEndpointFaults, rpcLimits } from "../../src/chain/rpc-error.ts"
import { Rpc } from "../../src/chain/index.ts"
import { startNodeProxy, type NodeProxy } from "../../src/devnet/index.ts"
import { MarketState } from "../../src/market/index.ts"
import { startTestDevnet, type TestDevnet } from "../support/devnet.ts"
import { marketConfig, marketLayer, rpcConfig } from "./support.ts"
import type { World } from "../../src/domain/index.ts"

let devnet: TestDevnet
const proxies: NodeProxy[] = []

const limitCount = (limit: string) => Effect.runPromise(Metric.value(rpcLimits.pipe(Metric.tagged("limit", limit)))).then((s) => s.count)

/** A market over these endpoints: started, its World read; then stopped. */
const startMarket = (urls: readonly string[], pollInterval: Duration.DurationInput = "50 millis") =>
  ManagedRuntime.make(marketLayer(Rpc.layer({ ...rpcConfig(devnet.manifest, urls), timeoutMs: 2_000 }), marketConfig(devnet.manifest, { pollInterval, startAttempts: 1 })))

const worldOf = (runtime: ReturnType<typeof startMarket>) => runtime.runPromise(Effect.flatMap(MarketState, (m) => m.snapshot))

beforeAll(async () => {
  devnet = await startTestDevnet()
})

afterAll(async () => {
  for (const proxy of proxies) await proxy.stop()
  await devnet?.stop()
})

const proxy = async (limits: Parameters<typeof startNodeProxy>[1]) => {
  const p = await startNodeProxy(devnet.node.rpcUrl, limits)
  proxies.push(p)
  return p
}

const expectSameWorld = (a: World, b: World) => {
  expect(a.blockNumber).toBe(b.blockNumber)
  expect([...a.pools.keys()].sort()).toEqual([...b.pools.keys()].sort())
  for (const [key, pool] of a.pools) expect(pool).toEqual(b.pools.get(key)!)
}

describe("a node's limits", () => {
  test("a 20-block getLogs range, 2 results per answer and 10 requests a second: the start succeeds and the market is the one read without limits", async () => {
    const direct = startMarket([devnet.node.rpcUrl])
    const expected = await worldOf(direct)
    await direct.dispose()
    const head = await devnet.client.getBlockNumber()
    expect(head).toBeGreaterThan(100n)

    const limited = await proxy({ maxLogBlocks: 20, maxLogResults: 2, requestsPerSecond: 10 })
    const [ranges, results, rates] = await Promise.all([limitCount("log-range"), limitCount("log-results"), limitCount("rate-limited")])
    const runtime = startMarket([limited.url], "1 second")
    try {
      const world = await worldOf(runtime)
      expectSameWorld(world, expected)
      const counts = limited.counts()
      // every limit was met, and each was worked around
      expect(counts.rangeRefused).toBeGreaterThan(0)
      expect(counts.resultsRefused).toBeGreaterThan(0)
      expect(counts.rateLimited).toBeGreaterThan(0)
      expect(await limitCount("log-range")).toBeGreaterThan(ranges)
      expect(await limitCount("log-results")).toBeGreaterThan(results)
      expect(await limitCount("rate-limited")).toBeGreaterThan(rates)
      // the range cap, once learned, is not asked past again: at most one refused round of windows
      expect(counts.rangeRefused).toBeLessThanOrEqual(4)
    } finally {
      await runtime.dispose()
    }
  }, 120_000)
})

describe("endpoints", () => {
  test("a first endpoint that is down at start: the second serves; when the second fails later, the first (back up) takes over", async () => {
    const first = await proxy({})
    const second = await proxy({})
    first.setDown(true)
    const faults = () => Effect.runPromise(Metric.value(rpcEndpointFaults.pipe(Metric.tagged("endpoint", `127.0.0.1:${first.port}`), Metric.tagged("reason", "http")))).then((s) => s.count)
    const before = await faults()
    const runtime = startMarket([first.url, second.url])
    try {
      const world = await worldOf(runtime)
      expect(world.pools.size).toBeGreaterThan(0)
      expect(second.counts().byMethod.eth_getLogs ?? 0).toBeGreaterThan(0)
      expect(await faults()).toBeGreaterThan(before)

      // the roles swap: the first is back, the second fails; a new block is still followed
      first.setDown(false)
      second.setDown(true)
      await devnet.client.request({ method: "anvil_mine" as never, params: ["0x1"] as never })
      const next = await devnet.client.getBlockNumber({ cacheTime: 0 })
      const followed = await runtime.runPromise(Effect.flatMap(MarketState, (m) => m.awaitBlock(next)).pipe(Effect.timeout("15 seconds")))
      expect(followed.blockNumber).toBe(next)
      expect(first.counts().byMethod.eth_blockNumber ?? 0).toBeGreaterThan(0)
    } finally {
      await runtime.dispose()
    }
  }, 60_000)
})
