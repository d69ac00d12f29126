// One World per block: through a busy devnet run (pool swaps, fee changes,
// pauses, price-feed updates), every /quote and /swap reports the block it was
// priced at, and its fee, pause and reference prices are that block's, as the
// chain itself answers for that block.
import { afterAll, beforeAll, expect, test } from "bun:test"
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

const EXECUTOR_ABI = parseAbi(["function protocolFeeBps() view returns (uint16)", "function paused() view returns (bool)", "function pause()", "function unpause()", "function setProtocolFeeBps(uint16)"])
const FEED_ABI = parseAbi([
  "function decimals() view returns (uint8)",
  "function latestRoundData() view returns (uint80, int256, uint256, uint256, uint80)",
  "function setAnswer(int256)",
])
const ERC20_ABI = parseAbi(["function decimals() view returns (uint8)"])

const asOwner = async (address: Address, abi: typeof EXECUTOR_ABI | typeof FEED_ABI, functionName: string, args: readonly unknown[] = []) => {
  const hash = await s.devnet.client.writeContract({ address, abi, functionName: functionName as never, args: args as never, account: s.manifest.owner.address as Address, chain: s.devnet.client.chain })
  await s.devnet.client.waitForTransactionReceipt({ hash, pollingInterval: 5 })
}

/** The chain's own answers at block N. */
const atBlock = async (blockNumber: bigint, tokenIn: string, tokenOut: string) => {
  const c = s.devnet.client
  const executor = s.manifest.executor as Address
  const feed = async (symbol: string) => {
    const address = s.manifest.priceFeeds[symbol] as Address
    const [decimals, round] = await Promise.all([
      c.readContract({ address, abi: FEED_ABI, functionName: "decimals", blockNumber }),
      c.readContract({ address, abi: FEED_ABI, functionName: "latestRoundData", blockNumber }),
    ])
    return { answer: round[1], decimals: BigInt(decimals) }
  }
  const [fee, paused, priceIn, priceOut] = await Promise.all([
    c.readContract({ address: executor, abi: EXECUTOR_ABI, functionName: "protocolFeeBps", blockNumber }),
    c.readContract({ address: executor, abi: EXECUTOR_ABI, functionName: "paused", blockNumber }),
    feed(tokenIn),
    feed(tokenOut),
  ])
  return { fee, paused, priceIn, priceOut }
}

/** (reference − gross) / reference × 10000 at the feeds' prices, rounded to the nearest, halves away from zero. */
const impactBps = (amountIn: bigint, decimalsIn: bigint, gross: bigint, decimalsOut: bigint, pIn: { answer: bigint; decimals: bigint }, pOut: { answer: bigint; decimals: bigint }) => {
  // reference output = amountIn / 10^decIn × (pIn / 10^pInDec) / (pOut / 10^pOutDec) × 10^decOut
  const refNum = amountIn * pIn.answer * 10n ** pOut.decimals * 10n ** decimalsOut
  const refDen = pOut.answer * 10n ** pIn.decimals * 10n ** decimalsIn
  const num = (refNum - gross * refDen) * 10_000n
  const q = (2n * (num < 0n ? -num : num) + refNum) / (2n * refNum)
  return Number(num < 0n ? -q : q)
}

test("every /quote and /swap of a busy run is priced on one block: its number, fee, pause and prices", async () => {
  const [tokenIn, tokenOut] = ["EURC", "cirBTC"] as const
  const decimalsIn = BigInt(await s.devnet.client.readContract({ address: s.token(tokenIn), abi: ERC20_ABI, functionName: "decimals" }))
  const decimalsOut = BigInt(await s.devnet.client.readContract({ address: s.token(tokenOut), abi: ERC20_ABI, functionName: "decimals" }))
  const executor = s.manifest.executor as Address
  const eurcFeed = s.manifest.priceFeeds[tokenIn] as Address
  const amountIn = 2_000_000_000n
  const seenBlocks = new Set<bigint>()
  let pausedAnswers = 0
  let paused = false
  try {
    for (let round = 0; round < 16; round++) {
      // something changes on chain, in a block of its own
      switch (round % 4) {
        case 0:
          await asOwner(executor, EXECUTOR_ABI, "setProtocolFeeBps", [(round * 7) % 61])
          break
        case 1:
          await asOwner(eurcFeed, FEED_ABI, "setAnswer", [110_000_000n + BigInt(round) * 1_000_000n])
          break
        case 2:
          paused = !paused
          await asOwner(executor, EXECUTOR_ABI, paused ? "pause" : "unpause")
          break
        case 3: {
          // another trader moves the pools (through the executor, so only while it runs)
          if (paused) break
          const trader = testAccounts[1]!.address
          const res = await s.post("swap", { tokenIn: s.token("USDC"), tokenOut: s.token(tokenOut), amountIn: "20000000000", sender: trader })
          expect(res.status).toBe(200)
          const sent = await s.send(res.body, trader)
          expect(sent.status).toBe("success")
        }
      }
      const head = await s.devnet.client.getBlockNumber({ cacheTime: 0 })

      const swap = await s.post("swap", { tokenIn: s.token(tokenIn), tokenOut: s.token(tokenOut), amountIn: amountIn.toString(), sender: testAccounts[0]!.address })
      const quote = await s.post("quote", { tokenIn: s.token(tokenIn), tokenOut: s.token(tokenOut), amountIn: amountIn.toString() })
      expect(quote.status).toBe(200)

      if (swap.status === 409) {
        // refused on the head's World: the executor was paused at that block
        expect(swap.body.error.reason).toBe("Paused")
        expect((await atBlock(head, tokenIn, tokenOut)).paused).toBe(true)
        pausedAnswers++
      } else {
        expect(swap.status, JSON.stringify(swap.body)).toBe(200)
        // a /swap is priced at the head it saw
        expect(BigInt(swap.body.blockNumber)).toBeGreaterThanOrEqual(head)
      }
      for (const answer of swap.status === 200 ? [quote.body, swap.body] : [quote.body]) {
        const n = BigInt(answer.blockNumber)
        seenBlocks.add(n)
        const chain = await atBlock(n, tokenIn, tokenOut)
        expect(answer.fees.protocolBps).toBe(chain.fee)
        expect(answer.priceImpactBps).toBe(impactBps(amountIn, decimalsIn, BigInt(answer.grossAmountOut), decimalsOut, chain.priceIn, chain.priceOut))
        if (answer === swap.body) expect(chain.paused).toBe(false)
      }
    }
  } finally {
    if (paused) await asOwner(executor, EXECUTOR_ABI, "unpause")
    await asOwner(executor, EXECUTOR_ABI, "setProtocolFeeBps", [25])
  }
  expect(pausedAnswers).toBeGreaterThan(0)
  expect(seenBlocks.size).toBeGreaterThanOrEqual(12)
})
