// The token graph of one market snapshot: tokens numbered densely, a directed
// edge per pool and ordered pair of its tokens (two for a pair, up to twelve
// for a 4-coin stable pool), outgoing edges per token and the edges of each
// ordered token pair. Built once per snapshot (snapshots are immutable) and
// shared by every search on it. A snapshot with the same pools as the last one
// graphed (the same poolsByToken: only states changed, as from block to block)
// gets that graph's index, with the float models of the pools whose state
// changed dropped (rebuilt when a search meets them).
//
// A market holds tens of thousands of pools, so the index is a few flat
// integer arrays rather than an object per edge: an edge is a number, its
// pool, tokens and direction are entries of typed arrays, and the lists (a
// token's outgoing edges, a pair's edges, a token's neighbours) are ranges of
// one array each. What a snapshot adds to the index of its pool set is its
// pool states, the float models built so far and the best spot rate per pair.
import { poolTokens, type PoolState } from "../amm/index.ts"
import { isNativePlaceholder, USDC_ERC20_ADDRESS } from "../domain/index.ts"
import type { RoutingMarket } from "./types.ts"
import { type Curve, buildCurve } from "./curve.ts"

/** The ERC-20 USDC's key: native USDC is routed as this token. */
const USDC_ERC20 = USDC_ERC20_ADDRESS.toLowerCase()

/**
 * Graph key of a requested token: lower-case, with the native USDC
 * placeholders mapped to the ERC-20 USDC (one balance, routed as the ERC-20).
 * Pool tokens are keyed by their lower-case address only: a pool holding the
 * native currency itself would count in 18 decimals and is a different token.
 */
export const tokenKey = (address: string): string => {
  return isNativePlaceholder(address) ? USDC_ERC20 : address.toLowerCase()
}

/** One edge of a path, as a candidate route holds it (made for the few edges a search returns). */
export class Edge {
  constructor(
    /** the edge's number in its graph */
    readonly id: number,
    /** the pool's key in the snapshot */
    readonly key: string,
    readonly pool: PoolState,
    /** dense index of the pool in this graph (for pool-disjointness checks) */
    readonly poolIndex: number,
    /** dense index of the input token */
    readonly from: number,
    /** dense index of the output token */
    readonly to: number,
    /** index of the input token in the pool's own order (token0 = 0) */
    readonly coinIn: number,
    /** index of the output token in the pool's own order */
    readonly coinOut: number,
    /** float model of the swap, undefined when the pool has no usable liquidity this way */
    readonly curve: Curve | undefined,
  ) {}

  /** true when the input is the pool's first token (a pair's token0) */
  get zeroForOne(): boolean {
    return this.coinIn === 0
  }
}

/**
 * The index of one pool set: tokens, pools, edges and the lists over them.
 * Immutable; every snapshot with these pools shares it.
 */
interface PoolIndex {
  readonly tokenIndex: Map<string, number>
  /** the key of each pool, by its index */
  readonly poolKeys: readonly string[]
  /** the edges of pool i are [poolEdgeStart[i], poolEdgeStart[i + 1]) */
  readonly poolEdgeStart: Int32Array
  /** per edge: its pool, input token, output token, and coinIn | coinOut << 4 */
  readonly edgePool: Int32Array
  readonly edgeFrom: Int32Array
  readonly edgeTo: Int32Array
  readonly edgeCoins: Uint8Array
  /** outgoing edges of token t: outEdges[outStart[t] .. outStart[t + 1]) */
  readonly outStart: Int32Array
  readonly outEdges: Int32Array
  /** the pairs from token t: slots nbStart[t] .. nbStart[t + 1]), each with its output token nbTo[slot] */
  readonly nbStart: Int32Array
  readonly nbTo: Int32Array
  /** the same slots ordered by output token, for lookups */
  readonly nbSorted: Int32Array
  /** edges of pair slot p: pairEdges[pairStart[p] .. pairStart[p + 1]) */
  readonly pairStart: Int32Array
  readonly pairEdges: Int32Array
  /** the pair slot of each edge */
  readonly edgePair: Int32Array
}

/**
 * The edges 0 … edges-1 grouped by a key of each below `groups` (a counting sort, edge order kept
 * within a group): group g's edges are items[start[g] .. start[g + 1]).
 */
const groupEdges = (keyOf: ArrayLike<number>, edges: number, groups: number): { start: Int32Array; items: Int32Array } => {
  const start = new Int32Array(groups + 1)
  for (let e = 0; e < edges; e++) start[keyOf[e]! + 1]!++
  for (let g = 0; g < groups; g++) start[g + 1]! += start[g]!
  const items = new Int32Array(edges)
  const fill = start.slice(0, groups)
  for (let e = 0; e < edges; e++) items[fill[keyOf[e]!]!++] = e
  return { start, items }
}

/** The pool index of a snapshot's pool set, and its pool states in index order. */
const indexPools = (snapshot: RoutingMarket): { index: PoolIndex; pools: PoolState[] } => {
  const tokenIndex = new Map<string, number>()
  const indexOf = (token: string): number => {
    let i = tokenIndex.get(token)
    if (i === undefined) tokenIndex.set(token, (i = tokenIndex.size))
    return i
  }
  const poolKeys: string[] = []
  const pools: PoolState[] = []
  const starts: number[] = [0]
  const from: number[] = []
  const to: number[] = []
  const coins: number[] = []
  const owner: number[] = []
  const seen = new Set<PoolState>()
  for (const [token, ids] of snapshot.poolsByToken) {
    const t = token.toLowerCase()
    for (const id of ids) {
      const pool = snapshot.pools.get(id) ?? snapshot.pools.get(id.toLowerCase())
      if (pool === undefined || seen.has(pool)) continue
      const keys = poolTokens(pool).map((a) => a.toLowerCase())
      // a pool listed under a token it does not hold, or holding a token twice, is ignored
      if (!keys.includes(t) || new Set(keys).size !== keys.length) continue
      seen.add(pool)
      const index = keys.map(indexOf)
      for (let a = 0; a < index.length; a++) {
        for (let b = 0; b < index.length; b++) {
          if (a === b) continue
          from.push(index[a]!)
          to.push(index[b]!)
          coins.push(a | (b << 4))
          owner.push(pools.length)
        }
      }
      poolKeys.push(snapshot.pools.has(id) ? id : id.toLowerCase())
      pools.push(pool)
      starts.push(from.length)
    }
  }
  const n = tokenIndex.size
  const edges = from.length
  // outgoing edges per token, in edge order
  const { start: outStart, items: outEdges } = groupEdges(from, edges, n)
  // pair slots numbered token by token, each token's in the order their first edge comes (the
  // neighbour lists); mark[y] === t when token t already has a slot to y, slotAt[y] that slot
  const nbStart = new Int32Array(n + 1)
  const edgePair = new Int32Array(edges)
  const nbToAll = new Int32Array(edges)
  const mark = new Int32Array(n).fill(-1)
  const slotAt = new Int32Array(n)
  let pairCount = 0
  for (let t = 0; t < n; t++) {
    nbStart[t] = pairCount
    for (let k = outStart[t]!; k < outStart[t + 1]!; k++) {
      const e = outEdges[k]!
      const y = to[e]!
      if (mark[y] !== t) {
        mark[y] = t
        slotAt[y] = pairCount
        nbToAll[pairCount++] = y
      }
      edgePair[e] = slotAt[y]!
    }
  }
  nbStart[n] = pairCount
  const nbTo = nbToAll.slice(0, pairCount)
  // the edges of each pair slot, in edge order
  const { start: pairStart, items: pairEdges } = groupEdges(edgePair, edges, pairCount)
  const nbSorted = new Int32Array(pairCount)
  for (let p = 0; p < pairCount; p++) nbSorted[p] = p
  for (let t = 0; t < n; t++) nbSorted.subarray(nbStart[t]!, nbStart[t + 1]!).sort((a, b) => nbTo[a]! - nbTo[b]!)
  return {
    index: {
      tokenIndex,
      poolKeys,
      poolEdgeStart: Int32Array.from(starts),
      edgePool: Int32Array.from(owner),
      edgeFrom: Int32Array.from(from),
      edgeTo: Int32Array.from(to),
      edgeCoins: Uint8Array.from(coins),
      outStart,
      outEdges,
      nbStart,
      nbTo,
      nbSorted,
      pairStart,
      pairEdges,
      edgePair,
    },
    pools,
  }
}

/** unbuilt float model; null: built, none */
type Model = Curve | null | undefined

/** `length` unbuilt models, in a dense array */
/** each pool index's positions by pool key, made when a block step first asks */
const positions = new WeakMap<PoolIndex, Map<string, number>>()
const positionsOf = (index: PoolIndex): Map<string, number> => {
  let at = positions.get(index)
  if (at === undefined) {
    at = new Map()
    for (let i = 0; i < index.poolKeys.length; i++) at.set(index.poolKeys[i]!, i)
    positions.set(index, at)
  }
  return at
}

const unbuilt = (length: number): Model[] => {
  const models: Model[] = []
  for (let i = 0; i < length; i++) models.push(undefined)
  return models
}

export class TokenGraph {
  readonly tokenIndex: Map<string, number>
  readonly poolCount: number
  /** outgoing edges of token t: outEdges[outStart[t] .. outStart[t + 1]) */
  readonly outStart: Int32Array
  readonly outEdges: Int32Array
  /** tokens with a pool to token t (its neighbours): nbTo[nbStart[t] .. nbStart[t + 1]) */
  readonly nbStart: Int32Array
  readonly nbTo: Int32Array
  /** edges of pair slot p (see pairSlot): pairEdges[pairStart[p] .. pairStart[p + 1]) */
  readonly pairStart: Int32Array
  readonly pairEdges: Int32Array
  /** output token of each edge */
  readonly edgeTo: Int32Array
  /** pool index of each edge */
  readonly edgePool: Int32Array
  /** this snapshot's pool states, by pool index */
  readonly pools: readonly PoolState[]
  private readonly index: PoolIndex
  /** the snapshot's pools this graph was built from */
  private readonly source: ReadonlyMap<string, PoolState>
  /** float model per edge, built on first use */
  private readonly models: Model[]
  /** best spot rate over each pair slot's edges (all venues), NaN until asked */
  private readonly pairSpots: Float64Array
  /** the edges candidate paths have held, by number */
  private readonly edges = new Map<number, Edge>()

  /** The graph of `snapshot`; from `previous` (of a snapshot with the same pools), when given. */
  constructor(snapshot: RoutingMarket, previous?: TokenGraph) {
    let index: PoolIndex
    let pools: PoolState[]
    let models: Model[]
    let pairSpots: Float64Array
    if (previous !== undefined) {
      index = previous.index
      pools = previous.pools as PoolState[]
      models = previous.models
      pairSpots = previous.pairSpots
      // the pools whose state changed: their states, no models, their pairs' spot rates asked again
      const update = (i: number) => {
        const pool = snapshot.pools.get(index.poolKeys[i]!)!
        if (pool === pools[i]) return
        if (pools === previous.pools) {
          pools = pools.slice()
          models = models.slice()
          pairSpots = pairSpots.slice()
        }
        pools[i] = pool
        for (let e = index.poolEdgeStart[i]!; e < index.poolEdgeStart[i + 1]!; e++) {
          models[e] = undefined
          pairSpots[index.edgePair[e]!] = Number.NaN
        }
      }
      if (snapshot.refreshed !== undefined && snapshot.refreshedFrom !== undefined && snapshot.refreshedFrom === previous.source) {
        // the snapshot right after the previous one: only the pools it names may have changed
        const at = positionsOf(index)
        for (const key of snapshot.refreshed) {
          const i = at.get(key)
          if (i !== undefined) update(i)
        }
      } else {
        for (let i = 0; i < index.poolKeys.length; i++) update(i)
      }
    } else {
      const built = indexPools(snapshot)
      index = built.index
      pools = built.pools
      models = unbuilt(index.edgePool.length)
      pairSpots = new Float64Array(index.nbTo.length).fill(Number.NaN)
      // the models of pools whose state the last graph built already had
      const donor = lastBuilt?.deref()
      if (donor !== undefined) {
        const at = new Map<PoolState, number>()
        for (const [i, p] of donor.pools.entries()) at.set(p, i)
        for (let i = 0; i < pools.length; i++) {
          const j = at.get(pools[i]!)
          if (j === undefined) continue
          const from = donor.index.poolEdgeStart[j]!
          const start = index.poolEdgeStart[i]!
          const count = index.poolEdgeStart[i + 1]! - start
          for (let k = 0; k < count; k++) models[start + k] = donor.models[from + k]
        }
      }
    }
    this.index = index
    this.source = snapshot.pools
    this.pools = pools
    this.models = models
    this.pairSpots = pairSpots
    this.tokenIndex = index.tokenIndex
    this.poolCount = index.poolKeys.length
    this.outStart = index.outStart
    this.outEdges = index.outEdges
    this.nbStart = index.nbStart
    this.nbTo = index.nbTo
    this.pairStart = index.pairStart
    this.pairEdges = index.pairEdges
    this.edgeTo = index.edgeTo
    this.edgePool = index.edgePool
  }

  get tokenCount(): number {
    return this.index.tokenIndex.size
  }

  get edgeCount(): number {
    return this.index.edgePool.length
  }

  /** the pair slot of the edges from token `from` to token `to` (by index), or -1 */
  pairSlot(from: number, to: number): number {
    const sorted = this.index.nbSorted
    const nbTo = this.nbTo
    let lo = this.nbStart[from]!
    let hi = this.nbStart[from + 1]! - 1
    while (lo <= hi) {
      const mid = (lo + hi) >> 1
      const slot = sorted[mid]!
      const t = nbTo[slot]!
      if (t === to) return slot
      if (t < to) lo = mid + 1
      else hi = mid - 1
    }
    return -1
  }

  /** the pool state an edge swaps through */
  pool(edge: number): PoolState {
    return this.pools[this.edgePool[edge]!]!
  }

  /** float model of an edge's swap, undefined when the pool has no usable liquidity this way */
  curve(edge: number): Curve | undefined {
    let m = this.models[edge]
    if (m === undefined) {
      const coins = this.index.edgeCoins[edge]!
      m = buildCurve(this.pools[this.edgePool[edge]!]!, coins & 15, coins >> 4) ?? null
      this.models[edge] = m
    }
    return m ?? undefined
  }

  /** best spot rate over the edges of a pair slot, all venues (0 when none has a model) */
  pairSpot(slot: number): number {
    let best = this.pairSpots[slot]!
    if (best === best) return best
    best = 0
    for (let k = this.pairStart[slot]!; k < this.pairStart[slot + 1]!; k++) {
      const c = this.curve(this.pairEdges[k]!)
      if (c !== undefined && c.spot > best) best = c.spot
    }
    this.pairSpots[slot] = best
    return best
  }

  /** an edge as a candidate path holds it (made once per graph: the searches on a block meet the same few edges) */
  edge(edge: number): Edge {
    let made = this.edges.get(edge)
    if (made === undefined) {
      const index = this.index
      const coins = index.edgeCoins[edge]!
      const poolIndex = index.edgePool[edge]!
      made = new Edge(edge, index.poolKeys[poolIndex]!, this.pools[poolIndex]!, poolIndex, index.edgeFrom[edge]!, index.edgeTo[edge]!, coins & 15, coins >> 4, this.curve(edge))
      this.edges.set(edge, made)
    }
    return made
  }
}

const graphs = new WeakMap<RoutingMarket, TokenGraph>()
/**
 * the latest graph built over each pool index: the next snapshot with the same pools starts
 * from it (a snapshot narrowed to some pools has an index of its own, and leaves the full
 * market's chain of graphs alone)
 */
const latestByIndex = new WeakMap<RoutingMarket["poolsByToken"], TokenGraph>()
/** the last graph built: a new pool set takes the float models of the pool states it shares with it */
let lastBuilt: WeakRef<TokenGraph> | undefined

/** The token graph of a snapshot, built on first use and kept as long as the snapshot lives. */
export const graphOf = (snapshot: RoutingMarket): TokenGraph => {
  let g = graphs.get(snapshot)
  if (g === undefined) {
    g = new TokenGraph(snapshot, latestByIndex.get(snapshot.poolsByToken))
    graphs.set(snapshot, g)
    latestByIndex.set(snapshot.poolsByToken, g)
    lastBuilt = new WeakRef(g)
  }
  return g
}
