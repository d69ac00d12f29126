// Exact-output /swap, judged by the chain: every route shape (one hop per
// venue kind, two and three hops, a split over four venues, native in, native
// out, a partner fee, no protocol fee, the price moved for and against the
// trade between /swap and sending) is sent exactly as returned, and every
// balance it moved is checked to the wei: the recipient got exactly amountOut,
// the sender paid the route's need and at most maxAmountIn, the fee recipients
// what the answer says, and the executor keeps nothing.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { erc20Abi, parseEventLogs, type Address, type Hex, type TransactionReceipt } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { decodeExecutorError, routeExecutorAbi } from "../../src/chain/index.ts"
import { testAccounts } from "../../src/devnet/index.ts"
import { NATIVE, startSwapOnDevnet, type SwapOnDevnet } from "../support/swap-on-devnet.ts"

/** The venues test's market, and JPY behind GBP for a three-hop path: JPY -> GBP -> USDC -> WETH. */
const SCENARIO = {
  dexes: [
    { name: "arcade-v2", kind: "uniswap-v2" },
    { name: "synthra-v3", kind: "uniswap-v3" },
    { name: "flux-v4", kind: "uniswap-v4" },
    { name: "xylonet", kind: "curve-stableswap" },
  ],
  tokens: [
    { symbol: "USDT", decimals: 6 },
    { symbol: "DAI", decimals: 18 },
    { symbol: "GBP", decimals: 6 },
    { symbol: "WETH", decimals: 18 },
    { symbol: "CHF", decimals: 6 },
    { symbol: "JPY", decimals: 6 },
  ],
  priceFeeds: { USDC: "1", USDT: "1", DAI: "1", GBP: "1.25", WETH: "3500", CHF: "1.1", JPY: "0.0065" },
  pools: [
    { dex: "xylonet", tokens: ["USDC", "USDT", "DAI"], A: 400, fee: "0.0001", balances: ["1000000", "1000000", "1000000"] },
    { dex: "arcade-v2", tokens: ["USDC", "USDT"], reserves: ["3000000", "3000000"] },
    { dex: "synthra-v3", tokens: ["USDC", "USDT"], fee: 100, price: "1", positions: [{ lower: "0.998", upper: "1.002", amount0: "300000" }] },
    { dex: "flux-v4", tokens: ["USDC", "USDT"], fee: 100, tickSpacing: 1, price: "1", positions: [{ lower: "0.998", upper: "1.002", amount0: "300000" }] },
    { dex: "arcade-v2", tokens: ["GBP", "USDC"], reserves: ["400000", "500000"] },
    { dex: "arcade-v2", tokens: ["JPY", "GBP"], reserves: ["50000000", "260000"] },
    { dex: "synthra-v3", tokens: ["WETH", "USDC"], fee: 3000, price: "3500", positions: [{ lower: "3000", upper: "4000", amount0: "100" }] },
    { dex: "flux-v4", tokens: ["CHF", "USDC"], fee: 500, tickSpacing: 10, price: "1.1", positions: [{ lower: "1.0", upper: "1.2", amount0: "200000" }] },
  ],
  balances: [
    { account: 0, amounts: { USDC: "3000000", USDT: "100000", DAI: "100000", GBP: "10000", WETH: "10", CHF: "10000", JPY: "1000000" } },
    { account: 1, amounts: { USDC: "2000000", USDT: "100000", DAI: "100000", GBP: "10000", WETH: "10", CHF: "10000", JPY: "1000000" } },
  ],
}

let s: SwapOnDevnet

beforeAll(async () => {
  s = await startSwapOnDevnet({ scenarioText: JSON.stringify(SCENARIO), env: { MAX_PRICE_IMPACT_BPS: "10000" } })
})

afterAll(async () => {
  await s?.stop()
})

const SLIPPAGE_BPS = 100
const RECIPIENT = testAccounts[5]!.address
const PARTNER = testAccounts[6]!.address
const deadline = () => Math.floor(Date.now() / 1000) + 600
const asset = (symbol: string): Address => (symbol === "NATIVE" ? NATIVE : s.token(symbol))
const E6 = 10n ** 6n
const E18 = 10n ** 18n

/** The fee formulas, written out here: floor(g × bps / 10000) each, the rest to the recipient. */
const feesOn = (gross: bigint, protocolBps: number, partnerBps: number) => {
  const protocol = (gross * BigInt(protocolBps)) / 10_000n
  const partner = (gross * BigInt(partnerBps)) / 10_000n
  return { protocol, partner, net: gross - protocol - partner }
}

const swapEvent = (receipt: TransactionReceipt) => {
  const [event] = parseEventLogs({ abi: routeExecutorAbi, logs: receipt.logs, eventName: "Swap" }) as unknown as [{ args: { amountIn: bigint; amountOut: bigint; protocolAmount: bigint; partnerAmount: bigint } }]
  return event.args
}

/** The executor's balance of every token of the market, and of native USDC: all must stay 0. */
const executorHoldings = async () => {
  const executor = s.manifest.executor as Address
  const symbols = ["USDC", ...SCENARIO.tokens.map((t) => t.symbol)]
  return Object.fromEntries(await Promise.all([...symbols.map(async (sym) => [sym, await s.balanceOf(s.token(sym), executor)] as const), (async () => ["native", await s.balanceOf(NATIVE, executor)] as const)()]))
}

const approveIfNeeded = async (swap: any, from: Address) => {
  if (swap.approval === null) return
  const { token, spender, amount } = swap.approval
  const allowance = await s.devnet.client.readContract({ address: token, abi: erc20Abi, functionName: "allowance", args: [from, spender] })
  if (allowance >= BigInt(amount)) return
  const hash = await s.devnet.client.writeContract({ address: token, abi: erc20Abi, functionName: "approve", args: [spender, BigInt(amount)], account: from, chain: s.devnet.client.chain })
  await s.devnet.client.waitForTransactionReceipt({ hash, pollingInterval: 20 })
}

interface PayOptions {
  readonly account?: number
  readonly feeBps?: number
  /** runs after /swap answered and before its transaction is sent: another trade moving the price */
  readonly between?: () => Promise<void>
}

/**
 * /swap for exactly `amountOut` of tokenOut, sent as returned; every balance checked. Returns the
 * answer, the receipt and what the sender paid (its input, the executor's Swap event agreeing).
 */
const payExactly = async (tokenIn: string, tokenOut: string, amountOut: bigint, options: PayOptions = {}) => {
  const sender = testAccounts[options.account ?? 0]!.address
  const feeBps = options.feeBps ?? 0
  const res = await s.post("swap", {
    tokenIn: asset(tokenIn),
    tokenOut: asset(tokenOut),
    amountOut: amountOut.toString(),
    sender,
    recipient: RECIPIENT,
    slippageBps: SLIPPAGE_BPS,
    deadline: deadline(),
    ...(feeBps > 0 ? { feeBps, feeRecipient: PARTNER } : {}),
  })
  expect(res.status).toBe(200)
  const swap = res.body
  expect(swap.simulated).toBe(true)
  // the sender holds what the transaction may take (maxAmountIn, and the gas for USDC)
  expect(swap.issues.balance).toBeNull()
  expect(swap.tradeType).toBe("exactOutput")
  expect(swap.amountOut).toBe(amountOut.toString())
  expect(swap.minAmountOut).toBe(amountOut.toString())
  const amountIn = BigInt(swap.amountIn)
  const maxIn = BigInt(swap.maxAmountIn)
  expect(maxIn).toBe((amountIn * BigInt(10_000 + SLIPPAGE_BPS) + 9_999n) / 10_000n)
  // the answer's fees follow the formulas on its gross, whose net is amountOut exactly
  const gross = BigInt(swap.grossAmountOut)
  const fees = feesOn(gross, swap.fees.protocolBps, feeBps)
  expect(BigInt(swap.fees.protocolAmount)).toBe(fees.protocol)
  expect(BigInt(swap.fees.partnerAmount)).toBe(fees.partner)
  expect(fees.net).toBe(amountOut)
  // and it is the least such gross
  expect(feesOn(gross - 1n, swap.fees.protocolBps, feeBps).net).toBeLessThan(amountOut)
  if (tokenIn === "NATIVE") expect(swap.tx.value).toBe(swap.maxAmountIn)
  else expect(swap.approval.amount).toBe(swap.maxAmountIn)

  await approveIfNeeded(swap, sender)
  await options.between?.()
  const inAsset = asset(tokenIn)
  const outAsset = asset(tokenOut)
  const collector = s.manifest.feeCollector as Address
  const before = {
    senderIn: await s.balanceOf(inAsset, sender),
    senderOut: await s.balanceOf(outAsset, sender),
    senderNative: await s.balanceOf(NATIVE, sender),
    recipient: await s.balanceOf(outAsset, RECIPIENT),
    collector: await s.balanceOf(outAsset, collector),
    partner: await s.balanceOf(outAsset, PARTNER),
  }
  const receipt = await s.send(swap, sender)
  expect(receipt.status).toBe("success")
  const gasWei = receipt.gasUsed * receipt.effectiveGasPrice
  const event = swapEvent(receipt)

  // the recipient: exactly the net of the gross, amountOut
  expect((await s.balanceOf(outAsset, RECIPIENT)) - before.recipient).toBe(fees.net)
  expect(event.amountOut).toBe(fees.net)
  // the fee recipients: the formulas' amounts
  expect((await s.balanceOf(outAsset, collector)) - before.collector).toBe(fees.protocol)
  expect((await s.balanceOf(outAsset, PARTNER)) - before.partner).toBe(fees.partner)
  expect(event.protocolAmount).toBe(fees.protocol)
  expect(event.partnerAmount).toBe(fees.partner)
  // the sender: what the route needed, never above maxAmountIn; the event says the same
  const paid = event.amountIn
  expect(paid).toBeLessThanOrEqual(maxIn)
  if (tokenIn === "NATIVE") {
    // value = maxAmountIn went out, the rest came back: the sender is down by what was paid and the gas
    expect(before.senderNative - (await s.balanceOf(NATIVE, sender))).toBe(paid + gasWei)
    expect(paid % 10n ** 12n).toBe(0n)
  } else if (tokenIn === "USDC") {
    // the ERC-20 USDC is the native balance in 6-decimal units: the gas moves it too
    const nativeDown = before.senderNative - (await s.balanceOf(NATIVE, sender))
    expect(nativeDown).toBe(paid * 10n ** 12n + gasWei)
  } else {
    expect(before.senderIn - (await s.balanceOf(inAsset, sender))).toBe(paid)
  }
  if (tokenOut === "NATIVE") {
    // native output comes in whole ERC-20 units: the wei above the gross go back to the sender
    const surplus = ((gross + 10n ** 12n - 1n) / 10n ** 12n) * 10n ** 12n - gross
    expect((await s.balanceOf(NATIVE, sender)) - before.senderNative).toBe(surplus - gasWei - (tokenIn === "USDC" ? paid * 10n ** 12n : 0n))
  }
  // the executor keeps nothing, no allowance either
  const held = await executorHoldings()
  for (const [symbol, amount] of Object.entries(held)) expect(`${symbol} ${amount}`).toBe(`${symbol} 0`)
  if (inAsset !== NATIVE) {
    expect(await s.devnet.client.readContract({ address: inAsset, abi: erc20Abi, functionName: "allowance", args: [s.manifest.executor as Address, sender] })).toBe(0n)
  }
  return { swap, receipt, paid, amountIn, maxIn, senderOutGain: (await s.balanceOf(outAsset, sender)) - before.senderOut }
}

const venuesOf = (swap: any): string[] => swap.route.flatMap((split: any) => split.hops.map((hop: any) => hop.dex))

describe("one hop per venue kind: the sender pays exactly the quoted input", () => {
  for (const [tokenIn, tokenOut, amountOut, venue] of [
    ["USDC", "GBP", 1_000n * E6, "arcade-v2"],
    ["USDC", "WETH", E18, "synthra-v3"],
    ["CHF", "USDC", 500n * E6, "flux-v4"],
    ["USDC", "DAI", 5_000n * E18, "xylonet"],
  ] as const) {
    test(`${tokenIn} -> ${tokenOut} through ${venue}`, async () => {
      const r = await payExactly(tokenIn, tokenOut, amountOut)
      expect(r.paid).toBe(r.amountIn)
      expect(venuesOf(r.swap)).toEqual([venue])
      // a stable pool buys at least what is asked: the few wei above it go to the sender; the others buy exactly
      if (venue === "xylonet") expect(r.senderOutGain >= 0n && r.senderOutGain < 10n ** 13n).toBe(true)
      else if (tokenOut !== "USDC") expect(r.senderOutGain).toBe(0n)
    })
  }
})

describe("multi-hop", () => {
  test("two hops of two kinds: GBP -> USDC (V2) -> DAI (stable pool)", async () => {
    const r = await payExactly("GBP", "DAI", 2_000n * E18)
    expect(venuesOf(r.swap)).toEqual(["arcade-v2", "xylonet"])
    expect(r.paid).toBe(r.amountIn)
  })

  test("two hops of two kinds: WETH -> USDC (V3) -> CHF (V4)", async () => {
    const r = await payExactly("WETH", "CHF", 1_000n * E6)
    expect(venuesOf(r.swap)).toEqual(["synthra-v3", "flux-v4"])
    expect(r.paid).toBe(r.amountIn)
  })

  test("three hops: JPY -> GBP (V2) -> USDC (V2) -> WETH (V3)", async () => {
    const r = await payExactly("JPY", "WETH", E18 / 10n)
    expect(venuesOf(r.swap)).toEqual(["arcade-v2", "arcade-v2", "synthra-v3"])
    expect(r.paid).toBe(r.amountIn)
  })
})

describe("splits", () => {
  test("USDC -> USDT of 1,600,000 is bought across four venues, each delivering its share of the gross", async () => {
    const r = await payExactly("USDC", "USDT", 1_600_000n * E6, { account: 1 })
    const venues = new Set(venuesOf(r.swap))
    for (const venue of ["xylonet", "synthra-v3", "flux-v4", "arcade-v2"]) expect(venues.has(venue)).toBe(true)
    expect(r.swap.route.length).toBeGreaterThanOrEqual(4)
    expect(r.paid).toBe(r.amountIn)
  })
})

describe("native USDC", () => {
  test("native in: value = maxAmountIn, what the route does not need comes back in the same transaction", async () => {
    const r = await payExactly("NATIVE", "WETH", E18 / 4n)
    expect(r.paid).toBe(r.amountIn)
    expect(r.maxIn).toBeGreaterThan(r.amountIn)
  })

  test("native out: the recipient gets exactly amountOut in wei", async () => {
    // not a whole number of 6-decimal units: the route delivers whole units, the sender gets the wei above the gross
    const r = await payExactly("CHF", "NATIVE", 300n * E18 + 123_456_789n)
    expect(r.paid).toBe(r.amountIn)
  })
})

describe("fees", () => {
  test("a partner fee: taken from the gross, which grows so that the recipient still gets amountOut", async () => {
    const r = await payExactly("USDT", "GBP", 700n * E6, { feeBps: 30 })
    expect(BigInt(r.swap.fees.partnerAmount)).toBeGreaterThan(0n)
    expect(r.paid).toBe(r.amountIn)
  })
})

describe("the price moves between /swap and sending", () => {
  // another account's trade on the WETH pool, sent before the transaction /swap answered
  const trade = (tokenIn: string, tokenOut: string, amountIn: bigint) => async () => {
    const sender = testAccounts[1]!.address
    const res = await s.post("swap", { tokenIn: asset(tokenIn), tokenOut: asset(tokenOut), amountIn: amountIn.toString(), sender, deadline: deadline(), slippageBps: 2000 })
    expect(res.status).toBe(200)
    expect((await s.send(res.body, sender)).status).toBe("success")
  }

  test("for the trade (someone sold WETH first): the recipient gets exactly amountOut, the sender pays less than quoted", async () => {
    const r = await payExactly("USDC", "WETH", E18 / 2n, { between: trade("WETH", "USDC", E18 / 2n) })
    expect(r.paid).toBeLessThan(r.amountIn)
  })

  test("against the trade (someone bought WETH first), within maxAmountIn: exactly amountOut, the sender pays more than quoted", async () => {
    const r = await payExactly("USDC", "WETH", E18 / 2n, { between: trade("USDC", "WETH", 300n * E6) })
    expect(r.paid).toBeGreaterThan(r.amountIn)
    expect(r.paid).toBeLessThanOrEqual(r.maxIn)
  })

  test("against the trade beyond maxAmountIn: the transaction reverts with Slippage and takes nothing", async () => {
    const sender = testAccounts[0]!.address
    const res = await s.post("swap", { tokenIn: asset("USDT"), tokenOut: asset("WETH"), amountOut: (E18 / 2n).toString(), sender, recipient: RECIPIENT, slippageBps: 10, deadline: deadline() })
    expect(res.status).toBe(200)
    await approveIfNeeded(res.body, sender)
    await trade("USDC", "WETH", 20_000n * E6)()
    const [usdt, weth] = [await s.balanceOf(s.token("USDT"), sender), await s.balanceOf(s.token("WETH"), RECIPIENT)]
    const receipt = await s.send(res.body, sender)
    expect(receipt.status).toBe("reverted")
    expect(await s.balanceOf(s.token("USDT"), sender)).toBe(usdt)
    expect(await s.balanceOf(s.token("WETH"), RECIPIENT)).toBe(weth)
    // the same transaction, run again on the moved pools, reverts with the executor's Slippage
    const failure = await s.devnet.client.call({ account: sender, to: res.body.tx.to, data: res.body.tx.data }).then(() => undefined, (e) => e)
    const data = failure?.walk?.((e: any) => typeof e?.data === "string" && e.data.startsWith("0x"))?.data as Hex | undefined
    expect(data === undefined ? undefined : decodeExecutorError(data)?.name).toBe("Slippage")
  })
})

describe("quotes", () => {
  test("/quote: the least input for amountOut; /swap with its quoteId reports the input's change (0 when nothing moved)", async () => {
    const body = { tokenIn: asset("USDT"), tokenOut: asset("GBP"), amountOut: (100n * E6).toString() }
    const quote = await s.post("quote", body)
    expect(quote.status).toBe(200)
    expect(quote.body.tradeType).toBe("exactOutput")
    expect(quote.body.amountOut).toBe(body.amountOut)
    const swap = await s.post("swap", { ...body, sender: testAccounts[0]!.address, quoteId: quote.body.quoteId })
    expect(swap.status).toBe(200)
    expect(swap.body.amountIn).toBe(quote.body.amountIn)
    expect(swap.body.priceChangeBps).toBe(0)
    // an exact-output quote id is not for an exact input of the quoted amountIn
    const other = await s.post("swap", { tokenIn: body.tokenIn, tokenOut: body.tokenOut, amountIn: quote.body.amountIn, sender: testAccounts[0]!.address, quoteId: quote.body.quoteId })
    expect(other.status).toBe(400)
    expect(other.body.error.message).toBe("quoteId: was issued for another amountIn")
  })

  test("more than the pools hold: 422 NO_ROUTE saying the pools cannot deliver it", async () => {
    const res = await s.post("quote", { tokenIn: asset("USDC"), tokenOut: asset("GBP"), amountOut: (500_000n * E6).toString() })
    expect(res.status).toBe(422)
    expect(res.body.error.code).toBe("NO_ROUTE")
    expect(res.body.error.message).toStartWith("amountOut: the pools cannot deliver this much GBP")
  })

  test("/sources: venues and 0x-shaped aggregators compete on exact output, a KyberSwap one does not", async () => {
    const res = await s.post("sources", {})
    for (const source of res.body.sources) {
      expect(source.tradeTypes).toEqual(source.type === "venue" || source.kind === "0x-v2" ? ["exactInput", "exactOutput"] : ["exactInput"])
    }
  })
})

describe("no protocol fee", () => {
  test("with the executor's protocol fee at 0, the gross is amountOut itself and the recipient gets exactly it", async () => {
    const owner = privateKeyToAccount(s.manifest.owner.privateKey as `0x${string}`)
    const hash = await s.devnet.client.writeContract({ address: s.manifest.executor as Address, abi: routeExecutorAbi, functionName: "setProtocolFeeBps", args: [0], account: owner, chain: s.devnet.client.chain })
    expect((await s.devnet.client.waitForTransactionReceipt({ hash, pollingInterval: 20 })).status).toBe("success")
    const r = await payExactly("USDT", "GBP", 250n * E6)
    expect(r.swap.fees.protocolBps).toBe(0)
    expect(r.swap.grossAmountOut).toBe((250n * E6).toString())
    expect(r.paid).toBe(r.amountIn)
  })
})
