// The state a log leaves, as the market reads it from Sync and the V3 and V4
// Swaps, against viem's decoding of the same events: the reserves, the price,
// the tick (negative ones too) and the liquidity; and no state, so that the
// pool is read at the head instead, from data that is not the event's.
import { describe, expect, test } from "bun:test"
import fc from "fast-check"
import { decodeEventLog, encodeAbiParameters, type Address, type Hex } from "viem"
import type { RpcLog } from "../../src/chain/index.ts"
import { STABLE_EVENTS_ABI, TOPIC, V2_PAIR_ABI, V3_POOL_ABI, V4_POOL_MANAGER_ABI } from "../../src/market/abis.ts"
import { logDecoder } from "../../src/market/log-decoding.ts"
import { v4Key, type Meta } from "../../src/market/pool-meta.ts"

const PAIR = "0x00000000000000000000000000000000000000a2" as Address
const POOL = "0x00000000000000000000000000000000000000a3" as Address
const MANAGER = "0x00000000000000000000000000000000000000a4" as Address
const STABLE = "0x00000000000000000000000000000000000000a5" as Address
const ID = `0x${"44".repeat(32)}` as Hex
const TOKEN0 = "0x0000000000000000000000000000000000000001" as Address
const TOKEN1 = "0x0000000000000000000000000000000000000002" as Address
const SENDER = `0x${"00".repeat(12)}${"55".repeat(20)}` as Hex

const { touch } = logDecoder(
  [
    { name: "v2", kind: "uniswap-v2", factory: "0x00000000000000000000000000000000000000f2", feeBps: 30 },
    { name: "v3", kind: "uniswap-v3", factory: "0x00000000000000000000000000000000000000f3", deployer: "0x00000000000000000000000000000000000000f3" },
    { name: "v4", kind: "uniswap-v4", poolManager: MANAGER, stateView: "0x00000000000000000000000000000000000000f4" },
    { name: "stable", kind: "curve-stableswap", pools: [STABLE] },
  ],
  undefined,
)
const metas = new Map<string, Meta>([
  [PAIR, { kind: "uniswap-v2", venue: "v2", key: PAIR, id: PAIR, token0: TOKEN0, token1: TOKEN1, feeBps: 30 }],
  [STABLE, { kind: "curve-stableswap", venue: "stable", key: STABLE, id: STABLE, coins: [TOKEN0, TOKEN1, SENDER.replace(/^0x0{24}/, "0x") as Address], rates: [1n, 1n, 1n] }],
  [POOL, { kind: "uniswap-v3", venue: "v3", key: POOL, id: POOL, token0: TOKEN0, token1: TOKEN1, fee: 500, tickSpacing: 10 }],
  [
    v4Key(ID, MANAGER),
    { kind: "uniswap-v4", venue: "v4", key: v4Key(ID, MANAGER), id: ID, token0: TOKEN0, token1: TOKEN1, fee: 3000, tickSpacing: 60, hooks: "0x0000000000000000000000000000000000000000", poolManager: MANAGER, stateView: "0x00000000000000000000000000000000000000f4" },
  ],
])

const log = (address: Address, topics: Hex[], data: Hex): RpcLog => ({ address, topics, data, blockNumber: 1n, logIndex: 0, transactionHash: `0x${"00".repeat(32)}` })

const uint = (bits: number) => fc.bigInt({ min: 0n, max: (1n << BigInt(bits)) - 1n })
const int = (bits: number) => fc.bigInt({ min: -(1n << BigInt(bits - 1)), max: (1n << BigInt(bits - 1)) - 1n })
const tick = fc.integer({ min: -887_272, max: 887_272 })

describe("the state a log leaves", () => {
  test("Sync: the reserves viem decodes", () => {
    fc.assert(
      fc.property(uint(112), uint(112), (reserve0, reserve1) => {
        const data = encodeAbiParameters([{ type: "uint112" }, { type: "uint112" }], [reserve0, reserve1])
        const decoded = decodeEventLog({ abi: V2_PAIR_ABI, topics: [TOPIC.v2Sync], data })
        expect(decoded.eventName).toBe("Sync")
        const args = decoded.args as { reserve0: bigint; reserve1: bigint }
        expect(touch(log(PAIR, [TOPIC.v2Sync], data), metas)).toEqual({ key: PAIR, ticks: [], after: { kind: "reserves", reserve0: args.reserve0, reserve1: args.reserve1 } })
      }),
    )
  })

  test("a V3 Swap: the price, liquidity and tick viem decodes, negative ticks too", () => {
    fc.assert(
      fc.property(int(256), int(256), uint(160), uint(128), tick, (amount0, amount1, sqrtPriceX96, liquidity, t) => {
        const data = encodeAbiParameters(
          [{ type: "int256" }, { type: "int256" }, { type: "uint160" }, { type: "uint128" }, { type: "int24" }],
          [amount0, amount1, sqrtPriceX96, liquidity, t],
        )
        const topics: [Hex, Hex, Hex] = [TOPIC.v3Swap, SENDER, SENDER]
        const args = decodeEventLog({ abi: V3_POOL_ABI, topics, data, eventName: "Swap" }).args as { sqrtPriceX96: bigint; liquidity: bigint; tick: number }
        expect(touch(log(POOL, topics, data), metas)).toEqual({ key: POOL, ticks: [], after: { kind: "price", sqrtPriceX96: args.sqrtPriceX96, liquidity: args.liquidity, tick: args.tick } })
      }),
    )
  })

  test("a V4 Swap: the price, liquidity and tick viem decodes, of the pool its id names", () => {
    fc.assert(
      fc.property(int(128), int(128), uint(160), uint(128), tick, uint(24), (amount0, amount1, sqrtPriceX96, liquidity, t, fee) => {
        const data = encodeAbiParameters(
          [{ type: "int128" }, { type: "int128" }, { type: "uint160" }, { type: "uint128" }, { type: "int24" }, { type: "uint24" }],
          [amount0, amount1, sqrtPriceX96, liquidity, t, Number(fee)],
        )
        const topics: [Hex, Hex, Hex] = [TOPIC.v4Swap, ID, SENDER]
        const args = decodeEventLog({ abi: V4_POOL_MANAGER_ABI, topics, data, eventName: "Swap" }).args as { sqrtPriceX96: bigint; liquidity: bigint; tick: number }
        expect(touch(log(MANAGER, topics, data), metas)).toEqual({ key: v4Key(ID, MANAGER), ticks: [], after: { kind: "price", sqrtPriceX96: args.sqrtPriceX96, liquidity: args.liquidity, tick: args.tick } })
      }),
    )
  })

  test("a stable pool's TokenExchange: the coins and amounts viem decodes", () => {
    const coin = fc.integer({ min: 0, max: 7 })
    fc.assert(
      fc.property(coin, uint(256), coin, uint(256), (sold, dx, bought, dy) => {
        fc.pre(sold !== bought)
        const data = encodeAbiParameters([{ type: "int128" }, { type: "uint256" }, { type: "int128" }, { type: "uint256" }], [BigInt(sold), dx, BigInt(bought), dy])
        const topics: [Hex, Hex] = [TOPIC.stableTokenExchange, SENDER]
        const args = decodeEventLog({ abi: STABLE_EVENTS_ABI, topics, data }).args as { sold_id: bigint; tokens_sold: bigint; bought_id: bigint; tokens_bought: bigint }
        expect(touch(log(STABLE, topics, data), metas)).toEqual({
          key: STABLE,
          ticks: [],
          after: { kind: "exchange", sold: Number(args.sold_id), dx: args.tokens_sold, bought: Number(args.bought_id), dy: args.tokens_bought },
        })
      }),
    )
  })

  test("data that is not the event's says no state: the pool is touched, and read at the head", () => {
    const word = (n: bigint) => n.toString(16).padStart(64, "0")
    const cases: [Address, Hex[], string][] = [
      // a reserve past uint112; one word short
      [PAIR, [TOPIC.v2Sync], word(1n << 112n) + word(1n)],
      [PAIR, [TOPIC.v2Sync], word(1n)],
      // a tick past int24, a tick not sign-extended, a price past uint160, the tick's word missing
      [POOL, [TOPIC.v3Swap, SENDER, SENDER], word(0n) + word(0n) + word(1n) + word(1n) + word(1n << 23n)],
      [POOL, [TOPIC.v3Swap, SENDER, SENDER], word(0n) + word(0n) + word(1n) + word(1n) + word((1n << 24n) - 1n)],
      [POOL, [TOPIC.v3Swap, SENDER, SENDER], word(0n) + word(0n) + word(1n << 160n) + word(1n) + word(1n)],
      [MANAGER, [TOPIC.v4Swap, ID, SENDER], word(0n) + word(0n) + word(1n) + word(1n)],
      // a coin index past 7 or negative, the same coin both ways, the bought amount missing
      [STABLE, [TOPIC.stableTokenExchange, SENDER], word(8n) + word(1n) + word(0n) + word(1n)],
      [STABLE, [TOPIC.stableTokenExchange, SENDER], word((1n << 256n) - 1n) + word(1n) + word(0n) + word(1n)],
      [STABLE, [TOPIC.stableTokenExchange, SENDER], word(1n) + word(1n) + word(1n) + word(1n)],
      [STABLE, [TOPIC.stableTokenExchange, SENDER], word(0n) + word(1n) + word(1n)],
      // any other log of a stable pool (a deposit, a withdrawal, an LP transfer)
      [STABLE, [`0x${"12".repeat(32)}`, SENDER], word(0n)],
    ]
    for (const [address, topics, data] of cases) {
      const hit = touch(log(address, topics, `0x${data}`), metas)
      expect(hit).toBeDefined()
      expect(hit!.after).toBeUndefined()
    }
  })
})
