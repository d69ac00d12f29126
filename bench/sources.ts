// The aggregator clients' own cost: a 0x quote and a KyberSwap quote (routes,
// then build) against a local server answering at once, one after another, so
// the figures are the client's (HTTP client, body read, answer decoding, the
// source's budget, breaker and metrics), not an aggregator's.
import { Effect } from "effect"
import { getAddress } from "viem"
import { kyberSwapSource, zeroExSource, type Source } from "../src/sources/index.ts"
import type { SourceRequest } from "../src/pricer/index.ts"
import { percentile, type Measurement } from "./measurement.ts"
import type { World } from "../src/domain/index.ts"

const QUOTES = 2_000
const WARM_UP = 300
const ROUTER = getAddress("0x000000000000000000000000000000000000a11a")
const TOKEN_IN = getAddress("0x1111111111111111111111111111111111111111")
const TOKEN_OUT = getAddress("0x2222222222222222222222222222222222222222")
const EXECUTOR = getAddress("0x00000000000000000000000000000000000e0e0e")
/** calldata of a realistic size: a few hops */
const CALLDATA = `0x12345678${"ab".repeat(1_500)}`

const zeroExAnswer = JSON.stringify({
  liquidityAvailable: true,
  chainId: 5042,
  sellToken: TOKEN_IN,
  buyToken: TOKEN_OUT,
  sellAmount: "1000000",
  buyAmount: "990000",
  allowanceTarget: ROUTER,
  transaction: { to: ROUTER, data: CALLDATA, gas: "180000", gasPrice: "1000000000", value: "0" },
})
const summary = { tokenIn: TOKEN_IN, amountIn: "1000000", tokenOut: TOKEN_OUT, amountOut: "990500", gas: "170000", route: [[{ pool: "0xaa", swapAmount: "1000000" }]], routeID: "r", checksum: "1" }
const kyberRoutes = JSON.stringify({ code: 0, message: "successfully", data: { routeSummary: summary, routerAddress: ROUTER } })
const kyberBuild = JSON.stringify({ code: 0, message: "successfully", data: { amountIn: "1000000", amountOut: "990000", gas: "180000", data: CALLDATA, routerAddress: ROUTER, transactionValue: "0" } })

const request: SourceRequest = {
  tokenIn: TOKEN_IN,
  tokenOut: TOKEN_OUT,
  amountIn: 1_000_000n,
  snapshot: { gasPriceWei: 1_000_000_000n, executor: { address: EXECUTOR, allowedRouters: new Set([ROUTER.toLowerCase()]) } } as unknown as World,
  nativeToTokenOut: (wei) => wei / 10n ** 12n,
  slippageBps: 50,
}

const measure = async (source: Source) => {
  for (let i = 0; i < WARM_UP; i++) await Effect.runPromise(source.quote(request))
  const times: number[] = []
  const cpu = process.cpuUsage()
  for (let i = 0; i < QUOTES; i++) {
    const started = performance.now()
    await Effect.runPromise(source.quote(request))
    times.push(performance.now() - started)
  }
  const used = process.cpuUsage(cpu)
  return { p50: percentile(times, 50), p99: percentile(times, 99), cpuMs: (used.user + used.system) / 1_000 / QUOTES }
}

export async function run(): Promise<Measurement[]> {
  const json = (body: string) => new Response(body, { headers: { "content-type": "application/json" } })
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: (req) => {
      const path = new URL(req.url).pathname
      return json(path.endsWith("/routes") ? kyberRoutes : path.endsWith("/build") ? kyberBuild : zeroExAnswer)
    },
  })
  try {
    const context = { chainId: 5042, executor: EXECUTOR }
    const url = `http://127.0.0.1:${server.port}`
    const zeroEx = await measure(zeroExSource({ name: "bench-0x", kind: "0x-v2", url, apiKey: "bench", timeoutMs: 10_000 }, context))
    const kyber = await measure(kyberSwapSource({ name: "bench-kyber", kind: "kyberswap", url: `${url}/arc`, timeoutMs: 10_000 }, context))
    const note = "loopback, server in the same process, answers at once; CPU of both sides"
    return [
      { name: "0x quote p50", value: zeroEx.p50, unit: "ms", note },
      { name: "0x quote p99", value: zeroEx.p99, unit: "ms" },
      { name: "0x quote CPU", value: zeroEx.cpuMs, unit: "ms/quote" },
      { name: "KyberSwap quote (2 calls) p50", value: kyber.p50, unit: "ms" },
      { name: "KyberSwap quote CPU", value: kyber.cpuMs, unit: "ms/quote" },
    ]
  } finally {
    server.stop(true)
  }
}
