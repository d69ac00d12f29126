// Two external sources at once, both over the pool only the aggregators know:
// the devnet's 0x-shaped aggregator and a local server speaking KyberSwap's
// v1 shape (routes, then build) with real SwapRouter calldata. Both are asked
// in parallel; with the same output the one needing less gas wins, and its
// calldata, sent on chain through the executor, pays exactly.
import { afterAll, beforeAll, expect, test } from "bun:test"
import { Effect, Either, Layer } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { erc20Abi, getAddress, type Address, type Hex } from "viem"
import { startApiServer, type RunningApi } from "../../src/api/index.ts"
import { makeAggregatorLiquidity, testAccounts, type Manifest } from "../../src/devnet/index.ts"
import { externalRouteGas, sourceCounts } from "../../src/sources/index.ts"
import { chainSettings } from "../../src/config/index.ts"
import { livePrograms } from "../../src/swap/live.ts"
import { startTestDevnet, type TestDevnet } from "../support/devnet.ts"

let devnet: TestDevnet
let api: RunningApi
let kyber: ReturnType<typeof Bun.serve>
let key: string
let dir: string
let m: Manifest
const kyberCalls: string[] = []
/** the gas this server reports: less than the 0x-shaped one does for the same swap */
const KYBER_GAS_OVERHEAD = 20_000n

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } })

beforeAll(async () => {
  devnet = await startTestDevnet()
  m = devnet.manifest
  const dex = m.aggregatorDex!
  const address = (symbol: string) => getAddress(m.tokens[symbol]!.address)
  const liquidity = makeAggregatorLiquidity({
    rpcUrl: m.rpcUrl,
    quoter: getAddress(dex.quoter),
    router: getAddress(dex.router),
    pools: dex.pools.map((p) => ({ address: getAddress(p.pool), tokens: [address(p.tokens[0]), address(p.tokens[1])] as const, fee: p.fee! })),
  })
  kyber = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const url = new URL(request.url)
      kyberCalls.push(`${request.method} ${url.pathname}`)
      if (request.method === "GET" && url.pathname === "/arc/api/v1/routes") {
        const tokenIn = getAddress(url.searchParams.get("tokenIn")!)
        const tokenOut = getAddress(url.searchParams.get("tokenOut")!)
        const amountIn = BigInt(url.searchParams.get("amountIn")!)
        const found = await liquidity.quote(tokenIn, tokenOut, amountIn)
        if (found === undefined) return json({ code: 4008, message: "route not found" }, 400)
        const gas = (found.swapGas + KYBER_GAS_OVERHEAD).toString()
        return json({
          code: 0,
          message: "successfully",
          data: {
            routeSummary: {
              tokenIn, amountIn: amountIn.toString(), tokenOut, amountOut: found.amountOut.toString(), gas, gasPrice: "1000000000", gasUsd: "0",
              extraFee: { feeAmount: "", chargeFeeBy: "", isInBps: false, feeReceiver: "" },
              route: [[{ pool: found.pool.address, tokenIn, tokenOut, swapAmount: amountIn.toString(), amountOut: found.amountOut.toString(), exchange: "uniswapv3", poolType: "uniswapv3" }]],
            },
            routerAddress: liquidity.router,
          },
        })
      }
      if (request.method === "POST" && url.pathname === "/arc/api/v1/route/build") {
        const body = (await request.json()) as any
        const summary = body.routeSummary
        const found = await liquidity.quote(getAddress(summary.tokenIn), getAddress(summary.tokenOut), BigInt(summary.amountIn))
        if (found === undefined) return json({ code: 4008, message: "route not found" }, 400)
        const data = liquidity.encodeSwap({
          pool: found.pool,
          tokenIn: getAddress(summary.tokenIn),
          tokenOut: getAddress(summary.tokenOut),
          amountIn: BigInt(summary.amountIn),
          amountOutMinimum: (found.amountOut * BigInt(10_000 - body.slippageTolerance)) / 10_000n,
          recipient: getAddress(body.recipient),
          deadline: BigInt(body.deadline),
        })
        return json({
          code: 0,
          message: "successfully",
          data: { amountIn: summary.amountIn, amountOut: found.amountOut.toString(), gas: (found.swapGas + KYBER_GAS_OVERHEAD).toString(), gasUsd: "0", data, routerAddress: liquidity.router, transactionValue: "0" },
        })
      }
      return json({ code: 404, message: "not found" }, 404)
    },
  })
  dir = mkdtempSync(join(tmpdir(), "kyber-"))
  const aggregators = [...m.aggregators, { name: "kyber-local", kind: "kyberswap", url: `http://127.0.0.1:${kyber.port}/arc`, apiKey: "arc-tests" }]
  const settings = Either.getOrThrow(chainSettings({ AGGREGATORS: JSON.stringify(aggregators) }, m))
  api = await startApiServer({ programs: livePrograms(settings).pipe(Layer.orDie), env: { PORT: "0", DATABASE_URL: join(dir, "keys.sqlite"), LOG_LEVEL: "error" } })
  key = (await Effect.runPromise(api.keys.create({ name: "kyber", rpm: 100_000 }))).key
})

afterAll(async () => {
  await api?.stop()
  await kyber?.stop(true)
  await devnet?.stop()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

const post = async (path: "quote" | "swap", body: Record<string, unknown>) => {
  const res = await fetch(`${api.baseUrl}/${path}`, { method: "POST", headers: { "content-type": "application/json", "x-api-key": key }, body: JSON.stringify(body) })
  return { status: res.status, body: (await res.json()) as any }
}

test("both aggregators are asked at once; the same output for less gas wins; its calldata pays exactly on chain", async () => {
  const weth = getAddress(m.tokens.WETH!.address)
  const usdt = getAddress(m.tokens.USDT!.address)
  const trade = { tokenIn: weth, tokenOut: usdt, amountIn: (2n * 10n ** 18n).toString() }
  const asked0x = devnet.aggregator.requests()
  const before = await Effect.runPromise(sourceCounts("kyber-local"))

  const quote = await post("quote", trade)
  expect(quote.status).toBe(200)
  expect(quote.body.route[0].hops[0].dex).toBe("kyber-local")
  expect(devnet.aggregator.requests()).toBe(asked0x + 1)
  expect(kyberCalls.slice(-2)).toEqual(["GET /arc/api/v1/routes", "POST /arc/api/v1/route/build"])
  // the same pool behind both: the same output; the executor's gas model on the aggregator's own figure
  const params = new URLSearchParams({ chainId: "5042", sellToken: weth, buyToken: usdt, sellAmount: trade.amountIn, taker: m.executor })
  const zeroEx = (await (await fetch(`${devnet.aggregator.url}/swap/allowance-holder/quote?${params}`, { headers: { "0x-api-key": m.aggregators[0]!.apiKey! } })).json()) as any
  expect(quote.body.grossAmountOut).toBe(zeroEx.buyAmount)
  expect(BigInt(quote.body.gasEstimate)).toBeLessThan(externalRouteGas(BigInt(zeroEx.transaction.gas)))

  const sender = testAccounts[0]!.address
  const swap = await post("swap", { ...trade, sender })
  expect(swap.status).toBe(200)
  expect(swap.body.simulated).toBe(true)
  expect(swap.body.route[0].hops[0].dex).toBe("kyber-local")
  const approve = await devnet.client.writeContract({ address: weth, abi: erc20Abi, functionName: "approve", args: [m.executor as Address, BigInt(trade.amountIn)], account: sender, chain: devnet.client.chain })
  await devnet.client.waitForTransactionReceipt({ hash: approve, pollingInterval: 20 })
  const start = await devnet.client.readContract({ address: usdt, abi: erc20Abi, functionName: "balanceOf", args: [sender] })
  const hash = await devnet.client.sendTransaction({ account: sender, to: swap.body.tx.to, data: swap.body.tx.data as Hex, gas: BigInt(swap.body.tx.gas), chain: devnet.client.chain })
  expect((await devnet.client.waitForTransactionReceipt({ hash, pollingInterval: 20 })).status).toBe("success")
  const end = await devnet.client.readContract({ address: usdt, abi: erc20Abi, functionName: "balanceOf", args: [sender] })
  expect(end - start).toBe(BigInt(swap.body.amountOut))

  const after = await Effect.runPromise(sourceCounts("kyber-local"))
  expect(after.wins - before.wins).toBe(2)
  expect(after.requests - before.requests).toBe(2)
})

test("a pair neither aggregator knows: route not found is no route, and the own router answers", async () => {
  const errors = (await Effect.runPromise(sourceCounts("kyber-local"))).errors
  const res = await post("quote", { tokenIn: m.tokens.USDC!.address, tokenOut: m.tokens.EURC!.address, amountIn: "1000000000" })
  expect(res.status).toBe(200)
  expect(res.body.route[0].hops[0].dex).toMatch(/^uniswap-/)
  expect(kyberCalls.at(-1)).toBe("GET /arc/api/v1/routes")
  expect((await Effect.runPromise(sourceCounts("kyber-local"))).errors).toBe(errors)
})
