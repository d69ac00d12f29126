// The service on Arc testnet: a devnet started as chain 5042002 from the
// scenario's chainId, the API served on it from its manifest. Answers carry the
// testnet's chain id, transactions signed for it are mined, a request for Arc
// (5042) is refused, and a CHAIN_ID that is not the node's stops the start.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Effect, Either, Exit, Layer } from "effect"
import { readFileSync } from "node:fs"
import { createPublicClient, createWalletClient, erc20Abi, http, type Address, type Hex } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { chainSettings } from "../../src/config/index.ts"
import { arcDevnet, DEFAULT_SCENARIO_PATH } from "../../src/devnet/index.ts"
import { livePrograms } from "../../src/swap/live.ts"
import { NATIVE, startSwapOnDevnet, type SwapOnDevnet } from "../support/swap-on-devnet.ts"

const TESTNET = 5042002

let s: SwapOnDevnet

beforeAll(async () => {
  const scenario = JSON.parse(readFileSync(DEFAULT_SCENARIO_PATH, "utf8"))
  s = await startSwapOnDevnet({ scenarioText: JSON.stringify({ ...scenario, chainId: TESTNET }) })
}, 120_000)

afterAll(async () => {
  await s?.stop()
})

/** A wallet that signs locally with one of the devnet's funded accounts, for the chain `chainId`. */
const walletOf = (index: number, chainId: 5042 | 5042002 = TESTNET) => {
  const account = privateKeyToAccount(s.manifest.accounts[index]!.privateKey as Hex)
  const chain = arcDevnet(s.manifest.rpcUrl, s.manifest.multicall3 as Address, chainId)
  return createWalletClient({ account, chain, transport: http(s.manifest.rpcUrl) })
}

const reader = () => createPublicClient({ transport: http(s.manifest.rpcUrl), pollingInterval: 20 })

describe("a devnet started as Arc testnet", () => {
  test("the node reports 5042002, the manifest records it, and the service serves it", async () => {
    expect(await reader().getChainId()).toBe(TESTNET)
    expect(s.manifest.chainId).toBe(TESTNET)
    expect(s.settings.chainId).toBe(TESTNET)
  })
})

describe("the API on Arc testnet", () => {
  test("/quote and /swap answer chainId 5042002, with or without the request naming it", async () => {
    const trade = { tokenIn: s.token("USDC"), tokenOut: s.token("EURC"), amountIn: "10000000" }
    const quote = await s.post("quote", trade)
    expect(quote.status).toBe(200)
    expect(quote.body.chainId).toBe(TESTNET)
    const named = await s.post("quote", { ...trade, chainId: TESTNET })
    expect(named.status).toBe(200)
    expect(named.body.chainId).toBe(TESTNET)
    const swap = await s.post("swap", { ...trade, chainId: TESTNET, sender: s.manifest.accounts[1]!.address, quoteId: quote.body.quoteId })
    expect(swap.status).toBe(200)
    expect(swap.body.chainId).toBe(TESTNET)
    expect(swap.body.simulated).toBe(true)
  })

  test("a request naming Arc (5042) is refused with 400, naming chainId and both chains", async () => {
    const message = "chainId: this service serves chain 5042002 (Arc testnet), the request names 5042"
    const quote = await s.post("quote", { tokenIn: s.token("USDC"), tokenOut: s.token("EURC"), amountIn: "1000000", chainId: 5042 })
    expect(quote.status).toBe(400)
    expect(quote.body.error).toEqual({ code: "INVALID_REQUEST", message })
    const swap = await s.post("swap", { tokenIn: s.token("USDC"), tokenOut: s.token("EURC"), amountIn: "1000000", chainId: 5042, sender: s.manifest.accounts[1]!.address })
    expect(swap.status).toBe(400)
    expect(swap.body.error).toEqual({ code: "INVALID_REQUEST", message })
  })

  test("native USDC in: the transaction as returned, signed for 5042002, is mined and pays at least minAmountOut", async () => {
    const wallet = walletOf(1)
    const sender = wallet.account.address
    const swap = await s.post("swap", { tokenIn: NATIVE, tokenOut: s.token("EURC"), amountIn: "50000000000000000000", sender })
    expect(swap.status).toBe(200)
    expect(swap.body.approval).toBeNull()
    const before = await s.balanceOf(s.token("EURC"), sender)
    const hash = await wallet.sendTransaction({ to: swap.body.tx.to, data: swap.body.tx.data, value: BigInt(swap.body.tx.value), gas: BigInt(swap.body.tx.gas) })
    const receipt = await reader().waitForTransactionReceipt({ hash, pollingInterval: 20 })
    expect(receipt.status).toBe("success")
    // the chain id the transaction was signed with (EIP-155 / typed transactions) is the testnet's
    expect((await reader().getTransaction({ hash })).chainId).toBe(TESTNET)
    const received = (await s.balanceOf(s.token("EURC"), sender)) - before
    expect(received).toBeGreaterThanOrEqual(BigInt(swap.body.minAmountOut))
  })

  test("ERC-20 in: the approval and the transaction, each signed for 5042002, go through", async () => {
    const wallet = walletOf(2)
    const sender = wallet.account.address
    const eurc = s.token("EURC")
    const usdt = s.token("USDT")
    const swap = await s.post("swap", { tokenIn: eurc, tokenOut: usdt, amountIn: "30000000", sender })
    expect(swap.status).toBe(200)
    const { token, spender, amount } = swap.body.approval
    const approve = await wallet.writeContract({ address: token, abi: erc20Abi, functionName: "approve", args: [spender, BigInt(amount)] })
    expect((await reader().waitForTransactionReceipt({ hash: approve, pollingInterval: 20 })).status).toBe("success")
    const before = await s.balanceOf(usdt, sender)
    const hash = await wallet.sendTransaction({ to: swap.body.tx.to, data: swap.body.tx.data, value: BigInt(swap.body.tx.value), gas: BigInt(swap.body.tx.gas) })
    expect((await reader().waitForTransactionReceipt({ hash, pollingInterval: 20 })).status).toBe("success")
    expect((await reader().getTransaction({ hash })).chainId).toBe(TESTNET)
    expect((await s.balanceOf(usdt, sender)) - before).toBeGreaterThanOrEqual(BigInt(swap.body.minAmountOut))
  })

  test("the same transaction signed for Arc (5042) is refused by the node", async () => {
    const account = privateKeyToAccount(s.manifest.accounts[3]!.privateKey as Hex)
    const swap = await s.post("swap", { tokenIn: NATIVE, tokenOut: s.token("EURC"), amountIn: "1000000000000000000", sender: account.address })
    expect(swap.status).toBe(200)
    const transaction = {
      type: "eip1559",
      to: swap.body.tx.to,
      data: swap.body.tx.data,
      value: BigInt(swap.body.tx.value),
      gas: BigInt(swap.body.tx.gas),
      nonce: await reader().getTransactionCount({ address: account.address }),
      maxFeePerGas: 10n ** 12n,
      maxPriorityFeePerGas: 0n,
    } as const
    const forArc = await account.signTransaction({ ...transaction, chainId: 5042 })
    await expect(reader().sendRawTransaction({ serializedTransaction: forArc })).rejects.toThrow(/chain id/i)
    // signed for the testnet, the very same transaction is mined
    const forTestnet = await account.signTransaction({ ...transaction, chainId: TESTNET })
    const hash = await reader().sendRawTransaction({ serializedTransaction: forTestnet })
    expect((await reader().waitForTransactionReceipt({ hash, pollingInterval: 20 })).status).toBe("success")
  })
})

describe("CHAIN_ID must be the node's", () => {
  test("CHAIN_ID 5042 over this 5042002 node: the service does not start, and says why", async () => {
    const settings = Either.getOrThrow(chainSettings({ CHAIN_ID: "5042" }, s.manifest))
    const exit = await Effect.runPromiseExit(Effect.scoped(Layer.build(livePrograms(settings))))
    expect(Exit.isFailure(exit)).toBe(true)
    if (Exit.isFailure(exit)) {
      const error = exit.cause._tag === "Fail" ? exit.cause.error : undefined
      expect(error).toMatchObject({
        _tag: "RpcError",
        reason: "chain-mismatch",
        message: "CHAIN_ID: the endpoint serves chain 5042002, expected 5042; it must be the node's chain, 5042 (Arc) or 5042002 (Arc testnet)",
      })
    }
  })
})
