// The token graph of one market snapshot: tokens numbered densely, a directed
// edge per pool and direction, outgoing edges per token and the edges of each
// ordered token pair. Built once per snapshot (snapshots are immutable) and
// shared by every search on it.
import type { PoolState } from "../amm/index.ts"
import type { RoutingMarket } from "./types.ts"
import { type Curve, curveOf } from "./curve.ts"

/** The ERC-20 USDC: native USDC is routed as this token. */
export const USDC_ERC20 = "0x3600000000000000000000000000000000000000"
const NATIVE_ZERO = "0x0000000000000000000000000000000000000000"
const NATIVE_EEEE = "0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee"

/**
 * Graph key of a requested token: lower-case, with the native USDC
 * placeholders mapped to the ERC-20 USDC (one balance, routed as the ERC-20).
 * Pool tokens are keyed by their lower-case address only: a pool holding the
 * native currency itself would count in 18 decimals and is a different token.
 */
export const tokenKey = (address: string): string => {
  const a = address.toLowerCase()
  return a === NATIVE_ZERO || a === NATIVE_EEEE ? USDC_ERC20 : a
}

export class Edge {
  private model: Curve | null | undefined = undefined
  constructor(
    readonly pool: PoolState,
    /** dense index of the pool in this graph (for pool-disjointness checks) */
    readonly poolIndex: number,
    /** dense index of the input token */
    readonly from: number,
    /** dense index of the output token */
    readonly to: number,
    readonly zeroForOne: boolean,
  ) {}

  /** float model of the swap, undefined when the pool has no usable liquidity this way */
  get curve(): Curve | undefined {
    if (this.model === undefined) this.model = curveOf(this.pool, this.zeroForOne) ?? null
    return this.model ?? undefined
  }
}

export class TokenGraph {
  /** dense index of each token key */
  readonly tokenIndex = new Map<string, number>()
  /** outgoing edges per token index */
  readonly out: Edge[][] = []
  /** tokens with a pool to each token (its neighbours), per token index */
  readonly neighbours: number[][] = []
  readonly poolCount: number
  /** edges of each ordered pair, keyed from * tokenCount + to once built */
  private readonly pairs = new Map<number, Edge[]>()

  constructor(snapshot: RoutingMarket) {
    const seen = new Set<PoolState>()
    const edges: Edge[] = []
    for (const [token, ids] of snapshot.poolsByToken) {
      const t = token.toLowerCase()
      for (const id of ids) {
        const pool = snapshot.pools.get(id) ?? snapshot.pools.get(id.toLowerCase())
        if (pool === undefined || seen.has(pool)) continue
        const k0 = pool.token0.toLowerCase()
        const k1 = pool.token1.toLowerCase()
        // a pool listed under a token it does not hold, or joining a token to itself, is ignored
        if (k0 === k1 || (k0 !== t && k1 !== t)) continue
        seen.add(pool)
        const i0 = this.indexOf(k0)
        const i1 = this.indexOf(k1)
        edges.push(new Edge(pool, seen.size - 1, i0, i1, true), new Edge(pool, seen.size - 1, i1, i0, false))
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
    return this.pairs.get(from * this.tokenIndex.size + to)
  }

  private indexOf(token: string): number {
    let i = this.tokenIndex.get(token)
    if (i === undefined) this.tokenIndex.set(token, (i = this.tokenIndex.size))
    return i
  }
}

const graphs = new WeakMap<RoutingMarket, TokenGraph>()

/** The token graph of a snapshot, built on first use and kept as long as the snapshot lives. */
export const graphOf = (snapshot: RoutingMarket): TokenGraph => {
  let g = graphs.get(snapshot)
  if (g === undefined) {
    g = new TokenGraph(snapshot)
    graphs.set(snapshot, g)
  }
  return g
}
