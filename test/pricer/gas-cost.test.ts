// gasCost's three units, from wei: USDC's 6 decimals rounded down, and the
// output token's units as amountOut counts them, null without its price.
import { describe, expect, test } from "bun:test"
import type { Address } from "viem"
import { gasCostOf } from "../../src/pricer/index.ts"
import type { NormalizedToken } from "../../src/domain/index.ts"

const USDC = "0x3600000000000000000000000000000000000000" as Address
const token = (over: Partial<NormalizedToken>): NormalizedToken => ({ input: USDC, native: false, erc20Address: USDC, scale: 1n, decimals: 6, symbol: "USDC", ...over })
const dollar = { answer: 100_000_000n, decimals: 8, updatedAt: 0n }
const WETH = "0x00000000000000000000000000000000000000e1" as Address

describe("gasCostOf", () => {
  const wei = 3_456_789_012_345_678n // 0.003456789012345678 USDC
  test("USDC out: 6 decimals for the ERC-20, wei for native USDC", () => {
    expect(gasCostOf(wei, token({}), undefined, dollar)).toEqual({ native: wei, usdc: 3456n, tokenOut: 3456n })
    expect(gasCostOf(wei, token({ native: true, scale: 10n ** 12n, decimals: 18 }), undefined, dollar)).toEqual({ native: wei, usdc: 3456n, tokenOut: wei })
  })
  test("another token at the reference prices, rounded down; null without its price", () => {
    const weth = token({ input: WETH, erc20Address: WETH, decimals: 18, symbol: "WETH" })
    // $0.003456789012345678 at $3500 a WETH: 3456789012345678 / 3500 = 987654003527.34 wei of WETH
    expect(gasCostOf(wei, weth, { answer: 350_000_000_000n, decimals: 8, updatedAt: 0n }, dollar).tokenOut).toBe(987_654_003_527n)
    expect(gasCostOf(wei, weth, undefined, dollar)).toEqual({ native: wei, usdc: 3456n, tokenOut: null })
  })
})
