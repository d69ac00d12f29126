import { describe, expect, test } from "bun:test"
import fc from "fast-check"
import {
  getSqrtRatioAtTick,
  getTickAtSqrtRatio,
  MAX_SQRT_RATIO,
  MAX_TICK,
  MIN_SQRT_RATIO,
  MIN_TICK,
} from "../../src/amm/tick-math.ts"
import { encodePriceSqrt, revertCode } from "./helpers.ts"

// v3-core test/TickMath.spec.ts and its snapshot (test/__snapshots__/TickMath.spec.ts.snap)
const SQRT_AT_TICK: ReadonlyArray<readonly [number, bigint]> = [
  [MIN_TICK, 4295128739n],
  [MIN_TICK + 1, 4295343490n],
  [MAX_TICK - 1, 1461373636630004318706518188784493106690254656249n],
  [MAX_TICK, 1461446703485210103287273052203988822378723970342n],
  [0, 79228162514264337593543950336n],
  [-50, 79030349367926598376800521322n],
  [-100, 78833030112140176575862854579n],
  [-250, 78244023372248365697264290337n],
  [-500, 77272108795590369356373805297n],
  [-1000, 75364347830767020784054125655n],
  [-2500, 69919044979842180277688105136n],
  [-3000, 68192822843687888778582228483n],
  [-4000, 64867181785621769311890333195n],
  [-5000, 61703726247759831737814779831n],
  [-50000, 6504256538020985011912221507n],
  [-150000, 43836292794701720435367485n],
  [-250000, 295440463448801648376846n],
  [-500000, 1101692437043807371n],
  [-738203, 7409801140451n],
  [50, 79426470787362580746886972461n],
  [100, 79625275426524748796330556128n],
  [250, 80224679980005306637834519095n],
  [500, 81233731461783161732293370115n],
  [1000, 83290069058676223003182343270n],
  [2500, 89776708723587163891445672585n],
  [3000, 92049301871182272007977902845n],
  [4000, 96768528593268422080558758223n],
  [5000, 101729702841318637793976746270n],
  [50000, 965075977353221155028623082916n],
  [150000, 143194173941309278083010301478497n],
  [250000, 21246587762933397357449903968194344n],
  [500000, 5697689776495288729098254600827762987878n],
  [738203, 847134979253254120489401328389043031315994541n],
]

const TICK_AT_SQRT: ReadonlyArray<readonly [bigint, number]> = [
  [MIN_SQRT_RATIO, -887272],
  [4295343490n, MIN_TICK + 1],
  [1461373636630004318706518188784493106690254656249n, MAX_TICK - 1],
  [MAX_SQRT_RATIO - 1n, MAX_TICK - 1],
  [79228162514264337593543n, -276325],
  [79228162514264337593543950n, -138163],
  [9903520314283042199192993792n, -41591],
  [28011385487393069959365969113n, -20796],
  [56022770974786139918731938227n, -6932],
  [79228162514264337593543950336n, 0],
  [112045541949572279837463876454n, 6931],
  [224091083899144559674927752909n, 20795],
  [633825300114114700748351602688n, 41590],
  [79228162514264337593543950336000n, 138162],
  [79228162514264337593543950336000000n, 276324],
]

describe("getSqrtRatioAtTick", () => {
  test("constants", () => {
    expect(MIN_TICK).toBe(-887272)
    expect(MAX_TICK).toBe(887272)
    expect(getSqrtRatioAtTick(MIN_TICK)).toBe(MIN_SQRT_RATIO)
    expect(getSqrtRatioAtTick(MAX_TICK)).toBe(MAX_SQRT_RATIO)
  })
  test("Uniswap test vectors", () => {
    for (const [tick, sqrt] of SQRT_AT_TICK) expect([tick, getSqrtRatioAtTick(tick)]).toEqual([tick, sqrt])
  })
  test("throws for |tick| > MAX_TICK and non-integers", () => {
    expect(revertCode(() => getSqrtRatioAtTick(MIN_TICK - 1))).toBe("InvalidTick")
    expect(revertCode(() => getSqrtRatioAtTick(MAX_TICK + 1))).toBe("InvalidTick")
    expect(revertCode(() => getSqrtRatioAtTick(0.5))).toBe("InvalidTick")
  })
  test("min tick ratio < 2^-127 price, max tick ratio > 2^127 price (as in v3-core)", () => {
    expect(getSqrtRatioAtTick(MIN_TICK)).toBeLessThan(encodePriceSqrt(1, 1n << 127n))
    expect(getSqrtRatioAtTick(MAX_TICK)).toBeGreaterThan(encodePriceSqrt(1n << 127n, 1))
  })
  test("strictly increasing over the whole tick range", () => {
    let prev = 0n
    for (let t = MIN_TICK; t <= MAX_TICK; t++) {
      const p = getSqrtRatioAtTick(t)
      if (p <= prev) throw new Error(`not increasing at ${t}`)
      prev = p
    }
  })
  test("1.0001^tick within 1/100 bip of the exact value (squared, in rationals)", () => {
    // compare sqrt^2 / 2^192 against 1.0001^tick for moderate ticks, exactly in bigint rationals
    for (const tick of [1, -1, 7, -7, 50, -50, 1234, -1234, 20000, -20000]) {
      const s = getSqrtRatioAtTick(tick)
      const abs = BigInt(Math.abs(tick))
      const num = tick >= 0 ? 10001n ** abs : 10000n ** abs
      const den = tick >= 0 ? 10000n ** abs : 10001n ** abs
      // |s^2/2^192 - num/den| / (num/den) < 2e-6  (1e-6 on the sqrt)
      const lhs = s * s * den
      const rhs = num << 192n
      const diff = lhs > rhs ? lhs - rhs : rhs - lhs
      expect(diff * 500000n).toBeLessThan(rhs)
    }
  })
})

describe("getTickAtSqrtRatio", () => {
  test("Uniswap test vectors", () => {
    for (const [sqrt, tick] of TICK_AT_SQRT) expect([sqrt, getTickAtSqrtRatio(sqrt)]).toEqual([sqrt, tick])
  })
  test("encodePriceSqrt inputs of the vectors are reproduced bit-exactly", () => {
    expect(encodePriceSqrt(1, 10n ** 12n)).toBe(79228162514264337593543n)
    expect(encodePriceSqrt(1, 2)).toBe(56022770974786139918731938227n)
    expect(encodePriceSqrt(8, 1)).toBe(224091083899144559674927752909n)
  })
  test("throws outside [MIN_SQRT_RATIO, MAX_SQRT_RATIO)", () => {
    expect(revertCode(() => getTickAtSqrtRatio(MIN_SQRT_RATIO - 1n))).toBe("InvalidSqrtPrice")
    expect(revertCode(() => getTickAtSqrtRatio(MAX_SQRT_RATIO))).toBe("InvalidSqrtPrice")
    expect(revertCode(() => getTickAtSqrtRatio(0n))).toBe("InvalidSqrtPrice")
  })

  // Definition: the greatest tick with getSqrtRatioAtTick(tick) <= price, found by bisection
  const referenceTick = (price: bigint): number => {
    let lo = MIN_TICK
    let hi = MAX_TICK
    while (lo < hi) {
      const mid = Math.floor((lo + hi + 1) / 2)
      if (getSqrtRatioAtTick(mid) <= price) lo = mid
      else hi = mid - 1
    }
    return lo
  }

  test("equals the bisection definition for random prices over the whole range", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: MIN_SQRT_RATIO, max: MAX_SQRT_RATIO - 1n }), (p) => getTickAtSqrtRatio(p) === referenceTick(p)),
      { numRuns: 3000 },
    )
    // and for prices drawn near tick boundaries, in every magnitude
    fc.assert(
      fc.property(fc.integer({ min: MIN_TICK + 1, max: MAX_TICK - 1 }), fc.bigInt({ min: -3n, max: 3n }), (t, d) => {
        const p = getSqrtRatioAtTick(t) + d
        return getTickAtSqrtRatio(p) === referenceTick(p)
      }),
      { numRuns: 3000 },
    )
  })

  // every tick when AMM_EXHAUSTIVE=1 (about 20 s), else every 13th tick
  const stride = process.env.AMM_EXHAUSTIVE === "1" ? 1 : 13
  test(`round trip at every ${stride === 1 ? "" : `${stride}th `}tick: tick(sqrt(t)) = t and tick(sqrt(t) - 1) = t - 1`, () => {
    for (let t = MIN_TICK; t < MAX_TICK; t += stride) {
      const p = getSqrtRatioAtTick(t)
      if (getTickAtSqrtRatio(p) !== t) throw new Error(`tick(sqrt(${t})) != ${t}`)
      if (t > MIN_TICK && getTickAtSqrtRatio(p - 1n) !== t - 1) throw new Error(`tick(sqrt(${t}) - 1) != ${t - 1}`)
    }
    expect(getTickAtSqrtRatio(MAX_SQRT_RATIO - 1n)).toBe(MAX_TICK - 1)
  }, 120_000)

  test("monotone non-decreasing in the price", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: MIN_SQRT_RATIO, max: MAX_SQRT_RATIO - 1n }),
        fc.bigInt({ min: MIN_SQRT_RATIO, max: MAX_SQRT_RATIO - 1n }),
        (a, b) => (a <= b ? getTickAtSqrtRatio(a) <= getTickAtSqrtRatio(b) : getTickAtSqrtRatio(a) >= getTickAtSqrtRatio(b)),
      ),
      { numRuns: 2000 },
    )
  })
})
