// The default scenario's pools as the devnet creates them, planned (no chain), and trades on
// them: the routing benchmark's small market, beside the synthetic one.
import { readFileSync } from "node:fs"
import { type Address, getAddress } from "viem"
import { getTickAtSqrtRatio, MAX_TICK, MIN_TICK, poolTokens, stableRates, type PoolState } from "../../src/amm/index.ts"
import { DEFAULT_SCENARIO_PATH, parseScenario, planScenario } from "../../src/devnet/index.ts"
import type { World } from "../../src/domain/index.ts"
import { nativeTo, type BenchTrade, type SyntheticToken } from "./synthetic-market.ts"

/**
 * The default scenario's pools in the state the devnet deploys them, computed
 * by the scenario planner (no chain): token addresses are stand-ins, so a
 * pool's token0/token1 order may differ from the devnet's, not its economics.
 * Fee-on-transfer and rebasing tokens are left out (never routable).
 */
export const defaultScenarioMarket = () => {
  const scenario = parseScenario(readFileSync(DEFAULT_SCENARIO_PATH, "utf8"), DEFAULT_SCENARIO_PATH)
  const symbols = ["USDC", ...scenario.tokens.map((t) => t.symbol)]
  const addressOf = (symbol: string): Address =>
    symbol === "USDC"
      ? "0x3600000000000000000000000000000000000000"
      : getAddress(`0x${(0x5000 + symbols.indexOf(symbol)).toString(16).padStart(40, "0")}`)
  const plan = planScenario(scenario, addressOf)
  const excluded = new Set(plan.tokens.filter((t) => t.behavior !== "standard").map((t) => t.symbol))
  const pools = new Map<string, PoolState>()
  const byToken = new Map<string, string[]>()
  plan.pools.forEach((p, i) => {
    const symbols = p.kind === "curve-stableswap" ? p.tokens : [p.token0, p.token1]
    if (symbols.some((symbol) => excluded.has(symbol))) return
    const id: `0x${string}` =
      p.kind === "uniswap-v4" ? `0x${(i + 1).toString(16).padStart(64, "0")}` : getAddress(`0x${(0xd000 + i).toString(16).padStart(40, "0")}`)
    let pool: PoolState
    if (p.kind === "curve-stableswap") {
      pool = {
        kind: p.kind, venue: p.dex, id, coins: p.tokens.map(addressOf), balances: p.balances,
        rates: stableRates(p.tokens.map((symbol) => (symbol === "USDC" ? 6 : plan.tokens.find((t) => t.symbol === symbol)!.decimals))),
        amp: BigInt(p.A) * 100n, fee: BigInt(p.fee),
      }
    } else if (p.kind === "uniswap-v2") {
      pool = { kind: p.kind, venue: p.dex, id, token0: addressOf(p.token0), token1: addressOf(p.token1), reserve0: p.reserve0, reserve1: p.reserve1, feeBps: 30 }
    } else {
      const tick = getTickAtSqrtRatio(p.sqrtPriceX96)
      const net = new Map<number, bigint>()
      let liquidity = 0n
      for (const q of p.positions) {
        net.set(q.tickLower, (net.get(q.tickLower) ?? 0n) + q.liquidity)
        net.set(q.tickUpper, (net.get(q.tickUpper) ?? 0n) - q.liquidity)
        if (q.tickLower <= tick && tick < q.tickUpper) liquidity += q.liquidity
      }
      const ticks = [...net.entries()].sort((a, b) => a[0] - b[0]).map(([t, liquidityNet]) => ({ tick: t, liquidityNet }))
      pool = {
        kind: p.kind, venue: p.dex, id, token0: addressOf(p.token0), token1: addressOf(p.token1), fee: p.fee, tickSpacing: p.tickSpacing,
        sqrtPriceX96: p.sqrtPriceX96, tick, liquidity, ticks, tickLower: MIN_TICK, tickUpper: MAX_TICK,
        ...(p.kind === "uniswap-v4" ? { hooks: "0x0000000000000000000000000000000000000000" as Address } : {}),
      }
    }
    const key = id.toLowerCase()
    pools.set(key, pool)
    for (const t of poolTokens(pool)) {
      const k = t.toLowerCase()
      byToken.set(k, [...(byToken.get(k) ?? []), key])
    }
  })
  const snapshot: World = {
    chainId: 5042, blockNumber: 1n, blockTimestamp: 1_700_000_000n, baseFeeWei: 0n, executor: undefined, prices: new Map(), gasPriceWei: 20_000_000_000n, pools, poolsByToken: byToken,
  }
  const decimals = new Map([["USDC", 6], ...plan.tokens.map((t) => [t.symbol, t.decimals] as const)])
  const usd = new Map(plan.priceFeeds.map((f) => [f.symbol, Number(f.answer) / 1e8]))
  const token = (symbol: string): SyntheticToken => ({ address: addressOf(symbol), decimals: decimals.get(symbol)!, usd: usd.get(symbol)! })
  return { snapshot, token }
}

/** trades on the default scenario: direct pairs, pairs two hops apart, and sizes that split */
export const defaultScenarioTrades = (market: { readonly token: (symbol: string) => SyntheticToken }): BenchTrade[] => {
  const { token } = market
  const t = (kind: string, a: string, b: string, usd: number): BenchTrade => {
    const x = token(a)
    const y = token(b)
    return {
      kind,
      params: { tokenIn: x.address, tokenOut: y.address, amountIn: BigInt(Math.floor((usd / x.usd) * 10 ** x.decimals)), nativeToTokenOut: nativeTo(y) },
      nativeToTokenIn: nativeTo(x),
    }
  }
  return [
    t("one-hop", "USDC", "USDT", 100),
    t("one-hop", "WETH", "USDC", 500),
    t("one-hop", "cirBTC", "WBTC", 1000),
    t("one-hop", "USDT", "WETH", 300),
    t("two-hop", "WBTC", "USDC", 1000),
    t("two-hop", "WBTC", "EURC", 2000),
    t("two-hop", "USDT", "cirBTC", 500),
    t("two-hop", "EURC", "WETH", 800),
    t("split", "USDC", "EURC", 200_000),
    t("split", "EURC", "USDC", 150_000),
    t("split", "USDC", "cirBTC", 100_000),
    t("split", "USDT", "USDC", 500_000),
  ]
}
