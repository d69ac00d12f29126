// A touched pool's state from its logs: a stable pool's exchanges run again in
// order give the balances the logs' own amounts add up to, and any log the
// pool's math does not pay again to the unit, a pool that keeps part of its
// fees, or a log that says nothing of balances, leaves the pool to be read.
// (test/market/stable-pools.test.ts checks the same against the devnet's pools.)
import { describe, expect, test } from "bun:test"
import fc from "fast-check"
import type { Address } from "viem"
import { getDy, stableRates, type StablePoolState, type V2PoolState } from "../../src/amm/index.ts"
import type { LoggedState } from "../../src/market/log-decoding.ts"
import { stateFromLogs } from "../../src/market/state-from-logs.ts"

type Exchange = Extract<LoggedState, { kind: "exchange" }>

const COIN = "0x0000000000000000000000000000000000000001" as Address

const arbPool = fc
  .record({
    decimals: fc.array(fc.constantFrom(6, 8, 18), { minLength: 2, maxLength: 4 }),
    units: fc.array(fc.bigInt({ min: 1_000n, max: 10n ** 9n }), { minLength: 4, maxLength: 4 }),
    a: fc.bigInt({ min: 1n, max: 5_000n }),
    fee: fc.bigInt({ min: 0n, max: 50_000_000n }),
  })
  .map(({ decimals, units, a, fee }): StablePoolState => ({
    kind: "curve-stableswap",
    venue: "stable",
    id: COIN,
    coins: decimals.map(() => COIN),
    balances: decimals.map((d, k) => units[k]! * 10n ** BigInt(d)),
    rates: stableRates(decimals),
    amp: a * 100n,
    fee,
  }))

/** exchanges the pool pays, from its balances on: each as its log says it (dy what get_dy pays), and the balances the logs add up to */
const exchangesOf = (pool: StablePoolState, trades: readonly { from: number; to: number; share: number }[]) => {
  const n = pool.balances.length
  let balances = pool.balances.slice()
  const logs: Exchange[] = []
  for (const { from, to, share } of trades) {
    const [sold, bought] = [from % n, (from + 1 + (to % (n - 1))) % n]
    const dx = (balances[sold]! * BigInt(share)) / 1_000n + 1n
    let dy: bigint
    try {
      dy = getDy({ ...pool, balances }, sold, bought, dx)
    } catch {
      continue
    }
    logs.push({ kind: "exchange", sold, dx, bought, dy })
    balances = balances.map((b, k) => (k === sold ? b + dx : k === bought ? b - dy : b))
  }
  return { logs, balances }
}

const arbTrades = fc.array(fc.record({ from: fc.nat(7), to: fc.nat(7), share: fc.integer({ min: 0, max: 300 }) }), { minLength: 1, maxLength: 5 })

describe("a stable pool's balances from its exchanges", () => {
  test("exchanges run again in order: the balances their logged amounts add up to", () => {
    fc.assert(
      fc.property(arbPool, arbTrades, (pool, trades) => {
        const { logs, balances } = exchangesOf(pool, trades)
        fc.pre(logs.length > 0)
        expect(stateFromLogs(pool, logs, true)).toEqual({ kind: "balances", balances })
      }),
      { numRuns: 200 },
    )
  })

  test("a logged amount one unit off, or a pool keeping part of its fees: read instead", () => {
    fc.assert(
      fc.property(arbPool, arbTrades, fc.nat(), fc.constantFrom(-1n, 1n), (pool, trades, at, off) => {
        const { logs } = exchangesOf(pool, trades)
        fc.pre(logs.length > 0)
        const k = at % logs.length
        const wrong = logs.map((log, i) => (i === k ? { ...log, dy: log.dy + off } : log))
        expect(stateFromLogs(pool, wrong, true)).toBeUndefined()
        expect(stateFromLogs(pool, logs, false)).toBeUndefined()
      }),
      { numRuns: 200 },
    )
  })

  test("a coin the pool does not have, or a log of another kind: read instead", () => {
    const pool = fc.sample(arbPool, { numRuns: 1, seed: 7 })[0]!
    const n = pool.balances.length
    expect(stateFromLogs(pool, [{ kind: "exchange", sold: n, dx: 1n, bought: 0, dy: 0n }], true)).toBeUndefined()
    expect(stateFromLogs(pool, [{ kind: "reserves", reserve0: 1n, reserve1: 1n }], true)).toBeUndefined()
  })
})

describe("a pair or concentrated pool from its last log", () => {
  const pair: V2PoolState = { kind: "uniswap-v2", venue: "v2", id: COIN, token0: COIN, token1: COIN, reserve0: 5n, reserve1: 7n, feeBps: 30 }
  test("a pair takes its last Sync's reserves; a price log says nothing of a pair", () => {
    const said: LoggedState[] = [
      { kind: "reserves", reserve0: 1n, reserve1: 2n },
      { kind: "reserves", reserve0: 3n, reserve1: 4n },
    ]
    expect(stateFromLogs(pair, said, false)).toEqual({ kind: "reserves", reserve0: 3n, reserve1: 4n })
    expect(stateFromLogs(pair, [{ kind: "price", sqrtPriceX96: 1n, liquidity: 1n, tick: 0 }], false)).toBeUndefined()
    expect(stateFromLogs(pair, [], false)).toBeUndefined()
  })
})
