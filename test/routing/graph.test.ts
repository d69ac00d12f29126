// The token graph from block to block: a snapshot with the same pools as the
// last one graphed (the same poolsByToken) reuses its index, with new edges for
// the pools whose state changed; every route on it is the route a graph built
// from nothing gives.
import { describe, expect, test } from "bun:test"
import { findBestRoute } from "../../src/routing/index.ts"
import { graphOf } from "../../src/routing/graph.ts"
import { concentrated, snapshotOf, stable, token, USDC, v2 } from "./helpers.ts"
import type { World } from "../../src/domain/index.ts"

const E18 = 10n ** 18n
const E6 = 10n ** 6n
const [A, B, C] = [token(1), token(2), token(3)]

const market = () =>
  snapshotOf([
    v2(A, B, 1_000n * E18, 2_000n * E18),
    v2(B, C, 5_000n * E18, 5_000n * E18),
    v2(A, C, 800n * E18, 1_700n * E18),
    concentrated({ token0: A, token1: B, fee: 3000, tickSpacing: 60, tick: 6960, positions: [{ lower: -887220, upper: 887220, liquidity: 10n ** 21n }] }),
    stable([USDC, C], [1_000_000n * E6, 1_000_000n * E18], [6, 18], 400n, 4_000_000n),
  ])

/** The snapshot at the next block: `changes` applied to some pools, the pool index kept. */
const nextBlock = (world: World, changes: Record<string, (pool: any) => object>): World => {
  const pools = new Map(world.pools)
  for (const [key, change] of Object.entries(changes)) pools.set(key, { ...pools.get(key)!, ...change(pools.get(key)) } as never)
  return { ...world, pools }
}

const trades = [
  { tokenIn: A, tokenOut: B, amountIn: 30n * E18 },
  { tokenIn: A, tokenOut: C, amountIn: 100n * E18 },
  { tokenIn: C, tokenOut: USDC, amountIn: 10_000n * E18 },
  { tokenIn: B, tokenOut: USDC, amountIn: 50n * E18 },
]

describe("the graph of the next block", () => {
  test("routes on it are the routes of a graph built from nothing", () => {
    const first = market()
    graphOf(first)
    const [ab, bc] = [...first.pools.keys()]
    const second = nextBlock(first, { [ab!]: (p) => ({ reserve0: p.reserve0 * 3n }), [bc!]: (p) => ({ reserve1: p.reserve1 / 4n }) })
    expect(second.poolsByToken).toBe(first.poolsByToken)
    // the same snapshot with its own pool index: a graph built from nothing
    const rebuilt = { ...second, poolsByToken: new Map(second.poolsByToken) }
    for (const trade of trades) {
      const reused = findBestRoute(second, trade)
      expect(reused).toEqual(findBestRoute(rebuilt, trade))
      // and not the first block's answer where the changed pools matter
      if (trade.tokenIn === A && trade.tokenOut === B) expect(reused!.amountOut).not.toBe(findBestRoute(first, trade)!.amountOut)
    }
  })

  test("the unchanged pools keep their index and float models; the changed ones get new models", () => {
    const first = market()
    const g1 = graphOf(first)
    // the models a search of the first block built
    for (let e = 0; e < g1.edgeCount; e++) g1.curve(e)
    const [ab] = [...first.pools.keys()]
    const second = nextBlock(first, { [ab!]: (p) => ({ reserve1: p.reserve1 + 1n }) })
    const g2 = graphOf(second)
    expect(g2).not.toBe(g1)
    expect(g2.tokenIndex).toBe(g1.tokenIndex)
    expect(g2.outEdges).toBe(g1.outEdges)
    expect(g2.edgeCount).toBe(g1.edgeCount)
    for (let e = 0; e < g2.edgeCount; e++) {
      const [before, after] = [g1.edge(e), g2.edge(e)]
      expect(after.key).toBe(before.key)
      if (after.key === ab) {
        expect(after.pool).toBe(second.pools.get(ab)!)
        expect(after.curve).not.toBe(before.curve)
      } else {
        expect(after.pool).toBe(before.pool)
        expect(after.curve).toBe(before.curve)
      }
    }
    // a snapshot with nothing changed shares the graph's pool states and models
    const third = { ...second }
    const g3 = graphOf(third)
    expect(g3.pools).toBe(g2.pools)
    for (let e = 0; e < g3.edgeCount; e++) expect(g3.curve(e)).toBe(g2.curve(e))
  })

  test("a block step's snapshot (refreshed, from the pools graphed last): only the pools it names are looked up", () => {
    const first = market()
    graphOf(first)
    const [ab, bc] = [...first.pools.keys()]
    const stepped = nextBlock(first, { [ab!]: (p) => ({ reserve0: p.reserve0 * 3n }) })
    // its pools counted as routing reads them
    let lookups = 0
    const counted = new Map(stepped.pools)
    const get = counted.get.bind(counted)
    counted.get = (key: string) => (lookups++, get(key))
    const second = { ...stepped, pools: counted, refreshed: [ab!, bc!], refreshedFrom: first.pools }
    graphOf(second)
    expect(lookups).toBe(2)
    for (const trade of trades) expect(findBestRoute(second, trade)).toEqual(findBestRoute({ ...second, poolsByToken: new Map(second.poolsByToken) }, trade))
  })

  test("a snapshot whose refreshed names count from pools not graphed (a block skipped) is compared pool by pool", () => {
    const first = market()
    graphOf(first)
    const [ab, bc] = [...first.pools.keys()]
    // block 2 changes ab and is never graphed; block 3 changes bc and names only it
    const second = nextBlock(first, { [ab!]: (p) => ({ reserve0: p.reserve0 * 3n }) })
    const third = { ...nextBlock(second, { [bc!]: (p) => ({ reserve1: p.reserve1 / 4n }) }), refreshed: [bc!], refreshedFrom: second.pools }
    for (const trade of trades) expect(findBestRoute(third, trade)).toEqual(findBestRoute({ ...third, poolsByToken: new Map(third.poolsByToken) }, trade))
    expect(graphOf(third).pools).toContain(third.pools.get(ab!)!)
  })

  test("a snapshot with another pool set is graphed from nothing, with the float models of the pool states it shares", () => {
    const first = market()
    const g1 = graphOf(first)
    const models = new Map<string, unknown>()
    for (let e = 0; e < g1.edgeCount; e++) {
      const edge = g1.edge(e)
      models.set(`${edge.key}:${edge.coinIn}:${edge.coinOut}`, edge.curve)
    }
    const fewer = snapshotOf([...first.pools.values()].slice(1))
    const g = graphOf(fewer)
    expect(g.poolCount).toBe(4)
    for (let e = 0; e < g.edgeCount; e++) {
      const edge = g.edge(e)
      expect(edge.curve).toBe(models.get(`${edge.key}:${edge.coinIn}:${edge.coinOut}`) as never)
    }
    expect(findBestRoute(fewer, trades[0]!)).toEqual(findBestRoute({ ...fewer, poolsByToken: new Map(fewer.poolsByToken) }, trades[0]!))
  })
})
