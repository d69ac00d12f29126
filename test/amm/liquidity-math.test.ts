import { describe, expect, test } from "bun:test"
import fc from "fast-check"
import { MAX_UINT128 } from "../../src/amm/constants.ts"
import { addDelta } from "../../src/amm/liquidity-math.ts"
import { revertCode } from "./helpers.ts"

// vectors from v3-core test/LiquidityMath.spec.ts
describe("addDelta", () => {
  test("1 + 0, 1 + -1, 1 + 1", () => {
    expect(addDelta(1n, 0n)).toBe(1n)
    expect(addDelta(1n, -1n)).toBe(0n)
    expect(addDelta(1n, 1n)).toBe(2n)
  })
  test("2**128-15 + 15 overflows", () => expect(revertCode(() => addDelta((1n << 128n) - 15n, 15n))).toBe("LiquidityOverflow"))
  test("0 + -1 underflows", () => expect(revertCode(() => addDelta(0n, -1n))).toBe("LiquidityUnderflow"))
  test("3 + -4 underflows", () => expect(revertCode(() => addDelta(3n, -4n))).toBe("LiquidityUnderflow"))
  test("equals x + y whenever that is a uint128, reverts otherwise", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: MAX_UINT128 }), fc.bigInt({ min: -(1n << 127n), max: (1n << 127n) - 1n }), (x, y) => {
        const z = x + y
        if (z < 0n || z > MAX_UINT128) return revertCode(() => addDelta(x, y)) !== undefined
        return addDelta(x, y) === z
      }),
    )
  })
})
