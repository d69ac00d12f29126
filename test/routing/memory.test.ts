// The routing index and float models stay small per pool: at tens of
// thousands of pools, pool states plus index must fit about 2 KB a pool.
// Measured on the benchmark's synthetic market of 20,000 pools of every kind
// after a full collection: the heap's bytes (the bound leaves room for the
// engine's allocation and collection timing) and its cells, which count
// exactly (the index is flat arrays, a model one or two cells per edge), so
// one more object per edge cannot hide in the byte margin.
import { heapStats } from "bun:jsc"
import { expect, test } from "bun:test"
import { syntheticMarket } from "../../bench/support/synthetic-market.ts"
import { graphOf } from "../../src/routing/index.ts"

const POOLS = 20_000
/** bytes per pool of the token graph and every edge's float model */
const BYTES_BOUND = 1000
/** heap cells per pool of the token graph alone */
const INDEX_CELLS_BOUND = 0.5
/** heap cells per pool of the graph and the models (~5 today; a market has ~2.5 edges a pool) */
const CELLS_BOUND = 6.5

const measure = (): { bytes: number; cells: number } => {
  Bun.gc(true)
  const stats = heapStats()
  return { bytes: stats.heapSize, cells: stats.objectCount }
}

test("the routing index and the float models of a 20,000-pool market take a few hundred bytes a pool", () => {
  const market = syntheticMarket(POOLS)
  const before = measure()
  const graph = graphOf(market.snapshot)
  const afterIndex = measure()
  // every pool's models, as a long-running service ends up with
  for (let e = 0; e < graph.edgeCount; e++) graph.curve(e)
  const after = measure()
  const perPool = {
    bytes: (after.bytes - before.bytes) / POOLS,
    indexCells: (afterIndex.cells - before.cells) / POOLS,
    cells: (after.cells - before.cells) / POOLS,
  }
  expect(graph.poolCount).toBe(POOLS)
  expect(graph.edgeCount).toBeGreaterThan(2 * POOLS)
  expect(perPool.bytes).toBeLessThan(BYTES_BOUND)
  expect(perPool.indexCells).toBeLessThan(INDEX_CELLS_BOUND)
  expect(perPool.cells).toBeLessThan(CELLS_BOUND)
  // the market and the graph are live until measured
  expect(market.snapshot.pools.size).toBe(POOLS)
}, 60_000)
