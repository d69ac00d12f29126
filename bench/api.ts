// /quote and /swap end to end on the devnet: the edge, the live programs (market
// snapshot, route search, fees, price impact; for /swap the re-pricing at the
// head, encoding and simulation on the node), under concurrent load on loopback
// with many keys. bench/api-edge.ts measures the edge alone beside a bare
// Bun.serve handler; this measures the product. With BENCH_BASE_ROOT set to a
// checkout of an earlier commit (its own node_modules), that build and this one
// each serve the same devnet from a child process, and /quote with every amount
// new is measured on both and on bare Bun.serve in the same interleaved rounds,
// then /swap on both.
import { Effect, Either, Layer, Metric } from "effect"
import { erc20Abi, maxUint256, type Address } from "viem"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startApiServer } from "../src/api/index.ts"
import { Rpc, simulatedExecutions } from "../src/chain/index.ts"
import { Simulator } from "../src/chain/simulator.ts"
import { devnetClient, startDevnet, testAccounts } from "../src/devnet/index.ts"
import { chainSettings } from "../src/config/index.ts"
import { livePrograms } from "../src/swap/live.ts"
import { load, rawPost, startBareServer } from "./api-edge.ts"
import { percentile, processCpuMs, type Measurement } from "./measurement.ts"
import { startBuildServer, type BuildServer } from "./support/build-server.ts"

const QUOTE_P50_MS = 2
const QUOTE_P99_MS = 10
const QUOTE_RPS = 5_000
const SWAP_P50_MS = 10
/** /quote with every amount new as a share of bare Bun.serve in the same run (issue 24: 5.9% then) */
const SHARE_FLOOR_PCT = 15
const SHARE_AIM_PCT = 25
/** an earlier build to measure beside this one (a checkout with its own node_modules) */
const BASE_ROOT = process.env.BENCH_BASE_ROOT
const BUILD_ROUNDS = 5
const KEYS = 32
/** /swap p50 at 16 connections over the simulation alone, one at a time */
const SWAP_OVER_SIMULATION = 3
/** the share of /swaps whose transaction the node runs at most twice */
const TWO_EXECUTIONS_PCT = 90
const COUNTED_SWAPS = 40
/** /swap's load: connections at once */
const SWAP_CONNECTIONS = 16
/** how long the simulation alone is asked by SWAP_CONNECTIONS callers at once */
const CONCURRENT_SIMULATION_MS = 3_000
/** a node this far away (added to every JSON-RPC request's round trip), for /swap one at a time */
const REMOTE_NODE_MS = 5

/**
 * Node executions of each /swap, asked one at a time with amounts no earlier request had (the
 * simulator's own counter, read around each request: this process runs the service).
 */
const executionsPerSwap = async (baseUrl: string, key: string, trades: ReadonlyArray<{ tokenIn: string; tokenOut: string; amountIn: string }>) => {
  const counted = () => Effect.runSync(Metric.value(simulatedExecutions)).count
  const counts: number[] = []
  const latencies: number[] = []
  for (let i = 0; i < COUNTED_SWAPS; i++) {
    const trade = trades[i % trades.length]!
    const before = counted()
    const started = performance.now()
    const res = await fetch(`${baseUrl}/swap`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": key },
      body: JSON.stringify({ ...trade, amountIn: (BigInt(trade.amountIn) + 7_919n * BigInt(i + 1)).toString(), sender: testAccounts[5]!.address }),
    })
    await res.arrayBuffer()
    latencies.push(performance.now() - started)
    if (res.status !== 200) throw new Error(`/swap answered ${res.status} while counting executions`)
    counts.push(Number(counted() - before))
  }
  latencies.sort((a, b) => a - b)
  return {
    count: counts.length,
    p50: percentile(latencies, 50),
    mean: counts.reduce((a, b) => a + b, 0) / counts.length,
    twoOrFewerPct: (counts.filter((n) => n <= 2).length / counts.length) * 100,
  }
}

export async function run(): Promise<Measurement[]> {
  const dir = mkdtempSync(join(tmpdir(), "api-bench-"))
  const devnet = await startDevnet({ port: 0 })
  try {
    // the own router alone: external aggregators answer in their own time (see docs/deployment.md)
    const settings = Either.getOrThrow(chainSettings({ AGGREGATORS: "[]" }, devnet.manifest))
    const api = await startApiServer({
      programs: livePrograms(settings).pipe(Layer.orDie),
      env: { PORT: "0", DATABASE_URL: join(dir, "keys.sqlite"), LOG_LEVEL: "error", MAX_IN_FLIGHT: "4096" },
    })
    try {
      const keys: string[] = []
      for (let i = 0; i < KEYS; i++) keys.push((await Effect.runPromise(api.keys.create({ name: `bench ${i}`, rpm: 1_000_000_000, concurrency: 4 }))).key)
      const t = devnet.manifest.tokens
      // a mix of pairs and sizes: direct, two-hop, split
      const trades = [
        { tokenIn: t.USDC!.address, tokenOut: t.EURC!.address, amountIn: "1000000000" },
        { tokenIn: t.USDC!.address, tokenOut: t.WBTC!.address, amountIn: "2500000000" },
        { tokenIn: t.EURC!.address, tokenOut: t.WETH!.address, amountIn: "700000000" },
        { tokenIn: t.USDC!.address, tokenOut: t.EURC!.address, amountIn: "300000000000" },
      ]
      const requests = (path: "quote" | "swap") =>
        keys.map((key, i) => {
          const trade = trades[i % trades.length]!
          const body = path === "quote" ? trade : { ...trade, sender: testAccounts[i % 4]!.address }
          return rawPost(`/api/v1/${path}`, JSON.stringify(body), { "x-api-key": key })
        })
      // distinct amounts: every request misses the per-block quote cache (each load its own amounts:
      // the devnet mines only on request, so a load walking an earlier one's list would hit the cache)
      const distinct = (first: number) => Array.from({ length: 60_000 }, (_, i) => {
        const trade = trades[i % trades.length]!
        return rawPost("/api/v1/quote", JSON.stringify({ ...trade, amountIn: (BigInt(trade.amountIn) + BigInt(first + i)).toString() }), { "x-api-key": keys[i % keys.length]! })
      })
      const spec = (path: "quote" | "swap", connections: number) => ({
        port: api.port, connections, warmupMs: 1_000, durationMs: 3_000, maxRequests: 200_000, requests: requests(path),
      })
      const quote = await load(spec("quote", 16))
      const quoteSat = await load(spec("quote", 64))
      const fresh = await load({ ...spec("quote", 16), requests: distinct(0), cycle: true })
      const freshSat = await load({ ...spec("quote", 64), requests: distinct(60_000), cycle: true })
      const swap = await load(spec("swap", 16))
      // the framework's ceiling in this run, for the share the product's path reaches
      const bare = startBareServer()
      const bareSat = await load({ ...spec("quote", 64), port: bare.port!, requests: [rawPost("/", JSON.stringify(trades[0]), {})] }).finally(() => bare.stop(true))
      const gasSearch = await simulationCost(devnet, settings, api.baseUrl, keys[0]!)
      const perSwap = await executionsPerSwap(api.baseUrl, keys[0]!, trades)
      const buildRows = BASE_ROOT === undefined ? [] : await compareBuilds(devnet.manifest, trades, BASE_ROOT, devnet.node.pid, gasSearch.checkP50)
      const bad = (r: { non200: number; errors: number; firstBadResponse?: string }) =>
        r.non200 + r.errors > 0 ? `${r.non200 + r.errors} failed; first: ${r.firstBadResponse?.slice(0, 80) ?? "connection error"}` : undefined
      const rnd = (v: number) => Math.round(v * 1000) / 1000
      return [
        { name: "/quote p50 @16 conns (devnet)", value: rnd(quote.p50), unit: "ms", target: `<= ${QUOTE_P50_MS}`, met: quote.p50 <= QUOTE_P50_MS, ...(bad(quote) ? { note: bad(quote) } : { note: "own router; 4 trades (direct, two-hop, split) repeated: answered from the per-block quote cache" }) },
        { name: "/quote p99 @16 conns (devnet)", value: rnd(quote.p99), unit: "ms", target: `<= ${QUOTE_P99_MS}`, met: quote.p99 <= QUOTE_P99_MS },
        { name: "/quote throughput @64 conns (devnet)", value: Math.round(quoteSat.rps), unit: "req/s", target: `>= ${QUOTE_RPS}`, met: quoteSat.rps >= QUOTE_RPS && quoteSat.non200 === 0, ...(bad(quoteSat) ? { note: bad(quoteSat) } : {}) },
        { name: "/quote p50 @16 conns, every amount new (devnet)", value: rnd(fresh.p50), unit: "ms", target: `<= ${QUOTE_P50_MS}`, met: fresh.p50 <= QUOTE_P50_MS, note: bad(fresh) ?? "no two requests alike: route search on every request" },
        { name: "/quote p99 @16 conns, every amount new (devnet)", value: rnd(fresh.p99), unit: "ms", target: `<= ${QUOTE_P99_MS}`, met: fresh.p99 <= QUOTE_P99_MS },
        { name: "/quote throughput @64 conns, every amount new (devnet)", value: Math.round(freshSat.rps), unit: "req/s", target: `>= ${QUOTE_RPS}`, met: freshSat.rps >= QUOTE_RPS && freshSat.non200 === 0, ...(bad(freshSat) ? { note: bad(freshSat) } : {}) },
        { name: "bare Bun.serve throughput @64 conns (same run)", value: Math.round(bareSat.rps), unit: "req/s", note: "parse the JSON body, answer a small JSON object" },
        { name: "/quote every amount new, share of bare Bun.serve", value: Math.round((freshSat.rps / bareSat.rps) * 1000) / 10, unit: "%", target: `>= ${SHARE_FLOOR_PCT}`, met: (freshSat.rps / bareSat.rps) * 100 >= SHARE_FLOOR_PCT, note: `aim ${SHARE_AIM_PCT}%` },
        { name: "/swap p50 @16 conns (devnet)", value: rnd(swap.p50), unit: "ms", target: `<= ${SWAP_P50_MS}`, met: swap.p50 <= SWAP_P50_MS && swap.non200 === 0, note: bad(swap) ?? "simulated on the node per request" },
        { name: "/swap p99 @16 conns (devnet)", value: rnd(swap.p99), unit: "ms" },
        { name: "/swap throughput @16 conns (devnet)", value: Math.round(swap.rps), unit: "req/s" },
        { name: "/swap simulation alone p50 (one request at a time)", value: rnd(gasSearch.checkP50), unit: "ms", note: "eth_simulateV1 at the priced block: the check without the gas search" },
        { name: "/swap simulation + gas search p50 (one request at a time)", value: rnd(gasSearch.bothP50), unit: "ms", note: "the check, then one eth_simulateV1 block of ascending limits, as /swap runs them" },
        { name: "/swap simulation + eth_estimateGas p50 (one request at a time)", value: rnd(gasSearch.estimateP50), unit: "ms", note: "the check, then the node's own search with the same overrides (the fallback)" },
        { name: "/swap p50 @16 conns, ratio to the simulation alone (same run)", value: Math.round((swap.p50 / gasSearch.checkP50) * 100) / 100, unit: "x", target: `<= ${SWAP_OVER_SIMULATION}`, met: swap.p50 / gasSearch.checkP50 <= SWAP_OVER_SIMULATION },
        { name: "/swap simulation alone p50, 16 callers at once", value: rnd(gasSearch.concurrentP50), unit: "ms", note: `the same check from ${SWAP_CONNECTIONS} callers at once for ${CONCURRENT_SIMULATION_MS / 1000} s: ${Math.round(gasSearch.concurrentRps)}/s, the node's own ceiling on this machine` },
        { name: "/swap p50 @16 conns over the simulation alone from 16 callers (same run)", value: Math.round((swap.p50 / gasSearch.concurrentP50) * 100) / 100, unit: "x", note: "both under the same concurrency: what /swap adds to the node's own time under load" },
        { name: "/swap p50 one request at a time, amounts new (devnet)", value: rnd(perSwap.p50), unit: "ms", note: `${perSwap.count} /swaps, each re-priced at the head, simulated and its gas limit found` },
        { name: "/swap p50 one at a time, ratio to the simulation alone (same run)", value: Math.round((perSwap.p50 / gasSearch.checkP50) * 100) / 100, unit: "x", target: `<= ${SWAP_OVER_SIMULATION}`, met: perSwap.p50 / gasSearch.checkP50 <= SWAP_OVER_SIMULATION, note: "latency of one /swap over one eth_simulateV1 of its transaction; at 16 connections p50 is 16 over the throughput instead" },
        { name: "node executions per /swap, mean", value: Math.round(perSwap.mean * 100) / 100, unit: "", note: `${perSwap.count} /swaps one at a time, amounts new; the first of each route shape searches the grid (12 executions)` },
        { name: "/swaps in two node executions or fewer", value: Math.round(perSwap.twoOrFewerPct * 10) / 10, unit: "%", target: `>= ${TWO_EXECUTIONS_PCT}`, met: perSwap.twoOrFewerPct >= TWO_EXECUTIONS_PCT },
        { name: "gas search cost, ratio to the simulation alone (same run)", value: Math.round((gasSearch.bothP50 / gasSearch.checkP50) * 100) / 100, unit: "x", note: `p50 over p50; with eth_estimateGas instead: ${Math.round((gasSearch.estimateP50 / gasSearch.checkP50) * 100) / 100}x` },
        ...buildRows,
      ]
    } finally {
      await api.stop()
    }
  } finally {
    await devnet.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

/** One /swap on `server`, answered 200 (else thrown, naming `what`): its latency, ms. */
const timedSwap = async (server: BuildServer, body: Record<string, string>, what: string): Promise<number> => {
  const started = performance.now()
  const res = await fetch(`http://127.0.0.1:${server.port}/api/v1/swap`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-api-key": server.keys[0]! },
    body: JSON.stringify(body),
  })
  await res.arrayBuffer()
  if (res.status !== 200) throw new Error(`/swap answered ${res.status} ${what}`)
  return performance.now() - started
}

/**
 * /quote with every amount new on this build and on the one at `baseRoot`, each served from a
 * child process over this devnet, beside bare Bun.serve; then /swap on both: BUILD_ROUNDS
 * interleaved rounds each, medians.
 */
const compareBuilds = async (
  manifest: unknown,
  trades: ReadonlyArray<{ tokenIn: string; tokenOut: string; amountIn: string }>,
  baseRoot: string,
  nodePid: number,
  simulationP50: number,
): Promise<Measurement[]> => {
  const manifestFile = join(tmpdir(), `bench-manifest-${process.pid}.json`)
  await Bun.write(manifestFile, JSON.stringify(manifest))
  const servers: Array<{ label: string; server: BuildServer }> = []
  const bare = startBareServer()
  try {
    for (const [label, root] of [["this build", join(import.meta.dir, "..")], [`build before (${baseRoot})`, baseRoot]] as const) {
      servers.push({ label, server: await startBuildServer({ root, programs: { manifestFile }, keys: KEYS }) })
    }
    // each round its own amounts: a round walking an earlier round's list would answer from the
    // per-block quote cache (the devnet mines only on request)
    const distinct = (keys: readonly string[]) => (round: number) =>
      Array.from({ length: 60_000 }, (_, i) => {
        const trade = trades[i % trades.length]!
        return rawPost("/api/v1/quote", JSON.stringify({ ...trade, amountIn: (BigInt(trade.amountIn) + BigInt(round * 60_000 + i)).toString() }), { "x-api-key": keys[i % keys.length]! })
      })
    const bareRequests = [rawPost("/", JSON.stringify(trades[0]), {})]
    const jobs = [
      { port: bare.port!, pid: process.pid, requests: () => bareRequests, cycle: false },
      ...servers.map((s) => ({ port: s.server.port, pid: s.server.pid, requests: distinct(s.server.keys), cycle: true })),
    ]
    const rps: number[][] = jobs.map(() => [])
    // the serving process's CPU (every thread) per response over the whole load, warm-up included
    const cpuUs: number[][] = jobs.map(() => [])
    const bad: number[] = jobs.map(() => 0)
    const firstBad: Array<string | undefined> = jobs.map(() => undefined)
    for (let round = 0; round < BUILD_ROUNDS; round++) {
      for (const [i, job] of jobs.entries()) {
        const cpuBefore = processCpuMs(job.pid)
        const r = await load({ port: job.port, requests: job.requests(round), cycle: job.cycle, connections: 64, warmupMs: 1_000, durationMs: 3_000, maxRequests: 200_000 })
        if (r.answered > 0) cpuUs[i]!.push(((processCpuMs(job.pid) - cpuBefore) * 1000) / r.answered)
        rps[i]!.push(r.rps)
        bad[i]! += r.non200 + r.errors
        firstBad[i] ??= r.non200 + r.errors > 0 ? (r.firstBadResponse?.slice(0, 80) ?? "connection error") : undefined
      }
    }
    const [bareRps, ...buildRps] = rps.map((xs) => percentile(xs, 50)) as [number, ...number[]]
    const [bareCpu, ...buildCpu] = cpuUs.map((xs) => percentile(xs, 50)) as [number, ...number[]]
    const cpuNote = `every thread of the serving process over the load, warm-up included, per response; median of ${BUILD_ROUNDS} rounds`
    const rows: Measurement[] = [
      { name: "bare Bun.serve throughput @64 conns (builds' rounds)", value: Math.round(bareRps), unit: "req/s", note: `median of ${BUILD_ROUNDS} rounds interleaved with the builds below` },
      { name: "bare Bun.serve CPU per request @64 conns (builds' rounds)", value: Math.round(bareCpu * 10) / 10, unit: "µs", note: `this process; ${cpuNote}` },
    ]
    servers.forEach((s, i) => {
      const share = (100 * buildRps[i]!) / bareRps
      rows.push({
        name: `/quote every amount new, share of bare Bun.serve (${s.label})`,
        value: Math.round(share * 10) / 10,
        unit: "%",
        target: `>= ${SHARE_FLOOR_PCT}`,
        met: share >= SHARE_FLOOR_PCT && bad[i + 1] === 0,
        note: bad[i + 1]! > 0 ? `${bad[i + 1]} failed responses; first: ${firstBad[i + 1]}` : `${Math.round(buildRps[i]!)} req/s @64 conns; aim ${SHARE_AIM_PCT}%; child process`,
      })
    })
    servers.forEach((s, i) => {
      rows.push({ name: `CPU per /quote @64 conns, every amount new (${s.label})`, value: Math.round(buildCpu[i]! * 10) / 10, unit: "µs", note: `${(buildCpu[i]! / bareCpu).toFixed(1)}× bare Bun.serve's; the child's process; ${cpuNote}` })
    })
    rows.push(
      { name: "/quote every amount new, this build over the build before", value: Math.round((buildRps[0]! / buildRps[1]!) * 100) / 100, unit: "x", note: "throughput ratio, same rounds" },
      { name: "CPU per /quote, every amount new: the build before over this build", value: Math.round((buildCpu[1]! / buildCpu[0]!) * 100) / 100, unit: "x", note: "CPU ratio, same rounds" },
    )
    // /swap as the in-process rows ask it (the 4 trades, 4 senders), on each build, interleaved
    const swaps = (keys: readonly string[]) =>
      keys.map((key, i) => rawPost("/api/v1/swap", JSON.stringify({ ...trades[i % trades.length]!, sender: testAccounts[i % 4]!.address }), { "x-api-key": key }))
    const swapP50: number[][] = servers.map(() => [])
    const swapRps: number[][] = servers.map(() => [])
    const swapBad: number[] = servers.map(() => 0)
    const swapFirstBad: Array<string | undefined> = servers.map(() => undefined)
    // CPU per /swap: the build's own process, the node, and this process (the devnet's base fee relay
    // forwards every RPC request to the node), over the load's warm-up and measured window together
    const cpu = servers.map(() => ({ server: 0, node: 0, relay: 0, swaps: 0 }))
    const warmupMs = 1_000
    const durationMs = 3_000
    for (let round = 0; round < BUILD_ROUNDS; round++) {
      for (const [i, s] of servers.entries()) {
        const before = { server: processCpuMs(s.server.pid), node: processCpuMs(nodePid), relay: process.cpuUsage() }
        const r = await load({ port: s.server.port, requests: swaps(s.server.keys), connections: 16, warmupMs, durationMs, maxRequests: 200_000 })
        const relay = process.cpuUsage(before.relay)
        cpu[i]!.server += processCpuMs(s.server.pid) - before.server
        cpu[i]!.node += processCpuMs(nodePid) - before.node
        cpu[i]!.relay += (relay.user + relay.system) / 1_000
        cpu[i]!.swaps += (r.rps * (warmupMs + durationMs)) / 1_000
        swapP50[i]!.push(r.p50)
        swapRps[i]!.push(r.rps)
        swapBad[i]! += r.non200 + r.errors
        swapFirstBad[i] ??= r.non200 + r.errors > 0 ? (r.firstBadResponse?.slice(0, 80) ?? "connection error") : undefined
      }
    }
    const medianP50 = swapP50.map((xs) => percentile(xs, 50))
    servers.forEach((s, i) => {
      rows.push({
        name: `/swap p50 @16 conns (${s.label})`,
        value: Math.round(medianP50[i]! * 1000) / 1000,
        unit: "ms",
        note: swapBad[i]! > 0 ? `${swapBad[i]} failed responses; first: ${swapFirstBad[i]}` : `${Math.round(percentile(swapRps[i]!, 50))} req/s; median of ${BUILD_ROUNDS} interleaved rounds; child process`,
      })
    })
    servers.forEach((s, i) => {
      const per = (ms: number) => Math.round((ms / cpu[i]!.swaps) * 1000) / 1000
      rows.push({
        name: `CPU per /swap @16 conns (${s.label})`,
        value: per(cpu[i]!.server),
        unit: "ms",
        note: `the server's process; the node ${per(cpu[i]!.node)} ms, the devnet relay (bench process) ${per(cpu[i]!.relay)} ms; 2 cores shared with the load`,
      })
    })
    rows.push({ name: "/swap p50 @16 conns, the build before over this build", value: Math.round((medianP50[1]! / medianP50[0]!) * 100) / 100, unit: "x", note: "latency ratio, same rounds" })
    // /swap one request at a time, every amount new, on each build, interleaved: the latency a
    // wallet sees, over the simulation alone measured in this run
    const single: number[][] = servers.map(() => [])
    let nth = 0
    for (let round = 0; round < BUILD_ROUNDS; round++) {
      for (const [i, s] of servers.entries()) {
        for (let k = 0; k < COUNTED_SWAPS; k++) {
          const trade = trades[k % trades.length]!
          const amountIn = BigInt(trade.amountIn) + 104_729n * BigInt(++nth)
          single[i]!.push(await timedSwap(s.server, { ...trade, amountIn: amountIn.toString(), sender: testAccounts[5]!.address }, `one at a time (${s.label})`))
        }
      }
    }
    const singleP50 = single.map((xs) => percentile(xs, 50))
    servers.forEach((s, i) => {
      const ratio = singleP50[i]! / simulationP50
      rows.push({
        name: `/swap p50 one at a time, ratio to the simulation alone (${s.label})`,
        value: Math.round(ratio * 100) / 100,
        unit: "x",
        target: `<= ${SWAP_OVER_SIMULATION}`,
        met: ratio <= SWAP_OVER_SIMULATION,
        note: `p50 ${Math.round(singleP50[i]! * 1000) / 1000} ms over ${Math.round(simulationP50 * 1000) / 1000} ms; ${single[i]!.length} /swaps, amounts new, ${BUILD_ROUNDS} interleaved rounds; child process`,
      })
    })
    rows.push(...(await overRemoteNode(manifest, trades, servers.map((s) => s.label), [join(import.meta.dir, ".."), baseRoot], singleP50)))
    return rows
  } finally {
    for (const s of servers) await s.server.stop()
    bare.stop(true)
    rmSync(manifestFile, { force: true })
  }
}

/**
 * /swap one at a time on each build served over a node REMOTE_NODE_MS away (a relay that holds
 * every HTTP request that long before passing it on), interleaved: the latency over the same
 * build's beside the node (`localP50`), and the node requests made while each /swap ran.
 */
const overRemoteNode = async (
  manifest: unknown,
  trades: ReadonlyArray<{ tokenIn: string; tokenOut: string; amountIn: string }>,
  labels: readonly string[],
  roots: readonly string[],
  localP50: readonly number[],
): Promise<Measurement[]> => {
  const nodeUrl = (manifest as { rpcUrl: string }).rpcUrl
  let requests = 0
  const relay = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: async (request) => {
      const body = await request.arrayBuffer()
      requests++
      await Bun.sleep(REMOTE_NODE_MS)
      const answer = await fetch(nodeUrl, { method: "POST", headers: { "content-type": "application/json" }, body })
      return new Response(await answer.arrayBuffer(), { status: answer.status, headers: { "content-type": "application/json" } })
    },
  })
  const manifestFile = join(tmpdir(), `bench-remote-manifest-${process.pid}.json`)
  await Bun.write(manifestFile, JSON.stringify({ ...(manifest as object), rpcUrl: `http://127.0.0.1:${relay.port}` }))
  const servers: BuildServer[] = []
  try {
    for (const root of roots) servers.push(await startBuildServer({ root, programs: { manifestFile }, keys: 1 }))
    const latencies: number[][] = servers.map(() => [])
    const requestsPerSwap: number[][] = servers.map(() => [])
    let nth = 0
    for (let round = 0; round < BUILD_ROUNDS; round++) {
      for (const [i, server] of servers.entries()) {
        for (let k = 0; k < COUNTED_SWAPS; k++) {
          const trade = trades[k % trades.length]!
          const amountIn = BigInt(trade.amountIn) + 15_485_863n * BigInt(++nth)
          const before = requests
          const ms = await timedSwap(server, { ...trade, amountIn: amountIn.toString(), sender: testAccounts[6]!.address }, `over the remote node (${labels[i]})`)
          // the first round lets each build learn its route shapes and tokens, as beside the node
          if (round > 0) {
            latencies[i]!.push(ms)
            requestsPerSwap[i]!.push(requests - before)
          }
        }
      }
    }
    return servers.map((_, i) => {
      const p50 = percentile(latencies[i]!, 50)
      return {
        name: `/swap p50 one at a time, the node ${REMOTE_NODE_MS} ms away (${labels[i]})`,
        value: Math.round(p50 * 1000) / 1000,
        unit: "ms",
        note: `${Math.round((p50 - localP50[i]!) * 1000) / 1000} ms over the same build beside the node; node requests while a /swap ran (the market's polls of the head among them): median ${percentile(requestsPerSwap[i]!, 50)}, 90th percentile ${percentile(requestsPerSwap[i]!, 90)}; ${latencies[i]!.length} /swaps, amounts new, ${BUILD_ROUNDS - 1} interleaved rounds after one to learn; child process`,
      }
    })
  } finally {
    for (const server of servers) await server.stop()
    relay.stop(true)
    rmSync(manifestFile, { force: true })
  }
}

/**
 * The simulation /swap runs, with and without the search for the least gas limit, on the same
 * transactions (one /swap answer per trade), one call at a time, alternating, in one run.
 */
const simulationCost = async (
  devnet: Awaited<ReturnType<typeof startDevnet>>,
  settings: ReturnType<typeof chainSettings> extends Either.Either<infer R, unknown> ? R : never,
  baseUrl: string,
  key: string,
) => {
  const t = devnet.manifest.tokens
  const sender = testAccounts[0]!.address
  const swaps: any[] = []
  for (const [tokenIn, tokenOut, amountIn] of [[t.EURC!, t.cirBTC!, "400000000"], [t.USDC!, t.EURC!, "60000000000"], [t.USDC!, t.WBTC!, "2500000000"]] as const) {
    const res = await fetch(`${baseUrl}/swap`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": key },
      body: JSON.stringify({ tokenIn: tokenIn.address, tokenOut: tokenOut.address, amountIn, sender }),
    })
    swaps.push(await res.json())
  }
  // the sender approves for real, so that the node's own search runs without the simulator's overrides
  const client = devnetClient(devnet.manifest.rpcUrl, devnet.manifest.multicall3 as Address)
  for (const swap of swaps) {
    const hash = await client.writeContract({ address: swap.approval.token, abi: erc20Abi, functionName: "approve", args: [swap.tx.to, maxUint256], account: sender, chain: client.chain })
    await client.waitForTransactionReceipt({ hash, pollingInterval: 20 })
  }
  const program = Effect.gen(function* () {
    const rpc = yield* Rpc
    const simulator = yield* Simulator
    const block = yield* rpc.getBlock()
    const check: number[] = []
    const both: number[] = []
    const estimated: number[] = []
    for (let i = 0; i < 300; i++) {
      const swap = swaps[i % swaps.length]
      const params = {
        sender, executor: swap.tx.to, data: swap.tx.data, value: 0n, block: { number: block.number, timestamp: block.timestamp },
        pulls: { token: swap.approval.token, amount: BigInt(swap.amountIn) },
      }
      for (const [findGasLimit, sample] of [[false, check], [true, both]] as const) {
        const start = performance.now()
        yield* simulator.simulateExecute({ ...params, findGasLimit })
        sample.push(performance.now() - start)
      }
      const start = performance.now()
      yield* simulator.simulateExecute({ ...params, findGasLimit: false })
      yield* rpc.estimateGas({ from: sender, to: swap.tx.to, data: swap.tx.data, blockNumber: block.number })
      estimated.push(performance.now() - start)
    }
    // the same check from 16 callers at once, as many as /swap's connections: the node's own
    // latency under that load (it runs the simulations of 2 cores' worth at a time)
    const concurrent: number[] = []
    const until = performance.now() + CONCURRENT_SIMULATION_MS
    let nth = 0
    yield* Effect.forEach(Array.from({ length: SWAP_CONNECTIONS }), () =>
      Effect.gen(function* () {
        while (performance.now() < until) {
          const swap = swaps[nth++ % swaps.length]
          const start = performance.now()
          yield* simulator.simulateExecute({
            sender, executor: swap.tx.to, data: swap.tx.data, value: 0n, block: { number: block.number, timestamp: block.timestamp },
            pulls: { token: swap.approval.token, amount: BigInt(swap.amountIn) }, findGasLimit: false,
          })
          concurrent.push(performance.now() - start)
        }
      }), { concurrency: SWAP_CONNECTIONS, discard: true })
    return {
      checkP50: percentile(check, 50),
      bothP50: percentile(both, 50),
      estimateP50: percentile(estimated, 50),
      concurrentP50: percentile(concurrent, 50),
      concurrentRps: (concurrent.length * 1000) / CONCURRENT_SIMULATION_MS,
    }
  })
  const layer = Simulator.layer.pipe(Layer.provideMerge(Rpc.layer({ urls: settings.rpcUrls, chainId: settings.chainId, multicall3: settings.multicall3 })))
  return Effect.runPromise(Effect.provide(program, layer))
}

if (import.meta.main) {
  for (const m of await run()) console.log(m)
}
