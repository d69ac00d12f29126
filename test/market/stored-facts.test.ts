// The checks of a restored market's facts that need no chain: a meta against the
// configured venues, a state against its meta, a tick window of whole bitmap words.
import { describe, expect, test } from "bun:test"
import { keccak256, type Address, type Hex } from "viem"
import type { ConcentratedPoolState, V2PoolState } from "../../src/amm/index.ts"
import type { MarketVenue } from "../../src/market/index.ts"
import type { Meta } from "../../src/market/pool-meta.ts"
import { metaProblem, stateProblem, v4PoolId } from "../../src/market/stored-facts.ts"

const A = "0x00000000000000000000000000000000000000aa" as Address
const B = "0x00000000000000000000000000000000000000bb" as Address
const PAIR = "0x1111111111111111111111111111111111111111" as Address
const FACTORY = "0x2222222222222222222222222222222222222222" as Address
const MANAGER = "0x3333333333333333333333333333333333333333" as Address
const VIEW = "0x4444444444444444444444444444444444444444" as Address
const ZERO = "0x0000000000000000000000000000000000000000" as Address

const venues = new Map<string, MarketVenue>([
  ["uniswap-v2", { name: "uniswap-v2", kind: "uniswap-v2", factory: FACTORY, feeBps: 30 }],
  ["uniswap-v3", { name: "uniswap-v3", kind: "uniswap-v3", factory: FACTORY, deployer: FACTORY }],
  ["uniswap-v4", { name: "uniswap-v4", kind: "uniswap-v4", poolManager: MANAGER, stateView: VIEW }],
  ["xylonet", { name: "xylonet", kind: "curve-stableswap", pools: [PAIR] }],
])

const v2: Meta = { kind: "uniswap-v2", venue: "uniswap-v2", key: PAIR.toLowerCase(), id: PAIR, token0: A, token1: B, feeBps: 30 }
const v3: Extract<Meta, { kind: "uniswap-v3" }> = { kind: "uniswap-v3", venue: "uniswap-v3", key: PAIR.toLowerCase(), id: PAIR, token0: A, token1: B, fee: 3000, tickSpacing: 60 }
const v4Base = { kind: "uniswap-v4" as const, venue: "uniswap-v4", token0: A, token1: B, fee: 500, tickSpacing: 10, hooks: ZERO, poolManager: MANAGER, stateView: VIEW }

describe("a meta against the configured venues", () => {
  test("a pool of a configured venue of its kind, with that venue's fee, passes", () => {
    expect(metaProblem(v2, venues)).toBeUndefined()
    expect(metaProblem(v3, venues)).toBeUndefined()
  })

  test("an unknown venue, a venue of another kind, another fee, a key that is not its pool's", () => {
    expect(metaProblem({ ...v2, venue: "sushi" }, venues)).toContain("not a configured uniswap-v2 venue")
    expect(metaProblem({ ...v2, venue: "uniswap-v3" }, venues)).toContain("not a configured uniswap-v2 venue")
    expect(metaProblem({ ...v2, feeBps: 1 } as Meta, venues)).toBe("fee 1 bps, the venue's is 30")
    expect(metaProblem({ ...v2, key: FACTORY.toLowerCase() }, venues)).toContain("is not its pool's")
  })

  test("a V4 pool: its id must be keccak256 of its PoolKey; its PoolManager and StateView the venue's", () => {
    // keccak256(abi.encode(currency0, currency1, fee, tickSpacing, hooks)): five 32-byte words
    const word = (hex: string) => hex.replace(/^0x/, "").padStart(64, "0")
    const id = keccak256(`0x${word(A)}${word(B)}${word((500).toString(16))}${word((10).toString(16))}${word(ZERO)}`)
    const meta: Meta = { ...v4Base, id, key: `${id}@${MANAGER.toLowerCase()}` }
    expect(v4PoolId(meta)).toBe(id)
    // a stored address in any case is hashed as the address it is
    expect(metaProblem({ ...meta, token0: A.toUpperCase().replace("0X", "0x") as Address }, venues)).toBeUndefined()
    expect(metaProblem(meta, venues)).toBeUndefined()
    expect(metaProblem({ ...meta, fee: 3000 }, venues)).toContain("is not the hash of its tokens, fee, tick spacing and hooks")
    expect(metaProblem({ ...meta, stateView: FACTORY }, venues)).toContain("PoolManager or StateView is not the venue's")
  })

  test("a stable pool the venue neither lists nor can find through a factory", () => {
    const stable: Meta = { kind: "curve-stableswap", venue: "xylonet", key: FACTORY.toLowerCase(), id: FACTORY, coins: [A, B], rates: [10n ** 30n, 10n ** 30n] }
    expect(metaProblem(stable, venues)).toBe("not a pool the venue lists")
    expect(metaProblem({ ...stable, key: PAIR.toLowerCase(), id: PAIR }, venues)).toBeUndefined()
  })
})

describe("a state against its meta", () => {
  const v2State: V2PoolState = { kind: "uniswap-v2", venue: "uniswap-v2", id: PAIR, token0: A, token1: B, reserve0: 1n, reserve1: 2n, feeBps: 30 }
  // spacing 60: a bitmap word covers 256 * 60 = 15360 ticks; words -1 and 0 are [-15360, 15359]
  const v3State: ConcentratedPoolState = {
    kind: "uniswap-v3", venue: "uniswap-v3", id: PAIR, token0: A, token1: B, fee: 3000, tickSpacing: 60,
    sqrtPriceX96: 2n ** 96n, tick: 0, liquidity: 1n, ticks: [], tickLower: -15360, tickUpper: 15359,
  }

  test("a state that repeats its meta's facts passes", () => {
    expect(stateProblem(v2State, v2, 32_768)).toBeUndefined()
    expect(stateProblem(v3State, v3, 32_768)).toBeUndefined()
  })

  test("other tokens, another fee or tick spacing than the meta's", () => {
    expect(stateProblem({ ...v2State, token1: A }, v2, 32_768)).toBe("tokens differ from its meta's")
    expect(stateProblem({ ...v2State, feeBps: 5 }, v2, 32_768)).toBe("fee differs from its meta's")
    expect(stateProblem({ ...v3State, fee: 500 }, v3, 32_768)).toBe("fee differs from its meta's")
    expect(stateProblem({ ...v3State, tickSpacing: 10 }, v3, 32_768)).toBe("tick spacing differs from its meta's")
    expect(stateProblem({ ...v3State, id: FACTORY }, v3, 32_768)).toBe("state of another pool than its meta")
  })

  test("a tick window that is not whole bitmap words, or wider than the configured half-width allows", () => {
    expect(stateProblem({ ...v3State, tickLower: -15000 }, v3, 32_768)).toContain("is not whole bitmap words")
    // ±32768 ticks at spacing 60 reach at most floor(65536 / 15360) + 2 = 6 words; 8 words are too many
    expect(stateProblem({ ...v3State, tickLower: -4 * 15360, tickUpper: 4 * 15360 - 1 }, v3, 32_768)).toContain("wider than the configured one")
    expect(stateProblem({ ...v3State, tickLower: -3 * 15360, tickUpper: 3 * 15360 - 1 }, v3, 32_768)).toBeUndefined()
  })
})
