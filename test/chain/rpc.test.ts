// The Rpc service against the devnet: the chain id check, fallback over dead
// endpoints, batched reads with per-call failures, and failures as tagged data.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Effect, Either } from "effect"
import { encodeFunctionData, parseAbi, type Address } from "viem"
import { makeRpc, read, type RpcConfig } from "../../src/chain/index.ts"
import { testAccounts } from "../../src/devnet/index.ts"
import { startTestDevnet, type TestDevnet } from "../support/devnet.ts"

let devnet: TestDevnet
let dead: string

const ERC20 = parseAbi(["function decimals() view returns (uint8)", "function balanceOf(address) view returns (uint256)", "function transfer(address,uint256) returns (bool)"])

const config = (overrides: Partial<RpcConfig> = {}): RpcConfig => ({
  urls: [devnet.manifest.rpcUrl],
  chainId: 5042,
  multicall3: devnet.manifest.multicall3 as Address,
  timeoutMs: 2_000,
  ...overrides,
})

const failureOf = async (effect: Effect.Effect<unknown, { readonly reason: string }>) => {
  const result = await Effect.runPromise(Effect.either(effect))
  return Either.isLeft(result) ? result.left.reason : "succeeded"
}

beforeAll(async () => {
  devnet = await startTestDevnet()
  // a port that was just free: nothing listens there
  const server = Bun.serve({ port: 0, fetch: () => new Response("") })
  dead = `http://127.0.0.1:${server.port}`
  await server.stop(true)
})

afterAll(async () => {
  await devnet?.stop()
})

describe("start", () => {
  test("an endpoint of another chain id is refused", async () => {
    expect(await failureOf(makeRpc(config({ chainId: 1 })))).toBe("chain-mismatch")
  })

  test("no endpoint configured", async () => {
    expect(await failureOf(makeRpc(config({ urls: [] })))).toBe("config")
  })

  test("a dead endpoint fails fast as unreachable", async () => {
    const started = Date.now()
    expect(await failureOf(makeRpc(config({ urls: [dead] })))).toBe("unreachable")
    expect(Date.now() - started).toBeLessThan(2_000)
  })

  test("a dead endpoint first in the list falls back to the next", async () => {
    const head = await Effect.runPromise(Effect.flatMap(makeRpc(config({ urls: [dead, devnet.manifest.rpcUrl] })), (rpc) => rpc.blockNumber()))
    expect(head).toBe(await devnet.client.getBlockNumber({ cacheTime: 0 }))
  })
})

describe("reads", () => {
  test("a multicall answers each read on its own: success with the decoded value, or failure", async () => {
    const eurc = devnet.manifest.tokens.EURC!.address as Address
    const holder = testAccounts[0]!.address
    const results = await Effect.runPromise(
      Effect.flatMap(makeRpc(config()), (rpc) =>
        rpc.multicall([
          read({ address: eurc, abi: ERC20, functionName: "decimals", args: [] }),
          read({ address: eurc, abi: ERC20, functionName: "balanceOf", args: [holder] }),
          // an account without code: no data, so no value
          read({ address: testAccounts[7]!.address, abi: ERC20, functionName: "decimals", args: [] }),
        ]),
      ),
    )
    const balance = await devnet.client.readContract({ address: eurc, abi: ERC20, functionName: "balanceOf", args: [holder] })
    expect(results[0]).toEqual({ success: true, value: 6 })
    expect(results[1]).toEqual({ success: true, value: balance })
    expect(results[2]!.success).toBe(false)
  })

  test("reads split into several batches come back in order", async () => {
    const eurc = devnet.manifest.tokens.EURC!.address as Address
    const accounts = testAccounts.map((a) => a.address)
    const results = await Effect.runPromise(
      Effect.flatMap(makeRpc(config({ multicallBatchSize: 3 })), (rpc) =>
        rpc.multicall(accounts.map((a) => read({ address: eurc, abi: ERC20, functionName: "balanceOf", args: [a] }))),
      ),
    )
    const direct = await Promise.all(accounts.map((a) => devnet.client.readContract({ address: eurc, abi: ERC20, functionName: "balanceOf", args: [a] })))
    expect(results.map((r) => (r.success ? r.value : undefined))).toEqual(direct)
  })

  test("a reverting eth_call fails with reason revert", async () => {
    const eurc = devnet.manifest.tokens.EURC!.address as Address
    const data = encodeFunctionData({ abi: ERC20, functionName: "transfer", args: [testAccounts[1]!.address, 1n] })
    // an account holding no EURC cannot transfer any
    const reason = await failureOf(Effect.flatMap(makeRpc(config()), (rpc) => rpc.call({ to: eurc, data, from: testAccounts[7]!.address })))
    expect(reason).toBe("revert")
  })
})
