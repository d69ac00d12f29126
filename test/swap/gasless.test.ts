// Gasless swaps (api-1.2 section 3) over HTTP on the devnet, judged by the
// chain: a wallet holding EURC and no USDC at all signs the quote's order and
// permit as a wallet would (viem signTypedData over the JSON it was given),
// submits them, and follows /gasless/status to `confirmed`; every balance the
// order moved is checked to the wei, and its USDC stays 0. The same signed
// order submitted again answers its tradeHash and the chain shows one
// transaction. Refusals name their field: someone else's signature, an altered
// amount, recipient or fee, another chain, an expired order, a nonce used or
// cancelled, a permit for too little, a fee above the signed maximum. A relayer
// short of USDC answers 503 with Retry-After.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Effect, Layer } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { encodeFunctionData, erc20Abi, parseEventLogs, type Address, type Hex } from "viem"
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts"
import { encodeCancelNonce, routeExecutorAbi } from "../../src/chain/index.ts"
import { ownArtifact } from "../../src/contracts/index.ts"
import { startApiServer } from "../../src/api/index.ts"
import { livePrograms } from "../../src/swap/index.ts"
import { devnetRelayer, fundDevnetRelayer, testAccounts } from "../../src/devnet/index.ts"
import { startSwapOnDevnet, type SwapOnDevnet } from "../support/swap-on-devnet.ts"

let s: SwapOnDevnet
const E6 = 10n ** 6n
const PARTNER = privateKeyToAccount(generatePrivateKey()).address
const RECIPIENT = privateKeyToAccount(generatePrivateKey()).address

beforeAll(async () => {
  s = await startSwapOnDevnet({ env: { RELAYER_PRIVATE_KEY: devnetRelayer.privateKey }, apiEnv: { ADMIN_PORT: "0" } })
  await fundDevnetRelayer(s.manifest)
})

afterAll(async () => {
  await s?.stop()
})

const client = () => s.devnet.client
const executor = () => s.manifest.executor as Address
const relayer = devnetRelayer.address

/** A new wallet holding `eurc` EURC and no USDC (gas is paid in USDC: it cannot send a transaction). */
const eurcOnlyWallet = async (eurc: bigint): Promise<PrivateKeyAccount> => {
  const wallet = privateKeyToAccount(generatePrivateKey())
  const hash = await client().writeContract({ address: s.token("EURC"), abi: erc20Abi, functionName: "transfer", args: [wallet.address, eurc], account: testAccounts[0]!.address, chain: client().chain })
  expect((await client().waitForTransactionReceipt({ hash, pollingInterval: 20 })).status).toBe("success")
  expect(await client().getBalance({ address: wallet.address })).toBe(0n)
  return wallet
}

const quote = (wallet: PrivateKeyAccount, extra: Record<string, unknown>) =>
  s.post("gasless/quote", { tokenIn: s.token("EURC"), tokenOut: s.token("WETH"), sender: wallet.address, recipient: RECIPIENT, slippageBps: 100, ...extra })

/** The order (and permit, when the quote gives one) signed as a wallet signs the JSON it was given. */
const signQuote = async (wallet: PrivateKeyAccount, q: any) => ({
  order: q.order.typedData.message,
  signature: await wallet.signTypedData(q.order.typedData),
  ...(q.permit !== null ? { permit: { signature: await wallet.signTypedData(q.permit.typedData) } } : {}),
})

const waitForStatus = async (tradeHash: Hex, ends: readonly string[] = ["confirmed", "failed", "expired"]) => {
  const until = Date.now() + 30_000
  for (;;) {
    const res = await s.post("gasless/status", { tradeHash })
    expect(res.status).toBe(200)
    if (ends.includes(res.body.status) || Date.now() > until) return res.body
    await Bun.sleep(100)
  }
}

const balances = async (tokens: readonly Address[], holders: readonly Address[]) => {
  const out = new Map<string, bigint>()
  for (const token of tokens) for (const holder of holders) out.set(`${token}:${holder}`, await s.balanceOf(token, holder))
  return out
}

describe("a gasless order from a wallet holding EURC and no USDC", () => {
  let first: { quote: any; body: any; tradeHash: Hex; wallet: PrivateKeyAccount }

  test("exact input EURC -> WETH with a partner fee: signed, submitted, confirmed; every balance to the wei", async () => {
    const wallet = await eurcOnlyWallet(2_000n * E6)
    const eurc = s.token("EURC")
    const weth = s.token("WETH")
    const usdc = s.token("USDC")
    const q = await quote(wallet, { amountIn: (1_000n * E6).toString(), feeBps: 30, feeRecipient: PARTNER })
    expect(q.status).toBe(200)
    const body = q.body
    const message = body.order.typedData.message
    // the order binds the quote's terms, the relayer's fee at most, a fresh nonce and the deadline
    expect(body.order.typedData.domain).toEqual({ name: "Arc Route Executor", version: "1", chainId: s.manifest.chainId, verifyingContract: executor() })
    expect(body.order.typedData.primaryType).toBe("SwapOrder")
    expect(message).toMatchObject({ sender: wallet.address, recipient: RECIPIENT, tokenIn: eurc, tokenOut: weth, exactOutput: false, amountIn: body.amountIn, amountOut: body.minAmountOut, maxRelayerFee: body.relayerFee.amount, feeBps: 30, feeRecipient: PARTNER })
    expect(BigInt(message.nonce)).toBeGreaterThan(2n ** 128n)
    expect(body.relayerFee.token).toBe(weth)
    expect(BigInt(body.relayerFee.amount)).toBeGreaterThan(0n)
    // net of the relayer fee as well
    expect(BigInt(body.amountOut) + BigInt(body.relayerFee.amount)).toBe(BigInt(body.grossAmountOut) - BigInt(body.fees.protocolAmount) - BigInt(body.fees.partnerAmount))
    expect(body.approval).toEqual({ token: eurc, spender: executor(), amount: body.amountIn })
    expect(body.permit.typedData.message).toMatchObject({ owner: wallet.address, spender: executor(), value: body.amountIn, deadline: message.deadline })
    expect(body.issues).toEqual({ balance: null, allowance: { token: eurc, spender: executor(), actual: "0", expected: body.amountIn } })

    const holders = [wallet.address, RECIPIENT, relayer, s.manifest.feeCollector as Address, PARTNER, executor()]
    const before = await balances([eurc, weth, usdc], holders)
    const relayerNonce = await client().getTransactionCount({ address: relayer })

    const signed = await signQuote(wallet, body)
    const submitted = await s.post("gasless/submit", signed)
    expect(submitted.status).toBe(200)
    expect(submitted.body.tradeHash).toMatch(/^0x[0-9a-f]{64}$/)
    expect(["pending", "submitted", "confirmed"]).toContain(submitted.body.status)

    const status = await waitForStatus(submitted.body.tradeHash)
    expect(status.status).toBe("confirmed")
    expect(status.reason).toBeNull()
    expect(status.transactions.length).toBe(1)
    const receipt = await client().getTransactionReceipt({ hash: status.transactions[0].hash })
    expect(receipt.status).toBe("success")
    expect(receipt.from.toLowerCase()).toBe(relayer.toLowerCase())
    expect(receipt.to?.toLowerCase()).toBe(executor().toLowerCase())
    expect(status.transactions[0].blockNumber).toBe(receipt.blockNumber.toString())
    const filled = parseEventLogs({ abi: routeExecutorAbi, logs: receipt.logs, eventName: "OrderFilled" }) as unknown as [{ args: { orderHash: Hex; amountIn: bigint; amountOut: bigint; relayerFee: bigint } }]
    expect(filled[0].args.orderHash).toBe(submitted.body.tradeHash)

    const after = await balances([eurc, weth, usdc], holders)
    const delta = (token: Address, holder: Address) => after.get(`${token}:${holder}`)! - before.get(`${token}:${holder}`)!
    // the sender paid amountIn of EURC and nothing else: no gas, no USDC before or after
    expect(delta(eurc, wallet.address)).toBe(-BigInt(body.amountIn))
    expect(before.get(`${usdc}:${wallet.address}`)).toBe(0n)
    expect(after.get(`${usdc}:${wallet.address}`)).toBe(0n)
    expect(await client().getBalance({ address: wallet.address })).toBe(0n)
    // the recipient got amountOut, at least the minimum; the relayer at most the signed fee, in WETH
    const received = delta(weth, RECIPIENT)
    const relayerGot = delta(weth, relayer)
    expect(received).toBe(BigInt(status.amountOut))
    expect(received).toBeGreaterThanOrEqual(BigInt(message.amountOut))
    expect(relayerGot).toBe(BigInt(status.relayerFee))
    expect(relayerGot).toBeGreaterThan(0n)
    expect(relayerGot).toBeLessThanOrEqual(BigInt(message.maxRelayerFee))
    expect(BigInt(status.amountIn)).toBe(BigInt(body.amountIn))
    // the protocol and partner fees by v1's formulas on the route's gross output, as answered
    const collected = delta(weth, s.manifest.feeCollector as Address)
    const partner = delta(weth, PARTNER)
    const gross = received + relayerGot + collected + partner
    expect(collected).toBe((gross * BigInt(body.fees.protocolBps)) / 10_000n)
    expect(partner).toBe((gross * 30n) / 10_000n)
    expect(collected.toString()).toBe(body.fees.protocolAmount)
    expect(partner.toString()).toBe(body.fees.partnerAmount)
    // the executor keeps nothing
    for (const token of [eurc, weth, usdc]) expect(delta(token, executor())).toBe(0n)
    // one transaction from the relayer
    expect(await client().getTransactionCount({ address: relayer })).toBe(relayerNonce + 1)
    first = { quote: body, body: signed, tradeHash: submitted.body.tradeHash, wallet }
  }, 60_000)

  test("the same signed order again answers the same tradeHash; the chain shows one transaction", async () => {
    const nonce = await client().getTransactionCount({ address: relayer })
    const again = await s.post("gasless/submit", first.body)
    expect(again.status).toBe(200)
    expect(again.body).toEqual({ tradeHash: first.tradeHash, status: "confirmed", requestId: again.body.requestId })
    await Bun.sleep(1_500)
    expect(await client().getTransactionCount({ address: relayer })).toBe(nonce)
    expect((await waitForStatus(first.tradeHash)).transactions.length).toBe(1)
  })

  test("a replay: another order with the used nonce is refused (order.nonce)", async () => {
    const q = await quote(first.wallet, { amountIn: (100n * E6).toString() })
    expect(q.status).toBe(200)
    const typedData = { ...q.body.order.typedData, message: { ...q.body.order.typedData.message, nonce: first.quote.order.typedData.message.nonce } }
    const res = await s.post("gasless/submit", { order: typedData.message, signature: await first.wallet.signTypedData(typedData), permit: { signature: await first.wallet.signTypedData(q.body.permit.typedData) } })
    expect(res.status).toBe(400)
    expect(res.body.error.code).toBe("INVALID_REQUEST")
    expect(res.body.error.message).toStartWith("order.nonce: ")
    expect(res.body.error.message).toContain("used or cancelled")
  })

  test("exact output: the recipient receives amountOut, the sender pays at most maxAmountIn", async () => {
    const wallet = await eurcOnlyWallet(2_000n * E6)
    const eurc = s.token("EURC")
    const weth = s.token("WETH")
    const amountOut = 10n ** 17n
    const q = await quote(wallet, { amountOut: amountOut.toString() })
    expect(q.status).toBe(200)
    const body = q.body
    expect(body.tradeType).toBe("exactOutput")
    expect(body.amountOut).toBe(amountOut.toString())
    expect(body.minAmountOut).toBe(amountOut.toString())
    const message = body.order.typedData.message
    expect(message).toMatchObject({ exactOutput: true, amountIn: body.maxAmountIn, amountOut: amountOut.toString(), maxRelayerFee: body.relayerFee.amount })
    // the route delivers amountOut and the relayer fee after the other fees
    expect(BigInt(body.grossAmountOut) - BigInt(body.fees.protocolAmount) - BigInt(body.fees.partnerAmount)).toBeGreaterThanOrEqual(amountOut + BigInt(body.relayerFee.amount))
    const holders = [wallet.address, RECIPIENT, relayer, executor()]
    const before = await balances([eurc, weth], holders)
    const submitted = await s.post("gasless/submit", await signQuote(wallet, body))
    expect(submitted.status).toBe(200)
    const status = await waitForStatus(submitted.body.tradeHash)
    expect(status.status).toBe("confirmed")
    const after = await balances([eurc, weth], holders)
    const delta = (token: Address, holder: Address) => after.get(`${token}:${holder}`)! - before.get(`${token}:${holder}`)!
    const received = delta(weth, RECIPIENT)
    expect(received >= amountOut && received <= amountOut + 1n).toBe(true)
    expect(received).toBe(BigInt(status.amountOut))
    const paid = -delta(eurc, wallet.address)
    expect(paid).toBe(BigInt(status.amountIn))
    expect(paid).toBeLessThanOrEqual(BigInt(message.amountIn))
    expect(delta(weth, relayer)).toBe(BigInt(status.relayerFee))
    expect(delta(weth, relayer)).toBeLessThanOrEqual(BigInt(message.maxRelayerFee))
    expect(delta(eurc, executor())).toBe(0n)
    expect(delta(weth, executor())).toBe(0n)
    expect(await client().getBalance({ address: wallet.address })).toBe(0n)
  }, 60_000)
})

describe("a contract wallet (ERC-1271)", () => {
  test("its owner signs the order; the wallet's isValidSignature accepts it; confirmed, balances to the wei", async () => {
    const owner = privateKeyToAccount(testAccounts[5]!.privateKey)
    const eurc = s.token("EURC")
    const weth = s.token("WETH")
    const artifact = ownArtifact("SmartWallet")
    const deployHash = await client().deployContract({ abi: artifact.abi, bytecode: artifact.bytecode as Hex, args: [owner.address], account: testAccounts[0]!.address, chain: client().chain })
    const walletAddress = (await client().waitForTransactionReceipt({ hash: deployHash, pollingInterval: 20 })).contractAddress!
    const amountIn = 200n * E6
    const fund = await client().writeContract({ address: eurc, abi: erc20Abi, functionName: "transfer", args: [walletAddress, amountIn], account: testAccounts[0]!.address, chain: client().chain })
    await client().waitForTransactionReceipt({ hash: fund, pollingInterval: 20 })
    // the owner approves the executor from the wallet once (a contract signs no permit)
    const approve = await client().writeContract({
      address: walletAddress,
      abi: artifact.abi,
      functionName: "execute",
      args: [eurc, encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [executor(), amountIn] })],
      account: owner.address,
      chain: client().chain,
    })
    expect((await client().waitForTransactionReceipt({ hash: approve, pollingInterval: 20 })).status).toBe("success")

    const q = await s.post("gasless/quote", { tokenIn: eurc, tokenOut: weth, amountIn: amountIn.toString(), sender: walletAddress, recipient: RECIPIENT })
    expect(q.status).toBe(200)
    expect(q.body.permit).toBeNull()
    expect(q.body.issues).toEqual({ balance: null, allowance: null })
    // the same order from a sender who must sign a permit pays the permit's gas in the relayer fee
    const withPermit = await s.post("gasless/quote", { tokenIn: eurc, tokenOut: weth, amountIn: amountIn.toString(), sender: (await eurcOnlyWallet(amountIn)).address, recipient: RECIPIENT })
    expect(withPermit.body.permit).not.toBeNull()
    expect(withPermit.body.gasEstimate).toBe(q.body.gasEstimate)
    expect(BigInt(withPermit.body.relayerFee.amount)).toBeGreaterThan(BigInt(q.body.relayerFee.amount))
    // another key's signature does not do for the wallet
    const stranger = await privateKeyToAccount(generatePrivateKey()).signTypedData(q.body.order.typedData)
    const refused = await s.post("gasless/submit", { order: q.body.order.typedData.message, signature: stranger })
    expect(refused.status).toBe(400)
    expect(refused.body.error.message).toStartWith("signature: ")

    const before = { wallet: await s.balanceOf(eurc, walletAddress), recipient: await s.balanceOf(weth, RECIPIENT) }
    const submitted = await s.post("gasless/submit", { order: q.body.order.typedData.message, signature: await owner.signTypedData(q.body.order.typedData) })
    expect(submitted.status).toBe(200)
    const status = await waitForStatus(submitted.body.tradeHash)
    expect(status.status).toBe("confirmed")
    expect(before.wallet - (await s.balanceOf(eurc, walletAddress))).toBe(amountIn)
    const received = (await s.balanceOf(weth, RECIPIENT)) - before.recipient
    expect(received).toBe(BigInt(status.amountOut))
    expect(received).toBeGreaterThanOrEqual(BigInt(q.body.minAmountOut))
  }, 60_000)
})

describe("refusals, each naming its field", () => {
  let wallet: PrivateKeyAccount
  let q: any
  beforeAll(async () => {
    wallet = await eurcOnlyWallet(1_000n * E6)
    const res = await quote(wallet, { amountIn: (100n * E6).toString() })
    expect(res.status).toBe(200)
    q = res.body
  })

  const submit = async (message: any, signature: Hex, permit?: Hex) =>
    s.post("gasless/submit", { order: message, signature, ...(permit !== undefined ? { permit: { signature: permit } } : {}) })
  const expectRefusal = (res: { status: number; body: any }, status: number, field: string) => {
    expect(res.status, JSON.stringify(res.body)).toBe(status)
    expect(res.body.error.message).toStartWith(`${field}: `)
  }
  const permitSignature = () => wallet.signTypedData(q.permit.typedData)

  test("someone else's signature (signature)", async () => {
    const other = privateKeyToAccount(generatePrivateKey())
    expectRefusal(await submit(q.order.typedData.message, await other.signTypedData(q.order.typedData), await permitSignature()), 400, "signature")
  })

  test("an altered amount, recipient or relayer fee (signature)", async () => {
    const signature = await wallet.signTypedData(q.order.typedData)
    const m = q.order.typedData.message
    for (const altered of [
      { ...m, amountIn: (BigInt(m.amountIn) + 1n).toString() },
      { ...m, amountOut: (BigInt(m.amountOut) - 1n).toString() },
      { ...m, recipient: testAccounts[6]!.address },
      { ...m, maxRelayerFee: (BigInt(m.maxRelayerFee) + 1n).toString() },
    ]) {
      expectRefusal(await submit(altered, signature, await permitSignature()), 400, "signature")
    }
  })

  test("a signature for another chain (signature)", async () => {
    const typedData = { ...q.order.typedData, domain: { ...q.order.typedData.domain, chainId: 5042002 } }
    expectRefusal(await submit(q.order.typedData.message, await wallet.signTypedData(typedData), await permitSignature()), 400, "signature")
  })

  test("a signature for another executor (signature)", async () => {
    const typedData = { ...q.order.typedData, domain: { ...q.order.typedData.domain, verifyingContract: s.manifest.multicall3 } }
    expectRefusal(await submit(q.order.typedData.message, await wallet.signTypedData(typedData), await permitSignature()), 400, "signature")
  })

  test("an expired order (order.deadline)", async () => {
    const typedData = { ...q.order.typedData, message: { ...q.order.typedData.message, deadline: String(Math.floor(Date.now() / 1000) - 60) } }
    expectRefusal(await submit(typedData.message, await wallet.signTypedData(typedData)), 400, "order.deadline")
  })

  test("a relayer fee above the signed maximum (order.maxRelayerFee)", async () => {
    const typedData = { ...q.order.typedData, message: { ...q.order.typedData.message, maxRelayerFee: "1" } }
    expectRefusal(await submit(typedData.message, await wallet.signTypedData(typedData), await permitSignature()), 400, "order.maxRelayerFee")
  })

  test("a permit for too little (permit.signature)", async () => {
    const short = { ...q.permit.typedData, message: { ...q.permit.typedData.message, value: (BigInt(q.permit.typedData.message.value) - 1n).toString() } }
    expectRefusal(await submit(q.order.typedData.message, await wallet.signTypedData(q.order.typedData), await wallet.signTypedData(short)), 400, "permit.signature")
  })

  test("without the permit and without an allowance, the order cannot pay at the head (409 SIMULATION_FAILED)", async () => {
    const res = await submit(q.order.typedData.message, await wallet.signTypedData(q.order.typedData))
    expect(res.status).toBe(409)
    expect(res.body.error.code).toBe("SIMULATION_FAILED")
  })

  test("a cancelled nonce (order.nonce)", async () => {
    // a sender that can pay gas cancels its order's nonce on the executor before it is submitted
    const payer = privateKeyToAccount(generatePrivateKey())
    await client().setBalance({ address: payer.address, value: 10n ** 18n })
    const hash0 = await client().writeContract({ address: s.token("EURC"), abi: erc20Abi, functionName: "transfer", args: [payer.address, 500n * E6], account: testAccounts[0]!.address, chain: client().chain })
    await client().waitForTransactionReceipt({ hash: hash0, pollingInterval: 20 })
    const res = await quote(payer, { amountIn: (100n * E6).toString() })
    expect(res.status).toBe(200)
    const hash = await client().sendTransaction({ account: payer, to: executor(), data: encodeCancelNonce(BigInt(res.body.order.typedData.message.nonce)), chain: client().chain })
    expect((await client().waitForTransactionReceipt({ hash, pollingInterval: 20 })).status).toBe("success")
    const refused = await s.post("gasless/submit", await signQuote(payer, res.body))
    expectRefusal(refused, 400, "order.nonce")
  })

  test("the quote: no reference price for tokenOut (422 NO_ROUTE naming tokenOut)", async () => {
    // a second service over the same chain whose reference prices leave WETH out
    const dir = mkdtempSync(join(tmpdir(), "gasless-no-price-"))
    const weth = s.token("WETH").toLowerCase()
    const settings = { ...s.settings, priceFeeds: s.settings.priceFeeds.filter((f) => f.token.toLowerCase() !== weth) }
    const other = await startApiServer({
      programs: livePrograms(settings, undefined, { kind: "sqlite", path: join(dir, "keys.sqlite") }).pipe(Layer.orDie),
      env: { PORT: "0", DATABASE_URL: join(dir, "keys.sqlite"), LOG_LEVEL: "error" },
    })
    try {
      const { key } = await Effect.runPromise(other.keys.create({ name: "no-price", rpm: 1_000, concurrency: 4 }))
      const res = await fetch(`${other.baseUrl}/gasless/quote`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": key },
        body: JSON.stringify({ tokenIn: s.token("EURC"), tokenOut: s.token("WETH"), amountIn: "1000000", sender: wallet.address }),
      })
      const body = (await res.json()) as any
      expect(res.status).toBe(422)
      expect(body.error.code).toBe("NO_ROUTE")
      expect(body.error.message).toStartWith("tokenOut: ")
      expect(body.error.message).toContain("reference price")
    } finally {
      await other.stop()
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)

  test("the quote: an amount whose output does not cover the relayer fee (amountIn)", async () => {
    // 0.003 EURC buys less WETH than the relayer fee (about $0.008 of gas)
    expectRefusal(await quote(wallet, { amountIn: "3000" }), 400, "amountIn")
  })

  test("the quote: native tokenIn (tokenIn), no sender (sender), aggregators only (includeSources)", async () => {
    expectRefusal(await s.post("gasless/quote", { tokenIn: "0x0000000000000000000000000000000000000000", tokenOut: s.token("EURC"), amountIn: "1000", sender: wallet.address }), 400, "tokenIn")
    expectRefusal(await s.post("gasless/quote", { tokenIn: s.token("EURC"), tokenOut: s.token("WETH"), amountIn: "1000" }), 400, "sender")
    const aggregator = s.manifest.aggregators[0]!.name
    expectRefusal(await quote(wallet, { amountIn: "1000000", includeSources: [aggregator] }), 400, "includeSources")
  })

  test("the submit body: a malformed field is named with its path", async () => {
    const m = q.order.typedData.message
    const signature = await wallet.signTypedData(q.order.typedData)
    expectRefusal(await submit({ ...m, amountIn: "1.5" }, signature), 400, "order.amountIn")
    expectRefusal(await submit({ ...m, feeBps: 101 }, signature), 400, "order.feeBps")
    expectRefusal(await submit({ ...m, extra: 1 }, signature), 400, "order.extra")
    expectRefusal(await submit(m, "0x1234zz" as Hex), 400, "signature")
    const { nonce: _, ...withoutNonce } = m
    expectRefusal(await submit(withoutNonce, signature), 400, "order.nonce")
  })

  test("status: unknown, or another key's order, is 404 NOT_FOUND", async () => {
    const unknown = await s.post("gasless/status", { tradeHash: `0x${"11".repeat(32)}` })
    expect(unknown.status).toBe(404)
    expect(unknown.body.error.code).toBe("NOT_FOUND")
    // an order of this key, asked with another key
    const mine = await s.post("gasless/submit", await signQuote(wallet, q))
    expect(mine.status).toBe(200)
    const { key } = await Effect.runPromise(s.api.keys.create({ name: "other", rpm: 1_000, concurrency: 4 }))
    const theirs = await s.post("gasless/status", { tradeHash: mine.body.tradeHash }, key)
    expect(theirs.status).toBe(404)
    expect(theirs.body.error.code).toBe("NOT_FOUND")
    expectRefusal(await s.post("gasless/status", { tradeHash: "0x12" }), 400, "tradeHash")
    expect((await waitForStatus(mine.body.tradeHash)).status).toBe("confirmed")
  }, 60_000)
})

describe("a relayer short of USDC", () => {
  const health = async () => {
    const res = await fetch(`${s.api.admin!.url}/health`)
    return { status: res.status, body: (await res.json()) as any }
  }

  test("answers 503 UNAVAILABLE with Retry-After on quote and submit, /health says why, and takes orders again once funded", async () => {
    const healthy = await health()
    expect(healthy.body.checks.relayer).toEqual({ ok: true, address: relayer })
    const wallet = await eurcOnlyWallet(100n * E6)
    const q = await quote(wallet, { amountIn: (10n * E6).toString() })
    expect(q.status).toBe(200)
    const signed = await signQuote(wallet, q.body)
    await client().setBalance({ address: relayer, value: 0n })
    try {
      // the relayer's balance watch looks again within a second
      await Bun.sleep(1_500)
      const quoted = await quote(wallet, { amountIn: (10n * E6).toString() })
      expect(quoted.status).toBe(503)
      expect(quoted.body.error.code).toBe("UNAVAILABLE")
      expect(quoted.body.error.message).toContain("relayer")
      expect(Number(quoted.headers.get("retry-after"))).toBeGreaterThan(0)
      const submitted = await s.post("gasless/submit", signed)
      expect(submitted.status).toBe(503)
      expect(submitted.headers.get("retry-after")).not.toBeNull()
      // the swap API still works: degraded, with the relayer's reason
      const short = await health()
      expect(short.status).toBe(200)
      expect(short.body.status).toBe("degraded")
      expect(short.body.checks.relayer.ok).toBe(false)
      expect(short.body.checks.relayer.address).toBe(relayer)
      expect(short.body.checks.relayer.error.length).toBeGreaterThan(0)
    } finally {
      await fundDevnetRelayer(s.manifest)
    }
    await Bun.sleep(1_500)
    const again = await s.post("gasless/submit", signed)
    expect(again.status).toBe(200)
    expect((await waitForStatus(again.body.tradeHash)).status).toBe("confirmed")
  }, 60_000)
})
