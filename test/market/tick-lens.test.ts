// The tick windows of the devnet's V3 and V4 pools read through the tick lens
// (one eth_call with a state override for many windows) are the ticks the
// Multicall3 reads find (every bitmap word, then every tick it marks), at a real
// node behind a proxy that counts the calls per contract; with windows wider than
// one call's gas allows, the lens is asked again for the rest; and a node that
// does not take state overrides gets the Multicall3 reads.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Effect, ManagedRuntime } from "effect"
import { zeroAddress, type Address, type Hex } from "viem"
import { read, Rpc, type Read } from "../../src/chain/index.ts"
import { manifestVenue, poolKind } from "../../src/devnet/index.ts"
import { V3_POOL_ABI, V4_STATE_VIEW_ABI } from "../../src/market/abis.ts"
import type { ConcentratedMeta } from "../../src/market/pool-meta.ts"
import { poolReads } from "../../src/market/pool-reads.ts"
import { TICK_LENS_ADDRESS, tickLensCode } from "../../src/market/tick-lens.ts"
import { tickWindow, wordOf, type TickWindow } from "../../src/market/tick-window.ts"
import { startTestDevnet, type TestDevnet } from "../support/devnet.ts"
import { startNodeProxy, type NodeProxy, type ProxyMode } from "../support/node-proxy.ts"
import { rpcConfig } from "./support.ts"

type Windows = readonly { readonly meta: ConcentratedMeta; readonly window: TickWindow }[]

let devnet: TestDevnet
let head: bigint
let windows: Windows
const proxies: NodeProxy[] = []

/** V3's tick spacing of each fee tier */
const V3_SPACING: Record<number, number> = { 100: 1, 500: 10, 3000: 60, 10000: 200 }

/** The windows' ticks as the market reads them (`gas`: the lens call's), through a proxy in `mode`; the calls it took per contract. */
const readWindows = async (of: Windows, mode: ProxyMode, options: { gas?: bigint; byReadsOnly?: boolean } = {}) => {
  const proxy = startNodeProxy(devnet.node.rpcUrl, mode)
  proxies.push(proxy)
  const runtime = ManagedRuntime.make(Rpc.layer(rpcConfig(devnet.manifest, [proxy.url])))
  try {
    const ticks = await runtime.runPromise(
      Effect.flatMap(Rpc, (rpc) => {
        const readAtHead = (reads: readonly Read<unknown>[]) => rpc.multicall(reads, { blockNumber: head })
        const lensAtHead = (data: Hex) =>
          rpc.call({ to: TICK_LENS_ADDRESS, data, blockNumber: head, ...(options.gas !== undefined ? { gas: options.gas } : {}), stateOverride: [{ address: TICK_LENS_ADDRESS, code: tickLensCode() }] })
        return options.byReadsOnly ? poolReads().windowTicksByReads(of, readAtHead) : poolReads().windowTicks(of, readAtHead, lensAtHead)
      }),
    )
    const calls = (to: string) => proxy.executions.get(to.toLowerCase()) ?? 0
    return { ticks, lens: calls(TICK_LENS_ADDRESS), multicall: calls(devnet.manifest.multicall3) }
  } finally {
    await runtime.dispose()
  }
}

beforeAll(async () => {
  devnet = await startTestDevnet()
  head = await devnet.client.getBlockNumber()
  const metas = devnet.manifest.pools.flatMap((pool): ConcentratedMeta[] => {
    const kind = poolKind(devnet.manifest, pool)
    const fee = (pool as { fee?: number }).fee ?? 0
    const base = { venue: pool.dex, key: pool.pool.toLowerCase(), token0: zeroAddress, token1: zeroAddress, fee }
    if (kind === "uniswap-v3") return [{ ...base, kind, id: pool.pool as Address, tickSpacing: V3_SPACING[fee]! }]
    if (kind !== "uniswap-v4") return []
    const venue = manifestVenue(devnet.manifest, pool.dex, "uniswap-v4")
    const tickSpacing = (pool as { tickSpacing?: number }).tickSpacing!
    return [{ ...base, kind, id: pool.pool as Hex, tickSpacing, hooks: zeroAddress, poolManager: venue.poolManager as Address, stateView: venue.stateView as Address }]
  })
  const rpc = ManagedRuntime.make(Rpc.layer(rpcConfig(devnet.manifest)))
  try {
    const slots = await rpc.runPromise(
      Effect.flatMap(Rpc, (r) =>
        r.multicall(
          metas.map((meta) =>
            (meta.kind === "uniswap-v3"
              ? read({ address: meta.id, abi: V3_POOL_ABI, functionName: "slot0", args: [] })
              : read({ address: meta.stateView, abi: V4_STATE_VIEW_ABI, functionName: "getSlot0", args: [meta.id] })) as Read<unknown>,
          ),
          { blockNumber: head },
        ),
      ),
    )
    windows = metas.map((meta, i) => {
      const slot = slots[i]!
      if (!slot.success) throw new Error(`slot0 of ${meta.id} failed`)
      return { meta, window: tickWindow((slot.value as readonly [bigint, number])[1], meta.tickSpacing, 32_768) }
    })
  } finally {
    await rpc.dispose()
  }
})

afterAll(async () => {
  for (const proxy of proxies) proxy.stop()
  await devnet?.stop()
})

describe("the tick lens", () => {
  test("every V3 and V4 window: the ticks Multicall3's reads find, in one call instead of a read of every word and every tick", async () => {
    expect(windows.some((w) => w.meta.kind === "uniswap-v3") && windows.some((w) => w.meta.kind === "uniswap-v4")).toBe(true)
    const byReads = await readWindows(windows, "geth", { byReadsOnly: true })
    expect(byReads.ticks.every((ticks) => ticks.length >= 2)).toBe(true)
    const byLens = await readWindows(windows, "geth")
    expect(byLens.ticks).toEqual(byReads.ticks)
    expect({ lens: byLens.lens, multicall: byLens.multicall }).toEqual({ lens: 1, multicall: 0 })
    // windows cut to the words of each pool's lowest and highest tick: both edge words hold ticks
    const tight = windows.map(({ meta }, i) => {
      const ticks = byReads.ticks[i]!
      const [minWord, maxWord] = [wordOf(ticks[0]!.tick, meta.tickSpacing), wordOf(ticks.at(-1)!.tick, meta.tickSpacing)]
      return { meta, window: { minWord, maxWord, tickLower: minWord * 256 * meta.tickSpacing, tickUpper: (maxWord + 1) * 256 * meta.tickSpacing - 1 } }
    })
    expect(tight.some(({ window }) => window.maxWord > window.minWord)).toBe(true)
    expect((await readWindows(tight, "geth")).ticks).toEqual(byReads.ticks)
  })

  test("windows wider than one call's gas allows: each call answers what it read, and is asked again for the rest", async () => {
    // the whole tick range of the 10-spaced pools: 694 words each, more than half of 5M gas by the lens's reckoning
    const wide = windows.filter((w) => w.meta.tickSpacing === 10).map(({ meta }) => ({ meta, window: tickWindow(0, 10, 887_272) }))
    expect(wide.length).toBeGreaterThanOrEqual(2)
    const byReads = await readWindows(wide, "geth", { byReadsOnly: true })
    const byLens = await readWindows(wide, "geth", { gas: 5_000_000n })
    expect(byLens.ticks).toEqual(byReads.ticks)
    expect({ lens: byLens.lens, multicall: byLens.multicall }).toEqual({ lens: wide.length, multicall: 0 })
  })

  test("a node that does not take state overrides: the same ticks, through Multicall3", async () => {
    const byLens = await readWindows(windows, "geth")
    const ignored = await readWindows(windows, "no-overrides")
    expect(ignored.ticks).toEqual(byLens.ticks)
    // the lens asked once (no code answers nothing), then the words and the ticks read
    expect(ignored.lens).toBe(1)
    expect(ignored.multicall).toBeGreaterThanOrEqual(2)
  })
})
