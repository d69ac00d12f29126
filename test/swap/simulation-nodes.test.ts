// /swap on nodes that are not anvil: one that refuses simulation blocks that
// do not move forward from their base block (as geth and reth do), while the
// chain keeps making blocks; and one without eth_simulateV1 at all. Either way
// the answer is simulated, and the transaction sent with tx.gas as returned
// succeeds and pays what was quoted.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import type { Address } from "viem"
import { testAccounts } from "../../src/devnet/index.ts"
import { startNodeProxy, type NodeProxy, type ProxyMode } from "../support/node-proxy.ts"
import { startSwapOnDevnet, type SwapOnDevnet } from "../support/swap-on-devnet.ts"

const deadline = () => Math.floor(Date.now() / 1000) + 600

for (const mode of ["geth", "no-simulate"] as const satisfies readonly ProxyMode[]) {
  describe(`a node proxy (${mode})`, () => {
    let s: SwapOnDevnet
    let proxy: NodeProxy
    beforeAll(async () => {
      s = await startSwapOnDevnet({
        rpcUrl: (devnet) => {
          proxy = startNodeProxy(devnet.node.rpcUrl, mode)
          return proxy.url
        },
      })
    })
    afterAll(async () => {
      await s?.stop()
      proxy?.stop()
    })

    test("/swap answers simulated: true with a tx.gas that suffices, while blocks keep coming", async () => {
      const sender = testAccounts[1]!.address
      const eurc = s.token("EURC")
      // blocks mined between the market's read and the simulation: a base of "latest" would now be ahead
      let mining = true
      const miner = (async () => {
        while (mining) {
          await s.devnet.client.request({ method: "evm_mine" as never, params: [] as never })
          await Bun.sleep(5)
        }
      })()
      try {
        for (const [tokenIn, tokenOut, amountIn] of [["EURC", "cirBTC", 300_000_000n], ["USDC", "EURC", 2_000_000_000n]] as const) {
          const res = await s.post("swap", { tokenIn: s.token(tokenIn), tokenOut: s.token(tokenOut), amountIn: amountIn.toString(), sender, deadline: deadline() })
          expect(res.status, JSON.stringify(res.body)).toBe(200)
          expect(res.body.simulated).toBe(true)
          expect(BigInt(res.body.tx.gas)).toBeGreaterThan(0n)
        }
      } finally {
        mining = false
        await miner
      }
      expect(proxy.counts.simulate).toBeGreaterThan(0)
      if (mode === "geth") expect(proxy.counts.refused).toBe(0)
      else expect(proxy.counts.refused).toBeGreaterThan(0)

      // and on a still chain, sent as returned: paid to the wei
      const res = await s.post("swap", { tokenIn: eurc, tokenOut: s.token("cirBTC"), amountIn: "250000000", sender, deadline: deadline() })
      expect(res.status).toBe(200)
      expect(res.body.simulated).toBe(true)
      const before = await s.balanceOf(s.token("cirBTC"), sender)
      const receipt = await s.send(res.body, sender)
      expect(receipt.status).toBe("success")
      expect((await s.balanceOf(s.token("cirBTC"), sender)) - before).toBe(BigInt(res.body.amountOut))
    })

    test("a transaction that would revert is still refused with its reason", async () => {
      const res = await s.post("swap", { tokenIn: s.token("EURC"), tokenOut: "0x0000000000000000000000000000000000000000", amountIn: "1000000", sender: testAccounts[0]!.address, recipient: s.manifest.multicall3 as Address, deadline: deadline() })
      expect(res.status).toBe(409)
      expect(res.body.error.reason).toBe("NativeTransferFailed")
    })
  })
}
