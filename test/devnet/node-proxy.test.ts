// The node proxy in front of a real anvil: it forwards and counts, refuses
// eth_getLogs over too many blocks or with too many results as public
// providers do, answers 429 with Retry-After past its rate, 503 while down,
// and batches element by element.
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "bun:test"
import { createPublicClient, http, numberToHex, type Address, type Hex } from "viem"
import { ownArtifact } from "../../src/contracts/artifacts.ts"
import { startNodeProxy, type NodeProxy } from "../../src/devnet/node-proxy.ts"
import { freePort } from "../cli/processes.ts"
import { startTestChain, type TestChain } from "./test-chain.ts"

let chain: TestChain
let proxy: NodeProxy

beforeAll(async () => {
  chain = await startTestChain(2)
  proxy = await startNodeProxy(chain.node.rpcUrl)
})
afterAll(async () => {
  await proxy?.stop()
  await chain?.stop()
})
beforeEach(() => {
  proxy.setLimits({})
  proxy.setDown(false)
  proxy.resetCounts()
})

interface RpcAnswer {
  readonly id: unknown
  readonly result?: unknown
  readonly error?: { readonly code: number; readonly message: string }
}

let nextId = 1
const call = (method: string, params: unknown[] = []) => ({ jsonrpc: "2.0", id: nextId++, method, params })

/** One raw POST to the proxy: its status, Retry-After and body (JSON when it is). */
const post = async (body: unknown, url = proxy.url) => {
  const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
  const text = await response.text()
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  return { status: response.status, retryAfter: response.headers.get("retry-after"), text, json }
}
const rpc = async (method: string, params: unknown[] = []) => (await post(call(method, params))).json as RpcAnswer

const client = () => createPublicClient({ chain: chain.chain, transport: http(proxy.url, { retryCount: 0 }) })
const head = () => chain.publicClient.getBlockNumber({ cacheTime: 0 })
const hex = (n: bigint) => numberToHex(n)

describe("node proxy", () => {
  test("forwards eth_chainId and eth_blockNumber and counts them by method", async () => {
    const viaProxy = client()
    expect(await viaProxy.getChainId()).toBe(5042)
    expect(await viaProxy.getBlockNumber({ cacheTime: 0 })).toBe(await head())
    expect((await rpc("eth_chainId")).result).toBe("0x13b2")
    const counts = proxy.counts()
    expect(counts.byMethod).toEqual({ eth_chainId: 2, eth_blockNumber: 1 })
    expect(counts.total).toBe(3)
    expect(counts.rateLimited + counts.rangeRefused + counts.resultsRefused).toBe(0)
  })

  test("eth_getLogs over more blocks than maxLogBlocks is refused with the providers' message; at the cap it passes", async () => {
    await chain.testClient.mine({ blocks: 60 })
    const latest = await head()
    proxy.setLimits({ maxLogBlocks: 50 })

    const wide = await rpc("eth_getLogs", [{ fromBlock: hex(latest - 50n), toBlock: hex(latest) }])
    expect(wide.error).toEqual({ code: -32005, message: "block range is too wide: 51 blocks requested, at most 50 allowed" })
    expect(wide.result).toBeUndefined()
    expect((await rpc("eth_getLogs", [{ fromBlock: hex(latest - 49n), toBlock: hex(latest) }])).result).toEqual([])

    // "latest" and a missing toBlock are the node's head; "earliest" is block 0
    expect((await rpc("eth_getLogs", [{ fromBlock: hex(latest - 50n), toBlock: "latest" }])).error?.message).toContain("51 blocks requested")
    expect((await rpc("eth_getLogs", [{ fromBlock: hex(latest - 50n) }])).error?.message).toContain("51 blocks requested")
    expect((await rpc("eth_getLogs", [{ fromBlock: hex(latest - 49n) }])).result).toEqual([])
    expect((await rpc("eth_getLogs", [{ toBlock: hex(latest) }])).result).toEqual([]) // from the head to the head
    expect((await rpc("eth_getLogs", [{ fromBlock: "earliest", toBlock: hex(50n) }])).error?.message).toContain("51 blocks requested")
    expect((await rpc("eth_getLogs", [{ fromBlock: "earliest", toBlock: hex(49n) }])).result).toEqual([])

    // "safe" is whatever block the node calls safe (anvil: 32 below the head)
    const safe = (await chain.publicClient.getBlock({ blockTag: "safe" })).number
    expect(safe).toBeLessThan(latest)
    proxy.setLimits({ maxLogBlocks: Number(latest - safe) })
    expect((await rpc("eth_getLogs", [{ fromBlock: "safe", toBlock: "latest" }])).error?.message).toBe(
      `block range is too wide: ${latest - safe + 1n} blocks requested, at most ${latest - safe} allowed`,
    )

    // a blockHash filter is one block, whatever else it says (anvil refuses one that also has a range)
    proxy.setLimits({ maxLogBlocks: 1 })
    const { hash } = await chain.publicClient.getBlock({ blockNumber: latest - 40n })
    expect((await rpc("eth_getLogs", [{ blockHash: hash }])).result).toEqual([])
    expect((await rpc("eth_getLogs", [{ blockHash: hash, fromBlock: "earliest" }])).error?.message).toBe(
      "cannot specify both blockHash and fromBlock/toBlock, choose one or the other",
    )

    // through viem, the refusal is an RPC error carrying the message
    const failure = await client()
      .getLogs({ fromBlock: latest - 1n, toBlock: latest })
      .then(() => undefined, (e: Error) => e)
    expect(failure?.message).toContain("block range is too wide")

    const counts = proxy.counts()
    expect(counts.rangeRefused).toBe(6)
    expect(counts.byMethod).toEqual({ eth_getLogs: 12 }) // the proxy's own head lookups are not the client's
  })

  test("eth_getLogs answering more than maxLogResults logs is refused after forwarding; the logs served are counted", async () => {
    const token = ownArtifact("TestToken")
    const address: Address = await chain.deploy(token, ["Proxy Test", "PXT", 18])
    const from = await head()
    const [owner, other] = chain.accounts as [Address, Address]
    await chain.write(chain.wallets[0]!, { address, abi: token.abi, functionName: "mint", args: [owner, 1000n] })
    for (let i = 1n; i <= 5n; i++) await chain.write(chain.wallets[0]!, { address, abi: token.abi, functionName: "transfer", args: [other, i] })
    const to = await head()
    const filter = { address, fromBlock: hex(from), toBlock: hex(to) }
    expect(((await rpc("eth_getLogs", [filter])).result as unknown[]).length).toBe(6) // the mint and 5 transfers

    proxy.setLimits({ maxLogResults: 3 })
    const refused = await rpc("eth_getLogs", [filter])
    expect(refused.error).toEqual({ code: -32005, message: "query returned more than 3 results" })
    // the last three transfers, one a block, fit
    const last3 = (await rpc("eth_getLogs", [{ ...filter, fromBlock: hex(to - 2n) }])).result as Array<{ data: Hex }>
    expect(last3.map((log) => BigInt(log.data))).toEqual([3n, 4n, 5n])
    // one over the cap is refused, at the cap it passes
    proxy.setLimits({ maxLogResults: 5 })
    expect((await rpc("eth_getLogs", [filter])).error?.message).toBe("query returned more than 5 results")
    proxy.setLimits({ maxLogResults: 6 })
    expect(((await rpc("eth_getLogs", [filter])).result as unknown[]).length).toBe(6)
    expect(proxy.counts().resultsRefused).toBe(2)
    expect(proxy.counts().byMethod.eth_getLogs).toBe(5)
    // the logs the client received: 6, 3 and 6; a refused answer holds none
    expect(proxy.counts().logsServed).toBe(15)
  })

  test("past requestsPerSecond: HTTP 429 with Retry-After, nothing forwarded; after waiting it, a request passes", async () => {
    proxy.setLimits({ requestsPerSecond: 5 })
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(call("eth_chainId"))))
    const passed = answers.filter((a) => a.status === 200)
    const limited = answers.filter((a) => a.status === 429)
    expect(passed.length).toBeGreaterThanOrEqual(5)
    expect(passed.length).toBeLessThanOrEqual(7) // the burst, and at most a couple more refilled meanwhile
    expect(limited.length).toBe(20 - passed.length)
    for (const a of limited) {
      expect(Number(a.retryAfter)).toBeGreaterThanOrEqual(1)
      expect(Number.isInteger(Number(a.retryAfter))).toBe(true)
      expect((a.json as RpcAnswer).error).toEqual({ code: -32005, message: "rate limit exceeded" })
    }
    // each 429 carries the id it answers
    const ids = limited.map((a) => (a.json as RpcAnswer).id)
    expect(new Set(ids).size).toBe(limited.length)
    expect(proxy.counts()).toMatchObject({ rateLimited: limited.length, byMethod: { eth_chainId: passed.length }, total: 20 })

    await Bun.sleep(Math.max(...limited.map((a) => Number(a.retryAfter))) * 1000)
    const after = await post(call("eth_chainId"))
    expect(after.status).toBe(200)
    expect((after.json as RpcAnswer).result).toBe("0x13b2")
  })

  test("a batch costs one token per element", async () => {
    proxy.setLimits({ requestsPerSecond: 5 })
    const first = await post([call("eth_chainId"), call("eth_chainId"), call("eth_chainId")])
    expect(first.status).toBe(200)
    const second = [call("eth_chainId"), call("eth_blockNumber"), call("eth_chainId")]
    const refused = await post(second)
    expect(refused.status).toBe(429)
    expect(refused.retryAfter).toBe("1") // one token short at 5 a second
    expect((refused.json as RpcAnswer[]).map((a) => a.id)).toEqual(second.map((c) => c.id))
    expect(proxy.counts()).toMatchObject({ rateLimited: 3, byMethod: { eth_chainId: 3 } })
  })

  test("setDown: every request is answered 503 until it comes back", async () => {
    proxy.setDown(true)
    const down = await post(call("eth_chainId"))
    expect(down.status).toBe(503)
    expect(down.text).toContain("down")
    const failure = await client()
      .getChainId()
      .then(() => undefined, (e: Error) => e)
    expect(failure?.message).toContain("503")
    proxy.setDown(false)
    expect((await rpc("eth_chainId")).result).toBe("0x13b2")
    expect(proxy.counts()).toMatchObject({ down: 2, total: 1 })
  })

  test("a batch is answered element by element, in order", async () => {
    const latest = await head()
    proxy.setLimits({ maxLogBlocks: 10 })
    const batch = [
      call("eth_chainId"),
      call("eth_getLogs", [{ fromBlock: hex(latest - 10n), toBlock: hex(latest) }]),
      call("eth_blockNumber"),
      call("eth_getLogs", [{ fromBlock: hex(latest - 9n), toBlock: "latest" }]),
    ]
    const { status, json } = await post(batch)
    expect(status).toBe(200)
    const answers = json as RpcAnswer[]
    expect(answers.map((a) => a.id)).toEqual(batch.map((c) => c.id))
    expect(answers[0]!.result).toBe("0x13b2")
    expect(answers[1]!.error).toEqual({ code: -32005, message: "block range is too wide: 11 blocks requested, at most 10 allowed" })
    expect(BigInt(answers[2]!.result as string)).toBe(latest)
    expect(Array.isArray(answers[3]!.result)).toBe(true)
    expect(proxy.counts()).toMatchObject({ rangeRefused: 1, byMethod: { eth_chainId: 1, eth_getLogs: 2, eth_blockNumber: 1 } })
  })

  test("a request without eth_getLogs comes back as the node answered it, byte for byte, and is counted", async () => {
    const body = JSON.stringify([call("eth_chainId"), call("eth_getBlockByNumber", ["0x0", true]), call("eth_blockNumber")])
    const ask = (url: string) => fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body }).then((r) => r.text())
    const [direct, relayed] = [await ask(chain.node.rpcUrl), await ask(proxy.url)]
    expect(relayed).toBe(direct)
    expect(proxy.counts().byMethod).toEqual({ eth_chainId: 1, eth_getBlockByNumber: 1, eth_blockNumber: 1 })
  })

  test("eth_getLogs within the limits comes back as the node answered it, byte for byte; its logs are counted", async () => {
    proxy.setLimits({ maxLogBlocks: 10_000, maxLogResults: 10_000 })
    const body = JSON.stringify([call("eth_blockNumber"), call("eth_getLogs", [{ fromBlock: "0x0", toBlock: "latest" }])])
    const ask = (url: string) => fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body }).then((r) => r.text())
    const [direct, relayed] = [await ask(chain.node.rpcUrl), await ask(proxy.url)]
    expect(relayed).toBe(direct)
    const logs = (JSON.parse(direct) as RpcAnswer[]).find((a) => Array.isArray(a.result))!.result as unknown[]
    expect(proxy.counts().logsServed).toBe(logs.length)
  })

  test("listens on the port asked for, and stop closes it", async () => {
    const port = freePort()
    const own = await startNodeProxy(chain.node.rpcUrl, {}, { port })
    expect(own.url).toBe(`http://127.0.0.1:${port}`)
    expect((await post(call("eth_chainId"), own.url)).status).toBe(200)
    await own.stop()
    const after = await post(call("eth_chainId"), own.url).then(() => "answered", () => "refused")
    expect(after).toBe("refused")
  })

  test("refuses limits that are not positive numbers", async () => {
    expect(() => proxy.setLimits({ requestsPerSecond: 0 })).toThrow("requestsPerSecond must be a positive number")
    await expect(startNodeProxy(chain.node.rpcUrl, { maxLogBlocks: -1 })).rejects.toThrow("maxLogBlocks must be a positive number")
  })
})
