// The devnet's aggregator: a 0x Swap API v2 (allowance-holder) server over a
// pool only it knows, answering with Uniswap SwapRouter calldata that delivers
// exactly what it quotes, and steerable into being slow, failing, lying or down.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { decodeFunctionData, erc20Abi, getAddress, parseAbi, zeroAddress, type Address, type Hex } from "viem"
import { uniswapArtifact } from "../../src/contracts/artifacts.ts"
import { DEVNET_AGGREGATOR_API_KEY, manifestVenue, parseScenario, planScenario, ScenarioError, testAccounts } from "../../src/devnet/index.ts"
import { startTestDevnet, type TestDevnet } from "../support/devnet.ts"

let devnet: TestDevnet
beforeAll(async () => {
  devnet = await startTestDevnet()
})
afterAll(async () => {
  await devnet?.stop()
})

const token = (symbol: string) => getAddress(devnet.manifest.tokens[symbol]!.address)
const WETH = 10n ** 18n

const quote = async (params: Record<string, string>, headers: Record<string, string> = { "0x-api-key": DEVNET_AGGREGATOR_API_KEY, "0x-version": "v2" }) => {
  const res = await fetch(`${devnet.aggregator.url}/swap/allowance-holder/quote?${new URLSearchParams(params)}`, { headers })
  return { status: res.status, body: (await res.json()) as any }
}
const wethToUsdt = (taker: Address, sellAmount = WETH) => ({
  chainId: "5042",
  sellToken: token("WETH"),
  buyToken: token("USDT"),
  sellAmount: sellAmount.toString(),
  taker,
})
/**
 * A sent swap's receipt, checked to have succeeded; when it reverted, the failure names why: the
 * call run again on the state before its block, and the block's time against the calldata's deadline.
 */
const succeeded = async (hash: Hex, sent: { readonly account: Address; readonly to: Address; readonly data: Hex }) => {
  const receipt = await devnet.client.waitForTransactionReceipt({ hash, pollingInterval: 20 })
  if (receipt.status !== "success") {
    const block = await devnet.client.getBlock({ blockNumber: receipt.blockNumber })
    const deadline = ((decodeFunctionData({ abi: uniswapArtifact("SwapRouter").abi, data: sent.data }).args as any)[0] as { deadline: bigint }).deadline
    const rerun = await devnet.client.call({ ...sent, blockNumber: receipt.blockNumber - 1n }).then(
      () => "passes on the state before its block",
      (e: { shortMessage?: string; message: string }) => e.shortMessage ?? e.message,
    )
    expect({ status: receipt.status as string, rerun, blockTime: block.timestamp, deadline }).toEqual({ status: "success", rerun: "", blockTime: 0n, deadline: 0n })
  }
  return receipt
}
const admin = (body: unknown) =>
  fetch(`${devnet.aggregator.url}/admin/mode`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })

describe("the deployment", () => {
  test("the manifest lists the aggregator and the liquidity only it knows", async () => {
    const m = devnet.manifest
    expect(m.aggregators).toEqual([{ name: "devnet-0x", kind: "0x-v2", url: devnet.aggregator.url, apiKey: DEVNET_AGGREGATOR_API_KEY }])
    expect(devnet.aggregator.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    const dex = m.aggregatorDex!
    const v3Factory = manifestVenue(m, "uniswap-v3", "uniswap-v3").factory
    expect(dex.pools.map((p) => `${p.tokens.join("/")}:${p.fee}`)).toEqual(["WETH/USDT:500"])
    expect(dex.factory).not.toBe(v3Factory)
    const factoryAbi = uniswapArtifact("UniswapV3Factory").abi
    // the pool exists on the aggregator's factory and not on the one the service's market reads
    expect(await devnet.client.readContract({ address: dex.factory as Address, abi: factoryAbi, functionName: "getPool", args: [token("WETH"), token("USDT"), 500] })).toBe(dex.pools[0]!.pool)
    expect(await devnet.client.readContract({ address: v3Factory as Address, abi: factoryAbi, functionName: "getPool", args: [token("WETH"), token("USDT"), 500] })).toBe(zeroAddress)
    // the router is Uniswap's SwapRouter from its npm artifact, over the aggregator's factory, allowlisted on the executor
    const router = dex.router as Address
    expect(await devnet.client.readContract({ address: router, abi: uniswapArtifact("SwapRouter").abi, functionName: "factory" })).toBe(getAddress(dex.factory))
    expect((await devnet.client.getCode({ address: router }))!.length).toBe(uniswapArtifact("SwapRouter").deployedBytecode.length)
    const allowed = await devnet.client.readContract({ address: m.executor as Address, abi: parseAbi(["function isRouterAllowed(address) view returns (bool)"]), functionName: "isRouterAllowed", args: [router] })
    expect(allowed).toBe(true)
  })
})

describe("the 0x v2 allowance-holder shape", () => {
  test("a quote's calldata, sent by the taker, delivers exactly buyAmount through the pool only the aggregator knows", async () => {
    const taker = testAccounts[2]!.address
    const recipient = testAccounts[5]!.address
    const { status, body } = await quote({ ...wethToUsdt(taker), recipient, slippageBps: "30" })
    expect(status).toBe(200)
    expect(body.liquidityAvailable).toBe(true)
    expect(body.chainId).toBe(5042)
    expect(body.sellToken).toBe(token("WETH"))
    expect(body.buyToken).toBe(token("USDT"))
    expect(body.sellAmount).toBe(WETH.toString())
    const router = getAddress(devnet.manifest.aggregatorDex!.router)
    expect(body.allowanceTarget).toBe(router)
    expect(body.transaction.to).toBe(router)
    expect(body.transaction.value).toBe("0")
    expect(body.issues.allowance).toEqual({ actual: "0", spender: router })
    expect(body.route.fills).toEqual([{ from: token("WETH"), to: token("USDT"), source: "Uniswap_V3", proportionBps: "10000" }])
    const buyAmount = BigInt(body.buyAmount)
    expect(BigInt(body.minBuyAmount)).toBe((buyAmount * 9970n) / 10_000n)
    // 1 WETH at 3550 USDT less the 0.05% fee and a little price impact
    expect(buyAmount).toBeGreaterThan(3_540_000_000n)
    expect(buyAmount).toBeLessThan(3_550_000_000n * 9995n / 10_000n)
    // SwapRouter.exactInputSingle to the recipient, with the minimum built in
    const call = decodeFunctionData({ abi: uniswapArtifact("SwapRouter").abi, data: body.transaction.data as Hex })
    expect(call.functionName).toBe("exactInputSingle")
    const params = (call.args as any)[0]
    expect(params.recipient).toBe(recipient)
    expect(params.amountIn).toBe(WETH)
    expect(params.amountOutMinimum).toBe(BigInt(body.minBuyAmount))

    const pool = devnet.manifest.aggregatorDex!.pools[0]!.pool as Address
    const approve = await devnet.client.writeContract({ address: token("WETH"), abi: erc20Abi, functionName: "approve", args: [router, WETH], account: taker, chain: devnet.client.chain })
    await devnet.client.waitForTransactionReceipt({ hash: approve, pollingInterval: 20 })
    const before = await Promise.all([
      devnet.client.readContract({ address: token("USDT"), abi: erc20Abi, functionName: "balanceOf", args: [recipient] }),
      devnet.client.readContract({ address: token("WETH"), abi: erc20Abi, functionName: "balanceOf", args: [pool] }),
    ])
    const hash = await devnet.client.sendTransaction({ account: taker, to: body.transaction.to, data: body.transaction.data, chain: devnet.client.chain })
    const receipt = await succeeded(hash, { account: taker, to: body.transaction.to, data: body.transaction.data })
    expect(receipt.status).toBe("success")
    const after = await Promise.all([
      devnet.client.readContract({ address: token("USDT"), abi: erc20Abi, functionName: "balanceOf", args: [recipient] }),
      devnet.client.readContract({ address: token("WETH"), abi: erc20Abi, functionName: "balanceOf", args: [pool] }),
    ])
    expect(after[0] - before[0]).toBe(buyAmount)
    expect(after[1] - before[1]).toBe(WETH)
    // the gas figure is a guide: within one cold storage write (the recipient's first USDT) of what the call used
    const gas = BigInt(body.transaction.gas)
    expect(gas - receipt.gasUsed).toBeGreaterThanOrEqual(-25_000n)
    expect(gas - receipt.gasUsed).toBeLessThanOrEqual(25_000n)
  })

  test("a buyAmount quote (0x Exact Buy): maxSellAmount is the input with the slippage on top; the calldata, sent by the taker, buys exactly buyAmount for exactly sellAmount, the rest of the ceiling untouched", async () => {
    const taker = testAccounts[2]!.address
    const recipient = testAccounts[6]!.address
    const buy = 2_000n * 10n ** 6n
    const { chainId, sellToken, buyToken } = wethToUsdt(taker)
    const { status, body } = await quote({ chainId, sellToken, buyToken, buyAmount: buy.toString(), taker, recipient, slippageBps: "50" })
    expect(status).toBe(200)
    expect(body.liquidityAvailable).toBe(true)
    expect(body.buyAmount).toBe(buy.toString())
    expect(body.minBuyAmount).toBe(buy.toString())
    const sellAmount = BigInt(body.sellAmount)
    const maxSellAmount = BigInt(body.maxSellAmount)
    expect(maxSellAmount).toBe((sellAmount * 10_050n + 9_999n) / 10_000n)
    // 2000 USDT at 3550 per WETH and the 0.05% fee: a little over 0.5637 WETH
    expect(sellAmount).toBeGreaterThan((buy * WETH) / 3_550_000_000n)
    expect(sellAmount).toBeLessThan((buy * WETH) / 3_500_000_000n)
    const router = getAddress(devnet.manifest.aggregatorDex!.router)
    // the taker must cover the ceiling
    expect(body.issues.balance).toBeNull()
    expect(body.transaction.to).toBe(router)
    const call = decodeFunctionData({ abi: uniswapArtifact("SwapRouter").abi, data: body.transaction.data as Hex })
    expect(call.functionName).toBe("exactOutputSingle")
    const params = (call.args as any)[0]
    expect(params.recipient).toBe(recipient)
    expect(params.amountOut).toBe(buy)
    expect(params.amountInMaximum).toBe(maxSellAmount)

    const approve = await devnet.client.writeContract({ address: token("WETH"), abi: erc20Abi, functionName: "approve", args: [router, maxSellAmount], account: taker, chain: devnet.client.chain })
    await devnet.client.waitForTransactionReceipt({ hash: approve, pollingInterval: 20 })
    const balances = () =>
      Promise.all([
        devnet.client.readContract({ address: token("USDT"), abi: erc20Abi, functionName: "balanceOf", args: [recipient] }),
        devnet.client.readContract({ address: token("WETH"), abi: erc20Abi, functionName: "balanceOf", args: [taker] }),
      ])
    const before = await balances()
    const hash = await devnet.client.sendTransaction({ account: taker, to: body.transaction.to, data: body.transaction.data, chain: devnet.client.chain })
    expect((await succeeded(hash, { account: taker, to: body.transaction.to, data: body.transaction.data })).status).toBe("success")
    const after = await balances()
    expect(after[0] - before[0]).toBe(buy)
    expect(before[1] - after[1]).toBe(sellAmount)
    expect(await devnet.client.readContract({ address: token("WETH"), abi: erc20Abi, functionName: "allowance", args: [taker, router] })).toBe(maxSellAmount - sellAmount)

    // more than the pool can pay: no liquidity; both amounts: 400
    expect((await quote({ chainId, sellToken, buyToken, buyAmount: (10n ** 15n).toString(), taker })).body.liquidityAvailable).toBe(false)
    const both = await quote({ chainId, sellToken, buyToken, buyAmount: "1", sellAmount: "1", taker })
    expect(both.status).toBe(400)
    expect(both.body.data.details[0].field).toBe("buyAmount")
  })

  test("a pair it has no pool for: liquidityAvailable false", async () => {
    const { status, body } = await quote({ chainId: "5042", sellToken: token("USDC"), buyToken: token("EURC"), sellAmount: "1000000", taker: testAccounts[0]!.address })
    expect(status).toBe(200)
    expect(body.liquidityAvailable).toBe(false)
    expect(body.zid).toMatch(/^0x[0-9a-f]{24}$/)
    expect(body.buyAmount).toBeUndefined()
  })

  test("refusals: a missing key is 401, bad parameters are 400 naming the field", async () => {
    const taker = testAccounts[0]!.address
    expect((await quote(wethToUsdt(taker), {})).status).toBe(401)
    expect((await quote(wethToUsdt(taker), { "0x-api-key": "wrong" })).status).toBe(401)
    const wrongChain = await quote({ ...wethToUsdt(taker), chainId: "1" })
    expect(wrongChain.status).toBe(400)
    expect(wrongChain.body).toMatchObject({ name: "INPUT_INVALID", data: { details: [{ field: "chainId" }] } })
    const noAmount = await quote({ ...wethToUsdt(taker), sellAmount: "1.5" })
    expect(noAmount.status).toBe(400)
    expect(noAmount.body.data.details[0].field).toBe("sellAmount")
    const noTaker = await quote({ ...wethToUsdt(taker), taker: "nobody" })
    expect(noTaker.body.data.details[0].field).toBe("taker")
  })
})

describe("modes", () => {
  const taker = testAccounts[3]!.address

  test("lying: quotes more than its calldata's pool delivers; failing: 500; slow: answers late", async () => {
    const honest = await quote(wethToUsdt(taker))
    try {
      expect((await admin({ mode: "lying", lieBps: 200 })).status).toBe(200)
      const lie = await quote(wethToUsdt(taker))
      expect(BigInt(lie.body.buyAmount)).toBe((BigInt(honest.body.buyAmount) * 10_200n) / 10_000n)
      // the calldata still asks the pool only for the honest minimum: it executes, delivering less than quoted
      const params = (decodeFunctionData({ abi: uniswapArtifact("SwapRouter").abi, data: lie.body.transaction.data }).args as any)[0]
      expect(params.amountOutMinimum).toBe(BigInt(honest.body.minBuyAmount))

      await admin({ mode: "failing" })
      const failing = await quote(wethToUsdt(taker))
      expect(failing.status).toBe(500)
      expect(failing.body.name).toBe("INTERNAL_SERVER_ERROR")

      await admin({ mode: "slow", delayMs: 300 })
      const started = performance.now()
      const slow = await quote(wethToUsdt(taker))
      expect(performance.now() - started).toBeGreaterThanOrEqual(290)
      expect(slow.body.buyAmount).toBe(honest.body.buyAmount)
      expect(await (await fetch(`${devnet.aggregator.url}/admin/mode`)).json()).toEqual({ mode: "slow", delayMs: 300 })
      expect((await admin({ mode: "sideways" })).status).toBe(400)
    } finally {
      await admin({ mode: "honest" })
    }
  })

  test("down: connections are refused until it comes back on the same URL", async () => {
    const before = devnet.aggregator.requests()
    devnet.aggregator.setMode({ mode: "down" })
    try {
      const refused = await fetch(`${devnet.aggregator.url}/swap/allowance-holder/quote`).then(() => "answered", (e: Error) => e.message)
      expect(refused).not.toBe("answered")
    } finally {
      devnet.aggregator.setMode({ mode: "honest" })
    }
    expect((await quote(wethToUsdt(taker))).status).toBe(200)
    expect(devnet.aggregator.requests()).toBe(before + 1)
  })

  test("stops with the devnet", async () => {
    const url = devnet.aggregator.url
    await devnet.stop()
    const outcome = await fetch(`${url}/swap/allowance-holder/quote`).then(() => "answered", () => "refused")
    expect(outcome).toBe("refused")
  })
})

describe("the scenario's aggregator pools", () => {
  const base = {
    tokens: [{ symbol: "EURC", decimals: 6 }],
    pools: [{ dex: "uniswap-v3", tokens: ["USDC", "EURC"], fee: 500, price: "0.86", positions: [{ lower: "0.8", upper: "0.9", amount0: "1000" }] }],
  }
  const addressOf = (symbol: string): Address => (symbol === "USDC" ? "0x3600000000000000000000000000000000000000" : "0x1111111111111111111111111111111111111111")

  test("are planned apart from the public pools: the same pair and fee may be on both factories", () => {
    const plan = planScenario(parseScenario(JSON.stringify({ ...base, aggregator: { pools: [{ ...base.pools[0], price: "0.87" }] } })), addressOf)
    expect(plan.pools).toHaveLength(1)
    expect(plan.aggregatorPools).toHaveLength(1)
    expect(plan.aggregatorPools[0]!.dex).toBe("uniswap-v3")
    expect(plan.aggregatorPools[0]!.sqrtPriceX96).not.toBe((plan.pools[0] as { sqrtPriceX96: bigint }).sqrtPriceX96)
    expect(planScenario(parseScenario(JSON.stringify(base)), addressOf).aggregatorPools).toEqual([])
  })

  test("a bad one is refused by its place in aggregator.pools", () => {
    const refusal = (aggregator: unknown) => {
      try {
        planScenario(parseScenario(JSON.stringify({ ...base, aggregator })), addressOf)
      } catch (e) {
        expect(e).toBeInstanceOf(ScenarioError)
        return (e as ScenarioError).message
      }
      throw new Error("accepted")
    }
    expect(refusal({ pools: [{ ...base.pools[0], tokens: ["USDC", "NOPE"] }] })).toContain("aggregator.pools[0]")
    expect(refusal({ pools: [{ ...base.pools[0], tokens: ["USDC", "NOPE"] }] })).toContain("unknown token NOPE")
    // only Uniswap V3 pools: the aggregator's router is V3's SwapRouter
    expect(refusal({ pools: [{ dex: "uniswap-v2", tokens: ["USDC", "EURC"], reserves: ["1000", "900"] }] })).toContain("aggregator")
  })
})
