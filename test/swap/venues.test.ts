// /swap through every venue kind on a devnet of several venues per family: a
// route through one venue alone, and a large trade split across a stable
// pool, a V2 fork, a second V3 venue and a second V4 venue at once. Every
// transaction is sent exactly as returned and the recipient must receive
// exactly the amountOut the response quoted; the executor keeps nothing.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { erc20Abi, type Address } from "viem"
import { testAccounts } from "../../src/devnet/index.ts"
import { startSwapOnDevnet, type SwapOnDevnet } from "../support/swap-on-devnet.ts"

/**
 * USDC/USDT is deep on every kind near 1:1, so a large trade splits across
 * them; GBP trades only on arcade-v2, WETH only on synthra-v3, CHF only on
 * flux-v4 and DAI only in the stable pool, so small trades of those go
 * through one venue alone.
 */
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
  ],
  priceFeeds: { USDC: "1", USDT: "1", DAI: "1", GBP: "1.25", WETH: "3500", CHF: "1.1" },
  pools: [
    { dex: "xylonet", tokens: ["USDC", "USDT", "DAI"], A: 400, fee: "0.0001", balances: ["1000000", "1000000", "1000000"] },
    { dex: "arcade-v2", tokens: ["USDC", "USDT"], reserves: ["3000000", "3000000"] },
    { dex: "synthra-v3", tokens: ["USDC", "USDT"], fee: 100, price: "1", positions: [{ lower: "0.998", upper: "1.002", amount0: "300000" }] },
    { dex: "flux-v4", tokens: ["USDC", "USDT"], fee: 100, tickSpacing: 1, price: "1", positions: [{ lower: "0.998", upper: "1.002", amount0: "300000" }] },
    { dex: "arcade-v2", tokens: ["GBP", "USDC"], reserves: ["400000", "500000"] },
    { dex: "synthra-v3", tokens: ["WETH", "USDC"], fee: 3000, price: "3500", positions: [{ lower: "3000", upper: "4000", amount0: "100" }] },
    { dex: "flux-v4", tokens: ["CHF", "USDC"], fee: 500, tickSpacing: 10, price: "1.1", positions: [{ lower: "1.0", upper: "1.2", amount0: "200000" }] },
  ],
  balances: [
    { account: 0, amounts: { USDC: "3000000", USDT: "100000", DAI: "100000", GBP: "10000", WETH: "10", CHF: "10000" } },
    { account: 1, amounts: { USDC: "2000000", USDT: "100000", DAI: "100000", GBP: "10000", WETH: "10", CHF: "10000" } },
  ],
}

let s: SwapOnDevnet

beforeAll(async () => {
  s = await startSwapOnDevnet({ scenarioText: JSON.stringify(SCENARIO) })
})

afterAll(async () => {
  await s?.stop()
})

const deadline = () => Math.floor(Date.now() / 1000) + 600

/** /swap, sent as returned; checks the recipient got exactly amountOut and the executor kept nothing. Returns the response. */
const swapAndCheck = async (tokenIn: string, tokenOut: string, amountIn: bigint, account = 0) => {
  const sender = testAccounts[account]!.address
  const recipient = testAccounts[5]!.address
  const res = await s.post("swap", { tokenIn: s.token(tokenIn), tokenOut: s.token(tokenOut), amountIn: amountIn.toString(), sender, recipient, deadline: deadline() })
  expect(res.status).toBe(200)
  expect(res.body.simulated).toBe(true)
  const out = s.token(tokenOut)
  const before = await s.balanceOf(out, recipient)
  const receipt = await s.send(res.body, sender)
  expect(receipt.status).toBe("success")
  expect((await s.balanceOf(out, recipient)) - before).toBe(BigInt(res.body.amountOut))
  const executor = s.manifest.executor as Address
  for (const symbol of [tokenIn, tokenOut]) expect(await s.balanceOf(s.token(symbol), executor)).toBe(0n)
  expect(await s.devnet.client.readContract({ address: s.token(tokenIn), abi: erc20Abi, functionName: "allowance", args: [executor, sender] })).toBe(0n)
  return res.body
}

const venuesOf = (swap: any): string[] => swap.route.flatMap((split: any) => split.hops.map((hop: any) => hop.dex))

describe("one venue alone", () => {
  for (const [tokenIn, tokenOut, amountIn, venue] of [
    ["USDC", "DAI", 5_000n * 10n ** 6n, "xylonet"],
    ["DAI", "USDT", 2_000n * 10n ** 18n, "xylonet"],
    ["USDC", "GBP", 1_000n * 10n ** 6n, "arcade-v2"],
    ["USDC", "WETH", 3_000n * 10n ** 6n, "synthra-v3"],
    ["CHF", "USDC", 500n * 10n ** 6n, "flux-v4"],
  ] as const) {
    test(`${tokenIn} -> ${tokenOut} through ${venue}: paid exactly the quoted amount`, async () => {
      const swap = await swapAndCheck(tokenIn, tokenOut, amountIn)
      expect(venuesOf(swap)).toEqual([venue])
      // the stable pool's hop names the pool itself
      if (venue === "xylonet") expect(swap.route[0].hops[0].pool).toBe(s.manifest.pools.find((p) => p.dex === "xylonet")!.pool)
    })
  }

  test("two hops over two venues of different kinds: GBP -> USDC (arcade-v2) -> DAI (stable pool)", async () => {
    const swap = await swapAndCheck("GBP", "DAI", 2_000n * 10n ** 6n)
    expect(swap.route).toHaveLength(1)
    expect(venuesOf(swap)).toEqual(["arcade-v2", "xylonet"])
  })
})

describe("split across kinds and venues", () => {
  test("USDC -> USDT of 1,600,000 splits across the stable pool, the V2 fork, the second V3 and the second V4 venue", async () => {
    const swap = await swapAndCheck("USDC", "USDT", 1_600_000n * 10n ** 6n)
    const venues = new Set(venuesOf(swap))
    expect(venues.has("xylonet")).toBe(true)
    expect(venues.has("synthra-v3")).toBe(true)
    expect(venues.has("flux-v4")).toBe(true)
    expect(venues.has("arcade-v2")).toBe(true)
    expect(swap.route.length).toBeGreaterThanOrEqual(4)
  })
})
