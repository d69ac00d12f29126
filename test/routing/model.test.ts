// The float pool models and the water-filling optimiser: close to the exact
// math, concave, and at the closed-form optimum where one exists.
import { describe, expect, test } from "bun:test"
import fc from "fast-check"
import { buildCurve, ConcentratedCurve, pathOut, V2Curve } from "../../src/routing/curve.ts"
import { waterFill } from "../../src/routing/optimiser.ts"
import { quoteHop } from "../../src/routing/pool-quote.ts"
import { concentrated, token, v2, v2Out } from "./helpers.ts"

const E18 = 10n ** 18n
const [A, B] = [token(1), token(2)]
const rel = (a: number, b: number) => Math.abs(a - b) / Math.max(1, Math.abs(b))

const v3Pool = concentrated({
  token0: A, token1: B, fee: 3000, tickSpacing: 60, tick: 120,
  sqrtPriceX96: 79706000000000000000000000000n, // inside tick 120 (79704936542881920863903188246 at its start)
  positions: [
    { lower: -887220, upper: 887220, liquidity: 2n * E18 },
    { lower: -600, upper: 600, liquidity: 30n * E18 },
    { lower: 60, upper: 240, liquidity: 100n * E18 },
    { lower: 2400, upper: 3000, liquidity: 5n * E18 },
  ],
  tickLower: -6000, tickUpper: 6000,
})

describe("float models", () => {
  test("V2: the closed form, within float precision of the exact output", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 10n ** 6n, max: 10n ** 30n }),
        fc.bigInt({ min: 10n ** 6n, max: 10n ** 30n }),
        fc.bigInt({ min: 1n, max: 10n ** 30n }),
        (r0, r1, x) => {
          const c = buildCurve(v2(A, B, r0, r1), 0, 1)!
          expect(c).toBeInstanceOf(V2Curve)
          const exact = Number(v2Out(x, r0, r1))
          expect(Math.abs(c.out(Number(x)) - exact)).toBeLessThanOrEqual(1 + exact * 1e-12)
        },
      ),
    )
  })

  test("V3: within 1e-9 of the exact swap, both ways, across ticks", () => {
    for (const zeroForOne of [true, false]) {
      const c = buildCurve(v3Pool, zeroForOne ? 0 : 1, zeroForOne ? 1 : 0)!
      expect(c).toBeInstanceOf(ConcentratedCurve)
      for (let x = 1e15; x < c.cap; x *= 1.7) {
        const q = quoteHop(v3Pool, zeroForOne ? 0 : 1, zeroForOne ? 1 : 0, BigInt(Math.floor(x)))!
        expect(rel(c.out(x), Number(q.amountOut))).toBeLessThan(1e-9)
        expect(c.crossings(x)).toBe(q.ticksCrossed)
      }
    }
  })

  test("V3 capacity: the known ticks bound the input; past it the output is flat and the rate 0", () => {
    const c = buildCurve(v3Pool, 0, 1)!
    expect(Number.isFinite(c.cap)).toBe(true)
    expect(quoteHop(v3Pool, 0, 1, BigInt(Math.floor(c.cap)))).toBeDefined()
    expect(quoteHop(v3Pool, 0, 1, BigInt(Math.floor(c.cap * 1.001)))).toBeUndefined()
    expect(c.out(c.cap * 2)).toBe(c.out(c.cap * 1.5))
    expect(c.marginal(c.cap * 1.5)).toBe(0)
  })

  test("marginal rate is the derivative, decreasing, and out <= spot * x", () => {
    for (const c of [buildCurve(v3Pool, 0, 1)!, buildCurve(v3Pool, 1, 0)!, buildCurve(v2(A, B, 10n ** 24n, 3n * 10n ** 24n), 0, 1)!]) {
      const top = Number.isFinite(c.cap) ? c.cap : 1e25
      let prev = Number.POSITIVE_INFINITY
      for (let x = top / 1e6; x < top * 0.999; x *= 1.9) {
        const h = x * 1e-4
        const numeric = (c.out(x + h) - c.out(x - h)) / (2 * h)
        expect(rel(c.marginal(x), numeric)).toBeLessThan(1e-4)
        expect(c.marginal(x)).toBeLessThanOrEqual(prev)
        prev = c.marginal(x)
        expect(c.out(x)).toBeLessThanOrEqual(c.spot * x * (1 + 1e-12))
      }
    }
  })

  test("a pool with no liquidity either way has no model", () => {
    expect(buildCurve(v2(A, B, 0n, E18), 0, 1)).toBeUndefined()
    const empty = concentrated({ token0: A, token1: B, fee: 500, tickSpacing: 10, tick: 0, positions: [] })
    expect(buildCurve(empty, 0, 1)).toBeUndefined()
  })
})

describe("water-filling", () => {
  // V2 pools (gamma = 0.997): x_i = (sqrt(gamma R_i R'_i / lambda) - R_i) / gamma,
  // and sum x_i = T gives 1/sqrt(lambda) = (gamma T + sum R_i) / sum sqrt(gamma R_i R'_i) when all are active
  const g = 0.997
  const closedForm = (pools: ReadonlyArray<readonly [number, number]>, total: number): number[] => {
    const s = pools.reduce((a, [r, r2]) => a + Math.sqrt(g * r * r2), 0)
    const invSqrtLam = (g * total + pools.reduce((a, [r]) => a + r, 0)) / s
    return pools.map(([r, r2]) => (Math.sqrt(g * r * r2) * invSqrtLam - r) / g)
  }

  test("matches the closed form for V2 pools that all take input", () => {
    const pools = [
      [1e24, 2e24],
      [3e23, 6.1e23],
      [5e24, 9.9e24],
    ] as const
    const total = 4e23
    const out = new Float64Array(3)
    const lam = waterFill(pools.map(([r, r2]) => [new V2Curve(r, r2)]), total, out)
    expect(lam).toBeGreaterThan(0)
    const want = closedForm(pools, total)
    for (let i = 0; i < 3; i++) expect(rel(out[i]!, want[i]!)).toBeLessThan(1e-6)
    expect(rel(out[0]! + out[1]! + out[2]!, total)).toBeLessThan(1e-12)
  })

  test("a pool whose spot rate is below the water level gets nothing", () => {
    const out = new Float64Array(2)
    waterFill([[new V2Curve(1e24, 2e24)], [new V2Curve(1e24, 1.5e24)]], 1e21, out)
    expect(out[1]).toBe(0)
    expect(out[0]).toBe(1e21)
  })

  test("multi-hop paths: the optimum beats every nearby allocation", () => {
    const p1 = [new V2Curve(1e24, 1e24), new V2Curve(2e24, 2e24)]
    const p2 = [buildCurve(v3Pool, 0, 1)!]
    const total = 5e20
    const out = new Float64Array(2)
    expect(waterFill([p1, p2], total, out)).toBeGreaterThan(0)
    const value = (x: number) => pathOut(p1, x) + pathOut(p2, total - x)
    const best = value(out[0]!)
    for (const d of [-1e-3, -1e-5, 1e-5, 1e-3]) expect(best).toBeGreaterThanOrEqual(value(out[0]! + d * total))
  })

  test("paths that cannot absorb the input together: -1", () => {
    const c = buildCurve(v3Pool, 0, 1)!
    const out = new Float64Array(1)
    expect(waterFill([[c]], c.cap * 1.1, out)).toBe(-1)
    expect(waterFill([[c]], c.cap * 0.5, out)).toBeGreaterThan(0)
  })
})
