// Route search: latency of findBestRoute (exact input) and of
// findBestRouteExactOutput (for the output the exact-input route delivers) for
// one-hop, two-hop and split trades
// on a synthetic market of 5,000 pools of every kind, a tenth of them stable
// pools of 2-4 coins (deterministic, no chain), the cost of
// indexing a snapshot, and memory per pool. benchSnapshot measures any
// snapshot with any trades (the default scenario's MarketState snapshot).
// The markets and their trades are built in bench/support/.
import { type Address } from "viem"
import { Effect, Either, ManagedRuntime } from "effect"
import { startDevnet } from "../src/devnet/index.ts"
import { MarketState } from "../src/market/index.ts"
import { chainSettings } from "../src/config/index.ts"
import { chainServices } from "../src/swap/live.ts"
import type { PoolState } from "../src/amm/index.ts"
import { PersistentMap } from "../src/market/persistent-map.ts"
import { type FindExactOutputParams, findBestRoute, findBestRouteExactOutput, graphOf, type RoutingMarket } from "../src/routing/index.ts"
import { type Measurement, percentile } from "./measurement.ts"
import type { World } from "../src/domain/index.ts"
import { syntheticMarket, syntheticTrades, type BenchTrade, type SyntheticToken } from "./support/synthetic-market.ts"
import { defaultScenarioMarket, defaultScenarioTrades } from "./support/scenario-market.ts"

export interface BenchOptions {
  /** prefix of every measurement name */
  readonly label: string
  /** timed searches per trade kind (trades of a kind are cycled) */
  readonly iterations?: number
  readonly p50TargetMs?: number
  readonly p99TargetMs?: number
}

/** what a timed search returned: its splits and their hops */
type Searched = { readonly splits: readonly { readonly hops: readonly unknown[] }[] } | undefined

/**
 * p50 and p99 wall-clock latency of one search per trade kind, after one
 * warm-up pass over every trade, with the routes' shape and the process CPU
 * time over the same calls in the notes.
 */
const timeSearches = <T extends { readonly kind: string }>(
  trades: readonly T[],
  search: (t: T) => Searched,
  options: BenchOptions,
): Measurement[] => {
  const iterations = options.iterations ?? 400
  const kinds = [...new Set(trades.map((t) => t.kind))]
  for (const t of trades) search(t)
  const rows: Measurement[] = []
  for (const kind of kinds) {
    const group = trades.filter((t) => t.kind === kind)
    const wall: number[] = []
    const cpu: number[] = []
    let routes = 0
    let splits = 0
    let hops = 0
    Bun.gc(true)
    for (let i = 0; i < iterations; i++) {
      const t = group[i % group.length]!
      const c0 = process.cpuUsage()
      const started = performance.now()
      const r = search(t)
      wall.push(performance.now() - started)
      const c = process.cpuUsage(c0)
      cpu.push((c.user + c.system) / 1000)
      if (r !== undefined) {
        routes++
        splits += r.splits.length
        for (const s of r.splits) hops += s.hops.length
      }
    }
    const p50 = percentile(wall, 50)
    const p99 = percentile(wall, 99)
    const shape = `${group.length} trades; ${routes}/${iterations} routed, avg ${(splits / Math.max(1, routes)).toFixed(2)} splits, ${(hops / Math.max(1, splits)).toFixed(2)} hops/split`
    rows.push({
      name: `${options.label}, ${kind}, p50`,
      value: p50,
      unit: "ms",
      ...(options.p50TargetMs === undefined ? {} : { target: `< ${options.p50TargetMs}`, met: p50 < options.p50TargetMs }),
      note: shape,
    })
    rows.push({
      name: `${options.label}, ${kind}, p99`,
      value: p99,
      unit: "ms",
      ...(options.p99TargetMs === undefined ? {} : { target: `< ${options.p99TargetMs}`, met: p99 < options.p99TargetMs }),
      // CPU time of the process over the same calls: tells the search's own cost from waiting for a core
      note: `process CPU time p50 ${percentile(cpu, 50).toFixed(3)} ms, p99 ${percentile(cpu, 99).toFixed(3)} ms`,
    })
  }
  return rows
}

/**
 * p50 and p99 wall-clock latency of findBestRoute per trade kind on one
 * snapshot, after one warm-up pass over every trade (the snapshot's graph and
 * pool models are built once per snapshot and shared by all requests; that
 * cost is measured separately). Notes tell what the routes looked like and the
 * process CPU time over the same calls (on a busy machine the wall-clock tail
 * includes waiting for a core).
 */
export const benchSnapshot = (
  snapshot: World,
  trades: readonly BenchTrade[],
  options: BenchOptions,
): Measurement[] => timeSearches(trades, (t) => findBestRoute(snapshot, t.params), options)

/**
 * The same for findBestRouteExactOutput: each trade asks for the gross output
 * the exact-input route of the same trade delivers (gas priced in tokenIn when
 * the trade has a conversion). Trades without an exact-input route are left out.
 */
export const benchSnapshotExactOutput = (
  snapshot: World,
  trades: readonly BenchTrade[],
  options: BenchOptions,
): Measurement[] => {
  const asks: { readonly kind: string; readonly params: FindExactOutputParams }[] = []
  for (const t of trades) {
    const forward = findBestRoute(snapshot, t.params)
    if (forward === undefined) continue
    const { tokenIn, tokenOut, maxHops, maxSplits, venues } = t.params
    asks.push({
      kind: t.kind,
      params: { tokenIn, tokenOut, amountOut: forward.amountOut, maxHops, maxSplits, venues, nativeToTokenIn: t.nativeToTokenIn },
    })
  }
  return timeSearches(asks, (t) => findBestRouteExactOutput(snapshot, t.params), options)
}

const heapUsed = (): number => {
  Bun.gc(true)
  return process.memoryUsage().heapUsed
}

/** The default scenario on a real devnet, as the MarketState actor publishes it. */
const chainScenarioMarket = async (): Promise<{ market: ReturnType<typeof defaultScenarioMarket>; stop: () => Promise<void> }> => {
  const devnet = await startDevnet({ port: 0 })
  const settings = Either.getOrThrow(chainSettings({}, devnet.manifest))
  const runtime = ManagedRuntime.make(chainServices(settings))
  try {
    const snapshot = await runtime.runPromise(Effect.flatMap(MarketState, (m) => m.snapshot))
    const planned = defaultScenarioMarket()
    const token = (symbol: string): SyntheticToken => ({ ...planned.token(symbol), address: devnet.manifest.tokens[symbol]!.address as Address })
    return { market: { snapshot, token }, stop: async () => { await runtime.dispose(); await devnet.stop() } }
  } catch (e) {
    await runtime.dispose()
    await devnet.stop()
    throw e
  }
}

export const run = async (): Promise<Measurement[]> => {
  const POOLS = 20_000
  const rows: Measurement[] = []

  const chain = await chainScenarioMarket()
  try {
    const defaultTrades = defaultScenarioTrades(chain.market)
    rows.push(
      ...benchSnapshot(chain.market.snapshot, defaultTrades, {
        label: "default scenario (devnet MarketState)",
        iterations: 1000,
        p50TargetMs: 1,
        p99TargetMs: 5,
      }),
    )
    rows.push(
      ...benchSnapshotExactOutput(chain.market.snapshot, defaultTrades, {
        label: "default scenario (devnet MarketState), exact output",
        iterations: 1000,
        p50TargetMs: 1,
        p99TargetMs: 5,
      }),
    )
  } finally {
    await chain.stop()
  }

  const before = heapUsed()
  // the snapshot alone: the synthetic market's own lists (its token pairs, tokens) are not market state
  const snapshot = syntheticMarket(POOLS).snapshot
  const afterSnapshot = heapUsed()

  const started = performance.now()
  const graph = graphOf(snapshot)
  const indexMs = performance.now() - started
  // build every pool's float models, as a long-running service ends up with
  for (let e = 0; e < graph.edgeCount; e++) graph.curve(e)
  const afterModels = heapUsed()

  // the next blocks: 200 pools with new states each, the same pools otherwise (the market keeps their index)
  const nextTimes: number[] = []
  let block = snapshot
  for (let b = 0; b < 50; b++) {
    const changed = new Map(block.pools)
    let k = 0
    for (const [key, pool] of block.pools) if (k++ % Math.floor(POOLS / 200) === b % Math.floor(POOLS / 200)) changed.set(key, { ...pool })
    block = { ...block, pools: changed }
    const nextStarted = performance.now()
    graphOf(block)
    nextTimes.push(performance.now() - nextStarted)
  }
  const nextMs = percentile(nextTimes, 50)

  // the same blocks as the market publishes them: the pools in a persistent map, 200 entries changed a
  // block, named in `refreshed` against the pools before (`refreshedFrom`)
  const persistentTimes: number[] = []
  let held: RoutingMarket = { ...snapshot, pools: PersistentMap.from(snapshot.pools) as ReadonlyMap<string, PoolState> }
  graphOf(held)
  for (let b = 0; b < 50; b++) {
    const draft = PersistentMap.from(held.pools).edit()
    const refreshed: string[] = []
    let k = 0
    for (const [key, pool] of held.pools) {
      if (k++ % Math.floor(POOLS / 200) !== b % Math.floor(POOLS / 200)) continue
      draft.set(key, { ...pool })
      refreshed.push(key)
    }
    held = { ...held, pools: draft.done(), refreshed, refreshedFrom: held.pools }
    const nextStarted = performance.now()
    graphOf(held)
    persistentTimes.push(performance.now() - nextStarted)
  }
  const persistentMs = percentile(persistentTimes, 50)

  // the trades of the same (deterministic) market, searched on the snapshot measured
  const trades = syntheticTrades(syntheticMarket(POOLS))
  rows.push(...benchSnapshot(snapshot, trades, { label: `${POOLS} pools`, p99TargetMs: 20 }))
  rows.push(...benchSnapshotExactOutput(snapshot, trades, { label: `${POOLS} pools, exact output`, p99TargetMs: 20 }))
  rows.push({ name: `${POOLS} pools, snapshot index build`, value: indexMs, unit: "ms", note: "the first snapshot, or one whose pool set changed" })
  rows.push({ name: `${POOLS} pools, index of the next block (200 pools changed), p50`, value: nextMs, unit: "ms", target: "< 10", met: nextMs < 10, note: `50 blocks in a row; max ${percentile(nextTimes, 100).toFixed(1)} ms; the previous index, the changed pools' float models dropped` })
  rows.push({
    name: `${POOLS} pools, index of the next block (200 pools changed), the World's persistent pools, p50`,
    value: persistentMs,
    unit: "ms",
    target: "< 10",
    met: persistentMs < 10,
    note: `${(persistentMs / nextMs).toFixed(2)}× the Map's without the names; max ${percentile(persistentTimes, 100).toFixed(1)} ms; World.pools as the market publishes it, only the pools it read again looked up`,
  })
  rows.push({
    name: "memory per pool, snapshot",
    value: Math.round((afterSnapshot - before) / POOLS),
    unit: "bytes",
    note: "pool states, ids and maps of the synthetic snapshot (not the generator's own pair and token lists)",
  })
  rows.push({
    name: "memory per pool, routing index + models",
    value: Math.round((afterModels - afterSnapshot) / POOLS),
    unit: "bytes",
    note: "token graph (flat arrays) and every edge's float model",
  })
  return rows
}

if (import.meta.main) {
  for (const m of await run()) console.log(m)
}
