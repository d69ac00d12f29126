// The HTTP edge under load on loopback: /quote and /swap through the edge (with
// the synthetic programs, so the edge alone is measured), beside a bare Bun.serve
// JSON handler (the framework ceiling), the floor of any server of the edge's own
// answer (Bun.serve sending that answer with its headers, directly and on the
// request runner's fiber: what is left above it is the edge's own work) and the
// same edge behind @effect/platform's HttpRouter on BunHttpServer (the
// alternative the server did not take), all in one run. The load generator is
// this file run as a child process (a raw HTTP/1.1 client over keep-alive
// connections, one request in flight per connection), pinned to one core with
// taskset when available, bounded in time and count.
// With BENCH_BASE_ROOT set to a checkout of an earlier commit (a second worktree,
// `bun install` done there), that build and this one each run as a child process
// (bench/support/build-server.ts) and are measured in the same interleaved rounds:
// the gain is a ratio within one run.
import { HttpMiddleware, HttpRouter, HttpServer, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { BunHttpServer } from "@effect/platform-bun"
import { Context, Effect, Exit, Layer, Option, Runtime, Scope } from "effect"
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { ApiKeys, BadKeyLimits, InFlight, makeApiKeys, makeInFlight, makeTokenBuckets, RateLimits } from "../src/access/index.ts"
import { makeEdge, startApiServer, SYNTHETIC, syntheticPrograms, type RunningApi } from "../src/api/index.ts"
import { makeRequestRunner } from "../src/api/request-runner.ts"
import { loadAppConfig } from "../src/config/index.ts"
import { percentile, processCpuMs, type Measurement } from "./measurement.ts"
import { startBuildServer, type BuildServer } from "./support/build-server.ts"

// ---------------------------------------------------------------- targets
const QUOTE_P50_MS = 2
const QUOTE_P99_MS = 10
const QUOTE_RPS = 5_000
const SWAP_P50_MS = 10
/** the edge alone (synthetic programs), /quote throughput as a share of bare Bun.serve in the same run */
const EDGE_SHARE_PCT = 30
/** an earlier build to measure beside this one (a checkout with its own node_modules) */
const BASE_ROOT = process.env.BENCH_BASE_ROOT
const THIS_ROOT = join(import.meta.dir, "..")

const LATENCY_CONNECTIONS = 16
const SATURATION_CONNECTIONS = 64
const WARMUP_MS = 500
const RUN_MS = 2_000
const MAX_REQUESTS = 400_000
const KEYS = 64
/** rounds per variant, interleaved across variants; each figure is the median of its rounds */
const ROUNDS = 5
/** how a CPU row is measured */
const CPU_NOTE = `every thread of the serving process over the saturated load, warm-up included, per response; median of ${ROUNDS} rounds`

// ---------------------------------------------------------------- load generator (child)
interface LoadSpec {
  readonly port: number
  readonly connections: number
  readonly warmupMs: number
  readonly durationMs: number
  readonly maxRequests: number
  /** raw HTTP/1.1 requests; connection i sends requests[i % length] over and over */
  readonly requests: readonly string[]
  /** instead: every connection walks the whole list, connection i starting at i (distinct requests) */
  readonly cycle?: boolean
}

interface LoadResult {
  /** responses within the measured window */
  readonly completed: number
  /** every response, the warm-up's included (what the server's CPU over the whole load served) */
  readonly answered: number
  readonly non200: number
  readonly errors: number
  readonly elapsedMs: number
  readonly p50: number
  readonly p99: number
  readonly firstBadResponse?: string
}

const runLoad = async (spec: LoadSpec): Promise<LoadResult> => {
  const latencies = new Float64Array(spec.maxRequests)
  let completed = 0
  let answered = 0
  let non200 = 0
  let errors = 0
  let firstBadResponse: string | undefined
  const start = performance.now()
  const measureFrom = start + spec.warmupMs
  const stopAt = measureFrom + spec.durationMs
  let measuredStart = Number.NaN
  let measuredEnd = Number.NaN

  // encoded once, shared by every connection
  const encoded = spec.cycle ? spec.requests.map((r) => Buffer.from(r)) : []
  const oneConnection = (i: number) =>
    new Promise<void>((resolve) => {
      const payloads = spec.cycle ? encoded : [Buffer.from(spec.requests[i % spec.requests.length]!)]
      let next = spec.cycle ? i * Math.max(1, Math.floor(payloads.length / spec.connections)) : 0
      let buffered: Buffer = Buffer.alloc(0)
      let sentAt = 0
      let done = false
      const finish = () => {
        if (!done) {
          done = true
          resolve()
        }
      }
      const send = (socket: { write(b: Uint8Array): number; end(): void }) => {
        const now = performance.now()
        if (now >= stopAt || completed >= spec.maxRequests) {
          socket.end()
          finish()
          return
        }
        sentAt = now
        socket.write(payloads[next++ % payloads.length]!)
      }
      Bun.connect({
        hostname: "127.0.0.1",
        port: spec.port,
        socket: {
          open: (socket) => send(socket),
          data: (socket, chunk) => {
            buffered = buffered.length === 0 ? Buffer.from(chunk) : Buffer.concat([buffered, chunk])
            for (;;) {
              const headerEnd = buffered.indexOf("\r\n\r\n")
              if (headerEnd === -1) return
              const head = buffered.toString("latin1", 0, headerEnd)
              const match = /\r\ncontent-length:\s*(\d+)/i.exec(head)
              const length = match ? Number(match[1]) : 0
              const total = headerEnd + 4 + length
              if (buffered.length < total) return
              const now = performance.now()
              answered++
              const status = head.slice(9, 12)
              if (status !== "200") {
                non200++
                firstBadResponse ??= buffered.toString("utf8", 0, Math.min(total, 600))
              }
              if (sentAt >= measureFrom && now <= stopAt && completed < spec.maxRequests) {
                if (Number.isNaN(measuredStart)) measuredStart = sentAt
                measuredEnd = now
                latencies[completed++] = now - sentAt
              }
              buffered = buffered.subarray(total)
              send(socket)
            }
          },
          close: () => finish(),
          error: () => {
            errors++
            finish()
          },
          connectError: () => {
            errors++
            finish()
          },
        },
      }).catch(() => {
        errors++
        finish()
      })
    })

  await Promise.all(Array.from({ length: spec.connections }, (_, i) => oneConnection(i)))
  const sample = Array.from(latencies.subarray(0, completed))
  return {
    completed,
    answered,
    non200,
    errors,
    elapsedMs: completed > 0 ? measuredEnd - measuredStart : 0,
    p50: percentile(sample, 50),
    p99: percentile(sample, 99),
    ...(firstBadResponse === undefined ? {} : { firstBadResponse }),
  }
}

if (import.meta.main && process.argv[2] === "--load") {
  const result = await runLoad(JSON.parse(readFileSync(process.argv[3]!, "utf8")) as LoadSpec)
  process.stdout.write(`${JSON.stringify(result)}\n`)
  process.exit(0)
}

// ---------------------------------------------------------------- driver (bench process)
const taskset = Bun.which("taskset")

export const load = async (spec: LoadSpec): Promise<LoadResult & { rps: number }> => {
  // the spec goes through a file: a list of distinct requests outgrows an argument list
  const specFile = join(tmpdir(), `load-spec-${process.pid}-${Date.now()}.json`)
  writeFileSync(specFile, JSON.stringify(spec))
  const command = [process.execPath, import.meta.path, "--load", specFile]
  const child = Bun.spawn(taskset ? [taskset, "-c", "1", ...command] : command, { stdout: "pipe", stderr: "inherit" })
  const limit = setTimeout(() => child.kill("SIGKILL"), spec.warmupMs + spec.durationMs + 15_000)
  const text = await new Response(child.stdout).text()
  await child.exited
  clearTimeout(limit)
  rmSync(specFile, { force: true })
  const result = JSON.parse(text.trim().split("\n").pop() ?? "{}") as LoadResult
  return { ...result, rps: result.elapsedMs > 0 ? (result.completed * 1000) / result.elapsedMs : 0 }
}

export const rawPost = (path: string, body: string, headers: Record<string, string>) =>
  [
    `POST ${path} HTTP/1.1`,
    "Host: 127.0.0.1",
    "Content-Type: application/json",
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    "",
    body,
  ].join("\r\n")

const quoteBody = JSON.stringify({ tokenIn: SYNTHETIC.tokens.usdc, tokenOut: SYNTHETIC.tokens.tokenA, amountIn: "1000000000", feeBps: 10, feeRecipient: "0x1111111111111111111111111111111111111111" })
const swapBody = JSON.stringify({ tokenIn: SYNTHETIC.tokens.usdc, tokenOut: SYNTHETIC.tokens.tokenA, amountIn: "1000000000", sender: "0x2222222222222222222222222222222222222222" })

interface Variant {
  readonly name: string
  readonly port: number
  /** the process serving it (this one, or a build's child) */
  readonly pid: number
  readonly requests: (path: "quote" | "swap") => string[]
}

interface VariantResult {
  readonly p50: number
  readonly p99: number
  readonly rps: number
  /** the serving process's CPU (every thread) per request at saturation, µs, warm-up included */
  readonly cpuUs: number
  readonly bad: number
}

const median = (xs: readonly number[]) => percentile(xs, 50)

/** One round of a variant: latency at 16 connections (unless `saturation` is "only"), then throughput and CPU at 64 (unless false). */
const measureOnce = async (v: Variant, path: "quote" | "swap", saturation: boolean | "only") => {
  const requests = v.requests(path)
  const latency = saturation === "only"
    ? { p50: Number.NaN, p99: Number.NaN, non200: 0, errors: 0, firstBadResponse: undefined }
    : await load({ port: v.port, connections: LATENCY_CONNECTIONS, warmupMs: WARMUP_MS, durationMs: RUN_MS, maxRequests: MAX_REQUESTS, requests })
  const cpuBefore = processCpuMs(v.pid)
  const saturated = saturation
    ? await load({ port: v.port, connections: SATURATION_CONNECTIONS, warmupMs: WARMUP_MS, durationMs: RUN_MS, maxRequests: MAX_REQUESTS, requests })
    : undefined
  const cpuUs = saturated && saturated.answered > 0 ? ((processCpuMs(v.pid) - cpuBefore) * 1000) / saturated.answered : Number.NaN
  const bad = latency.non200 + latency.errors + (saturated ? saturated.non200 + saturated.errors : 0)
  if (bad > 0) process.stderr.write(`${v.name} /${path}: ${bad} failed responses; first: ${latency.firstBadResponse ?? saturated?.firstBadResponse ?? "(connection error)"}\n`)
  return { p50: latency.p50, p99: latency.p99, rps: saturated?.rps ?? Number.NaN, cpuUs, bad }
}

/** Runs every job ROUNDS times, interleaved (so a burst of load from elsewhere hits all of them), medians. */
const measureInterleaved = async (jobs: ReadonlyArray<() => Promise<VariantResult>>): Promise<VariantResult[]> => {
  const rounds: VariantResult[][] = jobs.map(() => [])
  for (let r = 0; r < ROUNDS; r++) {
    for (const [i, job] of jobs.entries()) rounds[i]!.push(await job())
  }
  return rounds.map((rs) => ({
    p50: median(rs.map((x) => x.p50)),
    p99: median(rs.map((x) => x.p99)),
    rps: median(rs.map((x) => x.rps)),
    cpuUs: median(rs.map((x) => x.cpuUs)),
    bad: rs.reduce((n, x) => n + x.bad, 0),
  }))
}

/** The same edge behind @effect/platform's HttpRouter on BunHttpServer (per-request tracing span off). */
const startHttpRouterVariant = async (env: Record<string, string>) => {
  const scope = Effect.runSync(Scope.make())
  const program = Effect.gen(function* () {
    const config = yield* loadAppConfig(env)
    const keys = yield* makeApiKeys(config.keyStore)
    const edge = yield* makeEdge(config).pipe(
      Effect.provideService(ApiKeys, keys),
      Effect.provideService(RateLimits, yield* makeTokenBuckets()),
      Effect.provideService(BadKeyLimits, yield* makeTokenBuckets()),
      Effect.provideService(InFlight, makeInFlight()),
    )
    const app = HttpRouter.empty.pipe(
      HttpRouter.all(
        "*",
        Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
          // the edge runs uninterruptible but for its own interruptible region (edge.ts)
          Effect.map(Effect.uninterruptible(edge.handle(request.source as Request, () => Option.getOrElse(request.remoteAddress, () => "unknown"))), (response) => HttpServerResponse.raw(response))),
      ),
    )
    const scope = yield* Effect.scope
    const serverContext = yield* Layer.buildWithScope(
      BunHttpServer.layer({ port: 0, hostname: "127.0.0.1", maxRequestBodySize: Number.MAX_SAFE_INTEGER }),
      scope,
    )
    // the per-request tracing span off: the platform's best case
    yield* Effect.locallyScoped(HttpMiddleware.currentTracerDisabledWhen, () => true)
    yield* HttpServer.serveEffect()(app).pipe(Effect.provide(serverContext))
    const address = Context.get(serverContext, HttpServer.HttpServer).address
    return address._tag === "TcpAddress" ? address.port : 0
  })
  const port = await Effect.runPromise(program.pipe(Effect.provide(syntheticPrograms()), Scope.extend(scope)))
  return { port, stop: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
}

/**
 * The floor of any server giving the edge's /quote answer, and nothing more: the body read and parsed,
 * the key header read, the edge's own answer (as served) written with JSON.stringify under a new request
 * id and sent with the edge's six headers. On Bun.serve directly, or (`onFiber`) as one Effect program on
 * the request runner's fiber, as the edge runs.
 */
const startFloorServer = async (answer: string, onFiber: boolean) => {
  const scope = Effect.runSync(Scope.make())
  const run = onFiber ? await Effect.runPromise(Scope.extend(makeRequestRunner(Runtime.defaultRuntime), scope)) : undefined
  const fields = JSON.parse(answer) as Record<string, unknown>
  let remaining = 1_000_000_000
  const respond = (request: Request, body: ArrayBuffer) => {
    JSON.parse(new TextDecoder().decode(body))
    request.headers.get("x-api-key")
    const requestId = crypto.randomUUID()
    return new Response(JSON.stringify({ ...fields, requestId }), {
      status: 200,
      headers: {
        "content-type": "application/json",
        "cache-control": "no-store",
        "x-request-id": requestId,
        "x-ratelimit-limit": "1000000000",
        "x-ratelimit-remaining": String(--remaining),
        "x-ratelimit-reset": "60",
      },
    })
  }
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: run === undefined
      ? async (request) => respond(request, await request.arrayBuffer())
      : (request) => run(request, Effect.map(Effect.promise(() => request.arrayBuffer()), (body) => respond(request, body))),
  })
  return {
    port: server.port!,
    stop: async () => {
      server.stop(true)
      await Effect.runPromise(Scope.close(scope, Exit.void))
    },
  }
}

/** The framework's ceiling: bare Bun.serve parsing the JSON body and answering a small JSON object. */
export const startBareServer = () =>
  Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: async (request) => {
      const body = (await request.json()) as { amountIn: string }
      return Response.json({ amountOut: body.amountIn, requestId: crypto.randomUUID() })
    },
  })

export async function run(): Promise<Measurement[]> {
  const dir = mkdtempSync(join(tmpdir(), "api-edge-bench-"))
  const env = { PORT: "0", DATABASE_URL: join(dir, "keys.sqlite"), LOG_LEVEL: "error", MAX_IN_FLIGHT: "4096" }
  const stops: Array<() => Promise<void> | void> = []
  try {
    const bare = startBareServer()
    stops.push(() => bare.stop(true))

    const api: RunningApi = await startApiServer({ programs: syntheticPrograms(), env })
    stops.push(() => api.stop())
    const keys: string[] = []
    for (let i = 0; i < KEYS; i++) {
      keys.push((await Effect.runPromise(api.keys.create({ name: `bench ${i}`, rpm: 1_000_000_000, concurrency: 4 }))).key)
    }
    const router = await startHttpRouterVariant(env)
    stops.push(() => router.stop())
    const answer = await (await fetch(`http://127.0.0.1:${api.port}/api/v1/quote`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": keys[0]! },
      body: quoteBody,
    })).text()
    const floor = await startFloorServer(answer, false)
    stops.push(() => floor.stop())
    const floorOnFiber = await startFloorServer(answer, true)
    stops.push(() => floorOnFiber.stop())

    const edgeRequests = (path: "quote" | "swap") =>
      keys.map((key) => rawPost(`/api/v1/${path}`, path === "quote" ? quoteBody : swapBody, { "x-api-key": key }))
    const variants: Variant[] = [
      { name: "bare Bun.serve JSON handler", port: bare.port!, pid: process.pid, requests: () => [rawPost("/", quoteBody, {})] },
      { name: "edge on Bun.serve (served)", port: api.port, pid: process.pid, requests: edgeRequests },
      { name: "edge behind HttpRouter on BunHttpServer", port: router.port, pid: process.pid, requests: edgeRequests },
      { name: "floor: the edge's answer on Bun.serve", port: floor.port, pid: process.pid, requests: edgeRequests },
      { name: "floor: the edge's answer on the request runner's fiber", port: floorOnFiber.port, pid: process.pid, requests: edgeRequests },
    ]

    const results: Measurement[] = []
    const row = (name: string, value: number, unit: string, target?: { text: string; met: boolean }, note?: string): Measurement => ({
      name,
      value: Math.round(value * 1000) / 1000,
      unit,
      ...(target ? { target: target.text, met: target.met } : {}),
      ...(note ? { note } : {}),
    })
    // both builds as child processes, served alike, when an earlier build is given
    const builds: Array<{ label: string; server: BuildServer }> = []
    if (BASE_ROOT !== undefined) {
      for (const [label, root] of [["this build", THIS_ROOT], [`build before (${BASE_ROOT})`, BASE_ROOT]] as const) {
        const server = await startBuildServer({ root, programs: "synthetic", keys: KEYS })
        stops.push(() => server.stop())
        builds.push({ label, server })
      }
    }
    const buildVariant = (b: { label: string; server: BuildServer }): Variant => ({
      name: b.label,
      port: b.server.port,
      pid: b.server.pid,
      requests: (path) => b.server.keys.map((key) => rawPost(`/api/v1/${path}`, path === "quote" ? quoteBody : swapBody, { "x-api-key": key })),
    })
    const [bareRun, edgeQuote, edgeSwap, routerQuote, floorRun, floorFiberRun, ...buildRuns] = await measureInterleaved([
      () => measureOnce(variants[0]!, "quote", true),
      () => measureOnce(variants[1]!, "quote", true),
      () => measureOnce(variants[1]!, "swap", false),
      () => measureOnce(variants[2]!, "quote", true),
      () => measureOnce(variants[3]!, "quote", "only"),
      () => measureOnce(variants[4]!, "quote", "only"),
      ...builds.map((b) => () => measureOnce(buildVariant(b), "quote", true)),
    ]) as [VariantResult, VariantResult, VariantResult, VariantResult, VariantResult, VariantResult, ...VariantResult[]]
    const failures = (r: { bad: number }) => (r.bad > 0 ? `${r.bad} failed responses` : undefined)
    const share = (r: VariantResult) => `${Math.round((100 * r.rps) / bareRun.rps)}% of bare Bun.serve`

    results.push(
      row("bare Bun.serve, p50 @16 conns", bareRun.p50, "ms", undefined, `framework ceiling; median of ${ROUNDS} interleaved rounds`),
      row("bare Bun.serve, p99 @16 conns", bareRun.p99, "ms"),
      row(`bare Bun.serve, throughput @${SATURATION_CONNECTIONS} conns`, bareRun.rps, "req/s", undefined, failures(bareRun)),
      row(`bare Bun.serve, CPU per request @${SATURATION_CONNECTIONS} conns`, bareRun.cpuUs, "µs", undefined, CPU_NOTE),
      row("/quote p50 @16 conns", edgeQuote.p50, "ms", { text: `<= ${QUOTE_P50_MS}`, met: edgeQuote.p50 <= QUOTE_P50_MS }, "edge on Bun.serve, synthetic programs"),
      row("/quote p99 @16 conns", edgeQuote.p99, "ms", { text: `<= ${QUOTE_P99_MS}`, met: edgeQuote.p99 <= QUOTE_P99_MS }),
      row(`/quote throughput @${SATURATION_CONNECTIONS} conns`, edgeQuote.rps, "req/s", { text: `>= ${QUOTE_RPS}`, met: edgeQuote.rps >= QUOTE_RPS && edgeQuote.bad === 0 },
        failures(edgeQuote) ?? share(edgeQuote)),
      row(`/quote CPU per request @${SATURATION_CONNECTIONS} conns`, edgeQuote.cpuUs, "µs", undefined, `${(edgeQuote.cpuUs / bareRun.cpuUs).toFixed(1)}× bare Bun.serve's; ${CPU_NOTE}`),
      row("/swap p50 @16 conns", edgeSwap.p50, "ms", { text: `<= ${SWAP_P50_MS}`, met: edgeSwap.p50 <= SWAP_P50_MS && edgeSwap.bad === 0 }, failures(edgeSwap)),
      row("/swap p99 @16 conns", edgeSwap.p99, "ms"),
      row("HttpRouter variant /quote p50 @16 conns", routerQuote.p50, "ms", undefined, "the same edge behind @effect/platform HttpRouter on BunHttpServer, tracing span off (not served)"),
      row("HttpRouter variant /quote p99 @16 conns", routerQuote.p99, "ms"),
      row(`HttpRouter variant /quote throughput @${SATURATION_CONNECTIONS} conns`, routerQuote.rps, "req/s", undefined, failures(routerQuote) ?? share(routerQuote)),
      row("the edge alone (synthetic programs), share of bare", (100 * edgeQuote.rps) / bareRun.rps, "%", { text: `>= ${EDGE_SHARE_PCT}`, met: (100 * edgeQuote.rps) / bareRun.rps >= EDGE_SHARE_PCT && edgeQuote.bad === 0 },
        `/quote throughput @${SATURATION_CONNECTIONS} conns over bare Bun.serve's, same rounds`),
      row(`floor: the edge's answer on Bun.serve, throughput @${SATURATION_CONNECTIONS} conns`, floorRun.rps, "req/s", undefined,
        failures(floorRun) ?? `${share(floorRun)}; the body read and parsed, the key header read, the edge's /quote answer (${answer.length} bytes) written with JSON.stringify, with its six headers: what any server of this answer does`),
      row(`floor: the edge's answer on Bun.serve, CPU per request @${SATURATION_CONNECTIONS} conns`, floorRun.cpuUs, "µs", undefined, `${(floorRun.cpuUs / bareRun.cpuUs).toFixed(1)}× bare Bun.serve's`),
      row(`floor: the same on the request runner's fiber, throughput @${SATURATION_CONNECTIONS} conns`, floorFiberRun.rps, "req/s", undefined,
        failures(floorFiberRun) ?? `${share(floorFiberRun)}; one Effect program per request, forked as the edge's are`),
      row(`floor: the same on the request runner's fiber, CPU per request @${SATURATION_CONNECTIONS} conns`, floorFiberRun.cpuUs, "µs", undefined, `${(floorFiberRun.cpuUs / bareRun.cpuUs).toFixed(1)}× bare Bun.serve's`),
      row("the edge's own CPU per /quote, over the floor on the fiber", edgeQuote.cpuUs - floorFiberRun.cpuUs, "µs", undefined,
        "what the edge's code adds to any server of its answer: admission, the key and its limits, the request's fields, the program under its budget, the answer written and signed"),
    )
    builds.forEach((b, i) => {
      const r = buildRuns[i]!
      const pct = (100 * r.rps) / bareRun.rps
      results.push(
        row(`the edge alone, share of bare (${b.label})`, pct, "%", { text: `>= ${EDGE_SHARE_PCT}`, met: pct >= EDGE_SHARE_PCT && r.bad === 0 }, failures(r) ?? `${Math.round(r.rps)} req/s; child process, same rounds`),
        row(`/quote p50 @16 conns (${b.label})`, r.p50, "ms", { text: `<= ${QUOTE_P50_MS}`, met: r.p50 <= QUOTE_P50_MS }),
        row(`/quote CPU per request @${SATURATION_CONNECTIONS} conns (${b.label})`, r.cpuUs, "µs", undefined, `the child's process; ${CPU_NOTE}`),
      )
    })
    if (builds.length === 2) {
      results.push(
        row("the edge alone, this build over the build before", buildRuns[0]!.rps / buildRuns[1]!.rps, "x", undefined, "throughput ratio, same rounds"),
        row("the edge alone, CPU per /quote: the build before over this build", buildRuns[1]!.cpuUs / buildRuns[0]!.cpuUs, "x", undefined, "CPU ratio, same rounds"),
      )
    }
    return results
  } finally {
    for (const stop of stops.reverse()) await stop()
    rmSync(dir, { recursive: true, force: true })
  }
}

if (import.meta.main && process.argv[2] !== "--load") {
  for (const m of await run()) console.log(m)
}
