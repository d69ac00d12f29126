// Exact output with an external aggregator competing, over real HTTP on the devnet: the devnet's
// 0x-shaped aggregator, asked with buyAmount, knows a WETH/USDT pool (3550 USDT per WETH) the
// service's market never sees (its own pools: about 3500). Paying exactly some USDT from WETH,
// the aggregator needs less WETH and wins: its route runs as one kind 7 hop, and the transaction,
// sent exactly as returned, pays the recipient exactly amountOut. Buying exactly some WETH with
// USDT, the own router needs less and wins.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Effect, Either, Layer } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { erc20Abi, getAddress, parseEventLogs, type Address, type Hex, type TransactionReceipt } from "viem"
import { startApiServer, type RunningApi } from "../../src/api/index.ts"
import { decodeExecuteExactOutput } from "../../src/chain/exact-output-call.ts"
import { routeExecutorAbi } from "../../src/chain/execute-call.ts"
import { chainSettings } from "../../src/config/index.ts"
import { DEVNET_AGGREGATOR_API_KEY, testAccounts, type Manifest } from "../../src/devnet/index.ts"
import { sourceCounts } from "../../src/sources/index.ts"
import { livePrograms } from "../../src/swap/live.ts"
import { startTestDevnet, type TestDevnet } from "../support/devnet.ts"

let devnet: TestDevnet
let api: RunningApi
let key: string
let dir: string
let m: Manifest

const SOURCE = "devnet-0x"

beforeAll(async () => {
  devnet = await startTestDevnet()
  m = devnet.manifest
  dir = mkdtempSync(join(tmpdir(), "external-exact-output-"))
  const aggregators = [{ ...m.aggregators[0]!, timeoutMs: 1_500 }]
  const settings = Either.getOrThrow(chainSettings({ AGGREGATORS: JSON.stringify(aggregators) }, m))
  api = await startApiServer({
    programs: livePrograms(settings).pipe(Layer.orDie),
    env: { PORT: "0", DATABASE_URL: join(dir, "keys.sqlite"), LOG_LEVEL: "error" },
  })
  key = (await Effect.runPromise(api.keys.create({ name: "external-exact-output", rpm: 100_000, concurrency: 8 }))).key
})

afterAll(async () => {
  await api?.stop()
  await devnet?.stop()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

const post = async (path: "quote" | "swap" | "sources", body: Record<string, unknown>) => {
  const res = await fetch(`${api.baseUrl}/${path}`, { method: "POST", headers: { "content-type": "application/json", "x-api-key": key }, body: JSON.stringify(body) })
  return { status: res.status, body: (await res.json()) as any }
}
const token = (symbol: string) => getAddress(m.tokens[symbol]!.address)
const balanceOf = (asset: Address, holder: Address) => devnet.client.readContract({ address: asset, abi: erc20Abi, functionName: "balanceOf", args: [holder] })
const deadline = () => Math.floor(Date.now() / 1000) + 600
const hopsOf = (body: any): Array<{ dex: string; pool: string | null }> => body.route.flatMap((split: any) => split.hops)

/** What the aggregator itself answers for an exact buy with the executor as taker. */
const aggregatorBuy = async (sellToken: Address, buyToken: Address, buyAmount: bigint, slippageBps: number) => {
  const params = new URLSearchParams({ chainId: "5042", sellToken, buyToken, buyAmount: buyAmount.toString(), taker: m.executor, slippageBps: String(slippageBps) })
  const res = await fetch(`${devnet.aggregator.url}/swap/allowance-holder/quote?${params}`, { headers: { "0x-api-key": DEVNET_AGGREGATOR_API_KEY } })
  return (await res.json()) as any
}

/** Sends a /swap answer as a client would: the approval it asks for, then the transaction exactly as returned. */
const execute = async (swap: any, from: Address): Promise<TransactionReceipt> => {
  const approve = await devnet.client.writeContract({ address: swap.approval.token, abi: erc20Abi, functionName: "approve", args: [swap.approval.spender, BigInt(swap.approval.amount)], account: from, chain: devnet.client.chain })
  await devnet.client.waitForTransactionReceipt({ hash: approve, pollingInterval: 20 })
  const hash = await devnet.client.sendTransaction({ account: from, to: swap.tx.to as Address, data: swap.tx.data as Hex, value: BigInt(swap.tx.value), gas: BigInt(swap.tx.gas), chain: devnet.client.chain })
  const receipt = await devnet.client.waitForTransactionReceipt({ hash, pollingInterval: 20 })
  expect(receipt.status).toBe("success")
  return receipt
}
const swapEvent = (receipt: TransactionReceipt) => {
  const [event] = parseEventLogs({ abi: routeExecutorAbi, logs: receipt.logs, eventName: "Swap" }) as unknown as [{ args: { amountIn: bigint; amountOut: bigint } }]
  return event.args
}

describe("exact output with the aggregator competing", () => {
  test("/sources: the 0x-shaped aggregator competes on both trade types", async () => {
    const res = await post("sources", {})
    expect(res.body.sources.find((s: any) => s.name === SOURCE).tradeTypes).toEqual(["exactInput", "exactOutput"])
  })

  test("pay exactly 3000 USDT from WETH: the aggregator's pool needs less WETH and wins; sent as returned, the recipient gets exactly amountOut, the sender pays exactly the route's need, the fees as answered, the executor keeps nothing", async () => {
    const amountOut = 3_000_000_000n
    const body = { tokenIn: token("WETH"), tokenOut: token("USDT"), amountOut: amountOut.toString(), slippageBps: 100, feeBps: 30 }
    const wins = (await Effect.runPromise(sourceCounts(SOURCE))).wins
    const quote = await post("quote", { ...body, feeRecipient: testAccounts[5]!.address })
    expect(quote.status).toBe(200)
    expect(quote.body.tradeType).toBe("exactOutput")
    expect(quote.body.route).toEqual([{ shareBps: 10_000, hops: [{ dex: SOURCE, pool: null, tokenIn: token("WETH"), tokenOut: token("USDT") }] }])
    // what the aggregator asks for the gross output (the fees on top of amountOut)
    const gross = BigInt(quote.body.grossAmountOut)
    expect(gross).toBeGreaterThan(amountOut)
    const theirs = await aggregatorBuy(token("WETH"), token("USDT"), gross, 100)
    expect(quote.body.amountIn).toBe(theirs.sellAmount)
    expect(BigInt(quote.body.maxAmountIn)).toBeGreaterThanOrEqual(BigInt(theirs.maxSellAmount))
    // the own router's answer for the same payment needs more WETH: about 3500 USDT per WETH there
    const own = await post("quote", { ...body, feeRecipient: testAccounts[5]!.address, excludeSources: [SOURCE] })
    expect(own.status).toBe(200)
    expect(hopsOf(own.body).every((hop) => hop.dex !== SOURCE && hop.pool !== null)).toBe(true)
    expect(BigInt(own.body.amountIn)).toBeGreaterThan(BigInt(quote.body.amountIn) + 10n ** 16n)

    const sender = testAccounts[1]!.address
    const recipient = testAccounts[4]!.address
    const partner = testAccounts[5]!.address
    const swap = await post("swap", { ...body, feeRecipient: partner, sender, recipient, deadline: deadline() })
    expect(swap.status).toBe(200)
    expect(swap.body.simulated).toBe(true)
    expect(swap.body.route).toEqual(quote.body.route)
    expect(swap.body.amountOut).toBe(amountOut.toString())
    expect(swap.body.approval).toEqual({ token: token("WETH"), spender: getAddress(m.executor), amount: swap.body.maxAmountIn })
    // the transaction: one kind 7 hop to Uniswap's SwapRouter with the aggregator's ceiling
    const decoded = decodeExecuteExactOutput(swap.body.tx.data)
    expect(decoded.route).toHaveLength(1)
    const hop = decoded.route[0]!.hops[0]!
    expect(hop.kind).toBe("externalExactOutput")
    if (hop.kind !== "externalExactOutput") throw new Error("not a kind 7 hop")
    const router = getAddress(m.aggregatorDex!.router)
    expect(hop.router).toBe(router)
    expect(hop.maxAmountIn).toBeLessThanOrEqual(BigInt(swap.body.maxAmountIn))
    expect(hop.maxAmountIn).toBeGreaterThan(BigInt(swap.body.amountIn))
    expect(decoded.amountOut).toBe(amountOut)
    expect(decoded.maxAmountIn).toBe(BigInt(swap.body.maxAmountIn))

    const weth = token("WETH")
    const usdt = token("USDT")
    const executor = getAddress(m.executor)
    const holders = [sender, recipient, partner, getAddress(m.feeCollector), executor] as const
    const read = () => Promise.all([...holders.map((h) => balanceOf(weth, h)), ...holders.map((h) => balanceOf(usdt, h))])
    const start = await read()
    const receipt = await execute(swap.body, sender)
    const end = await read()
    const d = end.map((e, i) => e - start[i]!)
    const paid = BigInt(swap.body.amountIn)
    // WETH: the sender paid exactly the route's need (at most maxAmountIn), the ceiling's rest came back in the same transaction
    expect(d.slice(0, 5)).toEqual([-paid, 0n, 0n, 0n, 0n])
    expect(paid).toBeLessThanOrEqual(BigInt(swap.body.maxAmountIn))
    // USDT: exactly amountOut to the recipient, the fees as answered, nothing kept
    expect(d.slice(5)).toEqual([0n, amountOut, BigInt(swap.body.fees.partnerAmount), BigInt(swap.body.fees.protocolAmount), 0n])
    expect(swapEvent(receipt)).toMatchObject({ amountIn: paid, amountOut })
    expect(await devnet.client.readContract({ address: weth, abi: erc20Abi, functionName: "allowance", args: [executor, router] })).toBe(0n)
    expect((await Effect.runPromise(sourceCounts(SOURCE))).wins - wins).toBe(2)
  })

  test("buy exactly 1 WETH with USDT: the aggregator has a route, the own router's needs less and is taken", async () => {
    const amountOut = 10n ** 18n
    const body = { tokenIn: token("USDT"), tokenOut: token("WETH"), amountOut: amountOut.toString(), slippageBps: 100 }
    const asked = devnet.aggregator.requests()
    const quote = await post("quote", body)
    expect(quote.status).toBe(200)
    expect(devnet.aggregator.requests()).toBe(asked + 1)
    expect(hopsOf(quote.body).every((hop) => hop.dex !== SOURCE && hop.pool !== null)).toBe(true)
    const theirs = await aggregatorBuy(token("USDT"), token("WETH"), BigInt(quote.body.grossAmountOut), 100)
    expect(theirs.liquidityAvailable).toBe(true)
    expect(BigInt(theirs.sellAmount)).toBeGreaterThan(BigInt(quote.body.amountIn))

    const sender = testAccounts[2]!.address
    const recipient = testAccounts[6]!.address
    const swap = await post("swap", { ...body, sender, recipient, deadline: deadline() })
    expect(swap.status).toBe(200)
    expect(hopsOf(swap.body).every((hop) => hop.dex !== SOURCE)).toBe(true)
    expect(decodeExecuteExactOutput(swap.body.tx.data).route.flatMap((s) => s.hops).some((h) => h.kind === "externalExactOutput")).toBe(false)
    const start = await Promise.all([balanceOf(token("WETH"), recipient), balanceOf(token("USDT"), sender)])
    await execute(swap.body, sender)
    const end = await Promise.all([balanceOf(token("WETH"), recipient), balanceOf(token("USDT"), sender)])
    expect(end[0]! - start[0]!).toBe(amountOut)
    expect(start[1]! - end[1]!).toBe(BigInt(swap.body.amountIn))
  })

  test("an aggregator quoting less input than its calldata takes (within the slippage): /swap's simulation finds it out and the own router's route is sent instead", async () => {
    const amountOut = 3_000_000_000n
    const body = { tokenIn: token("WETH"), tokenOut: token("USDT"), amountOut: amountOut.toString(), slippageBps: 100 }
    devnet.aggregator.setMode({ mode: "lying", lieBps: 50 })
    try {
      const before = await Effect.runPromise(sourceCounts(SOURCE))
      // the lie wins the quote
      const quote = await post("quote", body)
      expect(quote.body.route[0].hops[0].dex).toBe(SOURCE)
      const sender = testAccounts[3]!.address
      const swap = await post("swap", { ...body, sender, deadline: deadline() })
      expect(swap.status).toBe(200)
      expect(hopsOf(swap.body).every((hop) => hop.dex !== SOURCE && hop.pool !== null)).toBe(true)
      expect((await Effect.runPromise(sourceCounts(SOURCE))).rejected - before.rejected).toBe(1)
      const recipient = testAccounts[3]!.address
      const start = await balanceOf(token("USDT"), recipient)
      await execute(swap.body, sender)
      expect((await balanceOf(token("USDT"), recipient)) - start).toBe(amountOut)
    } finally {
      devnet.aggregator.setMode({ mode: "honest" })
    }
  })
})
