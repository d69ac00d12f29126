// Basis-point shares as the route executor applies them, shared by both trade
// directions: split i of n gets floor(amount * bps_i / 10000), the last split
// the remainder (of the input for exact input, of the output for exact output).

/** the shares of a route with one split (never written to: options share it) */
export const WHOLE: readonly number[] = Object.freeze([10000])

/** exact per-split amounts: floor(amount * bps / 10000), the last takes the remainder */
export const splitAmounts = (amount: bigint, bps: readonly number[]): bigint[] => {
  const out: bigint[] = new Array(bps.length)
  let rest = amount
  for (let i = 0; i < bps.length - 1; i++) {
    const a = (amount * BigInt(bps[i]!)) / 10000n
    out[i] = a
    rest -= a
  }
  out[bps.length - 1] = rest
  return out
}

/**
 * The same per-split amounts as doubles (each what Number() gives for splitAmounts' bigint), into
 * `out`: in float arithmetic, which is exact while amount x 10000 is a safe integer; through the
 * bigints past that.
 */
export const splitAmountsAsNumbers = (amount: bigint, bps: readonly number[], out: number[]): number[] => {
  const whole = Number(amount)
  if (whole * 10000 > Number.MAX_SAFE_INTEGER) {
    const exact = splitAmounts(amount, bps)
    for (let i = 0; i < bps.length; i++) out[i] = Number(exact[i]!)
    return out
  }
  let rest = whole
  for (let i = 0; i < bps.length - 1; i++) {
    const p = whole * bps[i]!
    // p is an exact integer: its remainder too, so the quotient is the floor without rounding
    const a = (p - (p % 10000)) / 10000
    out[i] = a
    rest -= a
  }
  out[bps.length - 1] = rest
  return out
}

/**
 * The nearest split set that may run when split `failing` cannot (the float
 * model puts a pool's capacity a hair above what the exact swap allows): a few
 * basis points of its share, doubling with each `attempt`, go to the largest
 * other split; splits left with nothing are dropped.
 */
export const shiftShare = <P>(
  paths: readonly P[],
  bps: readonly number[],
  failing: number,
  attempt: number,
): { readonly paths: readonly P[]; readonly bps: readonly number[] } => {
  const next = [...bps]
  let largest = failing === 0 ? 1 : 0
  for (let k = 0; k < next.length; k++) if (k !== failing && next[k]! > next[largest]!) largest = k
  const move = Math.min(next[failing]!, Math.max(1, Math.ceil(next[failing]! / 1000)) * 2 ** attempt)
  next[failing]! -= move
  next[largest]! += move
  return { paths: paths.filter((_, k) => next[k]! > 0), bps: next.filter((b) => b > 0) }
}

/**
 * Basis points for a float allocation `alloc` of `total` over `paths` (its first paths.length
 * entries; any past them are not read): largest remainder, the
 * paths ordered by allocation (largest first, so the remainder goes to the smallest), a basis
 * point going to a path in the first round only where `fits` says the path can take that share
 * of `total`; paths left with 0 bp dropped; then 1 bp moves between paths while they lower
 * `cost` of the exact per-split amounts of `amount` (given to it as doubles: the float models
 * read nothing finer, and the moves tried make no bigints). Both trade directions quantise so:
 * exact input shares its input, exact output its output.
 */
export const quantiseShares = <P>(
  paths: readonly P[],
  alloc: Float64Array,
  total: number,
  amount: bigint,
  fits: (path: P, share: number) => boolean,
  cost: (paths: readonly P[], amounts: readonly number[]) => number,
): { readonly paths: readonly P[]; readonly bps: number[]; readonly amounts: bigint[]; readonly cost: number } => {
  const n = paths.length
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => alloc[b]! - alloc[a]!)
  const bps: number[] = new Array(n)
  const frac: number[] = new Array(n)
  let sum = 0
  for (let k = 0; k < n; k++) {
    const w = (Math.max(0, alloc[order[k]!]!) / total) * 10000
    bps[k] = Math.floor(w)
    frac[k] = w - bps[k]!
    sum += bps[k]!
  }
  const byFrac = Array.from({ length: n }, (_, k) => k).sort((a, b) => frac[b]! - frac[a]!)
  for (let r = 0; sum < 10000; r++) {
    const k = byFrac[r % n]!
    if (r >= n || fits(paths[order[k]!]!, (bps[k]! + 1) / 10000)) {
      bps[k]! += 1
      sum++
    }
  }
  let ps = order.map((i) => paths[i]!)
  for (let k = n - 1; k >= 0; k--) {
    if (bps[k] === 0) {
      bps.splice(k, 1)
      ps = ps.filter((_, j) => j !== k)
    }
  }
  const tried: number[] = new Array(ps.length)
  let best = cost(ps, splitAmountsAsNumbers(amount, bps, tried))
  if (ps.length > 1) {
    for (let pass = 0; pass < 4; pass++) {
      let improved = false
      for (let i = 0; i < ps.length; i++) {
        for (let j = 0; j < ps.length; j++) {
          if (i === j || bps[i]! <= 1) continue
          bps[i]! -= 1
          bps[j]! += 1
          const c = cost(ps, splitAmountsAsNumbers(amount, bps, tried))
          if (c < best) {
            best = c
            improved = true
          } else {
            bps[i]! += 1
            bps[j]! -= 1
          }
        }
      }
      if (!improved) break
    }
  }
  return { paths: ps, bps, amounts: splitAmounts(amount, bps), cost: best }
}

export const clampInt = (v: number | undefined, def: number, lo: number, hi: number): number =>
  v === undefined || !Number.isFinite(v) ? def : Math.min(hi, Math.max(lo, Math.floor(v)))
