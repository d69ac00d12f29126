// The relayer fee of a gasless order: the gas at the World's base fee, priced in
// tokenOut as gasCost.tokenOut is, raised by the margin and rounded up; none
// without a reference price for tokenOut.
import { describe, expect, test } from "bun:test"
import type { Address } from "viem"
import { gasCostOf, relayerFeeOf } from "../../src/pricer/index.ts"
import type { NormalizedToken, World } from "../../src/domain/index.ts"

const USDC = "0x3600000000000000000000000000000000000000" as Address
const WETH = "0x00000000000000000000000000000000000000e1" as Address
const token = (over: Partial<NormalizedToken>): NormalizedToken => ({ input: USDC, native: false, erc20Address: USDC, scale: 1n, decimals: 6, symbol: "USDC", ...over })
const weth = token({ input: WETH, erc20Address: WETH, decimals: 18, symbol: "WETH" })
const wethPrice = { answer: 350_000_000_000n, decimals: 8, updatedAt: 0n }
const dollar = { answer: 100_000_000n, decimals: 8, updatedAt: 0n }
// only what relayerFeeOf reads of a World
const world = (prices: ReadonlyMap<string, typeof wethPrice>, baseFeeWei = 20_000_000_000n) => ({ prices, baseFeeWei }) as unknown as World

describe("relayerFeeOf", () => {
  const gas = 212_345n
  test("the gas at the base fee in tokenOut, × (1 + margin), rounded up", () => {
    const w = world(new Map([[WETH.toLowerCase(), wethPrice]]))
    const cost = gasCostOf(gas * 20_000_000_000n, weth, wethPrice, dollar).tokenOut!
    expect(relayerFeeOf(w, weth, gas, 0)).toBe(cost)
    expect(relayerFeeOf(w, weth, gas, 2000)).toBe((cost * 12_000n + 9_999n) / 10_000n)
    expect(relayerFeeOf(w, weth, gas, 10_000)).toBe(cost * 2n)
    // 212345 gas × 20 gwei = 0.0042469 USDC; at $3500 a WETH: 1213400000000 wei of WETH; +20%: 1456080000000
    expect(relayerFeeOf(w, weth, gas, 2000)).toBe(1_456_080_000_000n)
  })
  test("USDC out in 6 decimals, native USDC in wei, without a feed (one dollar)", () => {
    const w = world(new Map())
    // 0.0042469 USDC = 4246 units (rounded down), +20% rounded up = 5096
    expect(relayerFeeOf(w, token({}), gas, 2000)).toBe(5096n)
    expect(relayerFeeOf(w, token({ native: true, scale: 10n ** 12n, decimals: 18 }), gas, 2000)).toBe((gas * 20_000_000_000n * 12_000n + 9_999n) / 10_000n)
  })
  test("no reference price for tokenOut: no fee", () => {
    expect(relayerFeeOf(world(new Map()), weth, gas, 2000)).toBeUndefined()
  })
})
