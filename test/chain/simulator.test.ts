// The simulator's least gas limit for a route shape seen before, found by running
// the call once at the limit its shape and the gas model predict, whatever that
// prediction is: right (one execution), far too low or far too high (the limit
// is then found from the gas used, as without a prediction), or for a call that
// reverts whatever its limit (the revert is the outcome). A proxy counts the
// node's executions of the executor; the node's own eth_estimateGas on the real
// state (the approval sent) is the least limit every figure is held against,
// and the transaction sent at the predicted limit itself must succeed and pay.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Effect, Layer } from "effect"
import { erc20Abi, type Address, type Hex } from "viem"
import { generatePrivateKey, privateKeyToAddress } from "viem/accounts"
import { Rpc } from "../../src/chain/index.ts"
import { Simulator, type SimulateExecute, type SimulationOutcome } from "../../src/chain/simulator.ts"
import { testAccounts } from "../../src/devnet/index.ts"
import { startNodeProxy, type NodeProxy } from "../support/node-proxy.ts"
import { startSwapOnDevnet, type SwapOnDevnet } from "../support/swap-on-devnet.ts"

let s: SwapOnDevnet
let proxy: NodeProxy
beforeAll(async () => {
  s = await startSwapOnDevnet({
    rpcUrl: (devnet) => {
      proxy = startNodeProxy(devnet.node.rpcUrl, "geth")
      return proxy.url
    },
  })
})
afterAll(async () => {
  await s?.stop()
  proxy?.stop()
})

const executions = () => proxy.executions.get((s.manifest.executor as string).toLowerCase()) ?? 0

describe("the least gas limit of a shape seen before", () => {
  test("predicted right: one execution; too low or too high: found from the gas used; a revert stays a revert", async () => {
    const sender = testAccounts[2]!.address as Address
    const res = await s.post("swap", { tokenIn: s.token("EURC"), tokenOut: s.token("cirBTC"), amountIn: "300000000", sender, deadline: Math.floor(Date.now() / 1000) + 600 })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const swap = res.body
    const expected = BigInt(swap.gasEstimate)
    const amount = BigInt(swap.approval.amount)
    // the allowance the simulation fills in, sent for real: the node's own search then runs on the same state
    const approve = await s.devnet.client.writeContract({ address: swap.approval.token, abi: erc20Abi, functionName: "approve", args: [swap.tx.to, amount], account: sender, chain: s.devnet.client.chain })
    await s.devnet.client.waitForTransactionReceipt({ hash: approve, pollingInterval: 20 })
    const head = await s.devnet.client.getBlock({ blockTag: "latest" })

    const layer = Simulator.layer.pipe(Layer.provideMerge(Rpc.layer({ urls: [proxy.url], chainId: s.settings.chainId, multicall3: s.settings.multicall3 })))
    const runs = await Effect.runPromise(
      Effect.provide(
        Effect.gen(function* () {
          const simulator = yield* Simulator
          const run = (gasExpected: bigint, change: Partial<SimulateExecute> = {}) =>
            Effect.gen(function* () {
              const before = executions()
              const outcome = yield* simulator.simulateExecute({
                sender, executor: swap.tx.to, data: swap.tx.data as Hex, value: 0n,
                pulls: { token: swap.approval.token, amount },
                block: { number: head.number, timestamp: head.timestamp },
                findGasLimit: true, gasShape: "EURC>cirBTC test", gasExpected, ...change,
              })
              return { outcome, executions: executions() - before }
            })
          const first = yield* run(expected)
          const right = yield* run(expected)
          // a sender with nothing to pay: refused at any limit
          const refused = yield* run(expected, { sender: privateKeyToAddress(generatePrivateKey()), pulls: undefined })
          const low = yield* run(expected / 2n)
          const high = yield* run(expected * 2n)
          const plain = yield* simulator.simulateExecute({
            sender: privateKeyToAddress(generatePrivateKey()), executor: swap.tx.to, data: swap.tx.data as Hex, value: 0n,
            block: { number: head.number, timestamp: head.timestamp },
          })
          return { first, right, low, high, refused, plain }
        }),
        layer,
      ),
    )
    const limitOf = (o: SimulationOutcome) => {
      expect(o.ok).toBe(true)
      return o.ok ? o.gasLimit! : 0n
    }
    // the first of the shape searched the grid; the right prediction ran once
    expect(runs.first.executions).toBeGreaterThan(2)
    expect(runs.right.executions).toBe(1)
    // too low: twice below the least (the step up too), then the check and the shape's one check
    expect(runs.low.executions).toBe(4)
    // too high: succeeded there, then the shape's one check from the gas used
    expect(runs.high.executions).toBe(2)
    // refused early (nothing to pay), far below the limit: no step up, the check confirms
    expect(runs.refused.executions).toBe(2)
    expect(runs.refused.outcome.ok).toBe(false)
    expect(runs.plain.ok).toBe(false)
    if (!runs.refused.outcome.ok && !runs.plain.ok) {
      expect(runs.refused.outcome.revertData).not.toBe("0x")
      expect(runs.refused.outcome.revertData).toBe(runs.plain.revertData)
    }

    // the node's least limit on the real state, the transaction landing a second after the head
    await s.devnet.client.request({ method: "evm_setNextBlockTimestamp" as never, params: [Number(head.timestamp) + 1] as never })
    const least = await s.devnet.client.estimateGas({ account: sender, to: swap.tx.to, data: swap.tx.data as Hex, blockTag: "pending" })
    for (const run of [runs.first, runs.right, runs.low, runs.high]) {
      const limit = limitOf(run.outcome)
      expect(limit).toBeGreaterThanOrEqual(least)
      // within the bound that keeps tx.gas (this limit plus 15%) within 1.3x the least
      expect(Number(limit) / Number(least)).toBeLessThanOrEqual(1.13)
    }
    // sent at the predicted limit itself, no headroom: it succeeds and pays what /swap said
    const outBefore = await s.balanceOf(s.token("cirBTC"), sender)
    const hash = await s.devnet.client.sendTransaction({ account: sender, to: swap.tx.to, data: swap.tx.data as Hex, gas: limitOf(runs.right.outcome), chain: s.devnet.client.chain })
    const receipt = await s.devnet.client.waitForTransactionReceipt({ hash, pollingInterval: 20 })
    expect(receipt.status).toBe("success")
    expect((await s.balanceOf(s.token("cirBTC"), sender)) - outBefore).toBe(BigInt(swap.amountOut))
  })
})
