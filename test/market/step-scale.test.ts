// A block step's work follows the pools the block changed, not the market's
// size: on a devnet with a market of pools of every kind, a block that swaps on
// a few of them is stepped with the market's maps counting what the step reads
// of them (a whole walk counts every entry); the step reads a few entries per
// pool touched, far fewer than the market holds. And the World before the step,
// which a reader may still hold, is the same after it; a block of swaps is one
// round of node requests (the logs, the priority fee and the block's own batched
// read), every touched pool's state said by its logs.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Effect, Layer, ManagedRuntime } from "effect"
import type { Address } from "viem"
import type { PoolState } from "../../src/amm/index.ts"
import { Rpc, type RpcService } from "../../src/chain/index.ts"
import { DEFAULT_TICK_WINDOW } from "../../src/market/index.ts"
import { PersistentMap } from "../../src/market/persistent-map.ts"
import { emptyState, stepper, type ActorState } from "../../src/market/step.ts"
import { Tokens } from "../../src/tokens/index.ts"
import { startHistoryDevnet, type HistoryDevnet } from "../../bench/market-history/index.ts"
import { marketConfig, rpcConfig } from "./support.ts"

const POOLS = 160
const TOUCHED = 4

let fixture: HistoryDevnet
let runtime: ManagedRuntime.ManagedRuntime<Rpc | Tokens, unknown>

beforeAll(async () => {
  fixture = await startHistoryDevnet({ pools: POOLS, blocks: 20_000, swaps: 0 })
  runtime = ManagedRuntime.make(Tokens.layer().pipe(Layer.provideMerge(Rpc.layer(rpcConfig(fixture.devnet.manifest)))))
}, 300_000)

afterAll(async () => {
  await runtime?.dispose()
  await fixture?.stop()
})

/** A node request a phase made: when it was sent and when its answer came (ms). */
interface Asked {
  readonly method: string
  readonly sent: number
  readonly answered: number
}
const asked: Asked[] = []

/** `rpc` with the requests a phase makes of it recorded in `asked`. */
const timed = (rpc: RpcService): RpcService => {
  const record = <A, E>(method: string, effect: Effect.Effect<A, E>) =>
    Effect.suspend(() => {
      const sent = performance.now()
      return Effect.tap(effect, () => Effect.sync(() => asked.push({ method, sent, answered: performance.now() })))
    })
  return {
    ...rpc,
    getLogs: (filter) => record("eth_getLogs", rpc.getLogs(filter)),
    call: (params) => record("eth_call", rpc.call(params)),
    multicall: ((reads, options) => record("eth_call", rpc.multicall(reads, options))) as RpcService["multicall"],
    maxPriorityFeePerGas: () => record("eth_maxPriorityFeePerGas", rpc.maxPriorityFeePerGas()),
  }
}

/** Each request's round: 1 when sent before any answer came, else one past the latest round answered before it was sent. */
const rounds = (requests: readonly Asked[]): { method: string; round: number }[] => {
  const sorted = [...requests].sort((a, b) => a.sent - b.sent)
  const round: number[] = []
  for (const [i, r] of sorted.entries()) {
    round.push(1 + Math.max(0, ...sorted.slice(0, i).flatMap((p, k) => (p.answered <= r.sent ? [round[k]!] : []))))
  }
  return sorted.map((r, i) => ({ method: r.method, round: round[i]! }))
}

const phases = Effect.gen(function* () {
  const rpc = timed(yield* Rpc)
  const tokens = yield* Tokens
  const config = marketConfig(fixture.devnet.manifest, { executor: fixture.devnet.manifest.executor as Address, fromBlock: fixture.fromBlock })
  return { rpc, steps: stepper(config, rpc, tokens, DEFAULT_TICK_WINDOW) }
})

/** What was read of the counted maps: one per entry looked up or walked over. */
const reads = { count: 0 }

/**
 * `map` counting its reads, and the reads of the drafts made from it (their changes are
 * not reads): a map the step walks whole counts all its entries.
 */
const counted = <V>(map: ReadonlyMap<string, V>): ReadonlyMap<string, V> => {
  const walked = <A>(items: Iterable<A>): Iterable<A> & Iterator<A> => {
    const it = items[Symbol.iterator]()
    const counting = {
      next: () => {
        const r = it.next()
        if (r.done !== true) reads.count++
        return r
      },
      [Symbol.iterator]: () => counting,
    }
    return counting
  }
  return new Proxy(map, {
    get(target, property) {
      const value = Reflect.get(target, property, target)
      if (typeof value !== "function") return value
      switch (property) {
        case "get":
        case "has":
          return (key: string) => {
            reads.count++
            return value.call(target, key)
          }
        case "edit":
          return () => counted(value.call(target))
        case "entries":
        case "keys":
        case "values":
        case Symbol.iterator:
          return () => walked(value.call(target))
        case "forEach":
          return (f: (v: V, k: string) => void) =>
            value.call(target, (v: V, k: string) => {
              reads.count++
              f(v, k)
            })
        default:
          return value.bind(target)
      }
    },
  })
}

describe("a block step over a market", () => {
  let started: ActorState
  let next: ActorState
  let stepped: ActorState
  let before: { pools: [string, PoolState][]; states: [string, PoolState][]; byToken: [string, readonly string[]][] }

  beforeAll(async () => {
    const { rpc, steps } = await runtime.runPromise(phases)
    const head = await runtime.runPromise(rpc.blockNumber())
    started = await runtime.runPromise(steps.start(emptyState(rpc.chainId, fixture.fromBlock - 1n), head))
    before = { pools: [...started.snapshot.pools], states: [...started.states], byToken: [...started.snapshot.poolsByToken] }
    const block = await fixture.touchPools(TOUCHED)
    stepped = {
      ...started,
      metas: counted(started.metas),
      states: counted(started.states),
      excluded: counted(started.excluded),
      snapshot: { ...started.snapshot, pools: counted(started.snapshot.pools), poolsByToken: counted(started.snapshot.poolsByToken) },
    }
    reads.count = 0
    asked.length = 0
    next = await runtime.runPromise(steps.step(stepped, block))
  }, 300_000)

  test("the market holds every pool, and the block changed the pools it touched", () => {
    expect(started.snapshot.pools.size).toBeGreaterThan(POOLS / 2)
    expect(next.snapshot.pools.size).toBe(started.snapshot.pools.size)
    expect(next.snapshot.refreshed!.length).toBeGreaterThanOrEqual(TOUCHED)
    for (const key of next.snapshot.refreshed!) expect(next.snapshot.pools.get(key)).not.toBe(started.snapshot.pools.get(key))
    // the same pools: the same token index, which routing reuses
    expect(next.snapshot.poolsByToken).toBe(stepped.snapshot.poolsByToken)
  })

  test("the step read a few entries of the market's maps per pool it changed, not the market", () => {
    const changed = next.snapshot.refreshed!.length
    console.log(`${reads.count} entries read for ${changed} pools changed in a market of ${started.snapshot.pools.size}`)
    // a pool read again is looked up in each map a handful of times
    expect(reads.count).toBeLessThanOrEqual(16 * changed)
    expect(reads.count).toBeLessThan(started.snapshot.pools.size)
  })

  test("a block of swaps on pools of every kind is one round of node requests: the logs, the priority fee and the block's own read", () => {
    const seen = rounds(asked)
    console.log(seen.map(({ method, round }) => `${round}: ${method}`).join(", "))
    expect(new Set([...started.states.values()].map((s) => s.kind))).toEqual(new Set(["uniswap-v2", "uniswap-v3", "uniswap-v4", "curve-stableswap"]))
    expect(new Set(next.snapshot.refreshed!.map((key) => next.states.get(key)!.kind))).toEqual(new Set(["uniswap-v2", "uniswap-v3", "uniswap-v4", "curve-stableswap"]))
    expect(seen.map((r) => r.method).sort()).toEqual(["eth_call", "eth_getLogs", "eth_getLogs", "eth_maxPriorityFeePerGas"])
    expect(Math.max(...seen.map((r) => r.round))).toBe(1)
  })

  test("the World before the step, and the state behind it, are as they were", () => {
    expect([...started.snapshot.pools]).toEqual(before.pools)
    expect([...started.states]).toEqual(before.states)
    expect([...started.snapshot.poolsByToken]).toEqual(before.byToken)
    for (const [key, pool] of before.pools) expect(started.snapshot.pools.get(key)).toBe(pool)
  })

  test("the state's maps are persistent maps (each step shares what it left alone)", () => {
    for (const map of [next.metas, next.states, next.excluded, next.snapshot.pools, next.snapshot.poolsByToken]) expect(map).toBeInstanceOf(PersistentMap)
  })
})
