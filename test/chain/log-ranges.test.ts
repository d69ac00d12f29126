// The eth_getLogs walker against endpoints with a provider's caps (a block
// range cap, a result cap, both), over a history of logs at known blocks:
// every log comes back once and in order, the walk asks few windows, and the
// learned range cap is kept for later walks.
import { describe, expect, test } from "bun:test"
import { Effect } from "effect"
import { makeLogWalker, statedRangeCap } from "../../src/chain/log-ranges.ts"
import { RpcError } from "../../src/chain/rpc-error.ts"

/** An endpoint over logs at the given blocks (one log = its block), with caps, counting requests. */
const endpoint = (logBlocks: readonly bigint[], caps: { range?: bigint; statesCap?: boolean; results?: number; timeoutOver?: bigint }) => {
  const asked: [bigint, bigint][] = []
  const fetch = (from: bigint, to: bigint) =>
    Effect.suspend(() => {
      asked.push([from, to])
      const blocks = to - from + 1n
      if (caps.range !== undefined && blocks > caps.range) {
        const message = caps.statesCap === false ? "block range is too wide" : `block range is too wide: ${blocks} blocks requested, at most ${caps.range} allowed`
        return Effect.fail(new RpcError({ reason: "limit", limit: "range", method: "eth_getLogs", message }))
      }
      if (caps.timeoutOver !== undefined && blocks > caps.timeoutOver) {
        return Effect.fail(new RpcError({ reason: "timeout", method: "eth_getLogs", message: "timed out" }))
      }
      const found = logBlocks.filter((b) => b >= from && b <= to)
      if (caps.results !== undefined && found.length > caps.results) {
        return Effect.fail(new RpcError({ reason: "limit", limit: "results", method: "eth_getLogs", message: `query returned more than ${caps.results} results` }))
      }
      return Effect.succeed(found)
    })
  return { fetch, asked }
}

const run = <A>(e: Effect.Effect<A, RpcError>) => Effect.runPromise(e)

describe("eth_getLogs in windows", () => {
  // 2,000 logs: sparse over a million blocks, with a dense burst
  const history = [
    ...Array.from({ length: 1_000 }, (_, i) => BigInt(i) * 997n + 13n),
    ...Array.from({ length: 1_000 }, (_, i) => 600_000n + BigInt(i)),
  ].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))

  test("without caps, every log once and in order, in far fewer windows than 10,000-block chunks", async () => {
    const node = endpoint(history, {})
    const logs = await run(makeLogWalker()(node.fetch, 0n, 1_000_000n))
    expect(logs).toEqual(history)
    // growing windows: a few dozen requests where fixed 10,000-block windows need 101
    expect(node.asked.length).toBeLessThan(30)
  })

  test("a 10,000-block range cap is learned once and kept: no window above it afterwards", async () => {
    const node = endpoint(history, { range: 10_000n })
    const walk = makeLogWalker({ initialBlocks: 50_000 })
    expect(await run(walk(node.fetch, 0n, 1_000_000n))).toEqual(history)
    const refused = node.asked.filter(([a, b]) => b - a + 1n > 10_000n)
    // the first round of windows is refused, then never again
    expect(refused.length).toBeGreaterThan(0)
    expect(refused.length).toBeLessThanOrEqual(4)
    const second = node.asked.length
    expect(await run(walk(node.fetch, 0n, 1_000_000n))).toEqual(history)
    expect(node.asked.slice(second).every(([a, b]) => b - a + 1n <= 10_000n)).toBe(true)
    // at the cap, 101 windows cover the range, with a few more for the refusals
    expect(node.asked.length - second).toBeLessThanOrEqual(110)
  })

  test("a cap the refusal does not state is found by halving, and kept", async () => {
    const node = endpoint(history, { range: 3_000n, statesCap: false })
    const walk = makeLogWalker()
    expect(await run(walk(node.fetch, 0n, 1_000_000n))).toEqual(history)
    const second = node.asked.length
    expect(await run(walk(node.fetch, 0n, 1_000_000n))).toEqual(history)
    const later = node.asked.slice(second)
    expect(later.every(([a, b]) => b - a + 1n <= 3_000n)).toBe(true)
    // halving from 10,000 settles on 2,500: 401 windows for blocks 0 to 1,000,000, none refused
    expect(later.length).toBe(401)
  })

  test("the cap stated in a provider's words", () => {
    expect(statedRangeCap("block range is too wide: 20000 blocks requested, at most 10000 allowed", 20_000n)).toBe(10_000n)
    expect(statedRangeCap("exceed maximum block range: 5000", 10_000n)).toBe(5_000n)
    expect(statedRangeCap("eth_getLogs is limited to a 10,000 range", 50_000n)).toBe(10_000n)
    expect(statedRangeCap("You can make eth_getLogs requests with up to a 2K block range and no limit on the response size", 10_000n)).toBe(2_000n)
    expect(statedRangeCap("Try with this block range [0x1e8480, 0x1e9a3f]", 10_000n)).toBeUndefined()
    expect(statedRangeCap("block range is too wide", 10_000n)).toBeUndefined()
  })

  test("a result cap splits the dense burst and the size grows back after it", async () => {
    const node = endpoint(history, { results: 100 })
    expect(await run(makeLogWalker()(node.fetch, 0n, 1_000_000n))).toEqual(history)
    const afterBurst = node.asked.filter(([a]) => a > 700_000n)
    // past the burst, windows are large again
    expect(afterBurst.some(([a, b]) => b - a + 1n >= 10_000n)).toBe(true)
  })

  test("timeouts split windows like limits do", async () => {
    const node = endpoint(history, { timeoutOver: 3_000n })
    expect(await run(makeLogWalker()(node.fetch, 0n, 200_000n))).toEqual(history.filter((b) => b <= 200_000n))
  })

  test("a single block over the result cap fails with the endpoint's error", async () => {
    const node = endpoint([5n, 5n, 5n], { results: 2 })
    const error = await Effect.runPromise(Effect.flip(makeLogWalker()(node.fetch, 0n, 10n)))
    expect(error.reason).toBe("limit")
    expect(error.limit).toBe("results")
  })

  test("other failures are not split: they fail the walk at once", async () => {
    let asked = 0
    const fetch = () =>
      Effect.suspend(() => {
        asked++
        return Effect.fail(new RpcError({ reason: "rpc", method: "eth_getLogs", message: "invalid params" }))
      })
    const error = await Effect.runPromise(Effect.flip(makeLogWalker({ concurrency: 1 })(fetch, 0n, 100_000n)))
    expect(error.reason).toBe("rpc")
    expect(asked).toBe(1)
  })

  test("an empty range asks nothing", async () => {
    const node = endpoint(history, {})
    expect(await run(makeLogWalker()(node.fetch, 10n, 9n))).toEqual([])
    expect(node.asked.length).toBe(0)
  })
})
