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

/** Answers of megabytes are read within a deadline long enough for a loaded machine: their size is what is tested. */
const LARGE_ANSWER_TIMEOUT_MS = 5_000

const clients = (url: string): { readonly ours: PublicClient; readonly viems: PublicClient } => {
  const timeoutMs = url.includes("/too-large") ? LARGE_ANSWER_TIMEOUT_MS : TIMEOUT_MS
  return {
    ours: createPublicClient({ transport: jsonRpcTransport(url, { timeoutMs }) }),
    viems: createPublicClient({ transport: http(url, { timeout: timeoutMs, retryCount: 0, batch: false }) }),
  }
}

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

describe("requests made in the same turn go as one JSON-RPC batch", () => {
  type Call = { readonly id: number; readonly method: string; readonly params?: readonly unknown[] }
  /** One call's answer: eth_call reverts, eth_getBalance fails as the node's error, the rest answer their own id as a result. */
  const answerOf = (call: Call) =>
    call.method === "eth_call" ? { jsonrpc: "2.0", id: call.id, error: { code: 3, message: "execution reverted: test", data: REVERT_DATA } }
    : call.method === "eth_getBalance" ? { jsonrpc: "2.0", id: call.id, error: { code: -32000, message: "header not found" } }
    : { jsonrpc: "2.0", id: call.id, result: `0x${Number((call.params?.[0] as string | undefined) ?? "0x0").toString(16)}` }

  /** A node answering batches as `batches` says; every HTTP request's body kept, as sent. */
  const node = (batches: (calls: readonly Call[]) => Response) => {
    const bodies: unknown[] = []
    const server = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: async (request) => {
        const body = (await request.json()) as Call | Call[]
        bodies.push(body)
        return Array.isArray(body) ? batches(body) : Response.json(answerOf(body))
      },
    })
    return { url: `http://127.0.0.1:${server.port}`, bodies, stop: () => server.stop(true) }
  }
  /** eth_x with its own number as the param: the node answers it back */
  const numbered = (client: PublicClient, n: number): Promise<string> => client.request({ method: "eth_x" as "eth_blockNumber", params: [`0x${n.toString(16)}`] as never })
  const failureOf = async (method: string, p: Promise<unknown>) => {
    try {
      return { result: await p }
    } catch (cause) {
      const e = toRpcError(method)(cause)
      return { reason: e.reason, revertData: e.revertData, retryAfterMs: e.retryAfterMs }
    }
  }

  test("each request gets its own answer, whatever the order of the batch's answers; a revert or an error stays its own request's", async () => {
    // the answers in reverse order: they are matched by id
    const n = node((calls) => Response.json(calls.map(answerOf).reverse()))
    try {
      const client = createPublicClient({ transport: jsonRpcTransport(n.url, { timeoutMs: TIMEOUT_MS, batchSize: 10 }) })
      const [a, reverted, b, failed] = await Promise.all([
        numbered(client, 7),
        failureOf("eth_call", client.call({ to: "0x1111111111111111111111111111111111111111", data: "0x12345678" })),
        numbered(client, 9),
        failureOf("eth_getBalance", client.request({ method: "eth_getBalance", params: ["0x1111111111111111111111111111111111111111", "latest"] })),
      ])
      expect([a, b]).toEqual(["0x7", "0x9"])
      expect(reverted).toMatchObject({ reason: "revert", revertData: REVERT_DATA })
      expect(failed).toMatchObject({ reason: "rpc" })
      expect(n.bodies.length).toBe(1)
      expect((n.bodies[0] as Call[]).map((c) => c.method)).toEqual(["eth_x", "eth_call", "eth_x", "eth_getBalance"])
    } finally {
      n.stop()
    }
  })

  test("at most batchSize requests a batch; requests of later turns and a request alone go as they are", async () => {
    const n = node((calls) => Response.json(calls.map(answerOf)))
    try {
      const client = createPublicClient({ transport: jsonRpcTransport(n.url, { timeoutMs: TIMEOUT_MS, batchSize: 10 }) })
      const answers = await Promise.all(Array.from({ length: 25 }, (_, i) => numbered(client, i)))
      expect(answers).toEqual(Array.from({ length: 25 }, (_, i) => `0x${i.toString(16)}`))
      expect(n.bodies.map((b) => (Array.isArray(b) ? b.length : 1))).toEqual([10, 10, 5])
      expect(await numbered(client, 30)).toBe("0x1e")
      expect(await numbered(client, 31)).toBe("0x1f")
      expect(n.bodies.slice(3).map((b) => Array.isArray(b))).toEqual([false, false])
    } finally {
      n.stop()
    }
  })

  test("without batchSize every request goes alone", async () => {
    const n = node((calls) => Response.json(calls.map(answerOf)))
    try {
      const client = createPublicClient({ transport: jsonRpcTransport(n.url, { timeoutMs: TIMEOUT_MS }) })
      expect(await Promise.all([numbered(client, 1), numbered(client, 2), numbered(client, 3)])).toEqual(["0x1", "0x2", "0x3"])
      expect(n.bodies.map((b) => Array.isArray(b))).toEqual([false, false, false])
    } finally {
      n.stop()
    }
  })

  const refusals: Array<[string, (calls: readonly Call[]) => Response]> = [
    ["an error object instead of the answers", () => Response.json({ jsonrpc: "2.0", id: null, error: { code: -32600, message: "batch requests are not supported" } })],
    ["HTTP 400", () => new Response("batch requests are not supported", { status: 400 })],
    ["HTTP 413", () => new Response("request entity too large", { status: 413 })],
  ]
  for (const [name, refusal] of refusals) {
    test(`an endpoint that refuses a batch (${name}): each request is asked again alone and answered, and later ones go alone`, async () => {
      const n = node(refusal)
      try {
        const client = createPublicClient({ transport: jsonRpcTransport(n.url, { timeoutMs: TIMEOUT_MS, batchSize: 10 }) })
        const [a, reverted, b] = await Promise.all([
          numbered(client, 4),
          failureOf("eth_call", client.call({ to: "0x1111111111111111111111111111111111111111", data: "0x12345678" })),
          numbered(client, 5),
        ])
        expect([a, b]).toEqual(["0x4", "0x5"])
        expect(reverted).toMatchObject({ reason: "revert", revertData: REVERT_DATA })
        expect(await Promise.all([numbered(client, 6), numbered(client, 7)])).toEqual(["0x6", "0x7"])
        // the refused batch, its three requests alone, then the next turn's two alone
        expect(n.bodies.map((b) => (Array.isArray(b) ? b.length : 1))).toEqual([3, 1, 1, 1, 1, 1])
      } finally {
        n.stop()
      }
    })
  }

  test("a request the endpoint leaves out of its answer is asked again alone", async () => {
    const n = node((calls) => Response.json(calls.slice(1).map(answerOf)))
    try {
      const client = createPublicClient({ transport: jsonRpcTransport(n.url, { timeoutMs: TIMEOUT_MS, batchSize: 10 }) })
      expect(await Promise.all([numbered(client, 1), numbered(client, 2), numbered(client, 3)])).toEqual(["0x1", "0x2", "0x3"])
      expect(n.bodies.map((b) => (Array.isArray(b) ? b.length : 1))).toEqual([3, 1])
      // batches still go: the endpoint took this one
      await Promise.all([numbered(client, 4), numbered(client, 5)])
      expect(n.bodies.map((b) => (Array.isArray(b) ? b.length : 1))).toEqual([3, 1, 2, 1])
    } finally {
      n.stop()
    }
  })

  test("a rate limit or a server fault on the batch fails each of its requests as it would fail alone", async () => {
    const limited = node((calls) => Response.json(calls.map((c) => ({ jsonrpc: "2.0", id: c.id, error: { code: -32005, message: "rate limit exceeded" } })), { status: 429, headers: { "retry-after": "2" } }))
    const limitedBare = node(() => new Response("Too Many Requests", { status: 429, headers: { "retry-after": "1" } }))
    const down = node(() => new Response("<html>Service Unavailable</html>", { status: 503 }))
    try {
      for (const [n, expected] of [[limited, { reason: "rate-limited", retryAfterMs: 2000 }], [limitedBare, { reason: "rate-limited", retryAfterMs: 1000 }], [down, { reason: "http" }]] as const) {
        const client = createPublicClient({ transport: jsonRpcTransport(n.url, { timeoutMs: TIMEOUT_MS, batchSize: 10 }) })
        const outcomes = await Promise.all([failureOf("eth_x", numbered(client, 1)), failureOf("eth_x", numbered(client, 2))])
        for (const outcome of outcomes) expect(outcome).toMatchObject(expected)
        // not a refusal of batches: the next turn's requests still go together
        await Promise.all([numbered(client, 3), numbered(client, 4)]).catch(() => undefined)
        expect(n.bodies.map((b) => (Array.isArray(b) ? b.length : 1))).toEqual([2, 2])
      }
    } finally {
      limited.stop()
      limitedBare.stop()
      down.stop()
    }
  })

  test("a batch answered too late fails each request at its deadline; an endpoint not listening, each as unreachable", async () => {
    const slow = node((calls) => {
      // answered after the deadline
      return new Response(new ReadableStream({ start: async (c) => { await Bun.sleep(TIMEOUT_MS * 4); c.enqueue(new TextEncoder().encode(JSON.stringify(calls.map(answerOf)))); c.close() } }))
    })
    try {
      const client = createPublicClient({ transport: jsonRpcTransport(slow.url, { timeoutMs: TIMEOUT_MS, batchSize: 10 }) })
      const started = performance.now()
      const outcomes = await Promise.all([failureOf("eth_x", numbered(client, 1)), failureOf("eth_x", numbered(client, 2))])
      expect(outcomes).toEqual([{ reason: "timeout", revertData: undefined, retryAfterMs: undefined }, { reason: "timeout", revertData: undefined, retryAfterMs: undefined }])
      expect(performance.now() - started).toBeLessThan(TIMEOUT_MS * 3)
      const gone = createPublicClient({ transport: jsonRpcTransport(dead, { timeoutMs: TIMEOUT_MS, batchSize: 10 }) })
      const unreachable = await Promise.all([failureOf("eth_x", numbered(gone, 1)), failureOf("eth_x", numbered(gone, 2))])
      for (const outcome of unreachable) expect(outcome).toMatchObject({ reason: "unreachable" })
    } finally {
      slow.stop()
    }
  })
})
