// External aggregators as route sources, over real HTTP on the devnet: the
// devnet's 0x-shaped aggregator knows a WETH/USDT pool the service's market
// never sees. The service takes its route when it is better (and the
// transaction, sent on chain, pays exactly what the response says), takes its
// own when that is better, and answers from its own router when the
// aggregator is slow, down, failing or lying.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Effect, Either, Layer } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { erc20Abi, getAddress, type Address, type Hex } from "viem"
import { startApiServer, type RunningApi } from "../../src/api/index.ts"
import { decodeExecute } from "../../src/chain/execute-call.ts"
import { DEVNET_AGGREGATOR_API_KEY, testAccounts, type Manifest } from "../../src/devnet/index.ts"
import { sourceCounts, type SourceCounts } from "../../src/sources/index.ts"
import { chainSettings } from "../../src/config/index.ts"
import { livePrograms } from "../../src/swap/live.ts"
import { startTestDevnet, type TestDevnet } from "../support/devnet.ts"

let devnet: TestDevnet
let api: RunningApi
let key: string
let dir: string
let m: Manifest

const SOURCE = "devnet-0x"
const TIMEOUT_MS = 400
const COOLDOWN_MS = 500

beforeAll(async () => {
  devnet = await startTestDevnet()
  m = devnet.manifest
  dir = mkdtempSync(join(tmpdir(), "external-"))
  // the manifest's aggregator, configured as a deployment would: through AGGREGATORS
  const aggregators = [{ ...m.aggregators[0]!, timeoutMs: TIMEOUT_MS, failureThreshold: 3, cooldownMs: COOLDOWN_MS }]
  const settings = Either.getOrThrow(chainSettings({ AGGREGATORS: JSON.stringify(aggregators) }, m))
  api = await startApiServer({
    programs: livePrograms(settings).pipe(Layer.orDie),
    env: { PORT: "0", DATABASE_URL: join(dir, "keys.sqlite"), LOG_LEVEL: "error" },
  })
  key = (await Effect.runPromise(api.keys.create({ name: "external", rpm: 100_000, concurrency: 8 }))).key
})

afterAll(async () => {
  await api?.stop()
  await devnet?.stop()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

const post = async (path: "quote" | "swap", body: Record<string, unknown>) => {
  const res = await fetch(`${api.baseUrl}/${path}`, { method: "POST", headers: { "content-type": "application/json", "x-api-key": key }, body: JSON.stringify(body) })
  return { status: res.status, body: (await res.json()) as any }
}
const token = (symbol: string) => getAddress(m.tokens[symbol]!.address)
const balanceOf = (asset: Address, holder: Address) => devnet.client.readContract({ address: asset, abi: erc20Abi, functionName: "balanceOf", args: [holder] })
const counts = () => Effect.runPromise(sourceCounts(SOURCE))
const delta = (after: SourceCounts, before: SourceCounts) =>
  Object.fromEntries(Object.entries(after).map(([k, v]) => [k, v - before[k as keyof SourceCounts]])) as unknown as SourceCounts
const deadline = () => Math.floor(Date.now() / 1000) + 600

const ONE_WETH = 10n ** 18n
const wethToUsdt = { tokenIn: "", tokenOut: "", amountIn: ONE_WETH.toString() }
beforeAll(() => {
  wethToUsdt.tokenIn = token("WETH")
  wethToUsdt.tokenOut = token("USDT")
})

const dexes = (body: any): string[] => body.route.flatMap((split: any) => split.hops.map((hop: any) => hop.dex))
/**
 * The source of a response's route: the aggregator's answer is shown as hops named after it,
 * without a pool; the own router's hops each name one of the manifest's venues (of any kind:
 * uniswap-v2, arcade-v2, synthra-v3, xylonet, …) and its pool. A /swap transaction runs the
 * aggregator's route as an external hop and never runs the own router's that way.
 */
const routeSource = (body: any): "router" | typeof SOURCE | "mixed" => {
  const hops: { dex: string; pool: string | null }[] = body.route.flatMap((split: any) => split.hops)
  const external = body.tx === undefined ? undefined : decodeExecute(body.tx.data).route.some((split) => split.hops.some((hop) => hop.kind === "external"))
  if (hops.length > 0 && hops.every((hop) => hop.dex === SOURCE && hop.pool === null) && external !== false) return SOURCE
  if (hops.length > 0 && hops.every((hop) => Object.hasOwn(m.dexes, hop.dex) && hop.pool !== null) && external !== true) return "router"
  return "mixed"
}
const ownRoute = (body: any) => routeSource(body) === "router"

/** What the aggregator itself answers for the executor as taker. */
const aggregatorQuote = async (sellToken: Address, buyToken: Address, sellAmount: bigint) => {
  const params = new URLSearchParams({ chainId: "5042", sellToken, buyToken, sellAmount: sellAmount.toString(), taker: m.executor })
  const res = await fetch(`${devnet.aggregator.url}/swap/allowance-holder/quote?${params}`, { headers: { "0x-api-key": DEVNET_AGGREGATOR_API_KEY } })
  return (await res.json()) as any
}

/** Sends a /swap answer as a client would: approve, then the transaction exactly as returned. */
const execute = async (swap: any, from: Address) => {
  const approve = await devnet.client.writeContract({ address: swap.approval.token, abi: erc20Abi, functionName: "approve", args: [swap.approval.spender, BigInt(swap.approval.amount)], account: from, chain: devnet.client.chain })
  await devnet.client.waitForTransactionReceipt({ hash: approve, pollingInterval: 20 })
  const hash = await devnet.client.sendTransaction({ account: from, to: swap.tx.to as Address, data: swap.tx.data as Hex, value: BigInt(swap.tx.value), gas: BigInt(swap.tx.gas), chain: devnet.client.chain })
  const receipt = await devnet.client.waitForTransactionReceipt({ hash, pollingInterval: 20 })
  expect(receipt.status).toBe("success")
  return receipt
}

/** While the aggregator is in a mode; always honest again afterwards. */
const whileAggregator = async <A>(mode: Parameters<TestDevnet["aggregator"]["setMode"]>[0], body: () => Promise<A>): Promise<A> => {
  devnet.aggregator.setMode(mode)
  try {
    return await body()
  } finally {
    devnet.aggregator.setMode({ mode: "honest" })
  }
}

/** The aggregator answers again and wins again (this also closes its circuit). */
const recovered = async () => {
  const res = await post("quote", wethToUsdt)
  expect(res.status).toBe(200)
  expect(dexes(res.body)).toEqual([SOURCE])
}

describe("the better route wins", () => {
  test("WETH→USDT: the pool only the aggregator knows beats the own router; the external route is sent on chain and pays exactly", async () => {
    // the own router alone, while the aggregator cannot be reached
    const own = await whileAggregator({ mode: "down" }, () => post("quote", wethToUsdt))
    expect(own.status).toBe(200)
    expect(ownRoute(own.body)).toBe(true)

    const before = await counts()
    const quote = await post("quote", wethToUsdt)
    expect(quote.status).toBe(200)
    expect(quote.body.route).toEqual([{ shareBps: 10_000, hops: [{ dex: SOURCE, pool: null, tokenIn: token("WETH"), tokenOut: token("USDT") }] }])
    expect(BigInt(quote.body.grossAmountOut)).toBe(BigInt((await aggregatorQuote(token("WETH"), token("USDT"), ONE_WETH)).buyAmount))
    // better by far more than the gas difference: 3550 against 3500 USDT per WETH
    expect(BigInt(quote.body.grossAmountOut) - BigInt(own.body.grossAmountOut)).toBeGreaterThan(40_000_000n)

    const sender = testAccounts[1]!.address
    const recipient = testAccounts[4]!.address
    const partner = testAccounts[5]!.address
    const swap = await post("swap", { ...wethToUsdt, feeBps: 30, feeRecipient: partner, sender, recipient, deadline: deadline() })
    expect(swap.status).toBe(200)
    expect(swap.body.simulated).toBe(true)
    expect(swap.body.route).toEqual(quote.body.route)
    expect(swap.body.grossAmountOut).toBe(quote.body.grossAmountOut)
    // the transaction: one external hop to Uniswap's SwapRouter, as allowlisted on the executor
    const decoded = decodeExecute(swap.body.tx.data)
    expect(decoded.route).toHaveLength(1)
    const hop = decoded.route[0]!.hops[0]!
    expect(hop.kind).toBe("external")
    if (hop.kind === "external") expect(hop.router).toBe(getAddress(m.aggregatorDex!.router))
    expect(decoded.minAmountOut).toBe(BigInt(swap.body.minAmountOut))

    const usdt = token("USDT")
    const pool = m.aggregatorDex!.pools[0]!.pool as Address
    const parties = [recipient, partner, m.feeCollector as Address] as const
    const start = await Promise.all([...parties.map((p) => balanceOf(usdt, p)), balanceOf(token("WETH"), pool)])
    await execute(swap.body, sender)
    const end = await Promise.all([...parties.map((p) => balanceOf(usdt, p)), balanceOf(token("WETH"), pool)])
    expect(end[0]! - start[0]!).toBe(BigInt(swap.body.amountOut))
    expect(end[1]! - start[1]!).toBe(BigInt(swap.body.fees.partnerAmount))
    expect(end[2]! - start[2]!).toBe(BigInt(swap.body.fees.protocolAmount))
    // the input went into the pool only the aggregator knows
    expect(end[3]! - start[3]!).toBe(ONE_WETH)
    // the executor keeps nothing and leaves the router no allowance
    expect(await balanceOf(usdt, m.executor as Address)).toBe(0n)
    expect(await balanceOf(token("WETH"), m.executor as Address)).toBe(0n)
    const allowance = await devnet.client.readContract({ address: token("WETH"), abi: erc20Abi, functionName: "allowance", args: [m.executor as Address, getAddress(m.aggregatorDex!.router)] })
    expect(allowance).toBe(0n)

    const d = delta(await counts(), before)
    expect(d.wins).toBe(2)
    expect(d.requests).toBe(2)
    expect(d.errors + d.timeouts + d.rejected).toBe(0)
  })

  test("USDT→WETH: the aggregator has a route but the own router's is better, and is taken", async () => {
    const amountIn = 3_500_000_000n
    const before = await counts()
    const asked = devnet.aggregator.requests()
    const quote = await post("quote", { tokenIn: token("USDT"), tokenOut: token("WETH"), amountIn: amountIn.toString() })
    expect(quote.status).toBe(200)
    expect(ownRoute(quote.body)).toBe(true)
    expect(devnet.aggregator.requests()).toBe(asked + 1)
    // the aggregator's route exists, and gives less
    const theirs = await aggregatorQuote(token("USDT"), token("WETH"), amountIn)
    expect(theirs.liquidityAvailable).toBe(true)
    expect(BigInt(theirs.buyAmount)).toBeLessThan(BigInt(quote.body.grossAmountOut))

    const sender = testAccounts[2]!.address
    const swap = await post("swap", { tokenIn: token("USDT"), tokenOut: token("WETH"), amountIn: amountIn.toString(), sender, deadline: deadline() })
    expect(swap.status).toBe(200)
    expect(ownRoute(swap.body)).toBe(true)
    const start = await balanceOf(token("WETH"), sender)
    await execute(swap.body, sender)
    expect((await balanceOf(token("WETH"), sender)) - start).toBe(BigInt(swap.body.amountOut))
    expect(delta(await counts(), before).wins).toBe(0)
  })
})

describe("an aggregator that misbehaves never fails a request", () => {
  test("slow: cut off at its budget; /quote answers 200 from the own router, quickly", async () => {
    const before = await counts()
    const { res, elapsed } = await whileAggregator({ mode: "slow", delayMs: 3_000 }, async () => {
      const started = performance.now()
      const res = await post("quote", wethToUsdt)
      return { res, elapsed: performance.now() - started }
    })
    expect(res.status).toBe(200)
    expect(ownRoute(res.body)).toBe(true)
    expect(elapsed).toBeGreaterThanOrEqual(TIMEOUT_MS - 10)
    expect(elapsed).toBeLessThan(TIMEOUT_MS + 600)
    const d = delta(await counts(), before)
    expect(d.timeouts).toBe(1)
    expect(d.errors).toBe(0)
    await recovered()
  })

  test("down: the connection is refused; /quote and /swap answer from the own router", async () => {
    const before = await counts()
    const [quote, swap] = await whileAggregator({ mode: "down" }, () =>
      Promise.all([post("quote", wethToUsdt), post("swap", { ...wethToUsdt, sender: testAccounts[3]!.address, deadline: deadline() })]),
    )
    expect(quote.status).toBe(200)
    expect(ownRoute(quote.body)).toBe(true)
    expect(swap.status).toBe(200)
    expect(swap.body.simulated).toBe(true)
    expect(ownRoute(swap.body)).toBe(true)
    expect(delta(await counts(), before).errors).toBe(2)
    await recovered()
  })

  for (const lieBps of [30, 500]) {
    test(`lying by ${lieBps} bps: /quote believes it, /swap's simulation catches it and falls back to the own route`, async () => {
      const before = await counts()
      const [quote, swap, honestOwn] = await whileAggregator({ mode: "lying", lieBps }, async () => {
        const quote = await post("quote", wethToUsdt)
        const sender = testAccounts[3]!.address
        const swap = await post("swap", { ...wethToUsdt, sender, deadline: deadline() })
        return [quote, swap, sender] as const
      })
      // the lie wins the comparison on paper
      expect(dexes(quote.body)).toEqual([SOURCE])
      // but its calldata delivers less than it quoted: dropped for this request, the own route answers
      expect(swap.status).toBe(200)
      expect(swap.body.simulated).toBe(true)
      expect(ownRoute(swap.body)).toBe(true)
      expect(BigInt(swap.body.grossAmountOut)).toBeLessThan(BigInt(quote.body.grossAmountOut))
      const start = await balanceOf(token("USDT"), honestOwn)
      await execute(swap.body, honestOwn)
      expect((await balanceOf(token("USDT"), honestOwn)) - start).toBe(BigInt(swap.body.amountOut))
      const d = delta(await counts(), before)
      expect(d.rejected).toBe(1)
      expect(d.wins).toBe(1) // the /quote
      await recovered()
    })
  }

  test("failing: three errors in a row open the circuit; it is skipped without a call, then probed after the cooldown", async () => {
    const before = await counts()
    await whileAggregator({ mode: "failing" }, async () => {
      for (let i = 0; i < 3; i++) {
        const res = await post("quote", wethToUsdt)
        expect(res.status).toBe(200)
        expect(ownRoute(res.body)).toBe(true)
      }
      const asked = devnet.aggregator.requests()
      const skipped = await post("quote", wethToUsdt)
      expect(skipped.status).toBe(200)
      expect(ownRoute(skipped.body)).toBe(true)
      expect(devnet.aggregator.requests()).toBe(asked)
    })
    // still open right after the aggregator has recovered
    const asked = devnet.aggregator.requests()
    expect(ownRoute((await post("quote", wethToUsdt)).body)).toBe(true)
    expect(devnet.aggregator.requests()).toBe(asked)
    await Bun.sleep(COOLDOWN_MS + 50)
    await recovered()
    expect(devnet.aggregator.requests()).toBe(asked + 1)
    const d = delta(await counts(), before)
    expect(d.errors).toBe(3)
    expect(d.circuitOpen).toBe(2)
    expect(d.wins).toBe(1)
  })
})
