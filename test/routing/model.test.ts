// The float pool models and the water-filling optimiser: close to the exact
// math, concave, and at the closed-form optimum where one exists.
import { describe, expect, test } from "bun:test"
import fc from "fast-check"
import { buildCurve, ConcentratedCurve, pathIn, pathMaxOut, pathOut, V2Curve } from "../../src/routing/curve.ts"
import { waterFill, waterFillOutput } from "../../src/routing/optimiser.ts"
import { quoteHop } from "../../src/routing/pool-quote.ts"
import { concentrated, stable, token, v2, v2Out } from "./helpers.ts"

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

  test("inverseMarginal inverts the rate: above lam just before the input it gives, below just after; 0 past the spot rate, the capacity short of it", () => {
    // a range without liquidity between two positions: the rate jumps down across it
    const gapped = concentrated({
      token0: A, token1: B, fee: 500, tickSpacing: 60, tick: 300,
      sqrtPriceX96: 80_400_000_000_000_000_000_000_000_000n,
      positions: [
        { lower: 60, upper: 600, liquidity: 40n * E18 },
        { lower: -1200, upper: -60, liquidity: 7n * E18 },
      ],
      tickLower: -6000, tickUpper: 6000,
    })
    const curves = [buildCurve(v3Pool, 0, 1)!, buildCurve(v3Pool, 1, 0)!, buildCurve(gapped, 0, 1)!, buildCurve(gapped, 1, 0)!]
    for (const c of curves) {
      expect(c.inverseMarginal).toBeDefined()
      expect(c.inverseMarginal!(c.spot * 1.01)).toBe(0)
      expect(c.inverseMarginal!(c.spot)).toBe(0)
      // the rate stays above a level this low up to the capacity
      expect(c.inverseMarginal!(c.marginal(c.cap * 0.999) * 0.5)).toBe(c.cap)
      for (let f = 0.999; f > 1e-6; f *= 0.7) {
        const lam = c.spot * f
        const x = c.inverseMarginal!(lam)
        expect(x).toBeGreaterThan(0)
        expect(x).toBeLessThanOrEqual(c.cap)
        expect(c.marginal(x * (1 - 1e-7))).toBeGreaterThanOrEqual(lam * (1 - 1e-9))
        if (x < c.cap) expect(c.marginal(x * (1 + 1e-7))).toBeLessThanOrEqual(lam * (1 + 1e-9))
      }
    }
    fc.assert(
      fc.property(
        fc.double({ min: 1e6, max: 1e30, noNaN: true }),
        fc.double({ min: 1e6, max: 1e30, noNaN: true }),
        fc.double({ min: 1e-9, max: 0.999, noNaN: true }),
        (r0, r1, f) => {
          const c = new V2Curve(r0, r1)
          const x = c.inverseMarginal(c.spot * f)
          expect(rel(c.marginal(x), c.spot * f)).toBeLessThan(1e-9)
          expect(c.inverseMarginal(c.spot / f)).toBe(0)
        },
      ),
    )
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

  test("single pools (the rate inverted in closed form) and a two-hop path: every used path at one marginal rate, the optimum beating every nearby allocation", () => {
    const paths = [[buildCurve(v3Pool, 0, 1)!], [new V2Curve(3e20, 3.1e20)], [new V2Curve(1e24, 1e24), new V2Curve(2e24, 2e24)]]
    const total = 4e20
    const out = new Float64Array(3)
    const lam = waterFill(paths, total, out)
    expect(lam).toBeGreaterThan(0)
    expect(rel(out[0]! + out[1]! + out[2]!, total)).toBeLessThan(1e-12)
    for (let i = 0; i < 3; i++) {
      expect(out[i]!).toBeGreaterThan(0)
      let m = 1
      let x = out[i]!
      for (const c of paths[i]!) {
        m *= c.marginal(x)
        x = c.out(x)
      }
      expect(rel(m, lam)).toBeLessThan(1e-6)
    }
    const value = (a: Float64Array) => a.reduce((sum, x, i) => sum + pathOut(paths[i]!, x), 0)
    const best = value(out)
    for (const [from, to] of [[0, 1], [1, 2], [2, 0]] as const) {
      for (const d of [-1e-3, 1e-3]) {
        const moved = Float64Array.from(out)
        moved[from]! -= d * total
        moved[to]! += d * total
        if (moved[from]! >= 0 && moved[to]! >= 0) expect(best).toBeGreaterThanOrEqual(value(moved))
      }
    }
  })

  test("paths that cannot absorb the input together: -1", () => {
    const c = buildCurve(v3Pool, 0, 1)!
    const out = new Float64Array(1)
    expect(waterFill([[c]], c.cap * 1.1, out)).toBe(-1)
    expect(waterFill([[c]], c.cap * 0.5, out)).toBeGreaterThan(0)
  })
})

describe("inverse models (exact output)", () => {
  const stablePool = stable([A, B, token(3)], [3_000_000n * 10n ** 6n, 2_500_000n * E18, 4_000_000n * 10n ** 6n], [6, 18, 6], 200n, 4_000_000n)
  const curves = [
    ["V2", buildCurve(v2(A, B, 5n * 10n ** 24n, 9n * 10n ** 24n), 0, 1)!],
    ["V3 price down, across ticks", buildCurve(v3Pool, 0, 1)!],
    ["V3 price up, across ticks", buildCurve(v3Pool, 1, 0)!],
    ["stable, 6 to 18 decimals", buildCurve(stablePool, 0, 1)!],
    ["stable, 18 to 6 decimals", buildCurve(stablePool, 1, 2)!],
  ] as const

  for (const [name, c] of curves) {
    test(`${name}: inv is the inverse of out below maxOut, Infinity at and beyond it`, () => {
      fc.assert(
        // from a millionth of what the pool holds (below that the stable model's float cancellation shows)
        fc.property(fc.double({ min: 1e-6, max: 1 - 1e-7, noNaN: true }), (f) => {
          const y = f * c.maxOut
          const x = c.inv(y)
          expect(Number.isFinite(x)).toBe(true)
          expect(rel(c.out(x), y)).toBeLessThan(1e-8)
        }),
        { numRuns: 300 },
      )
      expect(c.inv(c.maxOut)).toBe(Number.POSITIVE_INFINITY)
      expect(c.inv(c.maxOut * 2)).toBe(Number.POSITIVE_INFINITY)
      expect(c.inv(0)).toBe(0)
    })
  }

  test("pathIn inverts a multi-hop path; pathMaxOut bounds what it can deliver", () => {
    const path = [buildCurve(v3Pool, 0, 1)!, new V2Curve(1e22, 3e22)]
    for (const x of [1e15, 1e18, 2e18]) expect(rel(pathIn(path, pathOut(path, x)), x)).toBeLessThan(1e-7)
    const top = pathMaxOut(path)
    expect(top).toBeLessThan(path[1]!.maxOut)
    expect(pathIn(path, top * 1.01)).toBe(Number.POSITIVE_INFINITY)
    expect(Number.isFinite(pathIn(path, top * 0.99))).toBe(true)
  })

  test("waterFillOutput is waterFill seen from the output: the least input for an output is the input whose best output it is", () => {
    const paths = [
      [new V2Curve(1e24, 1e24), new V2Curve(2e24, 2e24)],
      [buildCurve(v3Pool, 0, 1)!],
      [new V2Curve(3e23, 3.05e23)],
    ]
    const total = 8e20
    const xs = new Float64Array(3)
    waterFill(paths, total, xs)
    const ys = paths.map((p, i) => pathOut(p, xs[i]!))
    const target = ys.reduce((a, b) => a + b, 0)
    const outs = new Float64Array(3)
    expect(waterFillOutput(paths, target, outs)).toBeGreaterThan(0)
    expect(rel(outs[0]! + outs[1]! + outs[2]!, target)).toBeLessThan(1e-12)
    const input = paths.reduce((a, p, i) => a + pathIn(p, outs[i]!), 0)
    expect(rel(input, total)).toBeLessThan(1e-6)
    // no nearby allocation of the same output needs less input
    const cost = (d: number) => pathIn(paths[0]!, outs[0]! + d) + pathIn(paths[1]!, outs[1]! - d) + pathIn(paths[2]!, outs[2]!)
    for (const d of [-1e-3, -1e-5, 1e-5, 1e-3]) expect(cost(0)).toBeLessThanOrEqual(cost(d * target) * (1 + 1e-12))
  })

  test("an output the paths cannot deliver together: -1; one they can only together: split", () => {
    const c = buildCurve(v3Pool, 0, 1)!
    const d = new V2Curve(1e20, 1e20)
    const out = new Float64Array(2)
    expect(waterFillOutput([[c]], c.maxOut * 1.01, out)).toBe(-1)
    expect(waterFillOutput([[c], [d]], (c.maxOut + 1e20) * 1.01, out)).toBe(-1)
    // more than the pool alone can deliver, less than both
    const target = c.maxOut + 0.5e20
    expect(waterFillOutput([[c], [d]], target, out)).toBeGreaterThan(0)
    expect(out[0]!).toBeLessThan(c.maxOut)
    expect(out[1]!).toBeLessThan(1e20)
    expect(rel(out[0]! + out[1]!, target)).toBeLessThan(1e-12)
  })
})
