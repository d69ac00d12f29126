// The JSON-RPC transport against a real HTTP server answering each way a node or
// its provider answers: every request's result, and every failure read as an
// RpcError (reason, Retry-After, revert data, message), is what viem's own http
// transport gives for the same answer.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { createPublicClient, http, type PublicClient } from "viem"
import { toRpcError } from "../../src/chain/rpc-error.ts"
import { jsonRpcTransport } from "../../src/chain/json-rpc-transport.ts"

const TIMEOUT_MS = 300
const REVERT_DATA = "0x08c379a00000000000000000000000000000000000000000000000000000000000000020000000000000000000000000000000000000000000000000000000000000000474657374000000000000000000000000000000000000000000000000000000"

/** How the server answers a path, and the request it was sent last. */
const answers: Record<string, (body: { id: number }) => Response | Promise<Response>> = {
  "/ok": (b) => Response.json({ jsonrpc: "2.0", id: b.id, result: "0x2a" }),
  "/null-result": (b) => Response.json({ jsonrpc: "2.0", id: b.id, result: null }),
  "/revert": (b) => Response.json({ jsonrpc: "2.0", id: b.id, error: { code: 3, message: "execution reverted: test", data: REVERT_DATA } }),
  "/rpc-error": (b) => Response.json({ jsonrpc: "2.0", id: b.id, error: { code: -32000, message: "header not found" } }),
  "/method-missing": (b) => Response.json({ jsonrpc: "2.0", id: b.id, error: { code: -32601, message: "the method eth_x does not exist" } }),
  "/range": (b) => Response.json({ jsonrpc: "2.0", id: b.id, error: { code: -32005, message: "block range is too wide" } }),
  "/rate-429": () => new Response("Too Many Requests", { status: 429, headers: { "retry-after": "2" } }),
  "/rate-429-json": (b) => Response.json({ jsonrpc: "2.0", id: b.id, error: { code: -32005, message: "rate limit exceeded" } }, { status: 429, headers: { "retry-after": "1" } }),
  "/rate-200": (b) => Response.json({ jsonrpc: "2.0", id: b.id, error: { code: -32005, message: "Too many requests, please slow down" } }),
  "/500-json": (b) => Response.json({ jsonrpc: "2.0", id: b.id, error: { code: -32603, message: "internal error" } }, { status: 500 }),
  "/503-html": () => new Response("<html>Service Unavailable</html>", { status: 503, headers: { "content-type": "text/html" } }),
  "/502-empty": () => new Response("", { status: 502 }),
  "/not-json": () => new Response("not json", { status: 200 }),
  "/too-large-streamed": (b) => {
    // no Content-Length: the answer's size is known only once read
    const text = JSON.stringify({ jsonrpc: "2.0", id: b.id, result: `0x${"00".repeat(6 * 1024 * 1024)}` })
    return new Response(new ReadableStream({ start: (c) => { c.enqueue(new TextEncoder().encode(text)); c.close() } }), { headers: { "content-type": "application/json" } })
  },
  "/too-large": (b) => Response.json({ jsonrpc: "2.0", id: b.id, result: `0x${"00".repeat(6 * 1024 * 1024)}` }),
  "/slow": async (b) => {
    await Bun.sleep(TIMEOUT_MS * 4)
    return Response.json({ jsonrpc: "2.0", id: b.id, result: "0x1" })
  },
}

let server: ReturnType<typeof Bun.serve>
let base: string
let dead: string

beforeAll(async () => {
  server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: async (request) => {
      const answer = answers[new URL(request.url).pathname]
      if (answer === undefined) return new Response("no such path", { status: 404 })
      return answer((await request.json()) as { id: number })
    },
  })
  base = `http://127.0.0.1:${server.port}`
  const gone = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("") })
  dead = `http://127.0.0.1:${gone.port}`
  await gone.stop(true)
})

afterAll(() => server.stop(true))

const clients = (url: string): { readonly ours: PublicClient; readonly viems: PublicClient } => ({
  ours: createPublicClient({ transport: jsonRpcTransport(url, { timeoutMs: TIMEOUT_MS }) }),
  viems: createPublicClient({ transport: http(url, { timeout: TIMEOUT_MS, retryCount: 0, batch: false }) }),
})

/** What a request gives through a client (eth_call as viem's call action sends it): its result, or its failure as the service reads it. */
const outcome = async (client: PublicClient, method: string) => {
  try {
    if (method === "eth_call") return { result: await client.call({ to: "0x1111111111111111111111111111111111111111", data: "0x12345678" }) }
    return { result: await client.request({ method: method as "eth_blockNumber" }) }
  } catch (cause) {
    const e = toRpcError(method)(cause)
    return { reason: e.reason, message: e.message, retryAfterMs: e.retryAfterMs, revertData: e.revertData, limit: e.limit }
  }
}

describe("the JSON-RPC transport answers and fails as viem's http transport does", () => {
  const cases: Array<[path: string, method: string, expected: Record<string, unknown>]> = [
    ["/ok", "eth_blockNumber", { result: "0x2a" }],
    ["/null-result", "eth_getBlockByNumber", { result: null }],
    ["/revert", "eth_call", { reason: "revert", revertData: REVERT_DATA }],
    ["/rpc-error", "eth_call", { reason: "rpc" }],
    ["/method-missing", "eth_simulateV1", { reason: "unsupported" }],
    ["/range", "eth_getLogs", { reason: "limit", limit: "range" }],
    ["/rate-429", "eth_blockNumber", { reason: "rate-limited", retryAfterMs: 2000 }],
    ["/rate-429-json", "eth_blockNumber", { reason: "rate-limited", retryAfterMs: 1000 }],
    ["/rate-200", "eth_blockNumber", { reason: "rate-limited" }],
    ["/500-json", "eth_blockNumber", { reason: "http" }],
    ["/503-html", "eth_blockNumber", { reason: "http" }],
    ["/502-empty", "eth_blockNumber", { reason: "http" }],
    ["/not-json", "eth_blockNumber", { reason: "unreachable" }],
    ["/slow", "eth_blockNumber", { reason: "timeout" }],
    ["/too-large-streamed", "eth_blockNumber", { reason: "rpc", message: "HTTP response body exceeded the size limit." }],
    ["/too-large", "eth_blockNumber", { reason: "rpc", message: "HTTP response body exceeded the size limit." }],
  ]
  for (const [path, method, expected] of cases) {
    test(`${path} (${method})`, async () => {
      const { ours, viems } = clients(`${base}${path}`)
      const [mine, theirs] = await Promise.all([outcome(ours, method), outcome(viems, method)])
      expect(mine).toMatchObject(expected)
      // Retry-After is read against the clock: the same header, the same wait
      expect(mine).toEqual(theirs)
    })
  }

  test("nothing listening: unreachable", async () => {
    const { ours, viems } = clients(dead)
    const [mine, theirs] = await Promise.all([outcome(ours, "eth_blockNumber"), outcome(viems, "eth_blockNumber")])
    expect(mine).toMatchObject({ reason: "unreachable" })
    expect(mine).toEqual(theirs)
  })

  test("a deadline applies to each request: a slow answer times out within it", async () => {
    const { ours } = clients(`${base}/slow`)
    const started = performance.now()
    expect(await outcome(ours, "eth_blockNumber")).toMatchObject({ reason: "timeout" })
    const took = performance.now() - started
    expect(took).toBeGreaterThanOrEqual(TIMEOUT_MS - 20)
    expect(took).toBeLessThan(TIMEOUT_MS * 3)
  })

  test("credentials in the URL are sent as Basic authorization, not in the URL", async () => {
    let seen: { authorization: string | null; url: string } | undefined
    const guarded = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: async (request) => {
        seen = { authorization: request.headers.get("authorization"), url: request.url }
        const b = (await request.json()) as { id: number }
        return Response.json({ jsonrpc: "2.0", id: b.id, result: "0x1" })
      },
    })
    try {
      const client = createPublicClient({ transport: jsonRpcTransport(`http://user:p%40ss@127.0.0.1:${guarded.port}/rpc`, { timeoutMs: TIMEOUT_MS }) })
      expect(await client.request({ method: "eth_blockNumber" })).toBe("0x1")
      expect(seen?.authorization).toBe(`Basic ${btoa("user:p@ss")}`)
      expect(seen?.url).toBe(`http://127.0.0.1:${guarded.port}/rpc`)
    } finally {
      await guarded.stop(true)
    }
  })

  test("a request's params with a bigint are sent as viem writes them", async () => {
    let sent: unknown
    const echo = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: async (request) => {
        const b = (await request.json()) as { id: number; params: unknown }
        sent = b.params
        return Response.json({ jsonrpc: "2.0", id: b.id, result: "0x1" })
      },
    })
    try {
      const client = createPublicClient({ transport: jsonRpcTransport(`http://127.0.0.1:${echo.port}`, { timeoutMs: TIMEOUT_MS }) })
      await client.request({ method: "eth_x" as "eth_blockNumber", params: [{ value: 12345678901234567890n }] as never })
      expect(sent).toEqual([{ value: "12345678901234567890" }])
    } finally {
      await echo.stop(true)
    }
  })
})
