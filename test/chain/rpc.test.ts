// The Rpc service against the devnet: the chain id check, fallback over dead
// endpoints, batched reads with per-call failures, and failures as tagged data.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Effect, Either } from "effect"
import { decodeFunctionData, encodeFunctionData, parseAbi, type Address, type Hex } from "viem"
import { makeRpc, read, readTogether, RpcError, type RpcConfig } from "../../src/chain/index.ts"
import { makeMulticall } from "../../src/chain/multicall.ts"
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

  test("a block: the head's, one by number, and one the chain does not have yet", async () => {
    const rpc = await Effect.runPromise(makeRpc(config()))
    const head = await Effect.runPromise(rpc.getBlock())
    expect(head.number).toBe(await Effect.runPromise(rpc.blockNumber()))
    expect(head.hash).toMatch(/^0x[0-9a-f]{64}$/)
    expect(head.baseFeePerGas).toBeGreaterThan(0n)
    const earlier = await Effect.runPromise(rpc.getBlock(head.number - 1n))
    expect(earlier.number).toBe(head.number - 1n)
    expect(earlier.timestamp).toBeLessThanOrEqual(head.timestamp)
    expect(earlier.hash).not.toBe(head.hash)
    expect(await failureOf(rpc.getBlock(head.number + 1_000_000n))).toBe("rpc")
  })

  test("a reverting eth_call fails with reason revert", async () => {
    const eurc = devnet.manifest.tokens.EURC!.address as Address
    const data = encodeFunctionData({ abi: ERC20, functionName: "transfer", args: [testAccounts[1]!.address, 1n] })
    // an account holding no EURC cannot transfer any
    const reason = await failureOf(Effect.flatMap(makeRpc(config()), (rpc) => rpc.call({ to: eurc, data, from: testAccounts[7]!.address })))
    expect(reason).toBe("revert")
  })
})

describe("a node that fails large batches", () => {
  // the node's eth_call, refusing an aggregate3 of more than 16 calls as out of gas
  const AGGREGATE3 = parseAbi(["function aggregate3((address target, bool allowFailure, bytes callData)[] calls) payable returns ((bool success, bytes returnData)[])"])

  test("a batch it fails is split in halves until it answers; later batches start at the size that worked", async () => {
    const rpc = await Effect.runPromise(makeRpc(config()))
    const asked: number[] = []
    const call = (params: { readonly to: Address; readonly data: Hex; readonly blockNumber?: bigint }) =>
      Effect.suspend(() => {
        const [calls] = decodeFunctionData({ abi: AGGREGATE3, data: params.data }).args as [readonly unknown[]]
        asked.push(calls.length)
        return calls.length > 16 ? Effect.fail(new RpcError({ reason: "rpc", method: "eth_call", message: "out of gas" })) : rpc.call(params)
      })
    const multicall = makeMulticall(devnet.manifest.multicall3 as Address, 500, call)
    const token = devnet.manifest.tokens.EURC!.address as Address
    const reads = Array.from({ length: 100 }, (_, i) => read({ address: token, abi: ERC20, functionName: "balanceOf", args: [testAccounts[i % 10]!.address] }))
    const results = await Effect.runPromise(multicall(reads))
    const direct = await Promise.all(testAccounts.slice(0, 10).map((a) => devnet.client.readContract({ address: token, abi: ERC20, functionName: "balanceOf", args: [a.address] })))
    expect(results.map((r) => (r.success ? r.value : "failed"))).toEqual(reads.map((_, i) => direct[i % 10]!))
    // 100 -> 50 -> 25 -> 13/12: every read answered, in order
    expect(asked.filter((n) => n > 16).length).toBe(7)
    expect(asked.filter((n) => n <= 16).reduce((a, b) => a + b, 0)).toBe(100)
    asked.length = 0
    await Effect.runPromise(multicall(reads))
    expect(asked.every((n) => n <= 16)).toBe(true)
    expect(asked.length).toBe(Math.ceil(100 / 13))
  })

  test("a read that fails alone is not split further: the batch fails", async () => {
    const rpc = await Effect.runPromise(makeRpc(config()))
    const call = (params: { readonly to: Address; readonly data: Hex; readonly blockNumber?: bigint }) =>
      Effect.suspend(() => (params.data.length > 0 ? Effect.fail(new RpcError({ reason: "rpc", method: "eth_call", message: "out of gas" })) : rpc.call(params)))
    const multicall = makeMulticall(devnet.manifest.multicall3 as Address, 500, call)
    const token = devnet.manifest.tokens.EURC!.address as Address
    const error = await Effect.runPromise(Effect.flip(multicall([read({ address: token, abi: ERC20, functionName: "decimals", args: [] }), read({ address: token, abi: ERC20, functionName: "decimals", args: [] })])))
    expect(error.message).toBe("out of gas")
  })
})

describe("a rate-limiting endpoint", () => {
  test("a request waits out the endpoint's Retry-After before asking it again", async () => {
    // the first eth_blockNumber is refused for 300 ms, every later one answered
    const asked: number[] = []
    const server = Bun.serve({
      port: 0,
      fetch: async (req) => {
        const body = (await req.json()) as { id: number; method: string }
        if (body.method === "eth_blockNumber" && asked.push(performance.now()) === 1) return new Response("slow down", { status: 429, headers: { "retry-after": "0.3" } })
        return Response.json({ jsonrpc: "2.0", id: body.id, result: body.method === "eth_chainId" ? "0x13b2" : "0x2a" })
      },
    })
    try {
      const rpc = await Effect.runPromise(makeRpc(config({ urls: [`http://127.0.0.1:${server.port}`] })))
      expect(await Effect.runPromise(rpc.blockNumber())).toBe(42n)
      expect(asked.length).toBe(2)
      expect(asked[1]! - asked[0]!).toBeGreaterThanOrEqual(280)
    } finally {
      await server.stop(true)
    }
  })

  test("requests that wait for its limit all get through, also when a short Retry-After has passed before they look again", async () => {
    // answers two requests in three with 429 and a Retry-After of a few ms; eth_chainId always
    let n = 0
    const server = Bun.serve({
      port: 0,
      fetch: async (req) => {
        const body = (await req.json()) as { id: number; method: string }
        if (body.method !== "eth_chainId" && n++ % 3 !== 0) return new Response("slow down", { status: 429, headers: { "retry-after": "0.001" } })
        return Response.json({ jsonrpc: "2.0", id: body.id, result: body.method === "eth_chainId" ? "0x13b2" : "0x2a" })
      },
    })
    try {
      const rpc = await Effect.runPromise(makeRpc(config({ urls: [`http://127.0.0.1:${server.port}`] })))
      const blocks = await Effect.runPromise(Effect.all(Array.from({ length: 2000 }, () => rpc.maxPriorityFeePerGas()), { concurrency: "unbounded" }))
      expect(blocks).toEqual(Array.from({ length: 2000 }, () => 42n))
      expect(n).toBeGreaterThan(2000)
    } finally {
      await server.stop(true)
    }
  })
})

describe("reads made together", () => {
  test("in readTogether, a turn's reads (and those of the fibers it forks) go in one batch; elsewhere each alone; on the devnet's node too", async () => {
    const bodies: unknown[] = []
    const node = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: async (req) => {
        const body = (await req.json()) as { id: number; method: string } | Array<{ id: number; method: string }>
        bodies.push(body)
        const answer = (c: { id: number; method: string }) => ({ jsonrpc: "2.0", id: c.id, result: c.method === "eth_chainId" ? "0x13b2" : "0x2a" })
        return Response.json(Array.isArray(body) ? body.map(answer) : answer(body))
      },
    })
    try {
      const rpc = await Effect.runPromise(makeRpc(config({ urls: [`http://127.0.0.1:${node.port}`], batchSize: 10 })))
      const reads = Effect.gen(function* () {
        const forked = yield* Effect.fork(rpc.maxPriorityFeePerGas())
        const [a, b] = yield* Effect.all([rpc.blockNumber(), rpc.blockNumber()], { concurrency: "unbounded" })
        return [a, b, yield* forked.await.pipe(Effect.flatten)]
      })
      bodies.length = 0
      expect(await Effect.runPromise(reads)).toEqual([42n, 42n, 42n])
      expect(bodies.map((b) => Array.isArray(b))).toEqual([false, false, false])
      bodies.length = 0
      expect(await Effect.runPromise(readTogether(reads))).toEqual([42n, 42n, 42n])
      expect(bodies.map((b) => (Array.isArray(b) ? b.map((c) => c.method).sort() : "alone"))).toEqual([["eth_blockNumber", "eth_blockNumber", "eth_maxPriorityFeePerGas"]])
      // and again alone after it
      bodies.length = 0
      await Effect.runPromise(reads)
      expect(bodies.map((b) => Array.isArray(b))).toEqual([false, false, false])
    } finally {
      await node.stop(true)
    }
    // the devnet's node takes batches: the head, a block and a balance answered as alone
    const rpc = await Effect.runPromise(makeRpc(config({ batchSize: 10 })))
    const together = await Effect.runPromise(readTogether(Effect.all([rpc.blockNumber(), rpc.getBlock(), rpc.call({ to: devnet.manifest.tokens.USDC!.address as Address, data: encodeFunctionData({ abi: ERC20, functionName: "decimals" }) })], { concurrency: "unbounded" })))
    const alone = await Effect.runPromise(Effect.all([rpc.blockNumber(), rpc.getBlock(), rpc.call({ to: devnet.manifest.tokens.USDC!.address as Address, data: encodeFunctionData({ abi: ERC20, functionName: "decimals" }) })], { concurrency: "unbounded" }))
    expect(together).toEqual(alone)
  })
})
