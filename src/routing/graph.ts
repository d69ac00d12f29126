// The token graph of one market snapshot: tokens numbered densely, a directed
// edge per pool and ordered pair of its tokens (two for a pair, up to twelve
// for a 4-coin stable pool), outgoing edges per token and the edges of each
// ordered token pair. Built once per snapshot (snapshots are immutable) and
// shared by every search on it. A snapshot with the same pools as the last one
// graphed (the same poolsByToken: only states changed, as from block to block)
// gets that graph with new edges for the pools whose state changed only.
import { poolTokens, type PoolState } from "../amm/index.ts"
import { isNativePlaceholder, USDC_ERC20_ADDRESS } from "../domain/index.ts"
import type { RoutingMarket } from "./types.ts"
import { type Curve, curveOf } from "./curve.ts"

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

export class Edge {
  private model: Curve | null | undefined = undefined
  constructor(
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
  ) {}

  /** true when the input is the pool's first token (a pair's token0) */
  get zeroForOne(): boolean {
    return this.coinIn === 0
  }

  /** float model of the swap, undefined when the pool has no usable liquidity this way */
  get curve(): Curve | undefined {
    if (this.model === undefined) this.model = curveOf(this.pool, this.coinIn, this.coinOut) ?? null
    return this.model ?? undefined
  }
}

export class TokenGraph {
  /** dense index of each token key */
  readonly tokenIndex: Map<string, number>
  /** outgoing edges per token index */
  readonly out: Edge[][]
  /** tokens with a pool to each token (its neighbours), per token index */
  readonly neighbours: number[][]
  readonly poolCount: number
  /** edges of each ordered pair, keyed from * tokenCount + to: the pairs changed since `pairs` was built, then `pairs` */
  private readonly pairs: Map<number, Edge[]>
  private readonly changedPairs: Map<number, Edge[]>
  /** the key of each pool, by its index */
  private readonly poolKeys: string[]
  /** the edges of each pool, by its index */
  private readonly poolEdges: Edge[][]

  /** The graph of `snapshot`; from `previous` (of a snapshot with the same pools), when given. */
  constructor(snapshot: RoutingMarket, previous?: TokenGraph) {
    if (previous !== undefined) {
      this.tokenIndex = previous.tokenIndex
      this.neighbours = previous.neighbours
      this.poolCount = previous.poolCount
      // the edges of pools whose state changed, new; the lists holding them, copied
      const replaced = new Map<Edge, Edge>()
      this.poolKeys = previous.poolKeys
      let poolEdges = previous.poolEdges
      for (let i = 0; i < previous.poolKeys.length; i++) {
        const edges = previous.poolEdges[i]!
        const pool = snapshot.pools.get(previous.poolKeys[i]!)!
        if (pool === edges[0]!.pool) continue
        if (poolEdges === previous.poolEdges) poolEdges = previous.poolEdges.slice()
        const fresh = edges.map((e) => new Edge(e.key, pool, e.poolIndex, e.from, e.to, e.coinIn, e.coinOut))
        poolEdges[i] = fresh
        for (const [k, e] of edges.entries()) replaced.set(e, fresh[k]!)
      }
      this.poolEdges = poolEdges
      if (replaced.size === 0) {
        this.out = previous.out
        this.pairs = previous.pairs
        this.changedPairs = previous.changedPairs
        return
      }
      const swap = (list: readonly Edge[]) => list.map((e) => replaced.get(e) ?? e)
      this.out = [...previous.out]
      const n = this.tokenIndex.size
      const changedPairs = new Map(previous.changedPairs)
      for (const e of replaced.keys()) {
        if (this.out[e.from] === previous.out[e.from]) this.out[e.from] = swap(previous.out[e.from]!)
        const key = e.from * n + e.to
        if (changedPairs.get(key) === previous.changedPairs.get(key)) changedPairs.set(key, swap(previous.pair(e.from, e.to)!))
      }
      // the changed pairs folded into a new base once they are many (blocks add up)
      if (changedPairs.size * 8 > previous.pairs.size) {
        this.pairs = new Map([...previous.pairs, ...changedPairs])
        this.changedPairs = new Map()
      } else {
        this.pairs = previous.pairs
        this.changedPairs = changedPairs
      }
      return
    }
    this.poolKeys = []
    this.poolEdges = []
    this.changedPairs = new Map()
    this.tokenIndex = new Map()
    this.out = []
    this.neighbours = []
    this.pairs = new Map()
    const seen = new Set<PoolState>()
    const edges: Edge[] = []
    for (const [token, ids] of snapshot.poolsByToken) {
      const t = token.toLowerCase()
      for (const id of ids) {
        const pool = snapshot.pools.get(id) ?? snapshot.pools.get(id.toLowerCase())
        if (pool === undefined || seen.has(pool)) continue
        const keys = poolTokens(pool).map((a) => a.toLowerCase())
        // a pool listed under a token it does not hold, or holding a token twice, is ignored
        if (!keys.includes(t) || new Set(keys).size !== keys.length) continue
        seen.add(pool)
        const index = keys.map((k) => this.indexOf(k))
        const key = snapshot.pools.has(id) ? id : id.toLowerCase()
        const own: Edge[] = []
        for (let a = 0; a < index.length; a++) {
          for (let b = 0; b < index.length; b++) {
            if (a !== b) own.push(new Edge(key, pool, seen.size - 1, index[a]!, index[b]!, a, b))
          }
        }
        this.poolKeys.push(key)
        this.poolEdges.push(own)
        edges.push(...own)
      }
    }
    this.poolCount = seen.size
    const n = this.tokenIndex.size
    for (let i = 0; i < n; i++) {
      this.out.push([])
      this.neighbours.push([])
    }
    for (const e of edges) {
      this.out[e.from]!.push(e)
      const key = e.from * n + e.to
      const list = this.pairs.get(key)
      if (list === undefined) {
        this.pairs.set(key, [e])
        this.neighbours[e.from]!.push(e.to)
      } else list.push(e)
    }
  }

  get tokenCount(): number {
    return this.tokenIndex.size
  }

  /** edges from token `from` to token `to` (by index), or undefined */
  pair(from: number, to: number): readonly Edge[] | undefined {
    const key = from * this.tokenIndex.size + to
    return this.changedPairs.get(key) ?? this.pairs.get(key)
  }

  private indexOf(token: string): number {
    let i = this.tokenIndex.get(token)
    if (i === undefined) this.tokenIndex.set(token, (i = this.tokenIndex.size))
    return i
  }
}

const graphs = new WeakMap<RoutingMarket, TokenGraph>()
/**
 * the latest graph built over each pool index: the next snapshot with the same pools starts
 * from it (a snapshot narrowed to some venues has an index of its own, and leaves the full
 * market's chain of graphs alone)
 */
const latestByIndex = new WeakMap<RoutingMarket["poolsByToken"], TokenGraph>()

/** The token graph of a snapshot, built on first use and kept as long as the snapshot lives. */
export const graphOf = (snapshot: RoutingMarket): TokenGraph => {
  let g = graphs.get(snapshot)
  if (g === undefined) {
    g = new TokenGraph(snapshot, latestByIndex.get(snapshot.poolsByToken))
    graphs.set(snapshot, g)
    latestByIndex.set(snapshot.poolsByToken, g)
  }
  return g
}
