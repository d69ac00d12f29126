// Candidate paths: each candidate's figures for the whole input (gas, saturation, spot rate)
// are those its own curves give, on the synthetic market's trades and at sizes past its pools.
import { describe, expect, test } from "bun:test"
import { syntheticMarket, syntheticTrades } from "../../bench/support/synthetic-market.ts"
import { GAS, graphOf, tokenKey } from "../../src/routing/index.ts"
import { pathMarginal, pathOut } from "../../src/routing/curve.ts"
import { findCandidates } from "../../src/routing/paths.ts"

describe("a candidate's figures for the whole input", () => {
  const market = syntheticMarket(2_000)
  const graph = graphOf(market.snapshot)
  const trades = syntheticTrades(market, 60)

  test("gas, saturation and spot rate follow the path's curves, for inputs the pools take and inputs past them", () => {
    let candidates = 0
    let saturated = 0
    for (const t of trades) {
      for (const scale of [1, 1_000, 1_000_000]) {
        const total = Number(t.params.amountIn) * scale
        for (const c of findCandidates(graph, tokenKey(t.params.tokenIn), tokenKey(t.params.tokenOut), total, 3, 1e-6)) {
          candidates++
          if (c.saturated) saturated++
          expect(c.gas).toBe(GAS.base + GAS.perSplit + c.hopsGas(total) + (c.usesV4 ? GAS.v4Session : 0))
          expect(c.saturated).toBe(pathMarginal(c.curves, total) === 0)
          expect(c.spot).toBe(pathMarginal(c.curves, 0))
        }
      }
    }
    expect(candidates).toBeGreaterThan(500)
    // both kinds of path were met
    expect(saturated).toBeGreaterThan(0)
    expect(saturated).toBeLessThan(candidates)
  })

  test("the candidates by net come first, best first, each its float output less its gas cost; one edge is one object on a graph", () => {
    let manyPaths = 0
    for (const t of trades) {
      for (const scale of [1, 100]) {
        const total = Number(t.params.amountIn) * scale
        const [tokenIn, tokenOut] = [tokenKey(t.params.tokenIn), tokenKey(t.params.tokenOut)]
        // a gas price at which the ticks a path crosses move its rank: 100,000 gas ~ 0.3% of the output
        const best = findCandidates(graph, tokenIn, tokenOut, total, 3, 0)[0]
        if (best === undefined) continue
        const gasRate = (best.estimate * 0.003) / 100_000
        const found = findCandidates(graph, tokenIn, tokenOut, total, 3, gasRate)
        // past KEEP_BY_NET + KEEP_BY_SPOT recorded paths, the first 12 are the best by net, then up to 4 by spot rate
        const byNet = found.length > 12 ? 12 : found.length
        if (found.length > 12) manyPaths++
        for (const [i, c] of found.entries()) {
          expect(c.estimate).toBe(pathOut(c.curves, total))
          expect(c.net).toBe(c.estimate - gasRate * c.gas)
          expect(new Set(c.edges.map((e) => e.poolIndex)).size).toBe(c.edges.length)
          if (i > 0 && i < byNet) expect(c.net).toBeLessThanOrEqual(found[i - 1]!.net)
          for (const e of c.edges) expect(graph.edge(e.id)).toBe(e)
        }
      }
    }
    expect(manyPaths).toBeGreaterThan(0)
  })
})
