// Candidate paths from tokenIn to tokenOut, up to 3 hops, no token and no
// pool repeated (a stable pool of three coins links three pairs: crossing it
// twice would price the second crossing on the state before the first). A
// layered beam search on the float models: after each hop every intermediate
// token keeps only its best BEAM partial paths by the amount of that token
// they deliver for the whole input.
//
// Pruning. A curve never gives more than its spot rate times its input
// (the curves are concave), so a partial path holding `a` of token Y can end
// with at most a x (best spot rate of Y's pools into tokenOut). Once
// KEEP_BY_NET complete paths are known, a branch whose bound is below the
// worst of them is dropped without touching its curves. Two-hop paths are
// tried in order of that bound, so the bar rises early; three-hop paths only
// step into tokens that have a pool with tokenOut. Work is bounded by the
// pools of tokenIn, of its neighbours and of tokenOut.
//
// The search state lives in typed arrays reused across calls (the search runs
// on one thread), so a search allocates little beyond the candidates it returns.
//
// A request may allow only some venues: the other venues' pools are skipped as
// the search meets them, on the snapshot's one graph, so naming venues costs
// nothing per pool and keeps nothing per set of names.
import { type Curve, pathMarginal, pathOut } from "./curve.ts"
import type { Edge, TokenGraph } from "./graph.ts"
import { GAS, hopGas } from "./gas.ts"

/** partial paths kept per intermediate token and depth */
const BEAM = 3
/** candidates kept by estimated net output */
const KEEP_BY_NET = 12
/** further candidates kept by spot rate (shallow pools with good prices, useful in splits) */
const KEEP_BY_SPOT = 4
const MIN_HOP_GAS = Math.min(GAS.v2Hop, GAS.v3Hop, GAS.v4Hop, GAS.stableHop)

export interface Candidate {
  readonly edges: readonly Edge[]
  readonly curves: readonly Curve[]
  /** float output for the whole input */
  readonly estimate: number
  /** estimated gas units of a one-split route along this path */
  readonly gas: number
  /** estimate minus the gas cost in tokenOut */
  readonly net: number
  /** marginal rate at zero input */
  readonly spot: number
  /** true when the path cannot absorb the whole input */
  readonly saturated: boolean
  readonly usesV4: boolean
  /** sum of the hops' gas for input x (ticks crossed from the float model) */
  hopsGas(x: number): number
}

// ---------------------------------------------------------------------------
// scratch: states (edge, previous state, amount, depth), beams per layer and token

let cap = 0
let stEdge = new Int32Array(0)
let stPrev = new Int32Array(0)
let stAmount = new Float64Array(0)
let stDepth = new Uint8Array(0)
let stBound = new Float64Array(0) // scratch per state for the two-hop ordering
let stCount = 0

let tokens = 0
let beam = new Int32Array(0) // [layer][token][BEAM] state indices, best first
let beamLen = new Uint8Array(0) // [layer][token]
let touched = [new Int32Array(0), new Int32Array(0)] // tokens with a beam, per layer
const touchedLen = [0, 0]
let worth = new Float64Array(0) // best spot rate into tokenOut, per token
let finals = new Int32Array(64)
let finalsLen = 0
const top = new Float64Array(KEEP_BY_NET)
/** the venues this search may use; every venue when undefined */
let venues: ReadonlySet<string> | undefined
/** the graph searched (let go between searches, so an old snapshot's graph is not kept alive) */
let graph = undefined as unknown as TokenGraph

const ensureTokens = (n: number): void => {
  if (n <= tokens) return
  tokens = Math.max(n, 2 * tokens)
  beam = new Int32Array(2 * tokens * BEAM)
  beamLen = new Uint8Array(2 * tokens)
  touched = [new Int32Array(tokens), new Int32Array(tokens)]
  worth = new Float64Array(tokens)
}

const push = (edge: number, prev: number, amount: number, depth: number): number => {
  if (stCount === cap) {
    cap = Math.max(1024, 2 * cap)
    const e = new Int32Array(cap)
    e.set(stEdge)
    stEdge = e
    const p = new Int32Array(cap)
    p.set(stPrev)
    stPrev = p
    const a = new Float64Array(cap)
    a.set(stAmount)
    stAmount = a
    const d = new Uint8Array(cap)
    d.set(stDepth)
    stDepth = d
    stBound = new Float64Array(cap)
  }
  const i = stCount++
  stEdge[i] = edge
  stPrev[i] = prev
  stAmount[i] = amount
  stDepth[i] = depth
  return i
}

/** one more hop: the state after `edge` for the amount held by `prev` (-1: the input), or -1 */
const step = (edge: number, prev: number, amountIn: number): number => {
  if (venues !== undefined && !venues.has(graph.pool(edge).venue)) return -1
  const c = graph.curve(edge)
  if (c === undefined) return -1
  const pools = graph.edgePool
  const pool = pools[edge]!
  for (let s = prev; s >= 0; s = stPrev[s]!) if (pools[stEdge[s]!] === pool) return -1
  const amount = c.out(amountIn)
  if (!(amount > 0)) return -1
  return push(edge, prev, amount, prev < 0 ? 1 : stDepth[prev]! + 1)
}

/** keep state s in the beam of (layer, token), best amounts first */
const keep = (layer: number, token: number, s: number): void => {
  const slot = layer * tokens + token
  const len = beamLen[slot]!
  if (len === 0) touched[layer]![touchedLen[layer]!++] = token
  const base = slot * BEAM
  const amount = stAmount[s]!
  if (len === BEAM && stAmount[beam[base + BEAM - 1]!]! >= amount) return
  let i = len < BEAM ? len : BEAM - 1
  while (i > 0 && stAmount[beam[base + i - 1]!]! < amount) {
    beam[base + i] = beam[base + i - 1]!
    i--
  }
  beam[base + i] = s
  if (len < BEAM) beamLen[slot] = len + 1
}

/** a complete path: recorded, and the KEEP_BY_NET best net estimates updated */
const addFinal = (s: number, gasRate: number): void => {
  if (finalsLen === finals.length) {
    const f = new Int32Array(2 * finals.length)
    f.set(finals)
    finals = f
  }
  finals[finalsLen++] = s
  let gas = GAS.base + GAS.perSplit
  for (let x = s; x >= 0; x = stPrev[x]!) gas += hopGas(graph.pool(stEdge[x]!).kind, 0)
  const net = stAmount[s]! - gasRate * gas
  if (net <= top[KEEP_BY_NET - 1]!) return
  let i = KEEP_BY_NET - 1
  while (i > 0 && top[i - 1]! < net) {
    top[i] = top[i - 1]!
    i--
  }
  top[i] = net
}

/**
 * best spot rate among a token pair's pools (by pair slot); the graph keeps it for all venues only:
 * a pair has few pools, so a narrowed answer is cheaper to compute than to keep
 */
const bestSpot = (slot: number): number => {
  if (venues === undefined) return graph.pairSpot(slot)
  let best = 0
  for (let k = graph.pairStart[slot]!; k < graph.pairStart[slot + 1]!; k++) {
    const e = graph.pairEdges[k]!
    if (!venues.has(graph.pool(e).venue)) continue
    const c = graph.curve(e)
    if (c !== undefined && c.spot > best) best = c.spot
  }
  return best
}

const makeCandidate = (last: number, total: number, gasRate: number): Candidate => {
  const depth = stDepth[last]!
  const edges: Edge[] = new Array(depth)
  for (let s = last; s >= 0; s = stPrev[s]!) edges[stDepth[s]! - 1] = graph.edge(stEdge[s]!)
  return candidateOf(edges, total, gasRate, stAmount[last]!)
}

/** A candidate path as plain fields (a search makes a dozen or more; a closure each would be kept with it). */
class PathCandidate implements Candidate {
  constructor(
    readonly edges: readonly Edge[],
    readonly curves: readonly Curve[],
    readonly estimate: number,
    readonly gas: number,
    readonly net: number,
    readonly spot: number,
    readonly saturated: boolean,
    readonly usesV4: boolean,
  ) {}

  hopsGas(x: number): number {
    const { curves, edges } = this
    let g = 0
    for (let i = 0; i < curves.length; i++) {
      const c = curves[i]!
      g += hopGas(edges[i]!.pool.kind, c.crossings(x))
      x = c.out(x)
    }
    return g
  }
}

/**
 * The candidate along these edges (each with a curve) for input `total`;
 * `estimate` is the path's float output for it when already known.
 */
export const candidateOf = (edges: readonly Edge[], total: number, gasRate: number, estimate?: number): Candidate => {
  const curves: Curve[] = new Array(edges.length)
  let usesV4 = false
  for (let i = 0; i < edges.length; i++) {
    const e = edges[i]!
    curves[i] = e.curve!
    if (e.pool.kind === "uniswap-v4") usesV4 = true
  }
  // the whole input's hops' gas and the path's marginal rate in one pass along the hops (hopsGas(total)
  // and pathMarginal(curves, total), the same arithmetic in the same order)
  let hops = 0
  let marginal = 1
  for (let i = 0, x = total; i < curves.length; i++) {
    const c = curves[i]!
    hops += hopGas(edges[i]!.pool.kind, c.crossings(x))
    if (marginal !== 0) marginal *= c.marginal(x)
    x = c.out(x)
  }
  const gas = GAS.base + GAS.perSplit + hops + (usesV4 ? GAS.v4Session : 0)
  const out = estimate ?? pathOut(curves, total)
  return new PathCandidate(edges, curves, out, gas, out - gasRate * gas, pathMarginal(curves, 0), marginal === 0, usesV4)
}

/**
 * The net estimate candidateOf gives the path ending in state `last`, without making it: the same
 * arithmetic, each hop's input read from the state before it (the output its curve gave there)
 */
const netOf = (last: number, total: number, gasRate: number): number => {
  let hops = 0
  let usesV4 = false
  for (let s = last; s >= 0; s = stPrev[s]!) {
    const edge = stEdge[s]!
    const kind = graph.pool(edge).kind
    const prev = stPrev[s]!
    hops += hopGas(kind, graph.curve(edge)!.crossings(prev < 0 ? total : stAmount[prev]!))
    if (kind === "uniswap-v4") usesV4 = true
  }
  return stAmount[last]! - gasRate * (GAS.base + GAS.perSplit + hops + (usesV4 ? GAS.v4Session : 0))
}

/** indices i < n of the k largest values[i], largest first (equal values in index order) */
const topIndices = (values: Float64Array, n: number, k: number): number[] => {
  const best: number[] = []
  for (let i = 0; i < n; i++) {
    const v = values[i]!
    if (best.length >= k && values[best[best.length - 1]!]! >= v) continue
    let j = best.length
    while (j > 0 && values[best[j - 1]!]! < v) j--
    best.splice(j, 0, i)
    if (best.length > k) best.length = k
  }
  return best
}

/** the `k` of `cands` with the most output for `probe` each, most first (equal ones in their order) */
export const likeliest = (cands: readonly Candidate[], probe: number, k: number): Candidate[] => {
  const score = new Float64Array(cands.length)
  for (let i = 0; i < cands.length; i++) score[i] = pathOut(cands[i]!.curves, probe)
  return topIndices(score, cands.length, k).map((i) => cands[i]!)
}

const byNet = (a: Candidate, b: Candidate): number => b.net - a.net

// per-final scratch of collect, grown as needed
let scoreOf = new Float64Array(64)
let spotOf = new Float64Array(64)
const netScratch = new Float64Array(2 * KEEP_BY_NET)

/** candidates from the recorded finals: all when few, else the best by net plus the best by spot rate */
const collect = (total: number, gasRate: number): Candidate[] => {
  const n = finalsLen
  if (n <= KEEP_BY_NET + KEEP_BY_SPOT) {
    const all: Candidate[] = []
    for (let i = 0; i < n; i++) all.push(makeCandidate(finals[i]!, total, gasRate))
    return all.sort(byNet)
  }
  if (scoreOf.length < n) {
    scoreOf = new Float64Array(Math.max(n, 2 * scoreOf.length))
    spotOf = new Float64Array(scoreOf.length)
  }
  const score = scoreOf
  const spot = spotOf
  for (let i = 0; i < n; i++) {
    const f = finals[i]!
    let gas = 0
    let m = 1
    // spot rate of the path: the product of its hops' spot rates
    for (let s = f; s >= 0; s = stPrev[s]!) {
      gas += hopGas(graph.pool(stEdge[s]!).kind, 0)
      m *= graph.curve(stEdge[s]!)!.spot
    }
    score[i] = stAmount[f]! - gasRate * gas
    spot[i] = m
  }
  // the best by score, ranked by their net estimates (ticks crossed counted): only the kept ones are made
  const byScore = topIndices(score, n, 2 * KEEP_BY_NET)
  for (let k = 0; k < byScore.length; k++) netScratch[k] = netOf(finals[byScore[k]!]!, total, gasRate)
  const ranked = byScore.map((_, k) => k).sort((a, b) => netScratch[b]! - netScratch[a]!)
  const kept: Candidate[] = []
  for (let k = 0; k < ranked.length && k < KEEP_BY_NET; k++) kept.push(makeCandidate(finals[byScore[ranked[k]!]!]!, total, gasRate))
  for (const i of byScore) spot[i] = Number.NEGATIVE_INFINITY
  for (const i of topIndices(spot, n, KEEP_BY_SPOT)) {
    if (spot[i] === Number.NEGATIVE_INFINITY) break
    kept.push(makeCandidate(finals[i]!, total, gasRate))
  }
  return kept
}

/** clears the beams and the token scratch */
const reset = (nbTo: Int32Array, first: number, end: number): void => {
  for (let layer = 0; layer < 2; layer++) {
    const list = touched[layer]!
    for (let i = 0; i < touchedLen[layer]!; i++) beamLen[layer * tokens + list[i]!] = 0
    touchedLen[layer] = 0
  }
  for (let k = first; k < end; k++) worth[nbTo[k]!] = 0
  stCount = 0
  finalsLen = 0
  venues = undefined
  graph = undefined as unknown as TokenGraph
}

/**
 * Candidate paths for swapping `total` (float units of tokenIn) into tokenOut
 * (lower-case keys), best first by estimated net output (gross estimate minus
 * gasRate x gas), followed by a few more with the best spot rates. Empty when
 * no path exists. Only pools of `allowed` venues are used when it is given.
 */
export const findCandidates = (
  searched: TokenGraph,
  tokenIn: string,
  tokenOut: string,
  total: number,
  maxHops: number,
  gasRate: number,
  allowed?: ReadonlySet<string>,
): Candidate[] => {
  const A = searched.tokenIndex.get(tokenIn)
  const B = searched.tokenIndex.get(tokenOut)
  if (A === undefined || B === undefined) return []
  graph = searched
  ensureTokens(graph.tokenCount)
  venues = allowed
  top.fill(Number.NEGATIVE_INFINITY)
  const { outStart, outEdges, nbStart, nbTo, pairStart, pairEdges, edgeTo } = graph
  const outFirst = nbStart[B]!
  const outEnd = nbStart[B + 1]!
  // what one unit of each neighbour of tokenOut is worth in tokenOut at best (0 elsewhere; tokenIn excluded)
  for (let k = outFirst; k < outEnd; k++) {
    const y = nbTo[k]!
    if (y !== A) worth[y] = bestSpot(graph.pairSlot(y, B))
  }
  try {
    // hop 1
    for (let k = outStart[A]!; k < outStart[A + 1]!; k++) {
      const e = outEdges[k]!
      const t = edgeTo[e]!
      if (t !== B && (maxHops < 2 || (maxHops === 2 && worth[t] === 0))) continue
      const s = step(e, -1, total)
      if (s < 0) continue
      if (t === B) addFinal(s, gasRate)
      else keep(0, t, s)
    }

    // hop 2 into tokenOut, most promising first
    if (maxHops >= 2) {
      const twoHopGas = gasRate * (GAS.base + GAS.perSplit + 2 * MIN_HOP_GAS)
      const order: number[] = []
      const bound = stBound
      const list = touched[0]!
      for (let k = 0; k < touchedLen[0]!; k++) {
        const x = list[k]!
        const w = worth[x]!
        if (w === 0) continue
        const base = x * BEAM
        for (let j = 0; j < beamLen[x]!; j++) {
          const s = beam[base + j]!
          order.push(s)
          bound[s] = stAmount[s]! * w
        }
      }
      order.sort((a, b) => bound[b]! - bound[a]!)
      for (const s of order) {
        if (bound[s]! - twoHopGas <= top[KEEP_BY_NET - 1]!) break
        const slot = graph.pairSlot(edgeTo[stEdge[s]!]!, B)
        for (let k = pairStart[slot]!; k < pairStart[slot + 1]!; k++) {
          const e = pairEdges[k]!
          const c = graph.curve(e)
          if (c === undefined || stAmount[s]! * c.spot - twoHopGas <= top[KEEP_BY_NET - 1]!) continue
          const f = step(e, s, stAmount[s]!)
          if (f >= 0) addFinal(f, gasRate)
        }
      }
    }

    // hop 2 into a neighbour of tokenOut, then hop 3
    if (maxHops >= 3) {
      const threeHopGas = gasRate * (GAS.base + GAS.perSplit + 3 * MIN_HOP_GAS)
      const extend = (x: number, e: number): void => {
        const w = worth[edgeTo[e]!]!
        if (w === 0) return
        const c = graph.curve(e)
        if (c === undefined) return
        const rate = w * c.spot
        const base = x * BEAM
        // the beam is sorted by amount: once one state fails the bound, the rest do
        for (let j = 0; j < beamLen[x]!; j++) {
          const s = beam[base + j]!
          if (stAmount[s]! * rate - threeHopGas <= top[KEEP_BY_NET - 1]!) return
          const n = step(e, s, stAmount[s]!)
          if (n >= 0) keep(1, edgeTo[e]!, n)
        }
      }
      const list = touched[0]!
      const count = touchedLen[0]!
      for (let k = 0; k < count; k++) {
        const x = list[k]!
        if (outStart[x + 1]! - outStart[x]! <= outEnd - outFirst) {
          for (let j = outStart[x]!; j < outStart[x + 1]!; j++) extend(x, outEdges[j]!)
        } else {
          for (let j = outFirst; j < outEnd; j++) {
            const y = nbTo[j]!
            if (y === x) continue
            const slot = graph.pairSlot(x, y)
            if (slot >= 0) for (let i = pairStart[slot]!; i < pairStart[slot + 1]!; i++) extend(x, pairEdges[i]!)
          }
        }
      }
      const list1 = touched[1]!
      for (let k = 0; k < touchedLen[1]!; k++) {
        const y = list1[k]!
        const base = (tokens + y) * BEAM
        const slot = graph.pairSlot(y, B)
        for (let j = 0; j < beamLen[tokens + y]!; j++) {
          const s = beam[base + j]!
          for (let i = pairStart[slot]!; i < pairStart[slot + 1]!; i++) {
            const e = pairEdges[i]!
            const c = graph.curve(e)
            if (c === undefined || stAmount[s]! * c.spot - threeHopGas <= top[KEEP_BY_NET - 1]!) continue
            const f = step(e, s, stAmount[s]!)
            if (f >= 0) addFinal(f, gasRate)
          }
        }
      }
    }

    return collect(total, gasRate)
  } finally {
    reset(nbTo, outFirst, outEnd)
  }
}
