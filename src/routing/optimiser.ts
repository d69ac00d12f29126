// Split optimiser: water-filling on marginal rates over pool-disjoint paths.
//
// Each path's output f_i is concave in its input (a composition of concave,
// increasing pool curves), and the paths share no pool, so the total output
// sum f_i(x_i) under sum x_i = T is a separable concave problem: at the
// optimum every path that carries input has the same marginal rate
// f_i'(x_i) = λ and every idle path has f_i'(0) <= λ. The level λ is the root
// of the decreasing sum_i x_i(λ) - T (searched in log λ: rates span orders of
// magnitude), and each x_i(λ) the root of the path's decreasing marginal rate
// minus λ. Both roots are bracketed and found by regula falsi with the
// Illinois correction, falling back to bisection when a bracket stops
// shrinking (tick crossings make rates only piecewise smooth). Brackets only
// shrink, so later iterations are cheap. Floats only: the caller quantises the
// proportions and recomputes every amount exactly.
//
// The least input for a fixed total output is the same problem seen from the
// other side (minimise sum x_i under sum f_i(x_i) = Y): at the optimum the
// used paths again share one marginal rate λ, so waterFillOutput searches the
// same level, by the summed outputs instead of the summed inputs.
import { type Curve, pathIn, pathMarginal, pathMaxOut, pathOut } from "./curve.ts"

const OUTER_TOL = 1e-7
const INNER_TOL = 1e-9
const MAX_OUTER = 100
const MAX_INNER = 100

/**
 * Root of a decreasing function f on [lo, hi] with f(lo) = flo > 0 > f(hi) = fhi:
 * Illinois regula falsi, a bisection step whenever the bracket has not halved
 * in two steps; stops when the bracket is narrower than tol.
 */
const solveDecreasing = (
  f: (x: number) => number,
  lo: number,
  hi: number,
  flo: number,
  fhi: number,
  tol: number,
  maxIter: number,
): number => {
  let side = 0
  let width = hi - lo
  for (let i = 0; i < maxIter && hi - lo > tol; i++) {
    let x: number
    if (i % 2 === 1 && hi - lo > 0.5 * width) {
      x = 0.5 * (lo + hi)
    } else {
      if (i % 2 === 1) width = hi - lo
      x = (lo * fhi - hi * flo) / (fhi - flo)
      if (!(x > lo && x < hi)) x = 0.5 * (lo + hi)
    }
    const fx = f(x)
    if (fx > 0) {
      lo = x
      flo = fx
      if (side === 1) fhi *= 0.5
      side = 1
    } else if (fx < 0) {
      hi = x
      fhi = fx
      if (side === -1) flo *= 0.5
      side = -1
    } else {
      return x
    }
  }
  return 0.5 * (lo + hi)
}

/** x in [lo, hi] where the path's marginal rate falls to lam (lo or hi when it never crosses lam there). */
const inverseMarginal = (curves: readonly Curve[], lam: number, lo: number, hi: number, tol: number): number => {
  // one pool whose rate has a closed-form inverse: no search
  if (curves.length === 1) {
    const x = curves[0]!.inverseMarginal?.(lam)
    if (x !== undefined) return x < lo ? lo : x > hi ? hi : x
  }
  const fhi = pathMarginal(curves, hi) - lam
  if (fhi >= 0) return hi
  const flo = pathMarginal(curves, lo) - lam
  if (flo <= 0) return lo
  return solveDecreasing((x) => pathMarginal(curves, x) - lam, lo, hi, flo, fhi, tol, MAX_INNER)
}

/**
 * Per-path scratch rows reused across calls (the search runs on one thread): separate
 * arrays of one length, not views of one buffer (a view is an allocation on every call).
 */
const scratchRows = (rows: Float64Array[], n: number): Float64Array[] => {
  if (rows[0]!.length < n) for (let r = 0; r < rows.length; r++) rows[r] = new Float64Array(n)
  return rows
}
const fillRows = [new Float64Array(0), new Float64Array(0), new Float64Array(0)]

/**
 * Allocates `total` across `paths` (pool-disjoint) to maximise the summed
 * float output. Writes the allocation into `out` (summing to total) and
 * returns the water level λ (the common marginal rate), or -1 when the paths
 * together cannot absorb `total` within their known liquidity.
 */
export const waterFill = (paths: readonly (readonly Curve[])[], total: number, out: Float64Array): number => {
  const n = paths.length
  if (n === 0 || !(total > 0)) return -1
  const rows = scratchRows(fillRows, n)
  const xlo = rows[0]!
  const xhi = rows[1]!
  const xs = rows[2]!

  // λ* lies in [max_i f_i'(T), max_i f_i'(0)]: no path takes more than T, and
  // an idle path's spot rate is at most λ*
  let lamHi = 0
  let lamLo = 0
  for (let i = 0; i < n; i++) {
    const curves = paths[i]!
    const spot = pathMarginal(curves, 0)
    if (spot > lamHi) lamHi = spot
    const cap = Math.min(total, curves[0]!.cap)
    const atCap = cap > 0 ? pathMarginal(curves, cap) : 0
    if (cap >= total && atCap > lamLo) lamLo = atCap
    xlo[i] = 0
    xhi[i] = cap
  }
  if (!(lamHi > 0)) return -1
  // every path saturates before T: look for the level just above 0 and check that together they absorb T
  const saturated = !(lamLo > 0)
  if (saturated) lamLo = lamHi * 1e-30
  const tolX = total * INNER_TOL
  let sumLo = 0
  let sumHi = 0
  for (let i = 0; i < n; i++) {
    const x = inverseMarginal(paths[i]!, lamLo, 0, xhi[i]!, tolX)
    xhi[i] = x
    sumHi += x
  }
  if (saturated && sumHi < total * (1 - 1e-12)) return -1
  if (n === 1) {
    out[0] = total
    return pathMarginal(paths[0]!, total)
  }

  const tolSum = total * OUTER_TOL
  // g(u) = sum_i x_i(e^u) - T, decreasing in u = ln λ; every evaluation narrows the per-path brackets
  const g = (u: number): number => {
    const lam = Math.exp(u)
    let sum = 0
    for (let i = 0; i < n; i++) {
      const x = inverseMarginal(paths[i]!, lam, xlo[i]!, xhi[i]!, tolX)
      xs[i] = x
      sum += x
    }
    if (sum >= total) {
      lamLo = lam
      sumHi = sum
      xhi.set(xs)
    } else {
      lamHi = lam
      sumLo = sum
      xlo.set(xs)
    }
    // report 0 (done) once the brackets pin the total
    return sumHi - sumLo <= tolSum ? 0 : sum - total
  }
  if (sumHi - sumLo > tolSum) {
    solveDecreasing(g, Math.log(lamLo), Math.log(lamHi), sumHi - total, sumLo - total, 1e-15, MAX_OUTER)
  }
  // interpolate between the two brackets to hit the total exactly
  const span = sumHi - sumLo
  const a = span > 0 ? (total - sumLo) / span : 1
  let sum = 0
  for (let i = 0; i < n; i++) {
    const x = xlo[i]! + a * (xhi[i]! - xlo[i]!)
    out[i] = x
    sum += x
  }
  // absorb float dust into the largest share
  let big = 0
  for (let i = 1; i < n; i++) if (out[i]! > out[big]!) big = i
  out[big] = out[big]! + (total - sum)
  return Math.sqrt(lamLo * lamHi)
}

const fillOutputRows = Array.from({ length: 7 }, () => new Float64Array(0))

/**
 * Allocates the output `target` across `paths` (pool-disjoint) so that the
 * summed float input is least. Writes each path's output into `out` (summing
 * to target) and returns the water level λ, or -1 when the paths together
 * cannot deliver `target` within their known liquidity.
 */
export const waterFillOutput = (paths: readonly (readonly Curve[])[], target: number, out: Float64Array): number => {
  const n = paths.length
  if (n === 0 || !(target > 0)) return -1
  // tolX: per path, the input step that moves its output by at most target x INNER_TOL (out(x) <= spot x):
  // one path's input for the whole output may dwarf what another takes
  const rows = scratchRows(fillOutputRows, n)
  const xlo = rows[0]!
  const xhi = rows[1]!
  const xs = rows[2]!
  const ylo = rows[3]!
  const yhi = rows[4]!
  const ys = rows[5]!
  const tolX = rows[6]!

  // each path alone: the input for the whole target, or for a hair below all it can deliver;
  // at the least of the marginal rates there every path sits at that input
  let lamHi = 0
  let lamLo = Number.POSITIVE_INFINITY
  let maxX = 0
  for (let i = 0; i < n; i++) {
    const curves = paths[i]!
    const spot = pathMarginal(curves, 0)
    if (spot > lamHi) lamHi = spot
    const reach = Math.min(target, pathMaxOut(curves) * (1 - 1e-9))
    let x = reach > 0 ? pathIn(curves, reach) : 0
    if (!Number.isFinite(x)) x = 0
    xlo[i] = 0
    xhi[i] = x
    ylo[i] = 0
    tolX[i] = spot > 0 ? (target * INNER_TOL) / spot : x
    if (x > maxX) maxX = x
    const m = pathMarginal(curves, x)
    if (m < lamLo) lamLo = m
  }
  if (!(lamHi > 0) || !(maxX > 0)) return -1
  if (!(lamLo > 0)) lamLo = lamHi * 1e-30
  let sumLo = 0
  let sumHi = 0
  for (let i = 0; i < n; i++) {
    const x = inverseMarginal(paths[i]!, lamLo, 0, xhi[i]!, tolX[i]!)
    xhi[i] = x
    const y = pathOut(paths[i]!, x)
    yhi[i] = y
    sumHi += y
  }
  if (sumHi < target * (1 - 1e-12)) return -1
  if (n === 1) {
    out[0] = target
    return pathMarginal(paths[0]!, pathIn(paths[0]!, target))
  }

  const tolSum = target * OUTER_TOL
  // g(u) = sum_i f_i(x_i(e^u)) - Y, decreasing in u = ln λ; every evaluation narrows the per-path brackets
  const g = (u: number): number => {
    const lam = Math.exp(u)
    let sum = 0
    for (let i = 0; i < n; i++) {
      const x = inverseMarginal(paths[i]!, lam, xlo[i]!, xhi[i]!, tolX[i]!)
      xs[i] = x
      const y = pathOut(paths[i]!, x)
      ys[i] = y
      sum += y
    }
    if (sum >= target) {
      lamLo = lam
      sumHi = sum
      xhi.set(xs)
      yhi.set(ys)
    } else {
      lamHi = lam
      sumLo = sum
      xlo.set(xs)
      ylo.set(ys)
    }
    return sumHi - sumLo <= tolSum ? 0 : sum - target
  }
  if (sumHi - sumLo > tolSum) {
    solveDecreasing(g, Math.log(lamLo), Math.log(lamHi), sumHi - target, sumLo - target, 1e-15, MAX_OUTER)
  }
  // interpolate the outputs between the two brackets to hit the target exactly
  const span = sumHi - sumLo
  const a = span > 0 ? (target - sumLo) / span : 1
  let sum = 0
  for (let i = 0; i < n; i++) {
    const y = ylo[i]! + a * (yhi[i]! - ylo[i]!)
    out[i] = y
    sum += y
  }
  let big = 0
  for (let i = 1; i < n; i++) if (out[i]! > out[big]!) big = i
  out[big] = out[big]! + (target - sum)
  return Math.sqrt(lamLo * lamHi)
}
