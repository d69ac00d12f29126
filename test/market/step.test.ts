// The market's start reads creations, not trading: on a devnet with a history of
// pools of every kind (the benchmark's fixture, small), served through a node
// proxy with a public provider's log limits that counts the logs it serves, the
// logs and eth_getLogs requests read before the market is ready are the same
// after N and after 3N swaps, and no more than the history's pool creations and
// executor registrations: with listed stable pools, a stable factory, both,
// stable pools alone, and from a stored market that is used or refused.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Effect, Layer, Logger, ManagedRuntime, Option, Redacted } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { keccak256, toHex, type Address, type Hex } from "viem"
import { Rpc } from "../../src/chain/index.ts"
import { devnetClient, startNodeProxy, type NodeProxy } from "../../src/devnet/index.ts"
import { MarketState, type MarketConfig, type MarketVenue } from "../../src/market/index.ts"
import { snapshotKey } from "../../src/market/snapshot-key.ts"
import { openSnapshotStore } from "../../src/market/snapshot-store.ts"
import { startHistoryDevnet, type HistoryDevnet } from "../../bench/market-history/index.ts"
import { marketConfig, marketLayer, marketVenues, rpcConfig } from "./support.ts"

const POOLS = 60
/** swaps in the smaller history; the larger has three times as many */
const SWAPS = 300
const CHAIN_ID = 5042

const topic = (signature: string): Hex => keccak256(toHex(signature))
const CREATIONS = [
  topic("PairCreated(address,address,address,uint256)"),
  topic("PoolCreated(address,address,uint24,int24,address)"),
  topic("Initialize(bytes32,address,address,uint24,int24,address,uint160,int24)"),
]
const REGISTRATIONS = [topic("RouterAllowlistChanged(address,bool)"), topic("VenueSet(uint8,uint8,address,bytes32,uint16)"), topic("StablePoolSet(address,bool)")]

let fixture: HistoryDevnet
let proxy: NodeProxy
let dir: string
let swapsMade = 0

/** Every pool touched `rounds` times, one transaction (one block) a round. */
const swap = async (rounds: number) => {
  for (let i = 0; i < rounds; i++) await fixture.touchPools(POOLS)
  swapsMade += rounds * POOLS
}

interface Start {
  readonly logs: number
  readonly getLogs: number
  readonly pools: number
  readonly lines: readonly string[]
}

/** A market over the proxy: started, its World read, stopped; the logs and eth_getLogs requests it took to be ready. */
const start = async (config: MarketConfig): Promise<Start> => {
  const lines: string[] = []
  const logger = Logger.replace(Logger.defaultLogger, Logger.make(({ message }) => void lines.push(Array.isArray(message) ? message.join(" ") : String(message))))
  const runtime = ManagedRuntime.make(marketLayer(Rpc.layer(rpcConfig(fixture.devnet.manifest, [proxy.url])), config).pipe(Layer.provide(logger)))
  proxy.resetCounts()
  try {
    const world = await runtime.runPromise(Effect.flatMap(MarketState, (m) => m.snapshot))
    const counts = proxy.counts()
    return { logs: counts.logsServed, getLogs: counts.byMethod.eth_getLogs ?? 0, pools: world.pools.size, lines }
  } finally {
    await runtime.dispose()
  }
}

const stableVenue = () => marketVenues(fixture.devnet.manifest).find((v) => v.kind === "curve-stableswap") as Extract<MarketVenue, { kind: "curve-stableswap" }>
const uniswapVenues = () => marketVenues(fixture.devnet.manifest).filter((v) => v.kind !== "curve-stableswap")
const configWith = (venues: MarketVenue[], overrides: Partial<MarketConfig> = {}) =>
  marketConfig(fixture.devnet.manifest, { venues, executor: fixture.devnet.manifest.executor as Address, fromBlock: fixture.fromBlock, ...overrides })

/** The venue configurations, each with the pools it publishes (the executor registered every venue and stable pool). */
const configurations = () => {
  const { name, kind, pools, factory } = stableVenue()
  const stablePools = fixture.pools.filter((p) => p.kind === "curve-stableswap").length
  return {
    "V2/V3/V4 venues and listed stable pools": { venues: [...uniswapVenues(), { name, kind, pools }], published: POOLS },
    "V2/V3/V4 venues and a stable factory": { venues: [...uniswapVenues(), { name, kind, pools: [], factory: factory! }], published: POOLS },
    "V2/V3/V4 venues, listed stable pools and their factory": { venues: [...uniswapVenues(), stableVenue()], published: POOLS },
    "listed stable pools alone": { venues: [{ name, kind, pools }], published: stablePools },
  } satisfies Record<string, { venues: MarketVenue[]; published: number }>
}

/** the key store's secret the stored markets are signed under */
const SECRET = "market start test: the key store's secret, 32+ characters"

/** The stored market of the configuration with every venue, written before any swap. */
const storedPath = () => join(dir, "stored.sqlite")
const storedConfig = (path: string) => configWith(configurations()["V2/V3/V4 venues, listed stable pools and their factory"].venues, { snapshot: { path, sample: 1_000, secret: Redacted.make(SECRET) } })

/** A copy of the stored market at `path`, edited by `edit`. */
const copyStored = async (path: string, edit?: (doc: any) => void) => {
  const from = await Effect.runPromise(openSnapshotStore(storedPath(), snapshotKey(SECRET)))
  const text = Option.getOrThrow(await Effect.runPromise(from.load(CHAIN_ID))).text
  await Effect.runPromise(from.close)
  const doc = JSON.parse(text)
  edit?.(doc)
  const to = await Effect.runPromise(openSnapshotStore(path, snapshotKey(SECRET)))
  await Effect.runPromise(to.save(CHAIN_ID, JSON.stringify(doc)))
  await Effect.runPromise(to.close)
}

/** Every start, on the history as it is now. */
const measure = async (label: string): Promise<Record<string, Start>> => {
  const out: Record<string, Start> = {}
  for (const [name, { venues }] of Object.entries(configurations())) out[name] = await start(configWith(venues))
  const used = join(dir, `used-${label}.sqlite`)
  await copyStored(used)
  out["a stored market that is used"] = await start(storedConfig(used))
  // a V3 pool's tick that the chain does not have: the sample read whole at the head refuses the stored market
  const refused = join(dir, `refused-${label}.sqlite`)
  await copyStored(refused, (doc) => {
    const [, state] = doc.states.find(([, s]: [string, any]) => s.kind === "uniswap-v3" && s.ticks.tick.length > 0)
    state.ticks.liquidityNet[0] = (BigInt(state.ticks.liquidityNet[0]) + 1n).toString()
  })
  out["a stored market that is refused"] = await start(storedConfig(refused))
  return out
}

/** every start measured: the configurations above, then the stored market's two */
const STARTS = [
  "V2/V3/V4 venues and listed stable pools",
  "V2/V3/V4 venues and a stable factory",
  "V2/V3/V4 venues, listed stable pools and their factory",
  "listed stable pools alone",
  "a stored market that is used",
  "a stored market that is refused",
] as const

let small: Record<string, Start>
let large: Record<string, Start>
/** The history's pool creations and executor registrations, counted on the node itself. */
let creations = 0

beforeAll(async () => {
  fixture = await startHistoryDevnet({ pools: POOLS, blocks: 20_000, swaps: 0 })
  proxy = await startNodeProxy(fixture.devnet.node.rpcUrl, { maxLogBlocks: 5_000, maxLogResults: 10_000 })
  dir = mkdtempSync(join(tmpdir(), "market-start-"))
  const client = devnetClient(fixture.devnet.node.rpcUrl)
  const logs = (topics: Hex[]) =>
    client.request({ method: "eth_getLogs", params: [{ fromBlock: toHex(fixture.fromBlock), toBlock: "latest", topics: [topics] }] } as never) as Promise<unknown[]>
  creations = (await logs(CREATIONS)).length + (await logs(REGISTRATIONS)).length
  // the stored market, of the chain before any swap
  const stored = await start(storedConfig(storedPath()))
  expect(stored.pools).toBe(POOLS)

  await swap(SWAPS / POOLS)
  small = await measure("small")
  await swap((2 * SWAPS) / POOLS)
  large = await measure("large")
  for (const name of STARTS) console.log(`${name}: ${small[name]!.logs} logs in ${small[name]!.getLogs} eth_getLogs after ${SWAPS} swaps, ${large[name]!.logs} in ${large[name]!.getLogs} after ${3 * SWAPS} (${creations} creations and registrations)`)
}, 300_000)

afterAll(async () => {
  await proxy?.stop()
  await fixture?.stop()
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true })
})

describe("the logs read before ready", () => {
  test("the histories: N and 3N swaps, many more than the creations and registrations", () => {
    expect(swapsMade).toBe(3 * SWAPS)
    expect(creations).toBeGreaterThanOrEqual(POOLS)
    expect(SWAPS).toBeGreaterThan(2 * creations)
  })

  for (const name of STARTS) {
    test(`${name}: the same logs and eth_getLogs requests after ${SWAPS} and ${3 * SWAPS} swaps, no more than the creations`, () => {
      const [a, b] = [small[name]!, large[name]!]
      expect({ logs: b.logs, getLogs: b.getLogs }).toEqual({ logs: a.logs, getLogs: a.getLogs })
      expect(a.logs).toBeLessThanOrEqual(creations)
      expect(a.pools).toBe(b.pools)
    })
  }

  test("every configuration published its pools; the stored market was used, then refused, as planned", () => {
    for (const [name, { published }] of Object.entries(configurations())) expect([name, small[name]!.pools]).toEqual([name, published])
    for (const starts of [small, large]) {
      expect(starts["a stored market that is used"]!.lines.some((l) => l.includes("restored the market of block"))).toBe(true)
      expect(starts["a stored market that is refused"]!.lines.filter((l) => l.includes("stored snapshot not used"))).toEqual([expect.stringContaining("disagrees with the chain")])
      expect(starts["a stored market that is used"]!.pools).toBe(POOLS)
      expect(starts["a stored market that is refused"]!.pools).toBe(POOLS)
    }
  })
})
