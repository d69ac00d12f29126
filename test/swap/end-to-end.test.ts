// The whole service on a real devnet: /quote and /swap over real HTTP, the
// returned transaction sent as a client would, and every party paid exactly
// what the response said.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { erc20Abi, parseAbi, type Address } from "viem"
import { ownArtifact } from "../../src/contracts/index.ts"
import { testAccounts, type Manifest } from "../../src/devnet/index.ts"
import { NATIVE, startSwapOnDevnet, type SwapOnDevnet } from "../support/swap-on-devnet.ts"

let s: SwapOnDevnet
let m: Manifest
let devnet: SwapOnDevnet["devnet"]

beforeAll(async () => {
  s = await startSwapOnDevnet()
  m = s.manifest
  devnet = s.devnet
})

afterAll(async () => {
  await s?.stop()
})

const post = (path: "quote" | "swap", body: Record<string, unknown>) => s.post(path, body)
const token = (symbol: string) => s.token(symbol)
const balanceOf = (asset: Address, holder: Address) => s.balanceOf(asset, holder)

/** Sends a /swap answer as a client would: approve if needed, then tx exactly as returned. */
const execute = async (swap: any, from: Address) => {
  const receipt = await s.send(swap, from)
  expect(receipt.status).toBe("success")
  return receipt
}

const deadline = () => Math.floor(Date.now() / 1000) + 600

describe("POST /swap, sent on chain", () => {
  test("ERC-20 in, ERC-20 out, partner fee: recipient, partner and collector get exactly what the response says", async () => {
    const sender = testAccounts[1]!.address
    const recipient = testAccounts[4]!.address
    const partner = testAccounts[5]!.address
    const res = await post("swap", { tokenIn: token("USDC"), tokenOut: token("EURC"), amountIn: "2500000000", feeBps: 30, feeRecipient: partner, sender, recipient, deadline: deadline() })
    expect(res.status).toBe(200)
    const swap = res.body
    expect(swap.simulated).toBe(true)
    expect(swap.approval).toEqual({ token: token("USDC"), spender: m.executor, amount: "2500000000" })
    expect(swap.tx.to).toBe(m.executor)
    expect(swap.tx.value).toBe("0")
    // the spec's fee formulas on the response's own gross output
    const gross = BigInt(swap.grossAmountOut)
    expect(BigInt(swap.fees.protocolAmount)).toBe((gross * BigInt(swap.fees.protocolBps)) / 10_000n)
    expect(BigInt(swap.fees.partnerAmount)).toBe((gross * 30n) / 10_000n)
    expect(BigInt(swap.amountOut)).toBe(gross - BigInt(swap.fees.protocolAmount) - BigInt(swap.fees.partnerAmount))

    const eurc = token("EURC")
    const before = await Promise.all([balanceOf(eurc, recipient), balanceOf(eurc, partner), balanceOf(eurc, m.feeCollector as Address), balanceOf(token("USDC"), sender)])
    await execute(swap, sender)
    const after = await Promise.all([balanceOf(eurc, recipient), balanceOf(eurc, partner), balanceOf(eurc, m.feeCollector as Address)])
    expect(after[0] - before[0]).toBe(BigInt(swap.amountOut))
    expect(after[1] - before[1]).toBe(BigInt(swap.fees.partnerAmount))
    expect(after[2] - before[2]).toBe(BigInt(swap.fees.protocolAmount))
    // the executor keeps nothing
    expect(await balanceOf(eurc, m.executor as Address)).toBe(0n)
    expect(await devnet.client.readContract({ address: token("USDC"), abi: erc20Abi, functionName: "allowance", args: [m.executor as Address, sender] })).toBe(0n)
  })

  test("native USDC in with dust: value is amountIn, the dust comes back, the output is exact", async () => {
    const sender = testAccounts[2]!.address
    const recipient = testAccounts[6]!.address
    const amountIn = 1234n * 10n ** 18n + 987_654_321n // not a whole 6-decimal unit
    const res = await post("swap", { tokenIn: NATIVE, tokenOut: token("cirBTC"), amountIn: amountIn.toString(), sender, recipient, deadline: deadline() })
    expect(res.status).toBe(200)
    expect(res.body.approval).toBeNull()
    expect(res.body.tx.value).toBe(amountIn.toString())
    const nativeBefore = await balanceOf(NATIVE, sender)
    const outBefore = await balanceOf(token("cirBTC"), recipient)
    const receipt = await execute(res.body, sender)
    const gasPaid = receipt.gasUsed * receipt.effectiveGasPrice
    // the sender pays the whole 6-decimal units and gas; the dust is refunded in the same transaction
    expect(nativeBefore - (await balanceOf(NATIVE, sender))).toBe(amountIn - 987_654_321n + gasPaid)
    expect((await balanceOf(token("cirBTC"), recipient)) - outBefore).toBe(BigInt(res.body.amountOut))
  })

  test("native USDC out: the recipient and the collector are paid in native value, exactly", async () => {
    const sender = testAccounts[3]!.address
    const recipient = testAccounts[7]!.address
    const res = await post("swap", { tokenIn: token("EURC"), tokenOut: NATIVE, amountIn: "500000000", sender, recipient, deadline: deadline() })
    expect(res.status).toBe(200)
    const gross = BigInt(res.body.grossAmountOut)
    // 18-decimal output: a whole number of 6-decimal units
    expect(gross % 10n ** 12n).toBe(0n)
    const before = await Promise.all([balanceOf(NATIVE, recipient), balanceOf(NATIVE, m.feeCollector as Address)])
    await execute(res.body, sender)
    const after = await Promise.all([balanceOf(NATIVE, recipient), balanceOf(NATIVE, m.feeCollector as Address)])
    expect(after[0] - before[0]).toBe(BigInt(res.body.amountOut))
    expect(after[1] - before[1]).toBe(BigInt(res.body.fees.protocolAmount))
  })

  test("a two-hop route and a split route pay exactly", async () => {
    const sender = testAccounts[0]!.address
    for (const [tokenOut, amountIn] of [["WBTC", "3000000000"], ["EURC", "60000000000"]] as const) {
      const res = await post("swap", { tokenIn: token("USDC"), tokenOut: token(tokenOut), amountIn, sender, deadline: deadline() })
      expect(res.status).toBe(200)
      if (tokenOut === "WBTC") expect(res.body.route[0].hops).toHaveLength(2)
      else expect(res.body.route.length).toBeGreaterThan(1)
      expect(res.body.route.reduce((s: number, r: any) => s + r.shareBps, 0)).toBe(10_000)
      const before = await balanceOf(token(tokenOut), sender)
      await execute(res.body, sender)
      expect((await balanceOf(token(tokenOut), sender)) - before).toBe(BigInt(res.body.amountOut))
    }
  })
})

describe("POST /quote", () => {
  test("the same value as native or ERC-20 USDC quotes the same output", async () => {
    // on the head's World: the swaps sent above may not have reached the market yet
    const head = await devnet.client.getBlockNumber()
    let erc20 = await post("quote", { tokenIn: token("USDC"), tokenOut: token("EURC"), amountIn: "1000000000" })
    for (const until = Date.now() + 10_000; BigInt(erc20.body.blockNumber) < head && Date.now() < until; await Bun.sleep(20)) {
      erc20 = await post("quote", { tokenIn: token("USDC"), tokenOut: token("EURC"), amountIn: "1000000000" })
    }
    const native = await post("quote", { tokenIn: NATIVE, tokenOut: token("EURC"), amountIn: "1000000000000000000000" })
    const eeee = await post("quote", { tokenIn: "0xEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEE".toLowerCase(), tokenOut: token("EURC"), amountIn: "1000000000000000000000" })
    expect(new Set([erc20, native, eeee].map((r) => r.body.blockNumber)).size).toBe(1)
    expect(erc20.status).toBe(200)
    expect(native.body.amountOut).toBe(erc20.body.amountOut)
    expect(eeee.body.amountOut).toBe(erc20.body.amountOut)
  })

  test("tokens that tax or rebase are never routed: 422 NO_ROUTE", async () => {
    for (const symbol of ["TAX", "REB"]) {
      const res = await post("quote", { tokenIn: token("USDC"), tokenOut: token(symbol), amountIn: "1000000" })
      expect(res.status).toBe(422)
      expect(res.body.error.code).toBe("NO_ROUTE")
      expect(res.body.error.message).toContain(symbol)
    }
  })

  test("a token's symbol reaches the error message cleaned: no bidi or control characters, at most 32", async () => {
    const TestToken = ownArtifact("TestToken")
    const raw = `\u202Eexe.USDC\u202C\u0000\u001b[31m\u200E${"y".repeat(40)}`
    const hash = await devnet.client.deployContract({ abi: TestToken.abi, bytecode: TestToken.bytecode, args: ["Spoof", raw, 6], account: testAccounts[8]!.address, chain: devnet.client.chain })
    const address = (await devnet.client.waitForTransactionReceipt({ hash })).contractAddress!
    const res = await post("quote", { tokenIn: token("USDC"), tokenOut: address, amountIn: "1000000" })
    expect(res.status).toBe(422)
    // no pool holds it yet, so nothing can check its transfers
    expect(res.body.error).toEqual({ code: "NO_ROUTE", message: `tokenOut: exe.USDC[31m${"y".repeat(20)} cannot be routed (unverified)` })
  })

  test("price impact against the feeds, and null for a token without a feed", async () => {
    const res = await post("quote", { tokenIn: token("USDC"), tokenOut: token("EURC"), amountIn: "1000000" })
    expect(typeof res.body.priceImpactBps).toBe("number")
    // a small trade against deep pools sits within a few bps of the feed (fee tier aside)
    expect(Math.abs(res.body.priceImpactBps)).toBeLessThan(60)
  })
})

describe("live executor settings", () => {
  const executorAbi = parseAbi(["function pause()", "function unpause()", "function setProtocolFeeBps(uint16)"])
  const asOwner = async (functionName: "pause" | "unpause" | "setProtocolFeeBps", args: readonly unknown[] = []) => {
    const hash = await devnet.client.writeContract({ address: m.executor as Address, abi: executorAbi, functionName, args: args as never, account: m.owner.address as Address, chain: devnet.client.chain })
    await devnet.client.waitForTransactionReceipt({ hash, pollingInterval: 20 })
  }
  const waitFor = async (check: () => Promise<boolean>) => {
    for (let i = 0; i < 100 && !(await check()); i++) await Bun.sleep(20)
  }

  test("a paused executor fails simulation with reason Paused", async () => {
    await asOwner("pause")
    try {
      const res = await post("swap", { tokenIn: token("USDC"), tokenOut: token("EURC"), amountIn: "1000000", sender: testAccounts[0]!.address, deadline: deadline() })
      expect(res.status).toBe(409)
      expect(res.body.error).toMatchObject({ code: "SIMULATION_FAILED", reason: "Paused" })
      expect(res.headers.get("x-request-id")).toBe(res.body.requestId)
    } finally {
      await asOwner("unpause")
    }
  })

  test("a recipient that cannot take native USDC fails with NativeTransferFailed", async () => {
    // Multicall3 has no payable receive function
    const res = await post("swap", { tokenIn: token("EURC"), tokenOut: NATIVE, amountIn: "1000000", sender: testAccounts[0]!.address, recipient: m.multicall3, deadline: deadline() })
    expect(res.status).toBe(409)
    expect(res.body.error.reason).toBe("NativeTransferFailed")
  })

  test("fees.protocolBps follows the executor's live rate", async () => {
    await asOwner("setProtocolFeeBps", [40])
    try {
      await waitFor(async () => (await post("quote", { tokenIn: token("USDC"), tokenOut: token("EURC"), amountIn: "1000000" })).body.fees?.protocolBps === 40)
      const res = await post("quote", { tokenIn: token("USDC"), tokenOut: token("EURC"), amountIn: "1000000000" })
      expect(res.body.fees.protocolBps).toBe(40)
      expect(BigInt(res.body.fees.protocolAmount)).toBe((BigInt(res.body.grossAmountOut) * 40n) / 10_000n)
    } finally {
      await asOwner("setProtocolFeeBps", [25])
    }
  })
})
