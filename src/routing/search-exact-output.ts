// findBestRouteExactOutput: the least input (plus gas cost in tokenIn, when a
// conversion is given) that delivers an exact gross output. The same
// candidates, float models, gas model and pool-disjoint splits as exact input
// (search.ts), seen from the output side:
//
// - Candidates. The candidate search ranks paths by their output for a given
//   input, so it needs the trade's size in tokenIn. A first search the other
//   way (selling amountOut of tokenOut for tokenIn) gives that scale; the
//   candidates are then searched forward at it.
// - Splits. The least input for a fixed total output has, like the most output
//   for a fixed input, one marginal rate on every used path: water-filling by
//   the summed outputs (waterFillOutput) gives each path's output share.
// - Rounding. Shares are basis points of amountOut. Split i gets
//   floor(amountOut * shareBps_i / 10000), the last the remainder (the
//   executor's rule). The float shares are quantised by largest remainder,
//   improved by 1 bp moves on the float inverse of those exact outputs, and
//   every reported amount is the exact pool math run backward from them: the
//   last hop's exact-output swap for the split's output, each earlier hop's
//   for what the next one takes.
import { pathIn, pathMarginal, pathMaxOut, type Curve } from "./curve.ts"
import { hopGas, routeGas } from "./gas.ts"
import { graphOf, tokenKey, type TokenGraph } from "./graph.ts"
import { waterFillOutput } from "./optimiser.ts"
import { type Candidate, candidateOf, findCandidates, likeliest } from "./paths.ts"
import { quoteHopExactOutput } from "./pool-quote.ts"
import { hopOf } from "./route-hop.ts"
import { clampInt, quantiseShares, shiftShare, splitAmounts, WHOLE } from "./shares.ts"
import type { ExactOutputRoute, ExactOutputSplit, FindExactOutputParams, RoutingMarket } from "./types.ts"

const DEFAULT_MAX_HOPS = 3
const DEFAULT_MAX_SPLITS = 4
const MAX_SPLITS = 8
/** split candidates tried when adding one more split */
const TRY_PER_SPLIT = 3
/** paths tried in place of each path of the best split */
const SWAP_TRIES = 2
/** options recomputed exactly at most (besides the single paths of the dual check) */
const MAX_EXACT = 6
/** single paths whose estimate is this close to the best single path are all recomputed exactly */
const SINGLE_TIE = 1e-4
const MAX_SINGLE_CHECKS = 6
/** gas units of the probe used to turn gas into a float tokenIn rate */
const GAS_PROBE = 1_000_000n
/** a split's output is kept this far below its path's float supremum (the exact math may stop short of it) */
const REACH = 1 - 1e-9
/** single paths are tried up to this far past their float reach */
const EDGE = 1 + 1e-6
/** outputs below this fraction of the deepest candidate's reach are ranked at that size (float precision) */
const TINY = 1e-8

interface Option {
  readonly paths: readonly Candidate[]
  /** basis points of the output per path, same order, summing to 10000 */
  readonly bps: readonly number[]
  /** float input for the quantised outputs */
  readonly input: number
  /** estimated gas units */
  readonly gas: number
  /** input plus gas cost (float estimate) */
  readonly cost: number
}

interface Exact {
  readonly option: Option
  readonly amountsOut: readonly bigint[]
  /** per split, per hop: the input each hop takes */
  readonly hopIn: readonly (readonly bigint[])[]
  readonly surplus: readonly (readonly bigint[])[]
  readonly amountIn: bigint
  readonly gas: bigint
  readonly gasCost: bigint | undefined
  readonly total: bigint
}

// The exact backward simulation asks every hop for a whole number of units of
// its input token: one unit of an intermediate token with few decimals can be
// worth far more than a tiny trade. Ranking adds, per path, a unit of each
// hop's input after the first, in tokenIn at the spot rates.
const roundingCache = new WeakMap<Candidate, number>()
const rounding = (c: Candidate): number => {
  let r = roundingCache.get(c)
  if (r !== undefined) return r
  r = 0
  let perUnit = 1 // tokenIn per unit of the token held before the hop
  for (let k = 0; k < c.curves.length; k++) {
    if (k > 0) r += perUnit
    perUnit /= c.curves[k]!.spot
  }
  roundingCache.set(c, r)
  return r
}

/** float input of every split for these exact outputs, rounding included (Infinity when one is out of reach) */
const floatInput = (paths: readonly Candidate[], outs: readonly number[]): number => {
  let x = 0
  for (let i = 0; i < paths.length; i++) x += pathIn(paths[i]!.curves, outs[i]!) + rounding(paths[i]!)
  return x
}

const optionGas = (paths: readonly Candidate[], outs: readonly bigint[]): number => {
  let hops = 0
  let v4 = false
  for (let i = 0; i < paths.length; i++) {
    hops += paths[i]!.hopsGas(pathIn(paths[i]!.curves, Number(outs[i]!)))
    v4 ||= paths[i]!.usesV4
  }
  return routeGas(paths.length, hops, v4)
}

/**
 * Basis points of the output for a float output allocation: largest remainder
 * (splits ordered largest first, never past a path's reach), 1 bp moves while
 * they lower the float input of the exact quantised outputs, empty splits
 * dropped. Undefined when a split would deliver nothing or is out of reach.
 */
const quantise = (
  paths: readonly Candidate[],
  alloc: Float64Array,
  target: number,
  amountOut: bigint,
  gasRate: number,
): Option | undefined => {
  const q = quantiseShares(
    paths,
    alloc,
    target,
    amountOut,
    (path, share) => share * target < pathMaxOut(path.curves) * REACH,
    floatInput,
  )
  if (!Number.isFinite(q.cost)) return undefined
  for (const a of q.amounts) if (a <= 0n) return undefined
  const gas = optionGas(q.paths, q.amounts)
  return { paths: q.paths, bps: q.bps, input: q.cost, gas, cost: q.cost + gasRate * gas }
}

/** Split options with 2..maxSplits pool-disjoint paths, grown greedily from the first path. */
const splitOptions = (
  cands: readonly Candidate[],
  first: Candidate,
  firstInput: number,
  scale: number,
  target: number,
  amountOut: bigint,
  maxSplits: number,
  gasRate: number,
  options: Option[],
): void => {
  const chosen: Candidate[] = [first]
  const used = new Set<number>()
  for (const e of first.edges) used.add(e.poolIndex)
  const alone = Number.isFinite(firstInput)
  let level = alone ? pathMarginal(first.curves, firstInput) : 0
  let prevInput = alone ? firstInput : Number.POSITIVE_INFINITY
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
    const probe = scale / n
    // the likeliest by their output at an even share
    if (eligible.length > TRY_PER_SPLIT) eligible = likeliest(eligible, probe, TRY_PER_SPLIT)
    let bestInput = Number.POSITIVE_INFINITY
    let bestCand: Candidate | undefined
    let bestLevel = 0
    for (const c of eligible) {
      curves.push(c.curves)
      const lam = waterFillOutput(curves, target, alloc)
      let x = Number.POSITIVE_INFINITY
      if (lam >= 0) {
        x = 0
        for (let i = 0; i < n; i++) x += pathIn(curves[i]!, alloc[i]!)
      }
      curves.pop()
      if (x < bestInput) {
        bestInput = x
        bestCand = c
        bestLevel = lam
        for (let i = 0; i < n; i++) best[i] = alloc[i]!
      }
    }
    if (bestCand === undefined) {
      // no pair of paths reaches the output yet: add the one that delivers the most and try again
      if (alone) break
      let widest = eligible[0]!
      for (const c of eligible) if (pathMaxOut(c.curves) > pathMaxOut(widest.curves)) widest = c
      chosen.push(widest)
      curves.push(widest.curves)
      for (const e of widest.edges) used.add(e.poolIndex)
      continue
    }
    chosen.push(bestCand)
    curves.push(bestCand.curves)
    for (const e of bestCand.edges) used.add(e.poolIndex)
    // quantise reads the first chosen.length (n) entries
    const opt = quantise(chosen, best, target, amountOut, gasRate)
    if (opt !== undefined && opt.paths.length > 1) options.push(opt)
    if (!(bestInput < prevInput)) break
    prevInput = bestInput
    level = bestLevel
  }
}

/**
 * One exchange pass over the best split found by growth: each of its paths in
 * turn replaced by a path that shares a pool with it (growth never puts such
 * two together, so it may have kept the worse of them: a deep path's first
 * pool shared by a path that prices better at the split's size), dropping any
 * other path the newcomer shares a pool with, the outputs water-filled again.
 * The better splits join the options.
 */
const swapPaths = (cands: readonly Candidate[], options: Option[], target: number, amountOut: bigint, gasRate: number): void => {
  let top: Option | undefined
  for (const o of options) if (o.paths.length > 1 && (top === undefined || o.input < top.input)) top = o
  if (top === undefined) return
  const n = top.paths.length
  const alloc = new Float64Array(n)
  let bestInput = top.input
  for (let i = 0; i < n; i++) {
    const out = (top.bps[i]! / 10000) * target
    const own = new Set(top.paths[i]!.edges.map((e) => e.poolIndex))
    const rivals: Candidate[] = []
    for (const c of cands) if (!top.paths.includes(c) && c.edges.some((e) => own.has(e.poolIndex))) rivals.push(c)
    if (rivals.length > SWAP_TRIES) {
      const need = new Map(rivals.map((c) => [c, pathIn(c.curves, out)]))
      rivals.sort((a, b) => need.get(a)! - need.get(b)!)
      rivals.length = SWAP_TRIES
    }
    for (const c of rivals) {
      // the rival in place of the path, and of any other it shares a pool with
      const pools = new Set(c.edges.map((e) => e.poolIndex))
      const paths = [c, ...top.paths.filter((p, j) => j !== i && !p.edges.some((e) => pools.has(e.poolIndex)))]
      if (paths.length < 2 || waterFillOutput(paths.map((p) => p.curves), target, alloc) < 0) continue
      let x = 0
      for (let j = 0; j < paths.length; j++) x += pathIn(paths[j]!.curves, alloc[j]!)
      if (!(x < bestInput)) continue
      const opt = quantise(paths, alloc.subarray(0, paths.length), target, amountOut, gasRate)
      if (opt !== undefined && opt.paths.length > 1) {
        options.push(opt)
        bestInput = x
      }
    }
  }
}

/** Exact backward simulation of an option; the index of the first split with a failing hop when one fails. */
const evaluate = (
  option: Option,
  amountOut: bigint,
  gasPriceWei: bigint,
  convert: ((wei: bigint) => bigint | undefined) | undefined,
): Exact | number => {
  const amountsOut = splitAmounts(amountOut, option.bps)
  const hopIn: bigint[][] = []
  const surplus: bigint[][] = []
  let amountIn = 0n
  let hopsGas = 0
  let v4 = false
  for (let i = 0; i < option.paths.length; i++) {
    const edges = option.paths[i]!.edges
    const ins: bigint[] = new Array(edges.length)
    const extra: bigint[] = new Array(edges.length)
    let y = amountsOut[i]!
    for (let k = edges.length - 1; k >= 0; k--) {
      const edge = edges[k]!
      const q = quoteHopExactOutput(edge.pool, edge.coinIn, edge.coinOut, y)
      if (q === undefined) return i
      ins[k] = q.amountIn
      extra[k] = q.surplus
      hopsGas += hopGas(edge.pool.kind, q.ticksCrossed)
      v4 ||= edge.pool.kind === "uniswap-v4"
      y = q.amountIn
    }
    hopIn.push(ins)
    surplus.push(extra)
    amountIn += y
  }
  const gas = BigInt(routeGas(option.paths.length, hopsGas, v4))
  const gasCost = convert === undefined ? undefined : convert(gas * gasPriceWei)
  return { option, amountsOut, hopIn, surplus, amountIn, gas, gasCost, total: gasCost === undefined ? amountIn : amountIn + gasCost }
}

/** Exact simulation of an option, or of the nearest one that runs (shiftShare); undefined when none runs. */
const evaluateNearest = (
  option: Option,
  amountOut: bigint,
  gasPriceWei: bigint,
  convert: ((wei: bigint) => bigint | undefined) | undefined,
): Exact | undefined => {
  let current = option
  for (let attempt = 0; attempt < 6; attempt++) {
    const r = evaluate(current, amountOut, gasPriceWei, convert)
    if (typeof r !== "number") return r
    if (current.paths.length < 2) return undefined
    current = { ...current, ...shiftShare(current.paths, current.bps, r, attempt) }
  }
  return undefined
}

/**
 * The candidate paths of an exact-output search (lower-case token keys,
 * float amounts) and the trade's size in tokenIn: what selling `target` of
 * tokenOut the other way brings. An output far below what the deepest
 * candidate can deliver (a few wei, where a stable pool's model cancels to
 * nothing) is sized and ranked at a larger multiple of itself, where prices
 * are the same. No candidates when no path joins the tokens.
 */
export const exactOutputCandidates = (
  graph: TokenGraph,
  tokenIn: string,
  tokenOut: string,
  target: number,
  maxHops: number,
  gasRate: number,
  venues: ReadonlySet<string> | undefined,
  grow = 1,
): { readonly cands: Candidate[]; readonly scale: number } => {
  const at = (k: number): { cands: Candidate[]; scale: number; k: number } | undefined => {
    const back = findCandidates(graph, tokenOut, tokenIn, target * k, maxHops, 0, venues)
    let scale = 0
    for (const c of back) if (c.estimate > scale) scale = c.estimate
    if (!(scale > 0)) return undefined
    // their gas ranked in tokenOut at the trade's rate
    const cands = findCandidates(graph, tokenIn, tokenOut, scale * grow, maxHops, (gasRate * target * k) / scale, venues)
    return cands.length > 0 ? { cands, scale: scale / k, k } : undefined
  }
  let found: ReturnType<typeof at>
  for (let k = 1; k <= 1e12 && found === undefined; k *= 1e6) found = at(k)
  if (found === undefined) return { cands: [], scale: 0 }
  let reach = 0
  for (const c of found.cands) reach = Math.max(reach, pathMaxOut(c.curves))
  const least = reach * TINY
  if (target * found.k < least) found = at(least / target) ?? found
  // every direct pool too (the float ranking cannot see the rounding of a tiny trade's intermediate hops):
  // the route is never worse than the best single pool
  const { cands, scale, k } = found
  const a = graph.tokenIndex.get(tokenIn)
  const b = graph.tokenIndex.get(tokenOut)
  const direct = a === undefined || b === undefined ? -1 : graph.pairSlot(a, b)
  if (direct >= 0) {
    for (let i = graph.pairStart[direct]!; i < graph.pairStart[direct + 1]!; i++) {
      const e = graph.pairEdges[i]!
      if (graph.curve(e) === undefined || (venues !== undefined && !venues.has(graph.pool(e).venue))) continue
      if (cands.some((c) => c.edges.length === 1 && c.edges[0]!.id === e)) continue
      cands.push(candidateOf([graph.edge(e)], scale * k * grow, (gasRate * target) / scale))
    }
  }
  return { cands, scale }
}

const better = (a: Exact, b: Exact | undefined): boolean =>
  b === undefined || a.total < b.total || (a.total === b.total && a.option.paths.length < b.option.paths.length)

/** The best exact option over these candidates, or undefined when none delivers amountOut. */
const bestOver = (
  cands: readonly Candidate[],
  scale: number,
  target: number,
  amountOut: bigint,
  maxSplits: number,
  gasRate: number,
  gasPriceWei: bigint,
  convert: ((wei: bigint) => bigint | undefined) | undefined,
): Exact | undefined => {
  const options: Option[] = []
  const singles: Option[] = []
  let first: Candidate | undefined
  let firstInput = Number.POSITIVE_INFINITY
  for (const c of cands) {
    // a path whose float reach is a hair short of the output may still deliver it exactly: recomputed if ranked
    const top = pathMaxOut(c.curves)
    if (target >= top * EDGE) continue
    const x = pathIn(c.curves, Math.min(target, top * REACH))
    if (!Number.isFinite(x)) continue
    const gas = routeGas(1, c.hopsGas(x), c.usesV4)
    const input = x + rounding(c)
    const option: Option = { paths: [c], bps: WHOLE, input, gas, cost: input + gasRate * gas }
    singles.push(option)
    if (x < firstInput) {
      firstInput = x
      first = c
    }
  }
  options.push(...singles)
  if (maxSplits > 1) {
    // greedy growth depends on where it starts (a deep path may hold pools that two better ones share):
    // from the least-input path, the best path at the trade's size, the runner-up by input, and the
    // path with the best spot rate (the first the optimal split draws on, though alone it may fall short)
    const starts: Candidate[] = []
    let keen = cands[0]!
    for (const c of cands) if (c.spot > keen.spot) keen = c
    const byInput = [...singles].sort((a, b) => a.input - b.input)
    if (first === undefined) {
      // no single path delivers it: splits start from the path that delivers the most
      first = cands[0]!
      for (const c of cands) if (pathMaxOut(c.curves) > pathMaxOut(first.curves)) first = c
    }
    for (const c of [first, cands[0]!, byInput[1]?.paths[0], keen]) if (c !== undefined && !starts.includes(c)) starts.push(c)
    for (const c of starts) {
      const x = c === first ? firstInput : (singles.find((o) => o.paths[0] === c)?.input ?? Number.POSITIVE_INFINITY)
      splitOptions(cands, c, x, Number.isFinite(x) ? x : scale, target, amountOut, maxSplits, gasRate, options)
    }
    swapPaths(cands, options, target, amountOut, gasRate)
  }
  if (options.length === 0) return undefined
  const byCost = (a: Option, b: Option) => a.cost - b.cost || a.paths.length - b.paths.length
  options.sort(byCost)
  singles.sort(byCost)

  // exact recomputation, best estimate first, until the estimates rise clearly above the best exact result
  let best: Exact | undefined
  let evaluated = 0
  const done = new Set<Option>()
  // growth from different starts often reaches the same split: each is recomputed once
  const seen = new Set<string>()
  const index = new Map(cands.map((c, k) => [c, k]))
  for (const option of options) {
    if (best !== undefined) {
      if (evaluated >= MAX_EXACT) break
      const bestTotal = Number(best.total)
      if (option.cost > bestTotal + (Math.abs(bestTotal) * 1e-6 + 64)) break
    }
    done.add(option)
    const key = option.paths.map((p, i) => `${index.get(p)}:${option.bps[i]}`).sort().join(",")
    if (seen.has(key)) continue
    seen.add(key)
    const r = evaluateNearest(option, amountOut, gasPriceWei, convert)
    evaluated++
    if (r !== undefined && better(r, best)) best = r
  }
  // dual check: the single paths about as good as the best one, exactly (a route is never worse than one
  // path); every direct pool among them, however many (on a trade of a few units the float estimates cannot
  // see a pool's rounding, and the route is never worse than the best single pool)
  let checks = 0
  for (const option of singles) {
    if (option.cost > singles[0]!.cost * (1 + SINGLE_TIE) + 64) break
    if (done.has(option)) continue
    const direct = option.paths[0]!.edges.length === 1
    if (checks >= MAX_SINGLE_CHECKS && !direct) continue
    checks++
    const r = evaluate(option, amountOut, gasPriceWei, convert)
    if (typeof r !== "number" && better(r, best)) best = r
  }
  return best
}

/**
 * The route delivering exactly `amountOut` (gross) for the least input plus
 * gas cost in tokenIn (input alone when no conversion is given), or undefined
 * when the pools cannot deliver amountOut.
 */
export const findBestRouteExactOutput = (snapshot: RoutingMarket, params: FindExactOutputParams): ExactOutputRoute | undefined => {
  const { amountOut } = params
  const tokenIn = tokenKey(params.tokenIn)
  const tokenOut = tokenKey(params.tokenOut)
  if (amountOut <= 0n || tokenIn === tokenOut) return undefined
  const maxHops = clampInt(params.maxHops, DEFAULT_MAX_HOPS, 1, 3)
  const maxSplits = clampInt(params.maxSplits, DEFAULT_MAX_SPLITS, 1, MAX_SPLITS)
  const target = Number(amountOut)
  const graph = graphOf(snapshot)

  // gas cost per gas unit in tokenIn, as a float, for ranking
  let convert = params.nativeToTokenIn
  let gasRate = 0
  if (convert !== undefined) {
    const probe = convert(GAS_PROBE * snapshot.gasPriceWei)
    if (probe === undefined) convert = undefined
    else gasRate = Number(probe) / Number(GAS_PROBE)
  }

  // candidates ranked at the trade's size; when no combination of them delivers the output, at a larger
  // size (the reverse estimate falls short where the output nearly drains the pools), where deeper paths rank
  let best: Exact | undefined
  for (let grow = 1; grow <= 16 && best === undefined; grow *= 4) {
    const { cands, scale } = exactOutputCandidates(graph, tokenIn, tokenOut, target, maxHops, gasRate, params.venues, grow)
    if (cands.length === 0) return undefined
    best = bestOver(cands, scale, target, amountOut, maxSplits, gasRate, snapshot.gasPriceWei, convert)
  }
  if (best === undefined) return undefined

  const chosen = best
  const splits: ExactOutputSplit[] = chosen.option.paths.map((p, i) => ({
    shareBps: chosen.option.bps[i]!,
    amountOut: chosen.amountsOut[i]!,
    amountIn: chosen.hopIn[i]![0]!,
    hops: p.edges.map(hopOf),
    hopAmountsIn: chosen.hopIn[i]!,
    hopSurplus: chosen.surplus[i]!,
  }))
  return {
    amountOut,
    amountIn: chosen.amountIn,
    gasEstimate: chosen.gas,
    gasCostInTokenIn: chosen.gasCost,
    totalCost: chosen.total,
    splits,
  }
}
