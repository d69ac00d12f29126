// The market at chain scale: a devnet with a long history (about 2,000 pools
// of every kind created over a million blocks, and many swaps), served through
// a node proxy with a public provider's limits (eth_getLogs at most 10,000
// blocks and 10,000 results, 50 requests a second, 429 past it). Measured: the
// time, the requests and the logs read to become ready from nothing and from
// the stored snapshot, with 5,000 and with 50,000 swaps in the history (the
// figures must not grow with the swaps: the logs read are the same count); the
// refresh of a block that touches 200 pools; and
// at 20,000 pools (a short history), the market's memory per pool and the
// refresh of a block touching 200 of them.
import { Effect, Either, Layer, ManagedRuntime, Option, Redacted, Tracer } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { chainSettings } from "../src/config/index.ts"
import type { Manifest } from "../src/devnet/index.ts"
import { startNodeProxy, type NodeProxyCounts } from "../src/devnet/index.ts"
import { MarketState } from "../src/market/index.ts"
import { graphOf } from "../src/routing/index.ts"
import { chainServices } from "../src/swap/live.ts"
import { startHistoryDevnet, type HistoryDevnet } from "./market-history/index.ts"
import type { Measurement } from "./measurement.ts"
import { startHistoryProcess, type HistoryProcess } from "./support/history-process.ts"

const POOLS = 2_000
const BLOCKS = 1_000_000
const READY_FROM_NOTHING_S = 10
const READY_FROM_SNAPSHOT_S = 2
/** blocks touching 200 pools each, at 20,000 pools */
const STEPS = 9
/** what the key store's secret is to the service: the snapshot's key is derived from it */
const SNAPSHOT_SECRET = Redacted.make("market bench: the key store's secret, 32+ characters")
const LIMITS = { maxLogBlocks: 10_000, maxLogResults: 10_000, requestsPerSecond: 50 }

const requestsNote = (counts: NodeProxyCounts) => {
  const { byMethod, rateLimited } = counts
  const parts = Object.entries(byMethod).sort((a, b) => b[1] - a[1]).map(([method, n]) => `${method} ${n}`)
  return `${parts.join(", ")}${rateLimited > 0 ? `; ${rateLimited} answered 429` : ""}`
}

/** The chain services over the proxy, as `bun run serve` builds them, with the market kept in `snapshot`. */
const services = (history: Pick<HistoryDevnet, "fromBlock"> & { readonly manifest: Manifest }, proxy: { readonly url: string }, snapshot: string, spans?: SpanRecorder) => {
  const settings = Either.getOrThrow(
    chainSettings(
      { RPC_URL: proxy.url, AGGREGATORS: "[]", MARKET_FROM_BLOCK: history.fromBlock.toString(), MARKET_SNAPSHOT: snapshot, LOG_LEVEL: "warn" },
      history.manifest,
    ),
  )
  const layer = chainServices(settings, SNAPSHOT_SECRET)
  return ManagedRuntime.make(spans === undefined ? layer : layer.pipe(Layer.provide(Layer.setTracer(spans.tracer))))
}

interface EndedSpan {
  readonly name: string
  readonly startNs: bigint
  readonly endNs: bigint
  readonly head: unknown
  /** the spans it runs in, innermost first */
  readonly ancestors: readonly Tracer.AnySpan[]
  readonly span: Tracer.Span
}

/** The node's answers a block step waits on: the requests, each timed from sent to answered and decoded. */
const NODE_SPANS = new Set(["Rpc.getLogs", "Rpc.call", "Rpc.maxPriorityFeePerGas"])

/**
 * The service's spans as they end (the native tracer's, recorded): what a block's World cost in
 * the service (MarketState.block: from the new head seen to its World published) and how much of
 * it was waiting on the node.
 */
const spanRecorder = () => {
  const native = Effect.runSync(Effect.tracerWith(Effect.succeed))
  const ended: EndedSpan[] = []
  // off until `record`: the start's spans are not the blocks', and the memory is measured without the recorder's
  let recording = false
  const tracer = Tracer.make({
    context: native.context,
    span: (name, parent, context, links, startTime, kind, options) => {
      const span = native.span(name, parent, context, links, startTime, kind, options)
      if (!recording) return span
      const end = span.end.bind(span)
      span.end = (endTime, exit) => {
        end(endTime, exit)
        if (name !== "MarketState.block" && !NODE_SPANS.has(name)) return
        const ancestors: Tracer.AnySpan[] = []
        for (let p = span.parent; Option.isSome(p); p = p.value._tag === "Span" ? p.value.parent : Option.none()) ancestors.push(p.value)
        ended.push({ name, startNs: startTime, endNs: endTime, head: span.attributes.get("head"), ancestors, span })
      }
      return span
    },
  })
  /** the block's own time and the time its node requests were outstanding (their union), in ms */
  const block = (head: bigint) => {
    const own = ended.find((s) => s.name === "MarketState.block" && s.head === head.toString())
    if (own === undefined) return undefined
    const requests = ended
      .filter((s) => NODE_SPANS.has(s.name) && s.ancestors.includes(own.span))
      .sort((a, b) => (a.startNs < b.startNs ? -1 : a.startNs > b.startNs ? 1 : 0))
    const waits = requests.map((s) => [s.startNs, s.endNs] as const)
    // each request's round: 1 when sent before any answer came, else one past the latest round answered before it was sent
    const round: number[] = []
    for (const [i, r] of requests.entries()) {
      round.push(1 + Math.max(0, ...requests.slice(0, i).flatMap((p, k) => (p.endNs <= r.startNs ? [round[k]!] : []))))
    }
    const byRound = new Map<number, string[]>()
    for (const [i, r] of requests.entries()) byRound.set(round[i]!, [...(byRound.get(round[i]!) ?? []), `${r.name.replace("Rpc.", "")} ${(Number(r.endNs - r.startNs) / 1e6).toFixed(1)} ms`])
    let waited = 0n
    let [from, to] = [0n, 0n]
    for (const [a, b] of waits) {
      if (a > to) {
        waited += to - from
        ;[from, to] = [a, b]
      } else if (b > to) to = b
    }
    waited += to - from
    const rounds = [...byRound].sort((a, b) => a[0] - b[0]).map(([, names]) => names.join(" ‖ "))
    return { ms: Number(own.endNs - own.startNs) / 1e6, nodeMs: Number(waited) / 1e6, requests: waits.length, rounds }
  }
  return { tracer, block, record: () => void (recording = true) }
}
type SpanRecorder = ReturnType<typeof spanRecorder>

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

/** The logs the proxy served and the eth_getLogs requests it answered, since its counts were reset. */
const logsRead = (proxy: { readonly counts: () => NodeProxyCounts }) => {
  const { logsServed, byMethod } = proxy.counts()
  return { logs: logsServed, requests: byMethod.eth_getLogs ?? 0 }
}

/** From the runtime's creation to its first World: the start. */
const start = async (runtime: ReturnType<typeof services>) => {
  const started = performance.now()
  const world = await runtime.runPromise(Effect.flatMap(MarketState, (m) => m.snapshot))
  return { world, seconds: (performance.now() - started) / 1000 }
}

const measureHistory = async (swaps: number, touch: boolean): Promise<Measurement[]> => {
  const built = performance.now()
  const history = await startHistoryDevnet({ pools: POOLS, blocks: BLOCKS, swaps })
  const buildSeconds = (performance.now() - built) / 1000
  const proxy = await startNodeProxy(history.devnet.node.rpcUrl, LIMITS)
  const dir = mkdtempSync(join(tmpdir(), "market-bench-"))
  const snapshot = join(dir, "market.sqlite")
  const label = `${history.poolCount.total} pools, ${(Number(history.headBlock - history.fromBlock) / 1e6).toFixed(2)}M blocks, ${history.swapsMade} swaps`
  const rows: Measurement[] = []
  try {
    // from nothing
    const first = services({ fromBlock: history.fromBlock, manifest: history.devnet.manifest }, proxy, snapshot)
    let published: number
    try {
      const { world, seconds } = await start(first)
      published = world.pools.size
      rows.push({ name: `ready from nothing (${label})`, value: seconds, unit: "s", target: `< ${READY_FROM_NOTHING_S}`, met: seconds < READY_FROM_NOTHING_S, note: `${world.pools.size} pools published; fixture built in ${buildSeconds.toFixed(0)} s` })
      rows.push({ name: `requests to ready from nothing (${label})`, value: proxy.counts().total, unit: "req", note: requestsNote(proxy.counts()) })
      const read = logsRead(proxy)
      rows.push({ name: `logs read to ready from nothing (${label})`, value: read.logs, unit: "logs", note: `in ${read.requests} eth_getLogs; ${history.poolCount.total} pools created` })

      if (touch) {
        // one block that swaps on 200 pools: from its mining to the World at it
        proxy.resetCounts()
        // the swaps' receipt (~1 MB) is checked after the World, so that parsing it here does not take the step's time
        const { block, confirmed } = await history.sendTouch(200)
        const mined = performance.now()
        const next = await first.runPromise(Effect.flatMap(MarketState, (m) => m.awaitBlock(block)).pipe(Effect.timeout("30 seconds")))
        const ms = performance.now() - mined
        await confirmed()
        rows.push({ name: `refresh of a block touching 200 pools`, value: ms, unit: "ms", note: `${next.refreshed?.length ?? 0} pools read again; the poll every 100 ms included` })
        rows.push({ name: `requests for that block`, value: proxy.counts().total, unit: "req", note: requestsNote(proxy.counts()) })
      }
    } finally {
      // the market is written when it stops
      await first.dispose()
    }

    // from the snapshot
    proxy.resetCounts()
    const second = services({ fromBlock: history.fromBlock, manifest: history.devnet.manifest }, proxy, snapshot)
    try {
      const { world, seconds } = await start(second)
      rows.push({ name: `ready from the snapshot (${label})`, value: seconds, unit: "s", target: `< ${READY_FROM_SNAPSHOT_S}`, met: seconds < READY_FROM_SNAPSHOT_S && world.pools.size === published, note: `${world.pools.size} pools published (${published} from nothing)` })
      rows.push({ name: `requests to ready from the snapshot (${label})`, value: proxy.counts().total, unit: "req", note: requestsNote(proxy.counts()) })
      const read = logsRead(proxy)
      rows.push({ name: `logs read to ready from the snapshot (${label})`, value: read.logs, unit: "logs", note: `in ${read.requests} eth_getLogs` })
    } finally {
      await second.dispose()
    }
  } finally {
    await proxy.stop()
    await history.stop()
    rmSync(dir, { recursive: true, force: true })
  }
  return rows
}

const heapAfterGc = () => {
  Bun.gc(true)
  return process.memoryUsage().heapUsed
}

/** The blocks a running service follows: `STEPS` blocks touching 200 pools each, timed from their mining and by the service's spans. */
const measureSteps = async (runtime: ReturnType<typeof services>, spans: SpanRecorder, history: HistoryProcess, counted: boolean) => {
  const touched: number[] = []
  const own: number[] = []
  const node: number[] = []
  const cpu: number[] = []
  let requests = 0
  let rounds: readonly string[] = []
  for (let i = 0; i < STEPS; i++) {
    if (counted) await history.resetCounts()
    const { block, confirmed } = await history.sendTouch(200)
    const mined = performance.now()
    // this process runs the service alone: its CPU from the block mined to the World at it (a poll included)
    const cpuBefore = process.cpuUsage()
    await runtime.runPromise(Effect.flatMap(MarketState, (m) => m.awaitBlock(block)).pipe(Effect.timeout("30 seconds")))
    const used = process.cpuUsage(cpuBefore)
    cpu.push((used.user + used.system) / 1000)
    touched.push(performance.now() - mined)
    await confirmed()
    if (counted) requests = (await history.counts()).total
    const step = spans.block(block)
    if (step !== undefined) {
      own.push(step.ms)
      node.push(step.nodeMs)
      rounds = step.rounds
    }
  }
  return { touched, own, node, cpu, requests, rounds }
}

/** The rows of `measureSteps`' figures; `how` says how the service reached the node. */
const stepRows = (pools: number, how: string, steps: Awaited<ReturnType<typeof measureSteps>>, counted: boolean): Measurement[] => {
  const { touched, own, node, cpu, requests, rounds } = steps
  const rows: Measurement[] = [
    { name: `refresh of a block touching 200 of ${pools} pools, median of ${STEPS}${how}`, value: median(touched), unit: "ms", note: `${counted ? `${requests} requests for the last; ` : ""}the poll every 100 ms included` },
    {
      name: `the service's CPU for that block (from its mining to its World), median of ${STEPS}${how}`,
      value: median(cpu),
      unit: "ms",
      note: `process.cpuUsage of the service's process (the node, its history and the proxy run in another): ${cpu.map((ms) => ms.toFixed(1)).join(", ")} ms`,
    },
  ]
  if (own.length > 0) {
    rows.push(
      {
        name: `the market's step for that block (new head seen to World published), median of ${own.length}${how}`,
        value: median(own),
        unit: "ms",
        target: "< 20",
        met: median(own) < 20,
        note: `of which the node's answers (eth_getLogs, Multicall3 eth_call, priority fee) ${median(node).toFixed(1)} ms; the rest in the service: ${own.map((ms, i) => (ms - node[i]!).toFixed(1)).join(", ")} ms`,
      },
      {
        name: `the node's requests of that step, in rounds (each waiting on the one before)${how}`,
        value: rounds.length,
        unit: "rounds",
        note: `the last step's: ${rounds.map((r, i) => `${i + 1}) ${r}`).join("; ")}`,
      },
    )
  }
  return rows
}

/**
 * 20,000 pools over a short history, no request rate limit: the market's memory and a block touching 200
 * pools, through the node proxy (which counts the requests), then with the service started again asking
 * the node's own endpoint (the proxy parses every eth_getLogs answer to count its logs, in the node's
 * process: a cost of the harness the step would otherwise carry).
 */
const measureScale = async (): Promise<Measurement[]> => {
  // the devnet, its history and the proxy in a process of their own, as the node is to the service:
  // this process runs the service alone and times its step
  const history = await startHistoryProcess({ pools: 20_000, blocks: 20_000, swaps: 0, limits: { maxLogBlocks: LIMITS.maxLogBlocks, maxLogResults: LIMITS.maxLogResults } })
  const proxy = history
  const dir = mkdtempSync(join(tmpdir(), "market-bench-"))
  const rows: Measurement[] = []
  try {
    const before = heapAfterGc()
    const spans = spanRecorder()
    const runtime = services(history, proxy, join(dir, "market.sqlite"), spans)
    try {
      const { world, seconds } = await start(runtime)
      const bytes = (heapAfterGc() - before) / world.pools.size
      rows.push({ name: `ready from nothing (${world.pools.size} pools, no rate limit)`, value: seconds, unit: "s", note: `${(await proxy.counts()).total} requests: ${requestsNote(await proxy.counts())}` })
      rows.push({ name: `market memory per pool at ${world.pools.size} pools`, value: Math.round(bytes), unit: "bytes", note: "the whole service's heap after the start, over its pools: states, metas, the World, token checks" })
      // the routing index of the World and every pool's float models, as a long-running service ends up with
      const graph = graphOf(world)
      for (let e = 0; e < graph.edgeCount; e++) graph.curve(e)
      const routed = (heapAfterGc() - before) / world.pools.size
      rows.push({ name: `market memory per pool at ${world.pools.size} pools, with the routing index`, value: Math.round(routed), unit: "bytes", target: "<= 2048", met: routed <= 2048, note: `the same with the World's routing index and every edge's float model (${graph.edgeCount} edges)` })
      spans.record()
      rows.push(...stepRows(world.pools.size, "", await measureSteps(runtime, spans, history, true), true))
    } finally {
      await runtime.dispose()
    }
    // the same service started again, asking the node's own endpoint
    const direct = spanRecorder()
    const second = services(history, { url: history.nodeUrl }, join(dir, "direct.sqlite"), direct)
    try {
      const { world, seconds } = await start(second)
      rows.push({ name: `ready from nothing (${world.pools.size} pools), the node's own endpoint`, value: seconds, unit: "s", note: "no proxy between the service and the node" })
      direct.record()
      rows.push(...stepRows(world.pools.size, ", the node's own endpoint", await measureSteps(second, direct, history, false), false))
    } finally {
      await second.dispose()
    }
  } finally {
    await history.stop()
    rmSync(dir, { recursive: true, force: true })
  }
  return rows
}

/** The logs read to ready from nothing with ten times the swaps, against the count with 5,000: the same. */
const sameLogs = (few: readonly Measurement[], many: readonly Measurement[]): Measurement => {
  const logs = (rows: readonly Measurement[]) => rows.find((r) => r.name.startsWith("logs read to ready from nothing"))!.value
  const [a, b] = [logs(few), logs(many)]
  return { name: "logs read to ready from nothing, 50,000 swaps against 5,000", value: b - a, unit: "logs", target: "0", met: a === b, note: `${a} with 5,000 swaps, ${b} with 50,000` }
}

/** `BENCH_MARKET=scale`: the 20,000-pool market alone (no long histories to build). */
export const run = async (): Promise<Measurement[]> => {
  if (process.env.BENCH_MARKET === "scale") return measureScale()
  const few = await measureHistory(5_000, false)
  const many = await measureHistory(50_000, true)
  return [...few, ...many, sameLogs(few, many), ...(await measureScale())]
}

if (import.meta.main) {
  for (const m of await run()) console.log(m)
}
