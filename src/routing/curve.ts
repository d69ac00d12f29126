// Float models of the pools, used only by the search: ranking candidate paths
// and finding split proportions. Nothing the router reports comes from here;
// every reported amount is recomputed with the exact integer math (pool-quote.ts).
//
// A curve maps a gross input amount x (tokenIn units, as a float) to the output,
// its derivative (the marginal rate), and knows its capacity: the largest input
// the known liquidity can absorb (V3/V4 pools are only known within
// [tickLower, tickUpper]; beyond the capacity the output stays flat and the
// marginal rate is 0, so the optimiser never allocates past it).
import type { ConcentratedPoolState, PoolState, StablePoolState, V2PoolState } from "../amm/index.ts"

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
  /** supremum of the output: what no input can reach (the output reserve, or the known range's end) */
  readonly maxOut: number
  /** the gross input whose output is y (the inverse of out), Infinity when y >= maxOut */
  inv(y: number): number
  /**
   * the gross input at which the marginal rate falls to lam (the inverse of marginal): 0 when the
   * spot rate is at most lam, the capacity when the rate stays above lam up to it; absent where it
   * has no closed form (the optimiser then searches for it)
   */
  inverseMarginal?(lam: number): number
}

const Q96F = 2 ** 96

/** Uniswap V2 and its forks, fee f: out = g x R_out / (R_in + g x), g = 1 - f. */
export class V2Curve implements Curve {
  readonly spot: number
  constructor(
    private readonly reserveIn: number,
    private readonly reserveOut: number,
    private readonly gamma = 0.997,
  ) {
    this.spot = this.marginal(0)
  }
  get cap(): number {
    return Number.POSITIVE_INFINITY
  }
  get maxOut(): number {
    return this.reserveOut
  }
  out(x: number): number {
    const w = this.gamma * x
    return (w * this.reserveOut) / (this.reserveIn + w)
  }
  marginal(x: number): number {
    const d = this.reserveIn + this.gamma * x
    // g R_in R_out / d^2
    return (this.gamma * this.reserveIn * this.reserveOut) / (d * d)
  }
  crossings(): number {
    return 0
  }
  inverseMarginal(lam: number): number {
    // g R_in R_out / (R_in + g x)^2 = lam
    const x = (Math.sqrt((this.gamma * this.reserveIn * this.reserveOut) / lam) - this.reserveIn) / this.gamma
    return x > 0 ? x : 0
  }
  inv(y: number): number {
    if (!(y > 0)) return 0
    if (y >= this.reserveOut) return Number.POSITIVE_INFINITY
    return (y * this.reserveIn) / (this.gamma * (this.reserveOut - y))
  }
}

/**
 * Curve's StableSwap invariant for n coins, in the pool's normalised units
 * (balance x rate / 1e18), with Ann = A n:
 *   Ann S + D = Ann D + D^(n+1) / (n^n prod x)
 * Swapping coin i for coin j moves x_i up by the input and x_j down to the y
 * that keeps D; the fee comes off the output. Along the invariant
 * d x_j / d x_i = -(Ann + P / x_i) / (Ann + P / x_j), P = D^(n+1) / (n^n prod x).
 */
export class StableCurve implements Curve {
  readonly spot: number
  readonly maxOut: number
  constructor(
    /** the pool's invariant, shared by the curves of all its coin pairs */
    private readonly pool: StableInvariant,
    private readonly i: number,
    private readonly j: number,
    /** input units to normalised units, normalised units to output units */
    private readonly scaleIn: number,
    private readonly scaleOut: number,
    private readonly gamma: number,
  ) {
    this.spot = this.marginal(0)
    this.maxOut = pool.xp[j]! * gamma * scaleOut
  }
  get cap(): number {
    return Number.POSITIVE_INFINITY
  }

  /** the balance of coin j that keeps D when coin i holds xi (Curve's get_y, in floats) */
  private y(xi: number): number {
    const { i, j } = this
    const { ann, d, xp } = this.pool
    const n = xp.length
    let c = (d * d) / (xi * n)
    let sum = xi
    // the other coins, in pool order
    for (let k = 0; k < n; k++) {
      if (k === i || k === j) continue
      const x = xp[k]!
      c = (c * d) / (x * n)
      sum += x
    }
    c = (c * d) / (ann * n)
    const b = sum + d / ann
    let y = d
    for (let k = 0; k < 64; k++) {
      const next = (y * y + c) / (2 * y + b - d)
      if (Math.abs(next - y) <= y * 1e-15) return next
      y = next
    }
    return y
  }

  out(x: number): number {
    if (!(x > 0)) return 0
    const dy = this.pool.xp[this.j]! - this.y(this.pool.xp[this.i]! + x * this.scaleIn)
    return dy > 0 ? dy * this.gamma * this.scaleOut : 0
  }

  marginal(x: number): number {
    const { xp, d, ann } = this.pool
    const n = xp.length
    const xi = xp[this.i]! + x * this.scaleIn
    const xj = this.y(xi)
    let p = d
    let prod = xi * xj
    for (let k = 0; k < n; k++) if (k !== this.i && k !== this.j) prod *= xp[k]!
    // D^(n+1) / (n^n prod x), as the product of (D / (n x_k)) terms times D
    for (let k = 0; k < n; k++) p /= n
    p = (p * d ** n) / prod
    const rate = (ann + p / xi) / (ann + p / xj)
    return rate * this.gamma * this.scaleIn * this.scaleOut
  }

  crossings(): number {
    return 0
  }

  // get_y is symmetric in the two free coins: the balance of coin i that keeps D
  // when coin j holds xj is the same computation with xj in xi's place
  inv(y: number): number {
    if (!(y > 0)) return 0
    if (y >= this.maxOut) return Number.POSITIVE_INFINITY
    const dy = y / (this.gamma * this.scaleOut)
    // a few millionths of the balance and less: the spot rate (the difference below would cancel to noise)
    if (dy < this.pool.xp[this.j]! * 1e-7) return y / this.spot
    const xj = this.pool.xp[this.j]! - dy
    if (!(xj > 0)) return Number.POSITIVE_INFINITY
    const x = (this.y(xj) - this.pool.xp[this.i]!) / this.scaleIn
    return x > 0 ? x : 0
  }
}

/** A stable pool's balances in normalised units, A n and D: what the curves of all its coin pairs share. */
interface StableInvariant {
  readonly xp: Float64Array
  readonly ann: number
  readonly d: number
}

/** Curve's get_D in floats: Newton's method on the invariant from D = S. */
const stableD = (xp: Float64Array, ann: number): number => {
  const n = xp.length
  let s = 0
  for (const x of xp) s += x
  if (s === 0) return 0
  let d = s
  for (let k = 0; k < 255; k++) {
    let dp = d
    for (const x of xp) dp = (dp * d) / (x * n)
    const prev = d
    d = ((ann * s + dp * n) * d) / ((ann - 1) * d + (n + 1) * dp)
    if (Math.abs(d - prev) <= d * 1e-15) break
  }
  return d
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
  readonly spot: number
  /**
   * per segment k < n, in one array (a market holds tens of thousands of these):
   * e[k] = d[k], the cumulative net input at its start (d[n]: the end of the known range);
   * y[k] = d[n + 1 + k], the cumulative output at its start (d[2n + 1]: at the end);
   * s[k] = d[2n + 2 + k], the sqrt price at its start; l[k] = d[3n + 2 + k], its liquidity
   */
  private readonly d: Float64Array
  private readonly eLim: number
  private readonly yLim: number

  constructor(
    private readonly zeroForOne: boolean,
    private readonly gamma: number, // 1 - fee
    d: Float64Array,
  ) {
    this.d = d
    // a hair below the modelled end of the known range, so that an allocation
    // the optimiser pushes to the capacity still fits the exact swap
    this.eLim = this.n === 0 ? 0 : d[this.n]! * (1 - 1e-9)
    this.yLim = this.n === 0 ? 0 : this.within(this.eLim)
    this.spot = this.marginal(0)
  }
  /** segments */
  private get n(): number {
    return (this.d.length - 2) >> 2
  }
  get cap(): number {
    return this.eLim / this.gamma
  }
  get maxOut(): number {
    return this.yLim
  }

  /** output for net input en < e[n] */
  private within(en: number): number {
    const k = this.segment(en)
    const { d, n } = this
    const r = en - d[k]!
    const s = d[2 * n + 2 + k]!
    const l = d[3 * n + 2 + k]!
    const y = d[n + 1 + k]!
    if (l === 0) return y
    // L (s - s') and L (1/s - 1/s'), rearranged so that small inputs lose no precision
    if (this.zeroForOne) return y + (r * s * s * l) / (l + r * s)
    return y + r / (s * (s + r / l))
  }

  /** index of the segment holding net input en (en < e[n]) */
  private segment(en: number): number {
    const e = this.d
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
    const { d, n } = this
    const r = en - d[k]!
    const s = d[2 * n + 2 + k]!
    const l = d[3 * n + 2 + k]!
    if (l === 0) return 0
    if (this.zeroForOne) {
      const s2 = (s * l) / (l + r * s)
      return this.gamma * s2 * s2
    }
    const s2 = s + r / l
    return this.gamma / (s2 * s2)
  }

  // the rate at sqrt price s is g s^2 (zeroForOne) or g / s^2, falling along the swap, and the price moves
  // continuously within a segment: the segment whose starting price is the last one above the rate's
  // price, then the net input within it (as in marginal: s' = s l / (l + r s), or s' = s + r / l)
  inverseMarginal(lam: number): number {
    const { d, n, gamma, zeroForOne } = this
    if (n === 0) return 0
    const target = zeroForOne ? Math.sqrt(lam / gamma) : Math.sqrt(gamma / lam)
    const S = 2 * n + 2
    const above = (s: number) => (zeroForOne ? s > target : s < target)
    if (!above(d[S]!)) return 0
    let lo = 0
    let hi = n - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (above(d[S + mid]!)) lo = mid
      else hi = mid - 1
    }
    const s = d[S + lo]!
    const l = d[3 * n + 2 + lo]!
    const r = zeroForOne ? l * (1 / target - 1 / s) : l * (target - s)
    // a segment without liquidity has no width: its start is where the rate falls past lam
    const en = d[lo]! + (r > 0 ? Math.min(r, d[lo + 1]! - d[lo]!) : 0)
    return Math.min(en, this.eLim) / gamma
  }

  crossings(x: number): number {
    const en = x * this.gamma
    if (this.n === 0) return 0
    if (en >= this.eLim) return this.n - 1
    return this.segment(en)
  }

  // within a segment: zeroForOne ry = r s^2 l / (l + r s), so r = ry l / (s (s l - ry));
  // oneForZero ry = r / (s (s + r / l)), so r = ry s^2 l / (l - ry s)
  inv(y: number): number {
    if (!(y > 0)) return 0
    if (y >= this.yLim) return Number.POSITIVE_INFINITY
    // the last segment whose start output is <= y (segments without liquidity add no output)
    const { d: D, n } = this
    const Y = n + 1
    let lo = 0
    let hi = n - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (D[Y + mid]! <= y) lo = mid
      else hi = mid - 1
    }
    const ry = y - D[Y + lo]!
    const s = D[2 * n + 2 + lo]!
    const l = D[3 * n + 2 + lo]!
    let r = 0
    if (ry > 0) {
      const d = this.zeroForOne ? s * (s * l - ry) : l - ry * s
      r = d > 0 ? (this.zeroForOne ? (ry * l) / d : (ry * s * s * l) / d) : D[lo + 1]! - D[lo]!
    }
    return Math.min(D[lo]! + r, this.eLim) / this.gamma
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
  // the curve's one array: E, Y (n + 1 each), S, L (n each)
  const data = new Float64Array(4 * n + 2)
  const E = data.subarray(0, n + 1)
  const Y = data.subarray(n + 1, 2 * n + 2)
  const S = data.subarray(2 * n + 2, 3 * n + 2)
  const L = data.subarray(3 * n + 2, 4 * n + 2)
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
  return new ConcentratedCurve(zeroForOne, gamma, data)
}

const buildV2 = (pool: V2PoolState, zeroForOne: boolean): Curve | undefined => {
  const r0 = Number(pool.reserve0)
  const r1 = Number(pool.reserve1)
  if (!(r0 > 0) || !(r1 > 0)) return undefined
  const gamma = 1 - pool.feeBps / 10_000
  return zeroForOne ? new V2Curve(r0, r1, gamma) : new V2Curve(r1, r0, gamma)
}

// the invariant of each stable pool state whose curves were built, shared by them
const invariants = new WeakMap<StablePoolState, StableInvariant>()
const invariantOf = (pool: StablePoolState): StableInvariant => {
  let inv = invariants.get(pool)
  if (inv === undefined) {
    const xp = Float64Array.from(pool.balances, (b, k) => (Number(b) * Number(pool.rates[k]!)) / 1e36)
    const ann = (Number(pool.amp) / 100) * xp.length
    inv = { xp, ann, d: stableD(xp, ann) }
    invariants.set(pool, inv)
  }
  return inv
}

const buildStable = (pool: StablePoolState, i: number, j: number): Curve | undefined => {
  const gamma = 1 - Number(pool.fee) / 1e10
  if (!(gamma > 0) || pool.amp <= 0n) return undefined
  const inv = invariantOf(pool)
  if (!inv.xp.every((x) => x > 0)) return undefined
  // the input to normalised units, normalised units to the output's smallest unit
  return new StableCurve(inv, i, j, Number(pool.rates[i]!) / 1e36, 1e36 / Number(pool.rates[j]!), gamma)
}

/**
 * The float model of swapping the pool's token `coinIn` for its token
 * `coinOut` (indices in the pool's order); undefined when it has no usable liquidity.
 */
export const buildCurve = (pool: PoolState, coinIn: number, coinOut: number): Curve | undefined => {
  switch (pool.kind) {
    case "uniswap-v2":
      return buildV2(pool, coinIn === 0)
    case "curve-stableswap":
      return buildStable(pool, coinIn, coinOut)
    default:
      return buildConcentrated(pool, coinIn === 0)
  }
}

/** Output of a path (curves in order) for input x. */
export const pathOut = (curves: readonly Curve[], x: number): number => {
  for (let i = 0; i < curves.length; i++) x = curves[i]!.out(x)
  return x
}

/** d out / d x of a path at input x (product of the hops' marginal rates at their inputs). */
export const pathMarginal = (curves: readonly Curve[], x: number): number => {
  const last = curves.length - 1
  let m = 1
  // the last hop's output is not needed: the optimiser's inner loops call this for every path
  for (let i = 0; i < last; i++) {
    const c = curves[i]!
    m *= c.marginal(x)
    if (m === 0) return 0
    x = c.out(x)
  }
  return m * curves[last]!.marginal(x)
}

/** Input a path (curves in order) needs for output y: the hops inverted backward; Infinity when out of reach. */
export const pathIn = (curves: readonly Curve[], y: number): number => {
  for (let i = curves.length - 1; i >= 0; i--) {
    y = curves[i]!.inv(y)
    if (y === Number.POSITIVE_INFINITY) return y
  }
  return y
}

/** Supremum of a path's output: the first hop's maxOut carried forward (each hop also caps it). */
export const pathMaxOut = (curves: readonly Curve[]): number => {
  let m = curves[0]!.maxOut
  for (let i = 1; i < curves.length; i++) m = Math.min(curves[i]!.maxOut, curves[i]!.out(m))
  return m
}
