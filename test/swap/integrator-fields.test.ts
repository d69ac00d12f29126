// The fields an integrator gets beyond the spec, on a real devnet, each with
// exact values worked out from the chain: gasCost from the block's base fee and
// the feeds; issues from the sender's real funds; priceChangeBps after another
// account moves the pool; quote ids across instances sharing a key store.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Effect, Layer } from "effect"
import { erc20Abi, parseEther, type Address } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { startApiServer } from "../../src/api/index.ts"
import { livePrograms } from "../../src/swap/live.ts"
import { feedPrice } from "../support/feeds.ts"
import { NATIVE, startSwapOnDevnet, type SwapOnDevnet } from "../support/swap-on-devnet.ts"

let s: SwapOnDevnet

beforeAll(async () => {
  s = await startSwapOnDevnet()
})

afterAll(async () => {
  await s?.stop()
})

const feed = async (symbol: string) => {
  const price = (await feedPrice(s.devnet.client, s.manifest, symbol))!
  return { answer: price.answer, decimals: BigInt(price.decimals) }
}

const baseFeeAt = async (blockNumber: string) => (await s.devnet.client.getBlock({ blockNumber: BigInt(blockNumber) })).baseFeePerGas!
const fresh = () => privateKeyToAccount(generatePrivateKey()).address

describe("gasCost", () => {
  test("ERC-20 out with a feed: gasEstimate × the block's base fee, in wei, USDC units and tokenOut at the feeds", async () => {
    const res = await s.post("quote", { tokenIn: s.token("USDC"), tokenOut: s.token("EURC"), amountIn: "250000000" })
    expect(res.status).toBe(200)
    const native = BigInt(res.body.gasEstimate) * (await baseFeeAt(res.body.blockNumber))
    expect(native).toBeGreaterThan(0n)
    const [usdc, eurc] = await Promise.all([feed("USDC"), feed("EURC")])
    // dollars = wei / 1e18 × usdc price; EURC units = dollars / eurc price × 10^6, rounded down
    const tokenOut = (native * usdc.answer * 10n ** eurc.decimals * 10n ** 6n) / (10n ** 18n * 10n ** usdc.decimals * eurc.answer)
    expect(res.body.gasCost).toEqual({ native: native.toString(), usdc: (native / 10n ** 12n).toString(), tokenOut: tokenOut.toString() })
  })

  test("USDC out: in ERC-20 USDC's 6 decimals, or in wei for native USDC, as amountOut is", async () => {
    for (const [tokenOut, unit] of [[s.token("USDC"), 10n ** 12n], [NATIVE, 1n]] as const) {
      const res = await s.post("quote", { tokenIn: s.token("EURC"), tokenOut, amountIn: "100000000" })
      expect(res.status).toBe(200)
      const native = BigInt(res.body.gasEstimate) * (await baseFeeAt(res.body.blockNumber))
      expect(res.body.gasCost).toEqual({ native: native.toString(), usdc: (native / 10n ** 12n).toString(), tokenOut: (native / unit).toString() })
    }
  })
})

describe("issues", () => {
  test("a sender who holds nothing and approved nothing: both, with its real zeros; USDC's balance needs the gas too", async () => {
    const sender = fresh()
    const amountIn = 50_000_000n
    const res = await s.post("swap", { tokenIn: s.token("USDC"), tokenOut: s.token("EURC"), amountIn: amountIn.toString(), sender })
    expect(res.status).toBe(200)
    expect(res.body.simulated).toBe(true)
    const gasWei = BigInt(res.body.tx.gas) * (await baseFeeAt(res.body.blockNumber))
    expect(res.body.issues).toEqual({
      balance: { token: s.token("USDC"), actual: "0", expected: (amountIn + (gasWei + 10n ** 12n - 1n) / 10n ** 12n).toString() },
      allowance: { token: s.token("USDC"), spender: s.manifest.executor, actual: "0", expected: amountIn.toString() },
    })
  })

  test("a funded sender that has not approved: the allowance alone, with what it approved", async () => {
    const sender = s.manifest.accounts[3]!.address as Address
    const eurc = s.token("EURC")
    const client = s.devnet.client
    const hash = await client.writeContract({ address: eurc, abi: erc20Abi, functionName: "approve", args: [s.manifest.executor as Address, 1234n], account: sender, chain: client.chain })
    await client.waitForTransactionReceipt({ hash, pollingInterval: 20 })
    const res = await s.post("swap", { tokenIn: eurc, tokenOut: s.token("USDT"), amountIn: "70000000", sender })
    expect(res.status).toBe(200)
    expect(res.body.issues).toEqual({ balance: null, allowance: { token: eurc, spender: s.manifest.executor, actual: "1234", expected: "70000000" } })
  })

  test("funded and approved: no issues, and the transaction goes through", async () => {
    const sender = s.manifest.accounts[3]!.address as Address
    const usdt = s.token("USDT")
    const client = s.devnet.client
    const hash = await client.writeContract({ address: usdt, abi: erc20Abi, functionName: "approve", args: [s.manifest.executor as Address, 40_000_000n], account: sender, chain: client.chain })
    await client.waitForTransactionReceipt({ hash, pollingInterval: 20 })
    const res = await s.post("swap", { tokenIn: usdt, tokenOut: s.token("EURC"), amountIn: "40000000", sender })
    expect(res.status).toBe(200)
    expect(res.body.issues).toEqual({ balance: null, allowance: null })
    expect((await s.send(res.body, sender)).status).toBe("success")
  })

  test("native USDC: a balance that covers amountIn but not amountIn + tx.gas at the base fee is reported in wei", async () => {
    const sender = fresh()
    const client = s.devnet.client
    const funder = s.manifest.accounts[0]!.address as Address
    const balance = parseEther("25")
    const hash = await client.sendTransaction({ account: funder, to: sender, value: balance, chain: client.chain })
    await client.waitForTransactionReceipt({ hash, pollingInterval: 20 })
    const amountIn = balance - 1n
    const res = await s.post("swap", { tokenIn: NATIVE, tokenOut: s.token("EURC"), amountIn: amountIn.toString(), sender })
    expect(res.status).toBe(200)
    const gasWei = BigInt(res.body.tx.gas) * (await baseFeeAt(res.body.blockNumber))
    expect(res.body.issues).toEqual({ balance: { token: NATIVE, actual: balance.toString(), expected: (amountIn + gasWei).toString() }, allowance: null })
  })
})

describe("quoteId and priceChangeBps", () => {
  test("0 in the quote's block; after another account moves the pool, the signed change, and the chain pays the new amountOut", async () => {
    const tokenIn = s.token("USDC")
    const tokenOut = s.token("cirBTC")
    const sender = s.manifest.accounts[2]!.address as Address
    const body = { tokenIn, tokenOut, amountIn: "20000000000" }
    const quote = await s.post("quote", body)
    expect(quote.status).toBe(200)
    const same = await s.post("swap", { ...body, sender, quoteId: quote.body.quoteId })
    expect(same.status).toBe(200)
    if (same.body.blockNumber === quote.body.blockNumber) expect(same.body.priceChangeBps).toBe(0)

    // another account buys cirBTC with USDC first: the same swap now gets less
    const mover = s.manifest.accounts[1]!.address as Address
    const move = await s.post("swap", { tokenIn, tokenOut, amountIn: "60000000000", sender: mover })
    expect((await s.send(move.body, mover)).status).toBe("success")

    const after = await s.post("swap", { ...body, sender, quoteId: quote.body.quoteId })
    expect(after.status).toBe(200)
    const quoted = BigInt(quote.body.amountOut)
    const now = BigInt(after.body.amountOut)
    expect(now).toBeLessThan(quoted)
    // (now − quoted) × 10000 / quoted, truncated toward zero
    const diff = (quoted - now) * 10_000n
    expect(after.body.priceChangeBps).toBe(-Number(diff / quoted))
    expect(after.body.priceChangeBps).toBeLessThan(0)
    const before = await s.balanceOf(tokenOut, sender)
    expect((await s.send(after.body, sender)).status).toBe("success")
    expect((await s.balanceOf(tokenOut, sender)) - before).toBe(now)
  })

  test("altered, for another trade, or malformed: 400 naming quoteId; without one, priceChangeBps is null", async () => {
    const body = { tokenIn: s.token("USDC"), tokenOut: s.token("EURC"), amountIn: "1000000" }
    const sender = s.manifest.accounts[3]!.address
    const { quoteId } = (await s.post("quote", body)).body
    // a character in the middle: every one of its bits is data (the last may carry unused bits)
    const at = quoteId.length >> 1
    const flipped = quoteId[at] === "A" ? "B" : "A"
    const altered = await s.post("swap", { ...body, sender, quoteId: `${quoteId.slice(0, at)}${flipped}${quoteId.slice(at + 1)}` })
    expect(altered.status).toBe(400)
    expect(altered.body.error.message).toBe("quoteId: was not issued by this service or was altered")
    const other = await s.post("swap", { ...body, amountIn: "2000000", sender, quoteId })
    expect(other.body.error).toEqual({ code: "INVALID_REQUEST", message: "quoteId: was issued for another amountIn" })
    const garbage = await s.post("swap", { ...body, sender, quoteId: "bm90IGEgcXVvdGU" })
    expect(garbage.status).toBe(400)
    expect(garbage.body.error.message).toStartWith("quoteId: is malformed")
    const none = await s.post("swap", { ...body, sender })
    expect(none.body.priceChangeBps).toBeNull()
  })

  test("another instance sharing the key store accepts the id; one with a store of its own does not", async () => {
    const programs = livePrograms(s.settings).pipe(Layer.orDie)
    const sharing = await startApiServer({ programs, env: { PORT: "0", DATABASE_URL: s.keyStore, LOG_LEVEL: "error" } })
    const own = await startApiServer({ programs, env: { PORT: "0", DATABASE_URL: `${s.keyStore}.other.sqlite`, LOG_LEVEL: "error" } })
    try {
      const trade = { tokenIn: s.token("USDC"), tokenOut: s.token("EURC"), amountIn: "3000000" }
      const quote = await s.post("quote", trade)
      expect(quote.status).toBe(200)
      const { quoteId } = quote.body
      const body = { ...trade, sender: s.manifest.accounts[3]!.address }
      const ask = async (api: typeof sharing) => {
        const { key } = await Effect.runPromise(api.keys.create({ name: "second instance" }))
        const res = await fetch(`${api.baseUrl}/swap`, { method: "POST", headers: { "content-type": "application/json", "x-api-key": key }, body: JSON.stringify({ ...body, quoteId }) })
        return { status: res.status, body: (await res.json()) as any }
      }
      const shared = await ask(sharing)
      expect(shared.status).toBe(200)
      expect(Number.isInteger(shared.body.priceChangeBps), JSON.stringify(shared.body)).toBe(true)
      const foreign = await ask(own)
      expect(foreign.status).toBe(400)
      expect(foreign.body.error.message).toBe("quoteId: was not issued by this service or was altered")
    } finally {
      await sharing.stop()
      await own.stop()
    }
  })
})
