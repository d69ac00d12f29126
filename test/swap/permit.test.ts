// /swap with an EIP-2612 permit instead of an approval (API 1.2 section 2),
// judged by the chain: a sender that never approved the executor gets the
// permit's typed data, signs it as a wallet would (viem signTypedData), sends
// /swap again with the signature and then the transaction exactly as
// returned, with no approval transaction; every balance it moved is checked
// to the wei. A permit submitted to the token ahead of the swap does not make
// the swap fail; a wrong signer, a value too low, a past deadline, a token
// without permits and native input are refused, naming the field.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { erc20Abi, parseAbi, parseEventLogs, parseSignature, serializeCompactSignature, signatureToCompactSignature, type Address, type Hex, type TransactionReceipt } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { Effect } from "effect"
import { decodePermitAndCall, encodePermitAndCall, makeRpc, makeSimulator, routeExecutorAbi } from "../../src/chain/index.ts"
import { testAccounts } from "../../src/devnet/index.ts"
import { NATIVE, startSwapOnDevnet, type SwapOnDevnet } from "../support/swap-on-devnet.ts"

let s: SwapOnDevnet

const PERMIT_ABI = parseAbi([
  "function nonces(address owner) view returns (uint256)",
  "function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)",
])
const RECIPIENT = testAccounts[5]!.address
const WATCHER = testAccounts[7]!
const E6 = 10n ** 6n
const deadline = () => Math.floor(Date.now() / 1000) + 600

beforeAll(async () => {
  s = await startSwapOnDevnet()
  // the front-run case's sender holds EURC and has never approved anything
  const hash = await s.devnet.client.writeContract({ address: s.token("EURC"), abi: erc20Abi, functionName: "transfer", args: [testAccounts[4]!.address, 10_000n * E6], account: testAccounts[0]!.address, chain: s.devnet.client.chain })
  await s.devnet.client.waitForTransactionReceipt({ hash, pollingInterval: 20 })
})

afterAll(async () => {
  await s?.stop()
})

const client = () => s.devnet.client
const executor = () => s.manifest.executor as Address
const allowance = (token: Address, owner: Address) => client().readContract({ address: token, abi: erc20Abi, functionName: "allowance", args: [owner, executor()] })
const nonceOf = (token: Address, owner: Address) => client().readContract({ address: token, abi: PERMIT_ABI, functionName: "nonces", args: [owner] })
const sign = (account: number, typedData: any): Promise<Hex> => privateKeyToAccount(testAccounts[account]!.privateKey).signTypedData(typedData)

type Trade = { readonly tokenIn: string; readonly tokenOut: string } & ({ readonly amountIn: bigint } | { readonly amountOut: bigint })

const requestOf = (trade: Trade, sender: Address, extra: Record<string, unknown> = {}) => ({
  tokenIn: s.token(trade.tokenIn),
  tokenOut: s.token(trade.tokenOut),
  ...("amountIn" in trade ? { amountIn: trade.amountIn.toString() } : { amountOut: trade.amountOut.toString() }),
  sender,
  recipient: RECIPIENT,
  slippageBps: 100,
  ...extra,
})

/** /swap without a permit: the typed data to sign, checked field by field. */
const permitToSign = async (trade: Trade, account: number, swapDeadline: number) => {
  const sender = testAccounts[account]!.address
  const res = await s.post("swap", requestOf(trade, sender, { deadline: swapDeadline }))
  expect(res.status).toBe(200)
  const swap = res.body
  const token = s.token(trade.tokenIn)
  expect(swap.approval).toEqual({ token, spender: executor(), amount: swap.maxAmountIn })
  expect(swap.issues.allowance).toEqual({ token, spender: executor(), actual: "0", expected: swap.maxAmountIn })
  const domain = s.manifest.tokens[trade.tokenIn]!.permit!
  expect(swap.permit).toEqual({
    typedData: {
      domain: { name: domain.name, version: domain.version, chainId: s.manifest.chainId, verifyingContract: token },
      types: {
        EIP712Domain: [
          { name: "name", type: "string" },
          { name: "version", type: "string" },
          { name: "chainId", type: "uint256" },
          { name: "verifyingContract", type: "address" },
        ],
        Permit: [
          { name: "owner", type: "address" },
          { name: "spender", type: "address" },
          { name: "value", type: "uint256" },
          { name: "nonce", type: "uint256" },
          { name: "deadline", type: "uint256" },
        ],
      },
      primaryType: "Permit",
      message: { owner: sender, spender: executor(), value: swap.maxAmountIn, nonce: (await nonceOf(token, sender)).toString(), deadline: String(swapDeadline) },
    },
  })
  return swap
}

const swapEvent = (receipt: TransactionReceipt) =>
  (parseEventLogs({ abi: routeExecutorAbi, logs: receipt.logs, eventName: "Swap" }) as unknown as [{ args: { amountIn: bigint; amountOut: bigint; protocolAmount: bigint } }])[0].args

/** tx exactly as returned, and nothing before it. */
const sendAsReturned = async (swap: any, from: Address) => {
  const hash = await client().sendTransaction({ account: from, to: swap.tx.to, data: swap.tx.data, value: BigInt(swap.tx.value), gas: BigInt(swap.tx.gas), chain: client().chain })
  return client().waitForTransactionReceipt({ hash, pollingInterval: 20 })
}

/**
 * The one-signature flow, from a sender with no allowance: typed data, signature, /swap with the
 * permit, tx sent as returned; every balance checked to the wei.
 */
const permitThenSwap = async (trade: Trade, account: number, options: { readonly compact?: boolean; readonly frontRun?: boolean } = {}) => {
  const sender = testAccounts[account]!.address
  const tokenIn = s.token(trade.tokenIn)
  const tokenOut = s.token(trade.tokenOut)
  expect(await allowance(tokenIn, sender)).toBe(0n)
  const swapDeadline = deadline()
  const first = await permitToSign(trade, account, swapDeadline)
  const full = await sign(account, first.permit.typedData)
  const signature = options.compact === true ? serializeCompactSignature(signatureToCompactSignature(parseSignature(full))) : full
  const permit = { value: first.permit.typedData.message.value, deadline: first.permit.typedData.message.deadline, signature }

  const res = await s.post("swap", requestOf(trade, sender, { deadline: swapDeadline, permit }))
  expect(res.status).toBe(200)
  const swap = res.body
  expect(swap.approval).toBeNull()
  expect(swap.permit).toBeNull()
  expect(swap.simulated).toBe(true)
  expect(swap.issues).toEqual({ balance: null, allowance: null })
  expect(swap.maxAmountIn).toBe(first.maxAmountIn)
  expect(swap.amountIn).toBe(first.amountIn)
  // the transaction applies this permit, then the same execute call as without it
  const decoded = decodePermitAndCall(swap.tx.data)
  expect(decoded.permit.token).toBe(tokenIn)
  expect(decoded.permit.value).toBe(BigInt(permit.value))
  expect(decoded.permit.deadline).toBe(BigInt(swapDeadline))
  expect(decoded.call).toBe(first.tx.data)

  const nonceBefore = await nonceOf(tokenIn, sender)
  if (options.frontRun === true) {
    // a watcher submits the signed permit to the token before the swap is mined
    const { r, s: sv, v } = parseSignature(full)
    const hash = await client().writeContract({ address: tokenIn, abi: PERMIT_ABI, functionName: "permit", args: [sender, executor(), BigInt(permit.value), BigInt(permit.deadline), Number(v), r, sv], account: WATCHER.address, chain: client().chain })
    expect((await client().waitForTransactionReceipt({ hash, pollingInterval: 20 })).status).toBe("success")
    expect(await allowance(tokenIn, sender)).toBe(BigInt(permit.value))
  }
  const collector = s.manifest.feeCollector as Address
  const usdcIn = trade.tokenIn === "USDC"
  const before = {
    senderIn: await s.balanceOf(tokenIn, sender),
    senderNative: await s.balanceOf(NATIVE, sender),
    recipient: await s.balanceOf(tokenOut, RECIPIENT),
    collector: await s.balanceOf(tokenOut, collector),
  }
  const receipt = await sendAsReturned(swap, sender)
  expect(receipt.status).toBe("success")
  const gasWei = receipt.gasUsed * receipt.effectiveGasPrice
  const event = swapEvent(receipt)
  const paid = event.amountIn
  // nothing moved the pools between /swap and the transaction: the quote is what happened
  expect(paid).toBe(BigInt(swap.amountIn))
  expect(event.amountOut).toBe(BigInt(swap.amountOut))
  expect(paid).toBeLessThanOrEqual(BigInt(swap.maxAmountIn))
  expect((await s.balanceOf(tokenOut, RECIPIENT)) - before.recipient).toBe(BigInt(swap.amountOut))
  expect((await s.balanceOf(tokenOut, collector)) - before.collector).toBe(BigInt(swap.fees.protocolAmount))
  if (usdcIn) {
    // the ERC-20 USDC is the native balance: the input and the gas both leave it
    expect(before.senderNative - (await s.balanceOf(NATIVE, sender))).toBe(paid * 10n ** 12n + gasWei)
  } else {
    expect(before.senderIn - (await s.balanceOf(tokenIn, sender))).toBe(paid)
    expect(before.senderNative - (await s.balanceOf(NATIVE, sender))).toBe(gasWei)
  }
  // the permit was used once (by the transaction, or by the watcher ahead of it) and the
  // executor took what it paid from the allowance it set
  expect(await nonceOf(tokenIn, sender)).toBe(nonceBefore + 1n)
  expect(await allowance(tokenIn, sender)).toBe(BigInt(permit.value) - paid)
  // the executor keeps nothing
  for (const token of [tokenIn, tokenOut]) expect(await s.balanceOf(token, executor())).toBe(0n)
  expect(await s.balanceOf(NATIVE, executor())).toBe(0n)
  return { swap, permit, sender }
}

describe("permit, then swap: one signature, no approval transaction", () => {
  test("EURC exact input", async () => {
    const { swap } = await permitThenSwap({ tokenIn: "EURC", tokenOut: "USDT", amountIn: 1_000n * E6 }, 0)
    expect(swap.tradeType).toBe("exactInput")
  })
  test("EURC exact output: the permit's value is maxAmountIn, the part not needed stays allowed", async () => {
    const { swap } = await permitThenSwap({ tokenIn: "EURC", tokenOut: "USDT", amountOut: 500n * E6 }, 1)
    expect(swap.tradeType).toBe("exactOutput")
    expect(BigInt(swap.maxAmountIn)).toBeGreaterThan(BigInt(swap.amountIn))
  })
  test("ERC-20 USDC exact input", async () => {
    await permitThenSwap({ tokenIn: "USDC", tokenOut: "EURC", amountIn: 2_000n * E6 }, 2)
  })
  test("ERC-20 USDC exact output, signed as a 64-byte EIP-2098 signature", async () => {
    await permitThenSwap({ tokenIn: "USDC", tokenOut: "EURC", amountOut: 700n * E6 }, 3, { compact: true })
  })
  test("a permit front-run (submitted to the token directly first) still swaps; the same permit sent to /swap again is refused as used", async () => {
    const trade = { tokenIn: "EURC", tokenOut: "USDT", amountIn: 300n * E6 } as const
    const { permit, sender } = await permitThenSwap(trade, 4, { frontRun: true })
    const again = await s.post("swap", requestOf(trade, sender, { deadline: Number(permit.deadline), permit }))
    expect(again.status).toBe(400)
    expect(again.body.error.code).toBe("INVALID_REQUEST")
    expect(again.body.error.message).toMatch(/^permit\.signature: this permit has been used already: it was signed for nonce 0 and the sender's nonce on EURC is now 1/)
  })
})

describe("permit field of the answer", () => {
  test("null when the allowance already covers the transaction", async () => {
    const sender = testAccounts[6]!.address
    const hash = await client().writeContract({ address: s.token("EURC"), abi: erc20Abi, functionName: "approve", args: [executor(), 100n * E6], account: sender, chain: client().chain })
    await client().waitForTransactionReceipt({ hash, pollingInterval: 20 })
    const covered = await s.post("swap", requestOf({ tokenIn: "EURC", tokenOut: "USDT", amountIn: 100n * E6 }, sender))
    expect(covered.status).toBe(200)
    expect(covered.body.permit).toBeNull()
    const short = await s.post("swap", requestOf({ tokenIn: "EURC", tokenOut: "USDT", amountIn: 100n * E6 + 1n }, sender))
    expect(short.body.permit.typedData.message.value).toBe(String(100n * E6 + 1n))
  })
  test("null for a token without EIP-2612 (USDT) and for native input", async () => {
    const sender = testAccounts[6]!.address
    const usdt = await s.post("swap", requestOf({ tokenIn: "USDT", tokenOut: "EURC", amountIn: 10n * E6 }, sender))
    expect(usdt.status).toBe(200)
    expect(usdt.body.permit).toBeNull()
    expect(usdt.body.approval).not.toBeNull()
    const native = await s.post("swap", { ...requestOf({ tokenIn: "USDC", tokenOut: "EURC", amountIn: 10n * E6 }, sender), tokenIn: NATIVE, amountIn: (10n * 10n ** 18n).toString() })
    expect(native.status).toBe(200)
    expect(native.body.permit).toBeNull()
  })
})

describe("refused with 400 naming the field", () => {
  const SENDER = 6
  const trade = { tokenIn: "EURC", tokenOut: "USDT", amountIn: 200n * E6 } as const
  const refusal = async (body: Record<string, unknown>) => {
    const res = await s.post("swap", body)
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe("INVALID_REQUEST")
    return res.body.error.message as string
  }
  const typed = async (swapDeadline: number) => (await s.post("swap", requestOf(trade, testAccounts[SENDER]!.address, { deadline: swapDeadline }))).body.permit.typedData

  test("a signature by someone else: permit.signature", async () => {
    const d = deadline()
    const typedData = await typed(d)
    const signature = await sign(7, typedData)
    const message = await refusal(requestOf(trade, testAccounts[SENDER]!.address, { deadline: d, permit: { value: typedData.message.value, deadline: d, signature } }))
    expect(message).toStartWith(`permit.signature: does not recover to the sender ${testAccounts[SENDER]!.address}`)
    expect(message).toContain(`(it recovers to ${WATCHER.address})`)
  })
  test("a signature of other terms than sent (the deadline): permit.signature", async () => {
    const d = deadline()
    const typedData = await typed(d)
    const signature = await sign(SENDER, typedData)
    expect(await refusal(requestOf(trade, testAccounts[SENDER]!.address, { deadline: d, permit: { value: typedData.message.value, deadline: d + 1, signature } }))).toStartWith("permit.signature: does not recover to the sender")
  })
  test("a value below what the trade takes: permit.value", async () => {
    const d = deadline()
    const typedData = await typed(d)
    const low = (BigInt(typedData.message.value) - 1n).toString()
    const signature = await sign(SENDER, { ...typedData, message: { ...typedData.message, value: low } })
    expect(await refusal(requestOf(trade, testAccounts[SENDER]!.address, { deadline: d, permit: { value: low, deadline: d, signature } }))).toStartWith(
      `permit.value: ${low} is below what the transaction takes, ${200n * E6} (amountIn at block`,
    )
  })
  test("a deadline already past: permit.deadline", async () => {
    const d = deadline()
    const typedData = await typed(d)
    const past = Math.floor(Date.now() / 1000) - 1
    const signature = await sign(SENDER, { ...typedData, message: { ...typedData.message, deadline: String(past) } })
    expect(await refusal(requestOf(trade, testAccounts[SENDER]!.address, { deadline: d, permit: { value: typedData.message.value, deadline: past, signature } }))).toStartWith(`permit.deadline: ${past} has passed`)
  })
  test("a token without EIP-2612: permit", async () => {
    const d = deadline()
    const signature = await sign(SENDER, await typed(d))
    expect(await refusal(requestOf({ tokenIn: "USDT", tokenOut: "EURC", amountIn: 10n * E6 }, testAccounts[SENDER]!.address, { deadline: d, permit: { value: "10000000", deadline: d, signature } }))).toBe(
      "permit: USDT does not implement EIP-2612 permits; send /swap without permit and approve the executor (approval)",
    )
  })
  test("native input: permit", async () => {
    const d = deadline()
    const signature = await sign(SENDER, await typed(d))
    const body = { ...requestOf(trade, testAccounts[SENDER]!.address, { deadline: d, permit: { value: "1", deadline: d, signature } }), tokenIn: NATIVE, tokenOut: s.token("EURC"), amountIn: (10n ** 18n).toString() }
    expect(await refusal(body)).toStartWith("permit: native USDC input is paid with tx.value and takes no permit")
  })
})

describe("the simulation runs with the signature, not with an allowance filled in", () => {
  test("a permitAndCall whose permit the token refuses reverts in the simulation; with the allowance filled in it would have passed", async () => {
    const account = 6
    const sender = testAccounts[account]!.address
    const trade = { tokenIn: "USDC", tokenOut: "EURC", amountIn: 50n * E6 } as const
    const d = deadline()
    const typedData = (await s.post("swap", requestOf(trade, sender, { deadline: d }))).body.permit.typedData
    const signature = await sign(account, typedData)
    const swap = (await s.post("swap", requestOf(trade, sender, { deadline: d, permit: { value: typedData.message.value, deadline: d, signature } }))).body
    expect(swap.simulated).toBe(true)
    const { permit, call } = decodePermitAndCall(swap.tx.data)
    const simulator = await Effect.runPromise(Effect.flatMap(makeRpc({ urls: [s.devnet.node.rpcUrl], chainId: s.manifest.chainId, multicall3: s.manifest.multicall3 as Address }), makeSimulator))
    const block = await client().getBlock()
    const simulate = (data: Hex, allowance: boolean) =>
      Effect.runPromise(simulator.simulateExecute({ sender, executor: executor(), data, value: 0n, block: { number: block.number, timestamp: block.timestamp }, pulls: { token: permit.token, amount: 50n * E6, allowance } }))
    expect((await simulate(swap.tx.data, false)).ok).toBe(true)
    // the same call with a permit the token refuses (its deadline is not the one signed)
    const refused = encodePermitAndCall({ token: permit.token, value: permit.value, deadline: permit.deadline + 1n, signature }, call)
    expect((await simulate(refused, false)).ok).toBe(false)
    expect((await simulate(refused, true)).ok).toBe(true)
  })
})

describe("the chain's clock", () => {
  test("a permit deadline past on the chain, though not yet by the service's clock: permit.deadline", async () => {
    const account = 6
    const sender = testAccounts[account]!.address
    const trade = { tokenIn: "EURC", tokenOut: "USDT", amountIn: 250n * E6 } as const
    const d = deadline()
    const typedData = (await s.post("swap", requestOf(trade, sender, { deadline: d }))).body.permit.typedData
    const permitDeadline = Math.floor(Date.now() / 1000) + 120
    const signature = await sign(account, { ...typedData, message: { ...typedData.message, deadline: String(permitDeadline) } })
    // the chain's time moves ahead of the wall clock (and of the permit's deadline)
    await client().request({ method: "evm_setNextBlockTimestamp" as never, params: [permitDeadline + 60] as never })
    await client().request({ method: "evm_mine" as never, params: [] as never })
    const head = await client().getBlockNumber()
    let res = await s.post("swap", requestOf(trade, sender, { deadline: d, permit: { value: typedData.message.value, deadline: permitDeadline, signature } }))
    // the market catches up with the head block first
    for (let i = 0; i < 50 && res.status === 200 && BigInt(res.body.blockNumber) < head; i++) {
      await Bun.sleep(50)
      res = await s.post("swap", requestOf(trade, sender, { deadline: d, permit: { value: typedData.message.value, deadline: permitDeadline, signature } }))
    }
    expect(res.status).toBe(400)
    expect(res.body.error.message).toStartWith(`permit.deadline: ${permitDeadline} has passed on the chain (block`)
  })
})
