import { describe, expect, test } from "bun:test"
import fc from "fast-check"
import { MAX_UINT256 } from "../../src/amm/constants.ts"
import { mulDiv, mulDivRoundingUp } from "../../src/amm/full-math.ts"
import { revertCode } from "./helpers.ts"

const Q128 = 1n << 128n
const uint256 = fc.bigInt({ min: 0n, max: MAX_UINT256 })
// values spread over every magnitude, not only huge ones
const anyUint = fc.oneof(uint256, fc.bigInt({ min: 0n, max: 1n << 128n }), fc.bigInt({ min: 0n, max: 1000n }))

// vectors from v3-core test/FullMath.spec.ts
describe("mulDiv (v3-core FullMath.spec vectors)", () => {
  test("reverts if denominator is 0", () => {
    expect(revertCode(() => mulDiv(Q128, 5n, 0n))).toBe("DivisionByZero")
    expect(revertCode(() => mulDiv(Q128, Q128, 0n))).toBe("DivisionByZero")
  })
  test("reverts if output overflows uint256", () => {
    expect(revertCode(() => mulDiv(Q128, Q128, 1n))).toBe("MulDivOverflow")
    expect(revertCode(() => mulDiv(MAX_UINT256, MAX_UINT256, MAX_UINT256 - 1n))).toBe("MulDivOverflow")
  })
  test("all max inputs", () => {
    expect(mulDiv(MAX_UINT256, MAX_UINT256, MAX_UINT256)).toBe(MAX_UINT256)
  })
  test("accurate without phantom overflow", () => {
    expect(mulDiv(Q128, (50n * Q128) / 100n, (150n * Q128) / 100n)).toBe(Q128 / 3n)
  })
  test("accurate with phantom overflow", () => {
    expect(mulDiv(Q128, 35n * Q128, 8n * Q128)).toBe((4375n * Q128) / 1000n)
  })
  test("accurate with phantom overflow and repeating decimal", () => {
    expect(mulDiv(Q128, 1000n * Q128, 3000n * Q128)).toBe(Q128 / 3n)
  })
})

describe("mulDivRoundingUp (v3-core FullMath.spec vectors)", () => {
  test("reverts if denominator is 0", () => {
    expect(revertCode(() => mulDivRoundingUp(Q128, 5n, 0n))).toBe("DivisionByZero")
    expect(revertCode(() => mulDivRoundingUp(Q128, Q128, 0n))).toBe("DivisionByZero")
  })
  test("reverts if output overflows uint256", () => {
    expect(revertCode(() => mulDivRoundingUp(Q128, Q128, 1n))).toBe("MulDivOverflow")
    expect(revertCode(() => mulDivRoundingUp(MAX_UINT256, MAX_UINT256, MAX_UINT256 - 1n))).toBe("MulDivOverflow")
  })
  test("reverts if mulDiv overflows 256 bits after rounding up", () => {
    expect(
      revertCode(() =>
        mulDivRoundingUp(535006138814359n, 432862656469423142931042426214547535783388063929571229938474969n, 2n),
      ),
    ).toBe("MulDivOverflow")
    expect(
      revertCode(() =>
        mulDivRoundingUp(
          115792089237316195423570985008687907853269984659341747863450311749907997002549n,
          115792089237316195423570985008687907853269984659341747863450311749907997002550n,
          115792089237316195423570985008687907853269984653042931687443039491902864365164n,
        ),
      ),
    ).toBe("MulDivOverflow")
  })
  test("all max inputs", () => {
    expect(mulDivRoundingUp(MAX_UINT256, MAX_UINT256, MAX_UINT256)).toBe(MAX_UINT256)
  })
  test("accurate without phantom overflow", () => {
    expect(mulDivRoundingUp(Q128, (50n * Q128) / 100n, (150n * Q128) / 100n)).toBe(Q128 / 3n + 1n)
  })
  test("accurate with phantom overflow", () => {
    expect(mulDivRoundingUp(Q128, 35n * Q128, 8n * Q128)).toBe((4375n * Q128) / 1000n)
  })
  test("accurate with phantom overflow and repeating decimal", () => {
    expect(mulDivRoundingUp(Q128, 1000n * Q128, 3000n * Q128)).toBe(Q128 / 3n + 1n)
  })
})

describe("properties against direct bigint arithmetic", () => {
  test("mulDiv = floor(a*b/d), reverting exactly when d = 0 or the result needs more than 256 bits", () => {
    fc.assert(
      fc.property(anyUint, anyUint, anyUint, (a, b, d) => {
        if (d === 0n) return revertCode(() => mulDiv(a, b, d)) === "DivisionByZero"
        const exact = (a * b) / d
        if (exact > MAX_UINT256) return revertCode(() => mulDiv(a, b, d)) === "MulDivOverflow"
        return mulDiv(a, b, d) === exact
      }),
      { numRuns: 2000 },
    )
  })
  test("mulDivRoundingUp = ceil(a*b/d) and differs from mulDiv by the remainder bit", () => {
    fc.assert(
      fc.property(anyUint, anyUint, anyUint.filter((d) => d > 0n), (a, b, d) => {
        const exactCeil = (a * b + d - 1n) / d
        if (exactCeil > MAX_UINT256) return revertCode(() => mulDivRoundingUp(a, b, d)) === "MulDivOverflow"
        const up = mulDivRoundingUp(a, b, d)
        const down = mulDiv(a, b, d)
        return up === exactCeil && up - down === ((a * b) % d === 0n ? 0n : 1n)
      }),
      { numRuns: 2000 },
    )
  })
})
