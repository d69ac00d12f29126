// MarketState when the RPC fails: the last snapshot is served at once, staleness
// says how old it is and why, the follower backs off and catches up when the
// endpoint answers again. The market reaches the node through a proxy that can
// refuse (HTTP 503) or hang.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Effect, Either, Layer, ManagedRuntime, Option } from "effect"
import type { Abi } from "viem"
import { makeRpc, Rpc } from "../../src/chain/index.ts"
import { ownArtifact } from "../../src/contracts/artifacts.ts"
import { testAccounts } from "../../src/devnet/index.ts"
import { MarketState } from "../../src/market/index.ts"
import { Tokens } from "../../src/tokens/index.ts"
import { startTestDevnet, type TestDevnet } from "../support/devnet.ts"
import { marketConfig, marketLayer, rpcConfig, tokenAddress } from "./support.ts"
import type { World } from "../../src/domain/index.ts"

let devnet: TestDevnet
let proxy: ReturnType<typeof Bun.serve>
let mode: "pass" | "refuse" | "hang" = "pass"
let runtime: ManagedRuntime.ManagedRuntime<MarketState | Tokens | Rpc, unknown>

const run = <A, E>(effect: Effect.Effect<A, E, MarketState | Tokens | Rpc>) => runtime.runPromise(effect)
const snapshot = () => run(Effect.flatMap(MarketState, (m) => m.snapshot))
const staleness = () => run(Effect.flatMap(MarketState, (m) => m.staleness))

/** A snapshot read, timed: it must not wait on the chain. */
const timedSnapshot = async (): Promise<[World, number]> => {
  const started = performance.now()
  const snap = await snapshot()
  return [snap, performance.now() - started]
}

/** One transaction on the node itself (not through the proxy): the chain moves on. */
const mineTransfer = async () => {
  const hash = await devnet.client.writeContract({
    address: tokenAddress(devnet.manifest, "EURC"),
    abi: ownArtifact("TestToken").abi as Abi,
    functionName: "transfer",
    args: [testAccounts[2]!.address, 1n],
    account: testAccounts[1]!.address,
    chain: devnet.client.chain,
  } as never)
  return (await devnet.client.waitForTransactionReceipt({ hash })).blockNumber
}

const waitUntil = async (condition: () => Promise<boolean>, timeoutMs: number) => {
  const deadline = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("condition not reached in time")
    await Bun.sleep(20)
  }
}

beforeAll(async () => {
  devnet = await startTestDevnet()
  proxy = Bun.serve({
    port: 0,
    async fetch(request) {
      if (mode === "refuse") return new Response("unavailable", { status: 503 })
      if (mode === "hang") {
        await Bun.sleep(1_500)
        return new Response("late", { status: 504 })
      }
      return fetch(devnet.manifest.rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body: await request.text() })
    },
  })
  const viaProxy = { ...rpcConfig(devnet.manifest, [`http://127.0.0.1:${proxy.port}`]), timeoutMs: 300 }
  runtime = ManagedRuntime.make(marketLayer(Rpc.layer(viaProxy), marketConfig(devnet.manifest)))
  await runtime.runPromise(Effect.void)
})

afterAll(async () => {
  mode = "pass"
  await runtime?.dispose()
  await proxy?.stop(true)
  await devnet?.stop()
})

describe("RPC failures", () => {
  test("a healthy market is current and not failing", async () => {
    const s = await staleness()
    expect(s.failing).toBe(false)
    expect(s.consecutiveFailures).toBe(0)
    expect(Option.isNone(s.lastError)).toBe(true)
    expect(s.blockNumber).toBe(await devnet.client.getBlockNumber({ cacheTime: 0 }))
  })

  test("endpoint refusing: the last snapshot is served at once, staleness reports the failure", async () => {
    const [before] = await timedSnapshot()
    mode = "refuse"
    const mined = await mineTransfer()
    await waitUntil(async () => (await staleness()).consecutiveFailures >= 2, 5_000)
    const [during, ms] = await timedSnapshot()
    expect(ms).toBeLessThan(50)
    expect(during).toBe(before)
    expect(during.blockNumber).toBeLessThan(mined)
    const s = await staleness()
    expect(s.failing).toBe(true)
    expect(s.blockNumber).toBe(before.blockNumber)
    expect(Option.getOrThrow(s.lastError).reason).toBe("http")
    await Bun.sleep(200)
    expect((await staleness()).sinceSuccessMs).toBeGreaterThanOrEqual(200)

    mode = "pass"
    const after = await run(Effect.flatMap(MarketState, (m) => m.awaitBlock(mined)).pipe(Effect.timeout("5 seconds")))
    expect(after.blockNumber).toBe(mined)
    const recovered = await staleness()
    expect(recovered.failing).toBe(false)
    expect(recovered.consecutiveFailures).toBe(0)
    expect(recovered.sinceSuccessMs).toBeLessThan(1_000)
  })

  test("endpoint hanging: requests time out, reads still return at once", async () => {
    const [before] = await timedSnapshot()
    mode = "hang"
    const mined = await mineTransfer()
    await waitUntil(async () => Option.isSome((await staleness()).lastError), 5_000)
    const [during, ms] = await timedSnapshot()
    expect(ms).toBeLessThan(50)
    expect(during.blockNumber).toBe(before.blockNumber)
    expect(Option.getOrThrow((await staleness()).lastError).reason).toBe("timeout")

    mode = "pass"
    const after = await run(Effect.flatMap(MarketState, (m) => m.awaitBlock(mined)).pipe(Effect.timeout("10 seconds")))
    expect(after.blockNumber).toBe(mined)
    expect((await staleness()).failing).toBe(false)
  })

  test("the layer fails at start, after its attempts, when the chain cannot be read", async () => {
    const rpc = await Effect.runPromise(makeRpc({ ...rpcConfig(devnet.manifest, [`http://127.0.0.1:${proxy.port}`]), timeoutMs: 300 }))
    mode = "refuse"
    try {
      const started = Date.now()
      const layer = MarketState.layer(marketConfig(devnet.manifest, { startAttempts: 3 })).pipe(
        Layer.provide(Tokens.layer()),
        Layer.provide(Layer.succeed(Rpc, rpc)),
      )
      const result = await Effect.runPromise(Effect.either(Effect.scoped(Layer.build(layer))))
      expect(Either.isLeft(result) && result.left._tag === "RpcError" && result.left.reason).toBe("http")
      expect(Date.now() - started).toBeLessThan(3_000)
    } finally {
      mode = "pass"
    }
  })
})
