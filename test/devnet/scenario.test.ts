// Scenarios that are malformed or cannot be built are refused, before anything
// is deployed, with a message naming the entry.
import { describe, expect, test } from "bun:test"
import { getContractAddress, type Address } from "viem"
import { parseScenario, planScenario, ScenarioError } from "../../src/devnet/scenario.ts"
import { isqrt, parseUnitsExact } from "../../src/devnet/decimal.ts"

const USDC: Address = "0x3600000000000000000000000000000000000000"
const addressOf = (symbol: string): Address =>
  symbol === "USDC" ? USDC : getContractAddress({ from: "0xa0Ee7A142d267C1f36714E4a8F75612F20a79720", nonce: BigInt(symbol.length) })

const base = {
  tokens: [{ symbol: "EURC", decimals: 6 }, { symbol: "cirBTC", decimals: 8 }],
  pools: [
    { dex: "uniswap-v2", tokens: ["USDC", "EURC"], reserves: ["1000", "900"] },
    { dex: "uniswap-v3", tokens: ["USDC", "cirBTC"], fee: 3000, price: "0.00001",
      positions: [{ lower: "0.000009", upper: "0.000011", amount0: "1000" }] },
  ],
}

const refusal = (scenario: unknown): string => {
  try {
    planScenario(parseScenario(typeof scenario === "string" ? scenario : JSON.stringify(scenario)), addressOf)
  } catch (e) {
    expect(e).toBeInstanceOf(ScenarioError)
    return (e as ScenarioError).message
  }
  throw new Error("the scenario was accepted")
}

const withPool = (pool: unknown, index = 1) => ({ ...base, pools: base.pools.map((p, i) => (i === index ? pool : p)) })

describe("scenario refusals", () => {
  test("a valid scenario plans", () => {
    const plan = planScenario(parseScenario(JSON.stringify(base)), addressOf)
    expect(plan.pools).toHaveLength(2)
    const v2 = plan.pools[0]!
    if (v2.dex !== "uniswap-v2") throw new Error("expected v2")
    // USDC has 6 decimals, EURC 6: reserves exactly as written, in pool order
    const usdcFirst = USDC.toLowerCase() < addressOf("EURC").toLowerCase()
    expect(usdcFirst ? [v2.reserve0, v2.reserve1] : [v2.reserve1, v2.reserve0]).toEqual([1_000_000_000n, 900_000_000n])
  })

  test("not JSON", () => {
    expect(refusal("{ tokens: ")).toContain("not valid JSON")
  })

  test("a missing field names its path", () => {
    const message = refusal(withPool({ dex: "uniswap-v2", tokens: ["USDC", "EURC"] }, 0))
    expect(message).toContain("pools")
    expect(message).toContain("reserves")
  })

  test("an unknown field is refused", () => {
    expect(refusal({ ...base, tokenz: [] })).toContain("tokenz")
  })

  test("an unknown token names the pool", () => {
    expect(refusal(withPool({ dex: "uniswap-v2", tokens: ["USDC", "FOO"], reserves: ["1000", "1000"] }, 0))).toBe(
      "pools[0] (uniswap-v2 USDC/FOO): unknown token FOO",
    )
  })

  test("a pool of one token", () => {
    expect(refusal(withPool({ dex: "uniswap-v2", tokens: ["EURC", "EURC"], reserves: ["1000", "1000"] }, 0))).toContain(
      "pools[0] (uniswap-v2 EURC/EURC): a pool needs two different tokens",
    )
  })

  test("a fee-on-transfer token without its fee", () => {
    expect(refusal({ ...base, tokens: [...base.tokens, { symbol: "TAX", decimals: 18, behavior: "fee-on-transfer" }] })).toBe(
      "tokens[2] (TAX): a fee-on-transfer token needs feeBps",
    )
  })

  test("a symbol defined twice, USDC included", () => {
    expect(refusal({ ...base, tokens: [...base.tokens, { symbol: "USDC", decimals: 6 }] })).toContain("tokens[2] (USDC)")
  })

  test("more decimal places than the token has", () => {
    expect(refusal(withPool({ dex: "uniswap-v2", tokens: ["USDC", "EURC"], reserves: ["1000.0000001", "900"] }, 0))).toContain(
      "pools[0] (uniswap-v2 USDC/EURC): reserves[0]: 1000.0000001 USDC has more decimal places than USDC's 6",
    )
  })

  test("a range that rounds to nothing", () => {
    const message = refusal(withPool({ dex: "uniswap-v3", tokens: ["USDC", "cirBTC"], fee: 3000, price: "0.00001",
      positions: [{ lower: "0.0000100", upper: "0.00001002", amount0: "1000" }] }))
    expect(message).toBe("pools[1] (uniswap-v3 USDC/cirBTC): positions[0]: range 0.0000100..0.00001002 rounds to nothing at tick spacing 60")
  })

  test("lower above upper", () => {
    expect(refusal(withPool({ dex: "uniswap-v3", tokens: ["USDC", "cirBTC"], fee: 3000, price: "0.00001",
      positions: [{ lower: "0.000011", upper: "0.000009", amount0: "1000" }] }))).toContain("positions[0]: lower 0.000011 must be below upper 0.000009")
  })

  test("two amounts for one position", () => {
    expect(refusal(withPool({ dex: "uniswap-v3", tokens: ["USDC", "cirBTC"], fee: 3000, price: "0.00001",
      positions: [{ lower: "0.000009", upper: "0.000011", amount0: "1000", amount1: "1" }] }))).toContain(
      "positions[0]: give exactly one of liquidity, amount0 or amount1",
    )
  })

  test("an amount of a token the range cannot hold", () => {
    // the whole range is above the price: it holds only tokens[1], never tokens[0]'s amount… and vice versa
    const message = refusal(withPool({ dex: "uniswap-v3", tokens: ["USDC", "cirBTC"], fee: 3000, price: "0.00001",
      positions: [{ lower: "0.000002", upper: "0.000005", amount0: "1000" }] }))
    expect(message).toContain("pools[1] (uniswap-v3 USDC/cirBTC): positions[0]:")
    expect(message).toContain("USDC")
  })

  test("a V3 fee tier that does not exist", () => {
    expect(refusal(withPool({ dex: "uniswap-v3", tokens: ["USDC", "cirBTC"], fee: 2500, price: "0.00001",
      positions: [{ lower: "0.000009", upper: "0.000011", amount0: "1000" }] }))).toContain("fee")
  })

  test("the same pool twice", () => {
    expect(refusal({ ...base, pools: [base.pools[0], { ...base.pools[0], tokens: ["EURC", "USDC"] }] })).toBe(
      "pools[1] (uniswap-v2 EURC/USDC): the same pool is listed twice",
    )
  })

  test("balances of an unknown token or account", () => {
    expect(refusal({ ...base, balances: [{ account: 0, amounts: { FOO: "1" } }] })).toBe("balances[0].amounts.FOO: unknown token FOO")
    expect(refusal({ ...base, balances: [{ account: 10, amounts: { EURC: "1" } }] })).toContain("account")
  })

  test("a price feed for an unknown token, or a zero price", () => {
    expect(refusal({ ...base, priceFeeds: { FOO: "1" } })).toBe("priceFeeds.FOO: unknown token FOO")
    expect(refusal({ ...base, priceFeeds: { EURC: "0" } })).toBe("priceFeeds.EURC: a price must be above zero")
  })
})

describe("decimal helpers", () => {
  test("parseUnitsExact", () => {
    expect(parseUnitsExact("2500.5", 6)).toBe(2_500_500_000n)
    expect(parseUnitsExact("0.00000001", 8)).toBe(1n)
    expect(parseUnitsExact("1.500000000", 6)).toBe(1_500_000n)
    expect(parseUnitsExact("0.000000001", 8)).toBeUndefined()
  })

  test("isqrt is the floor square root", () => {
    for (const n of [0n, 1n, 2n, 3n, 4n, 15n, 16n, 17n, (1n << 192n) + 12345n, 10n ** 77n]) {
      const r = isqrt(n)
      expect(r * r <= n && (r + 1n) * (r + 1n) > n).toBe(true)
    }
  })
})
