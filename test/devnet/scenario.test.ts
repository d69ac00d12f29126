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
    if (v2.kind !== "uniswap-v2") throw new Error("expected v2")
    // USDC has 6 decimals, EURC 6: reserves exactly as written, in pool order
    const usdcFirst = USDC.toLowerCase() < addressOf("EURC").toLowerCase()
    expect(usdcFirst ? [v2.reserve0, v2.reserve1] : [v2.reserve1, v2.reserve0]).toEqual([1_000_000_000n, 900_000_000n])
  })

  test("chainId: Arc's (5042) when absent, Arc testnet's (5042002) when asked, no other", () => {
    const plan = (scenario: unknown) => planScenario(parseScenario(JSON.stringify(scenario)), addressOf)
    expect(plan(base).chainId).toBe(5042)
    expect(plan({ ...base, chainId: 5042 }).chainId).toBe(5042)
    expect(plan({ ...base, chainId: 5042002 }).chainId).toBe(5042002)
    for (const chainId of [1, 31337, "5042002", null]) {
      expect(refusal({ ...base, chainId })).toBe(`scenario: chainId: expected 5042 (Arc) or 5042002 (Arc testnet), got ${JSON.stringify(chainId)}`)
    }
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

  test("permit: true or false; anything else, or a permit on a token that is not standard, is refused by the entry", () => {
    const plan = (permit: unknown) =>
      planScenario(parseScenario(JSON.stringify({ ...base, tokens: [{ symbol: "EURC", decimals: 6, permit }, base.tokens[1]] })), addressOf)
    const permits = (p: ReturnType<typeof plan>) => Object.fromEntries(p.tokens.map((t) => [t.symbol, t.permit]))
    expect(permits(plan(true))).toEqual({ EURC: true, cirBTC: false })
    expect(permits(plan(false))).toEqual({ EURC: false, cirBTC: false })
    for (const permit of ["true", 1, null, { name: "EURC" }]) {
      expect(refusal({ ...base, tokens: [base.tokens[0], { symbol: "cirBTC", decimals: 8, permit }] })).toBe(
        `tokens[1] (cirBTC): permit must be true or false, not ${JSON.stringify(permit)}`,
      )
    }
    expect(refusal({ ...base, tokens: [...base.tokens, { symbol: "TAX", decimals: 18, behavior: "fee-on-transfer", feeBps: 100, permit: true }] })).toBe(
      "tokens[2] (TAX): permit applies only to a standard token, not to a fee-on-transfer one",
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

describe("venues", () => {
  const stable = { dex: "xylonet", tokens: ["USDC", "EURC"], A: 400, fee: "0.0004", balances: ["1000", "1000"] }
  const withVenues = (pools: unknown[], dexes: unknown = [{ name: "arcade-v2", kind: "uniswap-v2" }, { name: "xylonet", kind: "curve-stableswap" }]) =>
    ({ ...base, dexes, pools: [...base.pools, ...pools] })
  const plan = (scenario: unknown) => planScenario(parseScenario(JSON.stringify(scenario)), addressOf)

  test("the default venues always exist and come first; the scenario's follow in order", () => {
    expect(plan(base).venues).toEqual([
      { name: "uniswap-v2", kind: "uniswap-v2" },
      { name: "uniswap-v3", kind: "uniswap-v3" },
      { name: "uniswap-v4", kind: "uniswap-v4" },
    ])
    expect(plan(withVenues([stable])).venues.slice(3)).toEqual([{ name: "arcade-v2", kind: "uniswap-v2" }, { name: "xylonet", kind: "curve-stableswap" }])
  })

  test("the same pair on two venues of one kind is two pools; twice on one venue is refused", () => {
    const pair = { dex: "arcade-v2", tokens: ["USDC", "EURC"], reserves: ["500", "450"] }
    const planned = plan(withVenues([pair, stable]))
    expect(planned.pools.map((p) => `${p.dex}:${p.kind}`)).toEqual(["uniswap-v2:uniswap-v2", "uniswap-v3:uniswap-v3", "arcade-v2:uniswap-v2", "xylonet:curve-stableswap"])
    expect(refusal(withVenues([pair, { ...pair, tokens: ["EURC", "USDC"] }, stable]))).toBe("pools[3] (arcade-v2 EURC/USDC): the same pool is listed twice")
  })

  test("a stable pool plans with its coins in the order given, A, the fee in 1e-10 units and exact balances", () => {
    const planned = plan(withVenues([{ ...stable, tokens: ["EURC", "USDC", "cirBTC"], fee: "0.0004", balances: ["1000.5", "2000", "0.00000001"] }]))
    expect(planned.pools[2]).toEqual({
      index: 2, dex: "xylonet", kind: "curve-stableswap", tokens: ["EURC", "USDC", "cirBTC"], A: 400, fee: 4_000_000,
      balances: [1_000_500_000n, 2_000_000_000n, 1n],
    })
    // the fee converts exactly, down to Curve's unit
    const fee = (text: string) => (plan(withVenues([{ ...stable, fee: text }])).pools[2] as { fee: number }).fee
    expect([fee("0"), fee("0.0001"), fee("0.0000000001"), fee("0.4999999999"), fee("0.04")]).toEqual([0, 1_000_000, 1, 4_999_999_999, 400_000_000])
  })

  test("malformed dexes are refused by their place", () => {
    expect(refusal({ ...base, dexes: [{ name: "sushi", kind: "sushiswap" }] })).toBe(
      "scenario: dexes[0] (sushi): kind \"sushiswap\" is not one of uniswap-v2, uniswap-v3, uniswap-v4, curve-stableswap",
    )
    expect(refusal({ ...base, dexes: [{ name: "a b", kind: "uniswap-v2" }] })).toStartWith("scenario: dexes[0] (a b): name: expected a venue name")
    expect(refusal({ ...base, dexes: [{ name: "x".repeat(41), kind: "uniswap-v2" }] })).toContain("dexes[0]")
    expect(refusal({ ...base, dexes: [{ name: "123", kind: "uniswap-v2" }] })).toContain("not digits alone")
    expect(refusal({ ...base, dexes: [{ name: "arcade", kind: "uniswap-v2", factory: "0x" }] })).toContain("factory")
    expect(refusal({ ...base, dexes: [{ name: "arcade" }] })).toContain("kind")
    expect(refusal({ ...base, dexes: { arcade: "uniswap-v2" } })).toContain("dexes")
    expect(refusal({ ...base, dexes: [{ name: "uniswap-v3", kind: "uniswap-v3" }] })).toBe(
      "scenario: dexes[0] (uniswap-v3): the venue always exists; venue names are unique (uniswap-v2, uniswap-v3 and uniswap-v4 always exist)",
    )
    expect(refusal({ ...base, dexes: [{ name: "a", kind: "uniswap-v2" }, { name: "a", kind: "curve-stableswap" }] })).toStartWith(
      "scenario: dexes[1] (a): the name is used twice",
    )
    // a name is valid and unique, whatever its kind
    expect(plan({ ...base, dexes: [{ name: "A.b_c-1", kind: "uniswap-v4" }] }).venues[3]).toEqual({ name: "A.b_c-1", kind: "uniswap-v4" })
    // a Uniswap venue may be empty; a stable venue is its pools
    expect(refusal({ ...base, dexes: [{ name: "arcade", kind: "uniswap-v2" }, { name: "curvy", kind: "curve-stableswap" }] })).toBe(
      "scenario: dexes[1] (curvy): a curve-stableswap venue needs at least one pool",
    )
  })

  test("a pool on an unknown venue", () => {
    expect(refusal(withVenues([{ dex: "sushi", tokens: ["USDC", "EURC"], reserves: ["1000", "1000"] }]))).toBe(
      "scenario: pools[2] (sushi USDC/EURC): unknown venue sushi (the venues are uniswap-v2, uniswap-v3, uniswap-v4, arcade-v2, xylonet)",
    )
    // a venue the scenario does not declare does not exist
    expect(refusal({ ...base, pools: [{ ...stable }] })).toStartWith("scenario: pools[0] (xylonet USDC/EURC): unknown venue xylonet")
  })

  test("a pool is checked against its venue's kind", () => {
    expect(refusal(withVenues([{ dex: "arcade-v2", tokens: ["USDC", "EURC"], fee: 500, price: "1", positions: [{ lower: "0.9", upper: "1.1", amount0: "1" }] }]))).toStartWith(
      "scenario: pools[2] (arcade-v2 USDC/EURC): not a uniswap-v2 pool: ",
    )
    expect(refusal(withVenues([{ ...stable, dex: "uniswap-v2" }]))).toContain("pools[2] (uniswap-v2 USDC/EURC): not a uniswap-v2 pool: ")
    expect(refusal(withVenues([{ dex: "xylonet", tokens: ["USDC", "EURC"], reserves: ["1000", "1000"] }]))).toContain(
      "pools[2] (xylonet USDC/EURC): not a curve-stableswap pool: ",
    )
  })

  test("a stable pool of 1 or 5 coins, or of one coin twice", () => {
    expect(refusal(withVenues([{ ...stable, tokens: ["USDC"], balances: ["1"] }]))).toBe(
      "scenario: pools[2] (xylonet USDC): not a curve-stableswap pool: tokens: Expected an array of at least 2 item(s), actual [\"USDC\"]",
    )
    const five = ["USDC", "EURC", "cirBTC", "USDT", "DAI"]
    const tokens = [...base.tokens, { symbol: "USDT", decimals: 6 }, { symbol: "DAI", decimals: 18 }]
    expect(refusal({ ...withVenues([{ ...stable, tokens: five, balances: five.map(() => "1") }]), tokens })).toContain(
      "pools[2] (xylonet USDC/EURC/cirBTC/USDT/DAI): not a curve-stableswap pool: tokens: Expected an array of at most 4 item(s)",
    )
    expect(refusal(withVenues([{ ...stable, tokens: ["USDC", "EURC", "USDC"], balances: ["1", "1", "1"] }]))).toBe(
      "pools[2] (xylonet USDC/EURC/USDC): USDC is listed twice; a pool's coins are different tokens",
    )
  })

  test("a stable pool's fee: finer than 1e-10, 0.5 or more, not a decimal", () => {
    expect(refusal(withVenues([{ ...stable, fee: "0.00000000005" }]))).toBe(
      "pools[2] (xylonet USDC/EURC): fee 0.00000000005 is finer than Curve's fee unit (1e-10): at most 10 decimal places",
    )
    expect(refusal(withVenues([{ ...stable, fee: "0.5" }]))).toBe("pools[2] (xylonet USDC/EURC): fee 0.5 is too high: a curve-stableswap fee is below 0.5")
    expect(refusal(withVenues([{ ...stable, fee: "1" }]))).toContain("fee 1 is too high")
    expect(refusal(withVenues([{ ...stable, fee: 0.0004 }]))).toStartWith("scenario: pools[2] (xylonet USDC/EURC): not a curve-stableswap pool: fee: ")
    expect(refusal(withVenues([{ ...stable, fee: "4bps" }]))).toContain("fee: expected a decimal string")
  })

  test("a stable pool's A, balances and coins", () => {
    expect(refusal(withVenues([{ ...stable, A: 0 }]))).toContain("pools[2] (xylonet USDC/EURC): not a curve-stableswap pool: A: ")
    expect(refusal(withVenues([{ ...stable, A: 1.5 }]))).toContain("A: Expected an integer")
    expect(refusal(withVenues([{ ...stable, A: 1_000_001 }]))).toContain("A: ")
    expect(refusal(withVenues([{ ...stable, A: "400" }]))).toContain("A: ")
    expect(refusal(withVenues([{ ...stable, balances: ["1000"] }]))).toBe(
      "pools[2] (xylonet USDC/EURC): 1 balances for 2 coins; give one per coin, in the order of tokens",
    )
    expect(refusal(withVenues([{ ...stable, balances: ["1000", "0"] }]))).toBe("pools[2] (xylonet USDC/EURC): balances[1]: the first deposit needs some of every coin")
    expect(refusal(withVenues([{ ...stable, balances: ["1000", "0.0000001"] }]))).toBe(
      "pools[2] (xylonet USDC/EURC): balances[1]: 0.0000001 EURC has more decimal places than EURC's 6",
    )
    expect(refusal(withVenues([{ ...stable, tokens: ["USDC", "FOO"] }]))).toBe("pools[2] (xylonet USDC/FOO): unknown token FOO")
    const tokens = [...base.tokens, { symbol: "TAX", decimals: 18, behavior: "fee-on-transfer", feeBps: 100 }, { symbol: "BIG", decimals: 24 }]
    expect(refusal({ ...withVenues([{ ...stable, tokens: ["USDC", "TAX"] }]), tokens })).toBe(
      "pools[2] (xylonet USDC/TAX): TAX is a fee-on-transfer token; a curve-stableswap pool takes standard tokens only",
    )
    expect(refusal({ ...withVenues([{ ...stable, tokens: ["USDC", "BIG"] }]), tokens })).toBe(
      "pools[2] (xylonet USDC/BIG): BIG has 24 decimals; a curve-stableswap coin has at most 18",
    )
    expect(refusal(withVenues([{ ...stable, reserves: ["1", "1"] }]))).toContain("reserves: is unexpected")
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

describe("baseFeeGwei: the base fee floor", () => {
  const floorOf = (baseFeeGwei?: unknown) =>
    planScenario(parseScenario(JSON.stringify(baseFeeGwei === undefined ? base : { ...base, baseFeeGwei })), addressOf).baseFeeFloorWei

  test("Arc's 20 gwei when absent; a whole number of gwei, or a decimal string down to 1 wei", () => {
    expect(floorOf()).toBe(20_000_000_000n)
    expect(floorOf(20)).toBe(20_000_000_000n)
    expect(floorOf(1.5)).toBe(1_500_000_000n)
    expect(floorOf("0.000000008")).toBe(8n)
    expect(floorOf("0.000000001")).toBe(1n)
    expect(floorOf("1000000")).toBe(10n ** 15n)
  })

  test("finer than 1 wei, zero, above Arc's ceiling, a number JSON writes with an exponent, or not a number: refused by name", () => {
    expect(refusal({ ...base, baseFeeGwei: "0.0000000001" })).toBe("baseFeeGwei: 0.0000000001 is finer than 1 wei: at most 9 decimal places")
    expect(refusal({ ...base, baseFeeGwei: 0 })).toBe('baseFeeGwei: the floor must be at least 1 wei ("0.000000001")')
    expect(refusal({ ...base, baseFeeGwei: "1000000.000000001" })).toBe("baseFeeGwei: 1000000.000000001 gwei is above Arc's ceiling of 1000000 gwei (1e-3 USDC per gas)")
    expect(refusal({ ...base, baseFeeGwei: 8e-9 })).toBe('baseFeeGwei: 8e-9 is not a plain decimal; write it as a string such as "0.000000008" (8 wei)')
    expect(refusal({ ...base, baseFeeGwei: -1 })).toContain("baseFeeGwei")
    expect(refusal({ ...base, baseFeeGwei: "twenty" })).toContain("baseFeeGwei")
  })
})
