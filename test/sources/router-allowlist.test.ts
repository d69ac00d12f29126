// The executor's router allowlist as the sources read it, on the devnet: the
// aggregator's SwapRouter is allowed, anything else is not, and an answer
// naming a router the executor would refuse never becomes a route.
import { afterAll, beforeAll, expect, test } from "bun:test"
import { Effect, Layer } from "effect"
import { getAddress, type Address } from "viem"
import { Rpc } from "../../src/chain/rpc.ts"
import { makeRouterAllowlist } from "../../src/sources/index.ts"
import { startTestDevnet, type TestDevnet } from "../support/devnet.ts"

let devnet: TestDevnet
beforeAll(async () => {
  devnet = await startTestDevnet()
})
afterAll(async () => {
  await devnet?.stop()
})

test("SwapRouter is allowlisted; the executor's own pools' factory and a stranger are not", async () => {
  const m = devnet.manifest
  const layer = Rpc.layer({ urls: [m.rpcUrl], chainId: 5042, multicall3: m.multicall3 as Address })
  const answers = await Effect.runPromise(
    Effect.gen(function* () {
      const allowed = makeRouterAllowlist(yield* Rpc, getAddress(m.executor))
      return yield* Effect.all([
        allowed(getAddress(m.aggregatorDex!.router)),
        allowed(getAddress(m.dexes["uniswap-v3"].factory)),
        allowed("0x000000000000000000000000000000000000bEEF"),
        // a second reading comes from what was read
        allowed(getAddress(m.aggregatorDex!.router)),
      ])
    }).pipe(Effect.provide(Layer.orDie(layer))),
  )
  expect(answers).toEqual([true, false, false, true])
})

test("an unreachable node is a RouterCheckFailed, not a crash", async () => {
  const layer = Rpc.layer({ urls: [devnet.manifest.rpcUrl], chainId: 5042, multicall3: devnet.manifest.multicall3 as Address })
  const failure = await Effect.runPromise(
    Effect.gen(function* () {
      const rpc = yield* Rpc
      const allowed = makeRouterAllowlist({ ...rpc, call: () => Effect.fail({ _tag: "RpcError", reason: "unreachable", method: "eth_call", message: "refused" } as never) }, getAddress(devnet.manifest.executor))
      return yield* Effect.flip(allowed("0x000000000000000000000000000000000000bEEF"))
    }).pipe(Effect.provide(Layer.orDie(layer))),
  )
  expect(failure._tag).toBe("RouterCheckFailed")
  expect(failure.message).toContain("refused")
})
