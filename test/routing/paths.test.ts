// Candidate paths: each candidate's figures for the whole input (gas, saturation, spot rate)
// are those its own curves give, on the synthetic market's trades and at sizes past its pools.
import { describe, expect, test } from "bun:test"
import { syntheticMarket, syntheticTrades } from "../../bench/support/synthetic-market.ts"
import { GAS, graphOf, tokenKey } from "../../src/routing/index.ts"
import { pathMarginal } from "../../src/routing/curve.ts"
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
})
