// The devnet's base fee floor: whatever makes the blocks (transactions one
// after another or from several senders at once, empty mines, several blocks
// in one anvil_mine, automatic mining off, a client setting the next base fee),
// no block prices gas below the floor and every transaction is mined; reads of
// mined blocks are not held while blocks are being made.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { createPublicClient, createTestClient, createWalletClient, defineChain, http, type Hex } from "viem"
import { mnemonicToAccount } from "viem/accounts"
import { ARC_CHAIN_ID, ARC_MIN_BASE_FEE_WEI, startAnvil, type AnvilNode } from "../../src/devnet/anvil.ts"

const MNEMONIC = "test test test test test test test test test test test junk"
const TO = "0x000000000000000000000000000000000000dEaD"

const clientsOf = (node: AnvilNode) => {
  const chain = defineChain({
    id: ARC_CHAIN_ID,
    name: "Arc devnet",
    nativeCurrency: { name: "USDC", symbol: "USDC", decimals: 18 },
    rpcUrls: { default: { http: [node.rpcUrl] } },
  })
  const transport = http(node.rpcUrl, { retryCount: 0 })
  return {
    pub: createPublicClient({ chain, transport, pollingInterval: 20, cacheTime: 0 }),
    cheats: createTestClient({ chain, transport, mode: "anvil" }),
    wallets: [0, 1, 2].map((i) => createWalletClient({ chain, transport, account: mnemonicToAccount(MNEMONIC, { addressIndex: i }) })),
  }
}
type Clients = ReturnType<typeof clientsOf>

/** every block's base fee from `from` to the head */
const baseFees = async (c: Clients, from: bigint) => {
  const head = await c.pub.getBlockNumber()
  const fees: bigint[] = []
  for (let n = from; n <= head; n++) fees.push((await c.pub.getBlock({ blockNumber: n })).baseFeePerGas!)
  return fees
}

const transfer = async (c: Clients, from: number) => {
  const hash = await c.wallets[from]!.sendTransaction({ to: TO, value: 1n, chain: c.wallets[from]!.chain })
  return c.pub.waitForTransactionReceipt({ hash, pollingInterval: 20, timeout: 10_000 })
}

let arc: AnvilNode
let arcClients: Clients
beforeAll(async () => {
  arc = await startAnvil({ port: 0 })
  arcClients = clientsOf(arc)
})
afterAll(async () => {
  await arc?.stop()
})

describe("Arc's floor (20 gwei, the default)", () => {
  test("empty blocks stay on the floor: one at a time and many in one anvil_mine", async () => {
    expect(arc.baseFeeFloorWei).toBe(ARC_MIN_BASE_FEE_WEI)
    const from = (await arcClients.pub.getBlockNumber()) + 1n
    for (let i = 0; i < 5; i++) await arcClients.cheats.mine({ blocks: 1 })
    await arcClients.cheats.mine({ blocks: 12 })
    const fees = await baseFees(arcClients, from)
    expect(fees).toHaveLength(17)
    expect(fees.every((f) => f === ARC_MIN_BASE_FEE_WEI)).toBe(true)
  })

  test("transactions from three senders at once, each waiting for its receipt or not: every one mined, no block below the floor", async () => {
    const from = (await arcClients.pub.getBlockNumber()) + 1n
    const receipts = await Promise.all(
      [0, 1, 2].map(async (sender) => {
        const out = []
        for (let k = 0; k < 15; k++) out.push(await transfer(arcClients, sender))
        return out
      }),
    )
    // bursts: several transactions of a sender sent before any receipt is asked for
    const burst = await Promise.all(
      [0, 1, 2].map(async (sender) => {
        const hashes: Hex[] = []
        for (let k = 0; k < 5; k++) hashes.push(await arcClients.wallets[sender]!.sendTransaction({ to: TO, value: 1n, chain: arcClients.wallets[sender]!.chain }))
        return Promise.all(hashes.map((hash) => arcClients.pub.waitForTransactionReceipt({ hash, pollingInterval: 20, timeout: 10_000 })))
      }),
    )
    const all = [...receipts.flat(), ...burst.flat()]
    expect(all).toHaveLength(60)
    expect(all.every((r) => r.status === "success" && r.effectiveGasPrice >= ARC_MIN_BASE_FEE_WEI)).toBe(true)
    const fees = await baseFees(arcClients, from)
    expect(fees.length).toBeGreaterThanOrEqual(1)
    expect(fees.filter((f) => f < ARC_MIN_BASE_FEE_WEI)).toEqual([])
  })

  test("a next base fee set below the floor is raised to it; one above it is kept, then falls back to the floor, not under", async () => {
    const from = (await arcClients.pub.getBlockNumber()) + 1n
    await arcClients.cheats.setNextBlockBaseFeePerGas({ baseFeePerGas: 7n })
    await arcClients.cheats.mine({ blocks: 1 })
    await arcClients.cheats.setNextBlockBaseFeePerGas({ baseFeePerGas: 2n * ARC_MIN_BASE_FEE_WEI })
    await arcClients.cheats.mine({ blocks: 8 })
    const fees = await baseFees(arcClients, from)
    expect(fees[0]).toBe(ARC_MIN_BASE_FEE_WEI)
    expect(fees[1]).toBe(2n * ARC_MIN_BASE_FEE_WEI)
    // EIP-1559 over empty blocks: 7/8 each, down to the floor
    expect(fees[2]).toBe((2n * ARC_MIN_BASE_FEE_WEI * 7n) / 8n)
    expect(fees.at(-1)).toBe(ARC_MIN_BASE_FEE_WEI)
    expect(fees.every((f) => f >= ARC_MIN_BASE_FEE_WEI)).toBe(true)
  })

  test("while blocks are being made, reads of mined blocks answer at once; a read that prices the next block waits for them", async () => {
    const c = arcClients
    const from = (await c.pub.getBlockNumber()) + 1n
    let mined = false
    // 300 blocks in one anvil_mine: the relay mines them one at a time, putting each next fee back on the floor
    const mining = c.cheats.mine({ blocks: 300 }).then(() => {
      mined = true
    })
    // the head moves while the request is under way
    let head = from - 1n
    while (head < from + 2n && !mined) head = await c.pub.getBlockNumber()
    expect(mined).toBe(false)
    const [block, logs, balance, called] = await Promise.all([
      c.pub.getBlock({ blockNumber: head }),
      c.pub.getLogs({ fromBlock: from, toBlock: head }),
      c.pub.getBalance({ address: TO, blockNumber: head }),
      // code answering BASEFEE (BASEFEE PUSH0 MSTORE PUSH1 32 PUSH0 RETURN), called at a mined block: that block's own fee
      c.pub.call({ to: TO, blockNumber: head, stateOverride: [{ address: TO, code: "0x485f5260205ff3" }] }),
    ])
    expect(mined).toBe(false)
    expect(block.number).toBe(head)
    expect(block.baseFeePerGas).toBe(ARC_MIN_BASE_FEE_WEI)
    expect(logs).toEqual([])
    expect(balance).toBeGreaterThanOrEqual(0n)
    expect(BigInt(called.data!)).toBe(ARC_MIN_BASE_FEE_WEI)
    // the gas price names the next block's fee: it is answered once the blocks are made, on the floor
    const gasPrice = await c.pub.getGasPrice()
    expect(mined).toBe(true)
    expect(gasPrice).toBeGreaterThanOrEqual(ARC_MIN_BASE_FEE_WEI)
    await mining
    const fees = await baseFees(c, from)
    expect(fees).toHaveLength(300)
    expect(fees.every((f) => f === ARC_MIN_BASE_FEE_WEI)).toBe(true)
  })

  test("with automatic mining off, transactions wait for the mine request and its block is on the floor", async () => {
    const from = (await arcClients.pub.getBlockNumber()) + 1n
    await arcClients.cheats.mine({ blocks: 3 })
    await arcClients.cheats.setAutomine(false)
    try {
      const hash = await arcClients.wallets[0]!.sendTransaction({ to: TO, value: 1n, chain: arcClients.wallets[0]!.chain })
      expect(await arcClients.pub.getTransactionReceipt({ hash }).catch(() => null)).toBeNull()
      await arcClients.cheats.mine({ blocks: 1 })
      const receipt = await arcClients.pub.waitForTransactionReceipt({ hash, pollingInterval: 20, timeout: 10_000 })
      expect(receipt.status).toBe("success")
    } finally {
      await arcClients.cheats.setAutomine(true)
    }
    expect((await baseFees(arcClients, from)).every((f) => f === ARC_MIN_BASE_FEE_WEI)).toBe(true)
  })
})

describe("another floor", () => {
  test("8 wei: blocks at 8 wei, and a transaction pays 8 wei plus its tip per gas", async () => {
    const node = await startAnvil({ port: 0, baseFeeFloorWei: 8n })
    try {
      const c = clientsOf(node)
      const receipt = await transfer(c, 0)
      await c.cheats.mine({ blocks: 20 })
      const fees = await baseFees(c, 0n)
      expect(fees.every((f) => f === 8n)).toBe(true)
      const block = await c.pub.getBlock({ blockNumber: receipt.blockNumber })
      const tx = await c.pub.getTransaction({ hash: receipt.transactionHash })
      expect(receipt.effectiveGasPrice).toBe(block.baseFeePerGas! + tx.maxPriorityFeePerGas!)
    } finally {
      await node.stop()
    }
  })

  test("a floor below 1 wei is refused before anything starts", async () => {
    await expect(startAnvil({ port: 0, baseFeeFloorWei: 0n })).rejects.toThrow("the base fee floor must be at least 1 wei, not 0")
  })
})
