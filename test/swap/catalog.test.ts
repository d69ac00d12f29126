// POST /sources and POST /tokens on a real devnet: every venue and aggregator
// the manifest configures, with the pools the chain has for it; every token of
// those pools with its decimals and the price its feed answers.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { formatUnits, getAddress, type Address } from "viem"
import { decimalPrice } from "../../src/swap/index.ts"
import { feedPrice } from "../support/feeds.ts"
import { startSwapOnDevnet, type SwapOnDevnet } from "../support/swap-on-devnet.ts"

let s: SwapOnDevnet

beforeAll(async () => {
  s = await startSwapOnDevnet()
})

afterAll(async () => {
  await s?.stop()
})

describe("decimalPrice", () => {
  test("a feed's answer as an exact decimal, without trailing zeros", () => {
    expect(decimalPrice({ answer: 100_000_000n, decimals: 8, updatedAt: 0n })).toBe("1")
    expect(decimalPrice({ answer: 116_000_000n, decimals: 8, updatedAt: 0n })).toBe("1.16")
    expect(decimalPrice({ answer: 5n, decimals: 8, updatedAt: 0n })).toBe("0.00000005")
    expect(decimalPrice({ answer: 9_700_000_000_000n, decimals: 8, updatedAt: 0n })).toBe("97000")
    expect(decimalPrice({ answer: 42n, decimals: 0, updatedAt: 0n })).toBe("42")
    for (const [answer, decimals] of [[123456789n, 3], [1n, 18], [10n ** 30n + 7n, 18]] as const) {
      expect(decimalPrice({ answer, decimals, updatedAt: 0n })).toBe(formatUnits(answer, decimals))
    }
  })
})

describe("POST /sources", () => {
  test("every configured venue with its pools on the chain, then every aggregator, all healthy", async () => {
    const res = await s.post("sources", {})
    expect(res.status).toBe(200)
    const m = s.manifest
    const venues = Object.entries(m.dexes).map(([name, venue]) => ({
      name,
      type: "venue",
      kind: venue.kind,
      // a pool of a token that taxes or rebases transfers is never published
      pools: m.pools.filter((p) => p.dex === name && p.tokens.every((t) => m.tokens[t]!.behavior === undefined)).length,
      healthy: true,
      detail: null,
    }))
    const aggregators = m.aggregators.map((a) => ({ name: a.name, type: "aggregator", kind: a.kind, pools: null, healthy: true, detail: null }))
    expect(res.body.sources).toEqual([...venues, ...aggregators])
    expect(venues.every((v) => v.pools > 0)).toBe(true)
    expect(BigInt(res.body.blockNumber)).toBeLessThanOrEqual(await s.devnet.client.getBlockNumber())
    expect(res.headers.get("x-request-id")).toBe(res.body.requestId)
  })

  test("takes {} only: a field is named as unknown, a non-object refused", async () => {
    const extra = await s.post("sources", { venue: "uniswap-v2" })
    expect(extra.status).toBe(400)
    expect(extra.body.error).toEqual({ code: "INVALID_REQUEST", message: "venue: unknown field (send {})" })
  })
})

describe("POST /tokens", () => {
  test("every token of the published pools: checksummed address, symbol, decimals, and the feed's price exactly", async () => {
    const res = await s.post("tokens", {})
    expect(res.status).toBe(200)
    const m = s.manifest
    const symbols = new Set(m.pools.flatMap((p) => [...p.tokens]))
    // tokens that tax or rebase transfers are never routed, so their pools are not published
    const routable = [...symbols].filter((symbol) => m.tokens[symbol]!.behavior === undefined)
    const client = s.devnet.client
    const expected = await Promise.all(
      routable.map(async (symbol) => {
        const token = m.tokens[symbol]!
        const feed = await feedPrice(client, m, symbol)
        const priceUsd = feed !== undefined ? formatUnits(feed.answer, feed.decimals) : symbol === "USDC" ? "1" : null
        return { address: getAddress(token.address), symbol, decimals: token.decimals, priceUsd }
      }),
    )
    expected.sort((a, b) => (a.address.toLowerCase() < b.address.toLowerCase() ? -1 : 1))
    expect(res.body.tokens).toEqual(expected)
    expect(expected.some((t) => t.priceUsd !== null && t.priceUsd !== "1")).toBe(true)
  })
})

describe("includeSources / excludeSources", () => {
  test("a quote restricted to one venue routes through it alone; excluding it leaves it out", async () => {
    const tokenIn = s.token("USDC")
    const tokenOut = s.token("EURC")
    const only = await s.post("quote", { tokenIn, tokenOut, amountIn: "1000000000", includeSources: ["uniswap-v2"] })
    expect(only.status).toBe(200)
    const dexes = (body: any) => new Set(body.route.flatMap((r: any) => r.hops.map((h: any) => h.dex)))
    expect([...dexes(only.body)]).toEqual(["uniswap-v2"])
    const without = await s.post("quote", { tokenIn, tokenOut, amountIn: "1000000000", excludeSources: ["uniswap-v2"] })
    expect(without.status).toBe(200)
    expect(dexes(without.body).has("uniswap-v2")).toBe(false)
    const unknown = await s.post("quote", { tokenIn, tokenOut, amountIn: "1000000000", includeSources: ["sushiswap"] })
    expect(unknown.status).toBe(400)
    expect(unknown.body.error.message).toStartWith("includeSources: no source is named sushiswap")
  })

  test("a /swap restricted to one venue is sent as returned and pays exactly amountOut", async () => {
    const sender = s.manifest.accounts[3]!.address as Address
    const tokenOut = s.token("EURC")
    const res = await s.post("swap", { tokenIn: s.token("USDC"), tokenOut, amountIn: "5000000", includeSources: ["uniswap-v3"], sender })
    expect(res.status).toBe(200)
    expect(new Set(res.body.route.flatMap((r: any) => r.hops.map((h: any) => h.dex)))).toEqual(new Set(["uniswap-v3"]))
    const before = await s.balanceOf(tokenOut, sender)
    const receipt = await s.send(res.body, sender)
    expect(receipt.status).toBe("success")
    expect((await s.balanceOf(tokenOut, sender)) - before).toBe(BigInt(res.body.amountOut))
  })
})
