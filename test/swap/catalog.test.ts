// POST /sources and POST /tokens on a real devnet: every venue and aggregator
// the manifest configures, with the pools the chain has for it; every token of
// those pools with its decimals and the price its feed answers, its symbol
// cleaned of control and bidi characters.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { erc20Abi, formatUnits, getAddress, parseAbi, type Address, type Hex } from "viem"
import { ownArtifact } from "../../src/contracts/index.ts"
import { manifestVenue } from "../../src/devnet/index.ts"
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
      tradeTypes: ["exactInput", "exactOutput"],
    }))
    // a 0x-shaped aggregator is asked for exact output too (buyAmount); a KyberSwap one for exact input only
    const aggregators = m.aggregators.map((a) => ({
      name: a.name,
      type: "aggregator",
      kind: a.kind,
      pools: null,
      healthy: true,
      detail: null,
      tradeTypes: a.kind === "0x-v2" ? ["exactInput", "exactOutput"] : ["exactInput"],
    }))
    expect(aggregators.length).toBeGreaterThan(0)
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

describe("a token's symbol as the chain gives it", () => {
  test("a pool's token whose symbol carries bidi and control characters is listed cleaned and cut at 32", async () => {
    const client = s.devnet.client
    const provider = s.manifest.accounts[0]!.address as Address
    const TestToken = ownArtifact("TestToken")
    const raw = `\u202Egpj.exe\u202C\u0007\u200F\u0000${"Z".repeat(40)}\u2066`
    const sent = async (hash: Hex) => expect((await client.waitForTransactionReceipt({ hash })).status).toBe("success")
    const deployed = await client.waitForTransactionReceipt({
      hash: await client.deployContract({ abi: TestToken.abi, bytecode: TestToken.bytecode, args: ["Spoof", raw, 6], account: provider, chain: client.chain }),
    })
    const spoof = getAddress(deployed.contractAddress!)
    const usdc = s.token("USDC")
    const factory = manifestVenue(s.manifest, "uniswap-v2", "uniswap-v2").factory as Address
    const v2 = parseAbi(["function createPair(address,address) returns (address)", "function getPair(address,address) view returns (address)", "function mint(address) returns (uint256)"])
    await sent(await client.writeContract({ address: spoof, abi: TestToken.abi, functionName: "mint", args: [provider, 10_000_000_000n], account: provider, chain: client.chain }))
    await sent(await client.writeContract({ address: factory, abi: v2, functionName: "createPair", args: [usdc, spoof], account: provider, chain: client.chain }))
    const pair = await client.readContract({ address: factory, abi: v2, functionName: "getPair", args: [usdc, spoof] })
    await sent(await client.writeContract({ address: usdc, abi: erc20Abi, functionName: "transfer", args: [pair, 10_000_000_000n], account: provider, chain: client.chain }))
    await sent(await client.writeContract({ address: spoof, abi: erc20Abi, functionName: "transfer", args: [pair, 10_000_000_000n], account: provider, chain: client.chain }))
    await sent(await client.writeContract({ address: pair, abi: v2, functionName: "mint", args: [provider], account: provider, chain: client.chain }))

    // the market finds the new pair within a few blocks
    type Listed = { address: string; symbol: string; decimals: number; priceUsd: string | null }
    let listed: Listed | undefined
    for (let tries = 0; listed === undefined && tries < 100; tries++) {
      listed = ((await s.post("tokens", {})).body.tokens as Listed[]).find((t) => t.address === spoof)
      if (listed === undefined) await Bun.sleep(100)
    }
    expect(listed).toEqual({ address: spoof, symbol: `gpj.exe${"Z".repeat(25)}`, decimals: 6, priceUsd: null })
  }, 30_000)
})
