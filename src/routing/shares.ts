// Basis-point shares as the route executor applies them, shared by both trade
// directions: split i of n gets floor(amount * bps_i / 10000), the last split
// the remainder (of the input for exact input, of the output for exact output).

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

export const clampInt = (v: number | undefined, def: number, lo: number, hi: number): number =>
  v === undefined || !Number.isFinite(v) ? def : Math.min(hi, Math.max(lo, Math.floor(v)))
