// USDC's two forms: the placeholders that mean native USDC and the conversion between
// 18-decimal native units and 6-decimal ERC-20 units (spec rules 1 and 3).
import { describe, expect, test } from "bun:test"
import fc from "fast-check"
import {
  erc20ToNative,
  isNativePlaceholder,
  isUsdc,
  isUsdcErc20,
  nativeToErc20,
  USDC_NATIVE_SCALE,
} from "../../src/domain/index.ts"

const EEEE = "0x" + "ee".repeat(20)

describe("native placeholders", () => {
  test("the zero address and 0xEeee… in lower, upper and checksummed case", () => {
    expect(isNativePlaceholder("0x0000000000000000000000000000000000000000")).toBe(true)
    expect(isNativePlaceholder(EEEE)).toBe(true)
    expect(isNativePlaceholder("0x" + "EE".repeat(20))).toBe(true)
    expect(isNativePlaceholder("0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE")).toBe(true)
  })

  test("any letter case of the twenty 0xee bytes", () => {
    fc.assert(
      fc.property(fc.array(fc.boolean(), { minLength: 40, maxLength: 40 }), (upper) => {
        const address = "0x" + upper.map((u) => (u ? "E" : "e")).join("")
        expect(isNativePlaceholder(address)).toBe(true)
        expect(isUsdc(address)).toBe(true)
        expect(isUsdcErc20(address)).toBe(false)
      }),
    )
  })

  test("other addresses are not placeholders", () => {
    expect(isNativePlaceholder("0x3600000000000000000000000000000000000000")).toBe(false)
    expect(isNativePlaceholder("0x" + "ee".repeat(19) + "ef")).toBe(false)
    expect(isNativePlaceholder("0x" + "00".repeat(19) + "01")).toBe(false)
    expect(isNativePlaceholder("0x" + "ee".repeat(19))).toBe(false)
    expect(isUsdcErc20("0x3600000000000000000000000000000000000000")).toBe(true)
    expect(isUsdc("0x3600000000000000000000000000000000000000")).toBe(true)
  })
})

describe("native ↔ ERC-20 amounts", () => {
  test("1 USDC is 10^18 native and 10^6 ERC-20", () => {
    expect(USDC_NATIVE_SCALE).toBe(1_000_000_000_000n)
    expect(nativeToErc20(1_000_000_000_000_000_000n)).toEqual({ amount: 1_000_000n, dust: 0n })
    expect(erc20ToNative(1_000_000n)).toBe(1_000_000_000_000_000_000n)
  })

  test("a native amount that is not a whole ERC-20 unit is floored; the rest is dust", () => {
    expect(nativeToErc20(1_000_000_000_000_000_001n)).toEqual({ amount: 1_000_000n, dust: 1n })
    expect(nativeToErc20(999_999_999_999n)).toEqual({ amount: 0n, dust: 999_999_999_999n })
    expect(nativeToErc20(2_500_000_000_000n)).toEqual({ amount: 2n, dust: 500_000_000_000n })
  })

  test("amount × scale + dust is the native amount, dust below one ERC-20 unit", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: (1n << 256n) - 1n }), (native) => {
        const { amount, dust } = nativeToErc20(native)
        expect(amount * USDC_NATIVE_SCALE + dust).toBe(native)
        expect(dust >= 0n && dust < USDC_NATIVE_SCALE).toBe(true)
      }),
    )
  })

  test("the same value in either form is the same ERC-20 amount (rule 1)", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: (1n << 200n) - 1n }), (erc20) => {
        expect(nativeToErc20(erc20ToNative(erc20))).toEqual({ amount: erc20, dust: 0n })
      }),
    )
  })
})
