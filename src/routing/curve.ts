// Float models of the pools, used only by the search: ranking candidate paths
// and finding split proportions. Nothing the router reports comes from here;
// every reported amount is recomputed with the exact integer math (pool-quote.ts).
//
// A curve maps a gross input amount x (tokenIn units, as a float) to the output,
// its derivative (the marginal rate), and knows its capacity: the largest input
// the known liquidity can absorb (V3/V4 pools are only known within
// [tickLower, tickUpper]; beyond the capacity the output stays flat and the
// marginal rate is 0, so the optimiser never allocates past it).
import type { ConcentratedPoolState, PoolState, V2PoolState } from "../amm/index.ts"

export interface Curve {
  /** largest gross input the curve is known for (Infinity for V2) */
  readonly cap: number
  /** marginal rate at zero input; out(x) <= spot * x for every x (the curves are concave) */
  readonly spot: number
  /** output for gross input x >= 0 */
  out(x: number): number
  /** d out / d x at gross input x (0 at or beyond the capacity) */
  marginal(x: number): number
  /** initialized ticks crossed by a swap of gross input x (0 for V2) */
  crossings(x: number): number
}

const Q96F = 2 ** 96

/** Uniswap V2: out = 997 x R_out / (1000 R_in + 997 x). */
export class V2Curve implements Curve {
  readonly cap = Number.POSITIVE_INFINITY
  readonly spot: number
  private readonly a: number // 1000 * R_in
  private readonly k: number // 997 * 1000 * R_in * R_out
  constructor(
    reserveIn: number,
    private readonly reserveOut: number,
  ) {
    this.a = 1000 * reserveIn
    this.k = 997_000 * reserveIn * reserveOut
    this.spot = this.marginal(0)
  }
  out(x: number): number {
    const w = 997 * x
    return (w * this.reserveOut) / (this.a + w)
  }
  marginal(x: number): number {
    const d = this.a + 997 * x
    return this.k / (d * d)
  }
  crossings(): number {
    return 0
  }
}

/**
 * V3/V4 concentrated liquidity. Segments between the initialized ticks in the
 * swap direction, each with constant liquidity; within a segment the price
 * moves along x*y = L^2. The fee is taken off the input first (the pool takes
 * it per step, which only differs from this by rounding).
 *   zeroForOne (price down): 1/s' = 1/s + e/L, out = L (s - s'), d out/d e = s'^2
 *   oneForZero (price up):   s' = s + e/L,     out = L (1/s - 1/s'), d out/d e = 1/s'^2
 */
export class ConcentratedCurve implements Curve {
  readonly cap: number
  readonly spot: number
  /** cumulative net input at each segment start (length n + 1; last = end of the known range) */
  private readonly e: Float64Array
  /** cumulative output at each segment start (length n + 1) */
  private readonly y: Float64Array
  /** sqrt price at each segment start (length n) */
  private readonly s: Float64Array
  /** liquidity within each segment (length n) */
  private readonly l: Float64Array
  private readonly n: number

  constructor(
    private readonly zeroForOne: boolean,
    private readonly gamma: number, // 1 - fee
    e: Float64Array,
    y: Float64Array,
    s: Float64Array,
    l: Float64Array,
  ) {
    this.e = e
    this.y = y
    this.s = s
    this.l = l
    this.n = s.length
    // a hair below the modelled end of the known range, so that an allocation
    // the optimiser pushes to the capacity still fits the exact swap
    this.eLim = this.n === 0 ? 0 : e[this.n]! * (1 - 1e-9)
    this.yLim = this.n === 0 ? 0 : this.within(this.eLim)
    this.cap = this.eLim / gamma
    this.spot = this.marginal(0)
  }

  private readonly eLim: number
  private readonly yLim: number

  /** output for net input en < e[n] */
  private within(en: number): number {
    const k = this.segment(en)
    const r = en - this.e[k]!
    const s = this.s[k]!
    const l = this.l[k]!
    if (l === 0) return this.y[k]!
    // L (s - s') and L (1/s - 1/s'), rearranged so that small inputs lose no precision
    if (this.zeroForOne) return this.y[k]! + (r * s * s * l) / (l + r * s)
    return this.y[k]! + r / (s * (s + r / l))
  }

  /** index of the segment holding net input en (en < e[n]) */
  private segment(en: number): number {
    const e = this.e
    let lo = 0
    let hi = this.n - 1
    if (hi < 8) {
      while (lo < hi && e[lo + 1]! <= en) lo++
      return lo
    }
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (e[mid]! <= en) lo = mid
      else hi = mid - 1
    }
    return lo
  }

  out(x: number): number {
    const en = x * this.gamma
    return en >= this.eLim ? this.yLim : this.within(en)
  }

  marginal(x: number): number {
    const en = x * this.gamma
    if (en >= this.eLim) return 0
    const k = this.segment(en)
    const r = en - this.e[k]!
    const s = this.s[k]!
    const l = this.l[k]!
    if (l === 0) return 0
    if (this.zeroForOne) {
      const s2 = (s * l) / (l + r * s)
      return this.gamma * s2 * s2
    }
    const s2 = s + r / l
    return this.gamma / (s2 * s2)
  }

  crossings(x: number): number {
    const en = x * this.gamma
    if (this.n === 0) return 0
    if (en >= this.eLim) return this.n - 1
    return this.segment(en)
  }
}

const HALF_LN_1_0001 = Math.log(1.0001) / 2
const sqrtAtTick = (tick: number): number => Math.exp(tick * HALF_LN_1_0001)

const buildConcentrated = (pool: ConcentratedPoolState, zeroForOne: boolean): Curve | undefined => {
  const gamma = 1 - pool.fee / 1e6
  if (!(gamma > 0)) return undefined
  let s = Number(pool.sqrtPriceX96) / Q96F
  let l = Number(pool.liquidity)
  const ticks = pool.ticks
  // boundaries in swap order: the initialized ticks that can be crossed, then the end of the known range
  const crossable: number[] = []
  if (zeroForOne) {
    for (let i = ticks.length - 1; i >= 0; i--) {
      const t = ticks[i]!
      if (t.tick <= pool.tick && t.tick > pool.tickLower) crossable.push(i)
    }
  } else {
    for (let i = 0; i < ticks.length; i++) {
      const t = ticks[i]!
      if (t.tick > pool.tick && t.tick < pool.tickUpper) crossable.push(i)
    }
  }
  const end = sqrtAtTick(zeroForOne ? pool.tickLower : pool.tickUpper)
  if (zeroForOne ? end >= s : end <= s) return undefined
  const n = crossable.length + 1
  const E = new Float64Array(n + 1)
  const Y = new Float64Array(n + 1)
  const S = new Float64Array(n)
  const L = new Float64Array(n)
  let e = 0
  let y = 0
  for (let k = 0; k < n; k++) {
    const idx = k < crossable.length ? crossable[k]! : -1
    let b = idx >= 0 ? sqrtAtTick(ticks[idx]!.tick) : end
    // the float price of a tick can land a hair on the wrong side of the current price
    if (zeroForOne ? b > s : b < s) b = s
    S[k] = s
    L[k] = l
    E[k] = e
    Y[k] = y
    if (zeroForOne) {
      e += l * (1 / b - 1 / s)
      y += l * (s - b)
    } else {
      e += l * (b - s)
      y += l * (1 / s - 1 / b)
    }
    s = b
    if (idx >= 0) {
      const net = Number(ticks[idx]!.liquidityNet)
      l = zeroForOne ? l - net : l + net
      if (l < 0) l = 0
    }
  }
  E[n] = e
  Y[n] = y
  if (!(e > 0) || !(y > 0)) return undefined
  return new ConcentratedCurve(zeroForOne, gamma, E, Y, S, L)
}

const buildV2 = (pool: V2PoolState, zeroForOne: boolean): Curve | undefined => {
  const r0 = Number(pool.reserve0)
  const r1 = Number(pool.reserve1)
  if (!(r0 > 0) || !(r1 > 0)) return undefined
  return zeroForOne ? new V2Curve(r0, r1) : new V2Curve(r1, r0)
}

/** The float model of swapping through `pool` in one direction; undefined when it has no usable liquidity. */
export const buildCurve = (pool: PoolState, zeroForOne: boolean): Curve | undefined =>
  pool.dex === "uniswap-v2" ? buildV2(pool, zeroForOne) : buildConcentrated(pool, zeroForOne)

// Pool states are immutable: a curve built once serves every snapshot that
// still holds the same state object.
const cache = new WeakMap<PoolState, [Curve | null | undefined, Curve | null | undefined]>()

/** buildCurve, memoised per pool state object and direction. */
export const curveOf = (pool: PoolState, zeroForOne: boolean): Curve | undefined => {
  let entry = cache.get(pool)
  if (entry === undefined) {
    entry = [undefined, undefined]
    cache.set(pool, entry)
  }
  const i = zeroForOne ? 0 : 1
  let c = entry[i]
  if (c === undefined) {
    c = buildCurve(pool, zeroForOne) ?? null
    entry[i] = c
  }
  return c ?? undefined
}

/** Output of a path (curves in order) for input x. */
export const pathOut = (curves: readonly Curve[], x: number): number => {
  for (let i = 0; i < curves.length; i++) x = curves[i]!.out(x)
  return x
}

/** d out / d x of a path at input x (product of the hops' marginal rates at their inputs). */
export const pathMarginal = (curves: readonly Curve[], x: number): number => {
  let m = 1
  for (let i = 0; i < curves.length; i++) {
    const c = curves[i]!
    m *= c.marginal(x)
    if (m === 0) return 0
    x = c.out(x)
  }
  return m
}
