// How many times the node executes the transaction of one /swap: with a route
// shape seen before, once, at the limit the shape and the gas model predict
// (twice when that prediction is off: once more from the gas used); the first
// of a shape searches its limit. A proxy in front of the devnet counts every call to the executor
// (each call of an eth_simulateV1 request, each eth_call and eth_estimateGas).
// The transactions are then sent exactly as returned, and must succeed and pay.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Effect, Metric } from "effect"
import { erc20Abi, type Address, type Hex } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { simulatedExecutions } from "../../src/chain/index.ts"
import { devnetRelayer, fundDevnetRelayer, testAccounts } from "../../src/devnet/index.ts"
import { startNodeProxy, type NodeProxy } from "../support/node-proxy.ts"
import { NATIVE, startSwapOnDevnet, type SwapOnDevnet } from "../support/swap-on-devnet.ts"

const deadline = () => Math.floor(Date.now() / 1000) + 600

let s: SwapOnDevnet
let proxy: NodeProxy
beforeAll(async () => {
  s = await startSwapOnDevnet({
    rpcUrl: (devnet) => {
      proxy = startNodeProxy(devnet.node.rpcUrl, "geth")
      return proxy.url
    },
    env: { RELAYER_PRIVATE_KEY: devnetRelayer.privateKey },
  })
  await fundDevnetRelayer(s.manifest)
})
afterAll(async () => {
  await s?.stop()
  proxy?.stop()
})

const simulated = () => Number(Effect.runSync(Metric.value(simulatedExecutions)).count)
const executor = () => (s.manifest.executor as string).toLowerCase()
const executions = () => proxy.executions.get(executor()) ?? 0

/** Asks /swap and returns it with the executions the node ran for it. */
const swapCounted = async (body: Record<string, unknown>) => {
  const before = executions()
  const res = await s.post("swap", { ...body, deadline: deadline() })
  expect(res.status, JSON.stringify(res.body)).toBe(200)
  expect(res.body.simulated).toBe(true)
  return { swap: res.body, executions: executions() - before }
}

describe("node executions per /swap", () => {
  test("a shape seen before costs one execution, two at most for 90%; the first of a shape searches its limit", async () => {
    const sender = testAccounts[2]!.address
    const requests: Record<string, unknown>[] = [
      { tokenIn: s.token("EURC"), tokenOut: s.token("cirBTC"), sender },
      { tokenIn: NATIVE, tokenOut: s.token("EURC"), sender },
      { tokenIn: s.token("EURC"), tokenOut: NATIVE, sender },
    ]
    const amounts: Record<string, bigint[]> = {
      [s.token("EURC")]: [100_000_000n, 250_000_000n, 400_000_000n, 750_000_000n, 1_200_000_000n, 60_000_000n, 333_000_000n],
      [NATIVE]: [10n ** 20n, 3n * 10n ** 20n, 7n * 10n ** 20n, 12n * 10n ** 20n, 5n * 10n ** 19n, 2n * 10n ** 20n, 9n * 10n ** 20n],
    }
    const first: number[] = []
    const later: number[] = []
    for (const request of requests) {
      const list = amounts[request.tokenIn as string]!
      for (const [i, amountIn] of list.entries()) {
        const { executions: n } = await swapCounted({ ...request, amountIn: amountIn.toString() })
        ;(i === 0 ? first : later).push(n)
      }
    }
    // the first of a shape: one check and the grid (at least three executions)
    for (const n of first) expect(n).toBeGreaterThan(2)
    // at least 90% of the rest in two executions, and most in one (amounts 20x apart: the gas of a
    // shape moves with the amount, so a prediction is sometimes off)
    const twoOrFewer = later.filter((n) => n <= 2).length
    expect(twoOrFewer / later.length, `executions per /swap: ${first.join(", ")} / ${later.join(", ")}`).toBeGreaterThanOrEqual(0.9)
    const once = later.filter((n) => n === 1).length
    expect(once / later.length, `executions per /swap: ${first.join(", ")} / ${later.join(", ")}`).toBeGreaterThanOrEqual(0.6)
  })

  test("a /swap run once at its shape's predicted limit, sent as returned, succeeds and pays what it said", async () => {
    const sender = testAccounts[3]!.address
    const tokenIn = s.token("EURC")
    const tokenOut = s.token("cirBTC")
    await swapCounted({ tokenIn, tokenOut, sender, amountIn: "200000000" })
    const { swap, executions: n } = await swapCounted({ tokenIn, tokenOut, sender, amountIn: "210000000" })
    expect(n).toBe(1)
    const before = await s.balanceOf(tokenOut, sender)
    const receipt = await s.send(swap, sender as Address)
    expect(receipt.status).toBe("success")
    expect((await s.balanceOf(tokenOut, sender)) - before).toBe(BigInt(swap.amountOut))
    expect(receipt.gasUsed).toBeLessThanOrEqual(BigInt(swap.tx.gas))
  })

  test("a /swap asks the node in one batch: the head, the sender's funds and the simulation; the head alone while aggregators are asked", async () => {
    const sender = testAccounts[3]!.address
    const tokenIn = s.token("EURC")
    const tokenOut = s.token("cirBTC")
    const sources = await s.post("sources", {})
    const aggregators = (sources.body.sources as Array<{ name: string; type: string }>).filter((x) => x.type === "aggregator").map((x) => x.name)
    expect(aggregators.length).toBeGreaterThan(0)
    await swapCounted({ tokenIn, tokenOut, sender, amountIn: "230000000" })
    /** the node requests made while `ask` ran, each as its sorted methods, but the market's polls of the head alone */
    const asked = async (ask: () => Promise<unknown>) => {
      const from = proxy.requests.length
      await ask()
      return proxy.requests.slice(from).filter((methods) => !(methods.length === 1 && methods[0] === "eth_blockNumber")).map((methods) => [...methods].sort())
    }
    // the own router's venues alone: nothing to wait for before the node is asked
    for (const amountIn of ["240000000", "250000000", "260000000"]) {
      const requests = await asked(() => swapCounted({ tokenIn, tokenOut, sender, amountIn, excludeSources: aggregators }))
      expect(requests).toEqual([["eth_blockNumber", "eth_call", "eth_simulateV1"]])
    }
    // the head is read while the aggregators answer; the funds and the simulation still go together
    for (const amountIn of ["270000000", "280000000"]) {
      const requests = await asked(() => swapCounted({ tokenIn, tokenOut, sender, amountIn }))
      expect(requests.filter((methods) => methods.includes("eth_simulateV1") || methods.includes("eth_call"))).toEqual([expect.arrayContaining(["eth_call", "eth_simulateV1"])])
      expect(requests.flat().filter((m) => m === "eth_simulateV1" || m === "eth_call")).toEqual(["eth_call", "eth_simulateV1"])
    }
    // a gasless quote: the head and the sender's funds (the relayer's own reads of its balance go on beside it)
    const gasless = await asked(async () => {
      const q = await s.post("gasless/quote", { tokenIn, tokenOut, sender, amountIn: "290000000", slippageBps: 100 })
      expect(q.status, JSON.stringify(q.body)).toBe(200)
    })
    expect(gasless.filter((methods) => methods.includes("eth_call"))).toEqual([["eth_blockNumber", "eth_call"]])
  })

  test("gasless orders of a shape seen before are planned in one execution, two at most, and the relayer's transactions confirm", async () => {
    const client = s.devnet.client
    /** A wallet holding EURC and no USDC signs an order for `amount` EURC of WETH and submits it; the executions its submission cost. */
    const order = async (amount: bigint) => {
      const wallet = privateKeyToAccount(generatePrivateKey())
      const hash = await client.writeContract({ address: s.token("EURC"), abi: erc20Abi, functionName: "transfer", args: [wallet.address, amount], account: testAccounts[0]!.address, chain: client.chain })
      await client.waitForTransactionReceipt({ hash, pollingInterval: 20 })
      const q = await s.post("gasless/quote", { tokenIn: s.token("EURC"), tokenOut: s.token("WETH"), sender: wallet.address, amountIn: amount.toString(), slippageBps: 100 })
      expect(q.status, JSON.stringify(q.body)).toBe(200)
      const signed = {
        order: q.body.order.typedData.message,
        signature: await wallet.signTypedData(q.body.order.typedData),
        ...(q.body.permit !== null ? { permit: { signature: await wallet.signTypedData(q.body.permit.typedData) } } : {}),
      }
      // the simulator's own count (this process runs the service): the executor's other reads, such as the order's nonce, are not executions of the order
      const before = simulated()
      const from = proxy.requests.length
      const submitted = await s.post("gasless/submit", signed)
      expect(submitted.status, JSON.stringify(submitted.body)).toBe(200)
      const planned = simulated() - before
      // the submission's reads after the head: the order's nonce, the permit's nonce (the sender's
      // funds) and the plan, in one request (the relayer's own plan, sent on acceptance, reads no eth_call)
      const reads = proxy.requests.slice(from).filter((methods) => methods.includes("eth_call")).map((methods) => [...methods].sort())
      const until = Date.now() + 30_000
      let status: any
      do {
        await Bun.sleep(50)
        status = (await s.post("gasless/status", { tradeHash: submitted.body.tradeHash as Hex })).body
      } while (!["confirmed", "failed", "expired"].includes(status.status) && Date.now() < until)
      expect(status.status).toBe("confirmed")
      const receipt = await client.getTransactionReceipt({ hash: status.transactions[0].hash })
      expect(receipt.status).toBe("success")
      return { planned, reads, amountOut: BigInt(status.amountOut), minimum: BigInt(q.body.minAmountOut) }
    }
    // the first searches its limit; later ones are planned at the predicted limit, once more
    // when it is off (the second uses less gas than the first: the relayer then holds WETH, so
    // its fee is no longer a first write; later ones use one of two figures ~2% apart, as a
    // storage refund comes or not, so a prediction from the last is sometimes low)
    const first = await order(500_000_000n)
    const later = [await order(520_000_000n), await order(510_000_000n), await order(505_000_000n), await order(515_000_000n)]
    expect(first.planned).toBeGreaterThan(2)
    const planned = later.map((o) => o.planned)
    for (const n of planned) expect(n, `executions per plan: ${planned.join(", ")}`).toBeLessThanOrEqual(2)
    expect(planned.filter((n) => n === 1).length, `executions per plan: ${planned.join(", ")}`).toBeGreaterThanOrEqual(1)
    for (const o of [first, ...later]) expect(o.amountOut).toBeGreaterThanOrEqual(o.minimum)
    for (const o of later) expect(o.reads).toEqual([["eth_blockNumber", "eth_call", "eth_call", "eth_simulateV1"]])
  })
})
