// findBestRoute: candidate paths (paths.ts), split proportions (optimiser.ts)
// on the float models, then every option worth it recomputed exactly with the
// integer pool math (pool-quote.ts) and the best one by output minus gas cost
// returned.
//
// Rounding: shares are basis points of amountIn. Split i (in the order
// returned) gets floor(amountIn * shareBps_i / 10000), the last split the
// remainder: the executor's rule. The float proportions are quantised to
// basis points by largest remainder, then improved by 1 bp moves between
// splits on the float model of those exact quantised amounts; when the float
// models are off the chosen split's exact output by more than 0.05 bps, its
// shares are refined on the exact math (refineExact); every reported amount is
// the exact simulation of those integer inputs.
//
// Shared pools: the splits of a route never share a pool. The executor runs
// the splits one after another, so a pool used by two splits would quote the
// second on a moved price; keeping splits pool-disjoint keeps each split's
// exact output independent of the others and makes the optimiser's problem
// separable (water-filling is then exact). The cost: behind a pool that every
// good path crosses (a token with one pool) the route cannot split; that pool
// is then usually the bottleneck anyway.
import { type Curve, pathMarginal, pathOut } from "./curve.ts"
import { hopGas, routeGas } from "./gas.ts"
import { graphOf, tokenKey } from "./graph.ts"
import { waterFill } from "./optimiser.ts"
import { type Candidate, findCandidates, likeliest } from "./paths.ts"
import { quoteHop } from "./pool-quote.ts"
import { hopOf } from "./route-hop.ts"
import { clampInt, quantiseShares, shiftShare, splitAmounts, WHOLE } from "./shares.ts"
import type { FindRouteParams, Route, RouteSplit, RoutingMarket } from "./types.ts"

const DEFAULT_MAX_HOPS = 3
const DEFAULT_MAX_SPLITS = 4
const MAX_SPLITS = 8
/** split candidates tried when adding one more split */
const TRY_PER_SPLIT = 3
/** options recomputed exactly at most */
const MAX_EXACT = 6
/** gas units of the probe used to turn gas into a float tokenOut rate */
const GAS_PROBE = 1_000_000n

interface Option {
  readonly paths: readonly Candidate[]
  /** basis points per path, same order, summing to 10000 */
  readonly bps: readonly number[]
  /** float gross output of the quantised amounts */
  readonly gross: number
  /** estimated gas units */
  readonly gas: number
  /** gross minus gas cost (float estimate) */
  readonly net: number
}

interface Exact {
  readonly option: Option
  readonly amountsIn: bigint[]
  readonly amountsOut: bigint[]
  readonly amountOut: bigint
  readonly gas: bigint
  readonly gasCost: bigint | undefined
  readonly net: bigint
}

const floatGross = (paths: readonly Candidate[], amounts: readonly number[]): number => {
  let g = 0
  for (let i = 0; i < paths.length; i++) g += pathOut(paths[i]!.curves, amounts[i]!)
  return g
}

const optionGas = (paths: readonly Candidate[], amounts: readonly bigint[]): number => {
  let hops = 0
  let v4 = false
  for (let i = 0; i < paths.length; i++) {
    hops += paths[i]!.hopsGas(Number(amounts[i]!))
    v4 ||= paths[i]!.usesV4
  }
  return routeGas(paths.length, hops, v4)
}

/**
 * Basis points for a float allocation: largest remainder, splits ordered by
 * share (largest first, so the remainder goes to the smallest), then 1 bp
 * moves between splits while they raise the float output of the exact
 * quantised amounts. Paths that end with 0 bp are dropped. Undefined when a
 * split would get no input.
 */
const quantise = (
  paths: readonly Candidate[],
  alloc: Float64Array,
  total: number,
  amountIn: bigint,
  gasRate: number,
): Option | undefined => {
  // the remainder never goes past a path's capacity (a pool whose known liquidity the allocation
  // already fills could not take the whole input: the exact swap fails)
  const q = quantiseShares(
    paths,
    alloc,
    total,
    amountIn,
    (path, share) => pathMarginal(path.curves, share * total) > 0,
    (ps, amounts) => -floatGross(ps, amounts),
  )
  for (const a of q.amounts) if (a <= 0n) return undefined
  const gas = optionGas(q.paths, q.amounts)
  const gross = -q.cost
  return { paths: q.paths, bps: q.bps, gross, gas, net: gross - gasRate * gas }
}

/** Split options with 2..maxSplits pool-disjoint paths, grown greedily from the best single path. */
const splitOptions = (
  cands: readonly Candidate[],
  total: number,
  amountIn: bigint,
  maxSplits: number,
  gasRate: number,
  options: Option[],
): void => {
  const first = cands[0]!
  const chosen: Candidate[] = [first]
  const used = new Set<number>()
  for (const e of first.edges) used.add(e.poolIndex)
  let level = first.saturated ? 0 : pathMarginal(first.curves, total)
  let prevGross = first.saturated ? Number.NEGATIVE_INFINITY : first.estimate
  const curves: (readonly Curve[])[] = [first.curves]
  const alloc = new Float64Array(maxSplits)
  const best = new Float64Array(maxSplits)

  for (let n = 2; n <= maxSplits; n++) {
    let eligible: Candidate[] = []
    for (const c of cands) {
      if (chosen.includes(c) || c.spot <= level) continue
      if (c.edges.some((e) => used.has(e.poolIndex))) continue
      eligible.push(c)
    }
    if (eligible.length === 0) break
    const probe = total / n
    // the likeliest by their output at an even share
    if (eligible.length > TRY_PER_SPLIT) eligible = likeliest(eligible, probe, TRY_PER_SPLIT)
    let bestGross = Number.NEGATIVE_INFINITY
    let bestCand: Candidate | undefined
    let bestLevel = 0
    for (const c of eligible) {
      curves.push(c.curves)
      const lam = waterFill(curves, total, alloc)
      let g = 0
      if (lam >= 0) for (let i = 0; i < n; i++) g += pathOut(curves[i]!, alloc[i]!)
      curves.pop()
      if (lam < 0) continue
      if (g > bestGross) {
        bestGross = g
        bestCand = c
        bestLevel = lam
        for (let i = 0; i < n; i++) best[i] = alloc[i]!
      }
    }
    if (bestCand === undefined) break
    chosen.push(bestCand)
    curves.push(bestCand.curves)
    for (const e of bestCand.edges) used.add(e.poolIndex)
    // quantise reads the first chosen.length (n) entries
    const opt = quantise(chosen, best, total, amountIn, gasRate)
    if (opt !== undefined && opt.paths.length > 1) options.push(opt)
    if (!(bestGross > prevGross)) break
    prevGross = bestGross
    level = bestLevel
  }
}

/** Exact simulation of an option; the index of the first path with a failing hop when one fails. */
const evaluate = (
  option: Option,
  amountIn: bigint,
  gasPriceWei: bigint,
  convert: ((wei: bigint) => bigint | undefined) | undefined,
): Exact | number => {
  const amountsIn = splitAmounts(amountIn, option.bps)
  const amountsOut: bigint[] = new Array(amountsIn.length)
  let total = 0n
  let hopsGas = 0
  let v4 = false
  for (let i = 0; i < option.paths.length; i++) {
    let a = amountsIn[i]!
    for (const edge of option.paths[i]!.edges) {
      const q = quoteHop(edge.pool, edge.coinIn, edge.coinOut, a)
      if (q === undefined || q.amountOut <= 0n) return i
      hopsGas += hopGas(edge.pool.kind, q.ticksCrossed)
      v4 ||= edge.pool.kind === "uniswap-v4"
      a = q.amountOut
    }
    amountsOut[i] = a
    total += a
  }
  const gas = BigInt(routeGas(option.paths.length, hopsGas, v4))
  const gasCost = convert === undefined ? undefined : convert(gas * gasPriceWei)
  return {
    option,
    amountsIn,
    amountsOut,
    amountOut: total,
    gas,
    gasCost,
    net: gasCost === undefined ? total : total - gasCost,
  }
}

/**
 * Exact simulation of an option, or of the nearest one that runs: a path
 * whose pools cannot take its share (the float model puts a pool's capacity a
 * hair above what the exact swap takes) gives a few basis points at a time to
 * the largest other path. Undefined when no such option runs.
 */
const evaluateNearest = (
  option: Option,
  amountIn: bigint,
  gasPriceWei: bigint,
  convert: ((wei: bigint) => bigint | undefined) | undefined,
): Exact | undefined => {
  let current = option
  for (let attempt = 0; attempt < 6; attempt++) {
    const r = evaluate(current, amountIn, gasPriceWei, convert)
    if (typeof r !== "number") return r
    if (current.paths.length < 2) return undefined
    current = { ...current, ...shiftShare(current.paths, current.bps, r, attempt) }
  }
  return undefined
}

/** One path's exact output for `amount`; undefined when one of its hops cannot take it. */
const pathExact = (path: Candidate, amount: bigint): bigint | undefined => {
  let a = amount
  for (const edge of path.edges) {
    const q = quoteHop(edge.pool, edge.coinIn, edge.coinOut, a)
    if (q === undefined || q.amountOut <= 0n) return undefined
    a = q.amountOut
  }
  return a
}

/** Rounds of the exact refinement of a split route at most. */
const REFINE_ROUNDS = 6
/**
 * How far (relative) a split's float gross may be from its exact output before its shares are
 * refined on the exact math: 0.05 bps. On the routing bench's markets the float models stay within
 * 0.03 bps and refining gains at most 0.016 bps; near a V3 position's edge they were 1.39 bps off and
 * refining gained 1.35 bps.
 */
const REFINE_FLOAT_ERROR = 5e-6

/**
 * The chosen split's shares, refined on the exact pool math. The float models place the shares
 * within a few basis points of the best, but near a kink of an exact curve (a V3 position's edge)
 * a few basis points can be worth more than a basis point of output. Each round prices one basis
 * point of the input exactly on every split (what it would add to one, take from another), moves
 * shares from the split that loses least to the one that gains most, doubling the move while the
 * exact net output keeps growing, and stops when no move pays.
 */
const refineExact = (
  best: Exact,
  amountIn: bigint,
  gasPriceWei: bigint,
  convert: ((wei: bigint) => bigint | undefined) | undefined,
): Exact => {
  const unit = amountIn / 10000n
  if (unit === 0n) return best
  let current = best
  for (let round = 0; round < REFINE_ROUNDS; round++) {
    const { paths, bps } = current.option
    const gains = paths.map((p, i) => {
      const up = pathExact(p, current.amountsIn[i]! + unit)
      return up === undefined ? -1n : up - current.amountsOut[i]!
    })
    let take = 0
    for (let i = 1; i < paths.length; i++) if (gains[i]! > gains[take]!) take = i
    let give = -1
    let loss = 0n
    for (let i = 0; i < paths.length; i++) {
      if (i === take || bps[i]! <= 1) continue
      const down = pathExact(paths[i]!, current.amountsIn[i]! - unit)
      if (down === undefined) continue
      const l = current.amountsOut[i]! - down
      if (give < 0 || l < loss) [give, loss] = [i, l]
    }
    if (give < 0 || gains[take]! <= loss) break
    let moved: Exact | undefined
    for (let step = 1; step < bps[give]!; step *= 2) {
      const next = [...bps]
      next[give]! -= step
      next[take]! += step
      const r = evaluate({ ...current.option, bps: next }, amountIn, gasPriceWei, convert)
      if (typeof r === "number" || r.net <= (moved ?? current).net) break
      moved = r
    }
    if (moved === undefined) break
    current = moved
  }
  return current
}

/**
 * The best route for an exact-input swap on this snapshot: the most output
 * after gas cost (gross output when no gas conversion is given), or undefined
 * when no path can take the whole input.
 */
export const findBestRoute = (snapshot: RoutingMarket, params: FindRouteParams): Route | undefined => {
  const { amountIn } = params
  const tokenIn = tokenKey(params.tokenIn)
  const tokenOut = tokenKey(params.tokenOut)
  if (amountIn <= 0n || tokenIn === tokenOut) return undefined
  const maxHops = clampInt(params.maxHops, DEFAULT_MAX_HOPS, 1, 3)
  const maxSplits = clampInt(params.maxSplits, DEFAULT_MAX_SPLITS, 1, MAX_SPLITS)
  const total = Number(amountIn)

  // gas cost per gas unit in tokenOut, as a float, for ranking
  let convert = params.nativeToTokenOut
  let gasRate = 0
  if (convert !== undefined) {
    const probe = convert(GAS_PROBE * snapshot.gasPriceWei)
    if (probe === undefined) convert = undefined
    else gasRate = Number(probe) / Number(GAS_PROBE)
  }

  const cands = findCandidates(graphOf(snapshot), tokenIn, tokenOut, total, maxHops, gasRate, params.venues)
  if (cands.length === 0) return undefined

  const options: Option[] = []
  for (const c of cands) {
    if (c.saturated) continue
    options.push({ paths: [c], bps: WHOLE, gross: c.estimate, gas: c.gas, net: c.net })
  }
  if (maxSplits > 1) splitOptions(cands, total, amountIn, maxSplits, gasRate, options)
  options.sort((a, b) => b.net - a.net || a.paths.length - b.paths.length)

  // exact recomputation, best estimate first, until the estimates fall clearly below the best exact result
  let best: Exact | undefined
  let evaluated = 0
  for (const option of options) {
    if (best !== undefined) {
      if (evaluated >= MAX_EXACT) break
      const bestNet = Number(best.net)
      if (option.net < bestNet - (Math.abs(bestNet) * 1e-6 + 64)) break
    }
    const r = evaluateNearest(option, amountIn, snapshot.gasPriceWei, convert)
    evaluated++
    if (r === undefined) continue
    if (
      best === undefined ||
      r.net > best.net ||
      (r.net === best.net && r.option.paths.length < best.option.paths.length)
    ) {
      best = r
    }
  }
  if (best === undefined) return undefined
  // the float models chose the shares; where they are off the exact output by more than a trace, the
  // shares are checked on the exact math (refineExact)
  const exactOut = Number(best.amountOut)
  if (best.option.paths.length > 1 && Math.abs(best.option.gross - exactOut) > REFINE_FLOAT_ERROR * exactOut) {
    best = refineExact(best, amountIn, snapshot.gasPriceWei, convert)
  }

  const splits: RouteSplit[] = best.option.paths.map((p, i) => ({
    shareBps: best.option.bps[i]!,
    amountIn: best.amountsIn[i]!,
    amountOut: best.amountsOut[i]!,
    hops: p.edges.map(hopOf),
  }))
  return {
    amountIn,
    amountOut: best.amountOut,
    gasEstimate: best.gas,
    gasCostInTokenOut: best.gasCost,
    netAmountOut: best.net,
    splits,
  }
}
