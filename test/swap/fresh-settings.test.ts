// A /swap right after the owner changes the executor's settings is priced with
// the new ones: the fee, the pause and the pools all come from the block the
// transaction is simulated on, so a fresh /swap never encodes a stale fee.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { parseAbi, type Address } from "viem"
import { testAccounts } from "../../src/devnet/index.ts"
import { startSwapOnDevnet, type SwapOnDevnet } from "../support/swap-on-devnet.ts"

let s: SwapOnDevnet
beforeAll(async () => {
  s = await startSwapOnDevnet()
})
afterAll(async () => {
  await s?.stop()
})

const executorAbi = parseAbi(["function pause()", "function unpause()", "function setProtocolFeeBps(uint16)"])
const asOwner = async (functionName: "pause" | "unpause" | "setProtocolFeeBps", args: readonly unknown[] = []) => {
  const hash = await s.devnet.client.writeContract({
    address: s.manifest.executor as Address, abi: executorAbi, functionName, args: args as never,
    account: s.manifest.owner.address as Address, chain: s.devnet.client.chain,
  })
  await s.devnet.client.waitForTransactionReceipt({ hash, pollingInterval: 5 })
}
const deadline = () => Math.floor(Date.now() / 1000) + 600
const request = () => ({ tokenIn: s.token("USDC"), tokenOut: s.token("EURC"), amountIn: "1000000000", sender: testAccounts[0]!.address, deadline: deadline() })

describe("the executor's settings in a fresh /swap", () => {
  test("after each fee change, the next /swap carries the new rate and the next /quote reports it", async () => {
    try {
      for (const bps of [40, 0, 7, 100, 25, 13, 60, 1, 99, 30]) {
        await asOwner("setProtocolFeeBps", [bps])
        const swap = await s.post("swap", request())
        expect(swap.status, JSON.stringify(swap.body)).toBe(200)
        expect(swap.body.simulated).toBe(true)
        expect(swap.body.fees.protocolBps).toBe(bps)
        expect(BigInt(swap.body.fees.protocolAmount)).toBe((BigInt(swap.body.grossAmountOut) * BigInt(bps)) / 10_000n)
        // the /swap brought the market to the fee's block: every quote from then on has the new rate
        const quote = await s.post("quote", { tokenIn: s.token("USDC"), tokenOut: s.token("EURC"), amountIn: "1000000000" })
        expect(quote.body.fees.protocolBps).toBe(bps)
      }
    } finally {
      await asOwner("setProtocolFeeBps", [25])
    }
  })

  test("after each pause the next /swap is refused as Paused, after each unpause it passes", async () => {
    try {
      for (let round = 0; round < 5; round++) {
        await asOwner("pause")
        const paused = await s.post("swap", request())
        expect(paused.status).toBe(409)
        expect(paused.body.error).toMatchObject({ code: "SIMULATION_FAILED", reason: "Paused" })
        await asOwner("unpause")
        const running = await s.post("swap", request())
        expect(running.status, JSON.stringify(running.body)).toBe(200)
        expect(running.body.simulated).toBe(true)
      }
    } finally {
      await asOwner("unpause").catch(() => undefined)
    }
  })

  test("a fee change sent on chain after the /swap makes that transaction revert StaleFeeConfig, not charge the new rate", async () => {
    const sender = testAccounts[2]!.address
    const swap = await s.post("swap", { ...request(), sender })
    expect(swap.status).toBe(200)
    await asOwner("setProtocolFeeBps", [30])
    try {
      const receipt = await s.send(swap.body, sender).catch((e: Error) => e)
      // viem refuses to send what it sees would revert, or the chain reverts it: either way nothing is charged
      if (receipt instanceof Error) expect(receipt.message).toContain("StaleFeeConfig")
      else expect(receipt.status).toBe("reverted")
    } finally {
      await asOwner("setProtocolFeeBps", [25])
    }
  })
})
