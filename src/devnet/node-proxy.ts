// A JSON-RPC proxy in front of a real node (anvil) that enforces the limits
// public RPC providers enforce: requests per second (HTTP 429 with
// Retry-After), the block range and the number of results of one eth_getLogs,
// and can play an endpoint that failed (HTTP 503); it counts the requests by
// method and the logs it served. For tests and benchmarks of
// how the service lives within a public node's limits; nothing at runtime
// uses it.

export interface NodeProxyLimits {
  /** eth_getLogs: most blocks in one request (toBlock - fromBlock + 1); unlimited when absent */
  readonly maxLogBlocks?: number
  /** eth_getLogs: most logs in one answer; unlimited when absent */
  readonly maxLogResults?: number
  /** JSON-RPC requests per second (each element of a batch counts); past it HTTP 429 with Retry-After; unlimited when absent */
  readonly requestsPerSecond?: number
}

export interface NodeProxyCounts {
  /** JSON-RPC requests received while up: the sum of byMethod and rateLimited */
  readonly total: number
  /** requests forwarded, or refused by a getLogs limit, by method */
  readonly byMethod: Readonly<Record<string, number>>
  /** requests answered 429 (each element of a batch counts) */
  readonly rateLimited: number
  /** eth_getLogs refused for their block range */
  readonly rangeRefused: number
  /** eth_getLogs forwarded, whose answer was replaced for holding too many logs */
  readonly resultsRefused: number
  /** logs in the eth_getLogs answers the client received (refused answers hold none) */
  readonly logsServed: number
  /** HTTP requests answered 503 while down */
  readonly down?: number
}

export interface NodeProxy {
  /** http://127.0.0.1:<port> */
  readonly url: string
  readonly port: number
  /** requests forwarded or refused so far, by JSON-RPC method */
  readonly counts: () => NodeProxyCounts
  readonly resetCounts: () => void
  /** change the limits while running (a new rate starts with a full bucket) */
  readonly setLimits: (limits: NodeProxyLimits) => void
  /** while down, every request gets HTTP 503 (an endpoint that failed) */
  readonly setDown: (down: boolean) => void
  readonly stop: () => Promise<void>
}

/** the code public providers answer a limit with (EIP-1474 "limit exceeded") */
export const LIMIT_EXCEEDED = -32005

interface RpcCall {
  readonly id?: unknown
  readonly method?: unknown
  readonly params?: unknown
}
type RpcAnswer = { readonly id?: unknown; readonly result?: unknown; readonly error?: unknown }

const rpcError = (id: unknown, message: string, code = LIMIT_EXCEEDED) => ({ jsonrpc: "2.0", id: id ?? null, error: { code, message } })
const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } })

/**
 * A token bucket of `rate` tokens a second, refilled continuously, holding at
 * most max(rate, 1). take(cost) takes them and answers 0, or answers the whole
 * seconds (so at least 1) until they will be there. A cost above the capacity never passes.
 */
const tokenBucket = (rate: number) => {
  const capacity = Math.max(1, rate)
  let tokens = capacity
  let at = performance.now()
  return (cost: number): number => {
    const now = performance.now()
    tokens = Math.min(capacity, tokens + ((now - at) / 1000) * rate)
    at = now
    if (tokens >= cost) {
      tokens -= cost
      return 0
    }
    return Math.ceil((cost - tokens) / rate)
  }
}

const checkLimits = (limits: NodeProxyLimits): NodeProxyLimits => {
  for (const [name, value] of Object.entries(limits)) {
    if (value !== undefined && !(typeof value === "number" && Number.isFinite(value) && value > 0)) {
      throw new Error(`node proxy: ${name} must be a positive number, got ${value}`)
    }
  }
  return limits
}

/** Named block tags, resolved by the node: "latest" by eth_blockNumber, the others by their block; undefined when it cannot. */
type TagNumber = (tag: string) => Promise<bigint | undefined>

/** A getLogs block bound as a number (missing = latest); undefined for what the node should judge itself. */
const blockOf = async (bound: unknown, tagNumber: TagNumber): Promise<bigint | undefined> => {
  if (bound === undefined || bound === null) return tagNumber("latest")
  if (bound === "earliest") return 0n
  if (typeof bound !== "string") return undefined
  if (/^0x[0-9a-f]+$/i.test(bound)) return BigInt(bound)
  return ["latest", "safe", "finalized", "pending"].includes(bound) ? tagNumber(bound) : undefined
}

/** How many blocks an eth_getLogs filter spans: 1 for a blockHash filter; undefined when unreadable. */
const logBlocks = async (params: unknown, tagNumber: TagNumber): Promise<bigint | undefined> => {
  const filter: unknown = Array.isArray(params) ? params[0] : undefined
  if (typeof filter !== "object" || filter === null) return undefined
  const { blockHash, fromBlock, toBlock } = filter as Record<string, unknown>
  if (blockHash !== undefined && blockHash !== null) return 1n
  const from = await blockOf(fromBlock, tagNumber)
  const to = await blockOf(toBlock, tagNumber)
  return from === undefined || to === undefined ? undefined : to - from + 1n
}

export const startNodeProxy = async (upstream: string, limits: NodeProxyLimits = {}, options: { port?: number } = {}): Promise<NodeProxy> => {
  let current = checkLimits(limits)
  let take = current.requestsPerSecond !== undefined ? tokenBucket(current.requestsPerSecond) : undefined
  let down = false
  let counts = { byMethod: {} as Record<string, number>, rateLimited: 0, rangeRefused: 0, resultsRefused: 0, logsServed: 0, down: 0 }

  const postText = (body: string) => fetch(upstream, { method: "POST", headers: { "content-type": "application/json" }, body })
  const post = (body: unknown) => postText(JSON.stringify(body))

  const handle = async (request: Request): Promise<Response> => {
    if (down) {
      counts.down++
      return new Response("node proxy: endpoint down", { status: 503 })
    }
    if (request.method !== "POST") return new Response("node proxy: POST JSON-RPC only", { status: 405 })
    const sent = await request.text()
    let body: unknown
    try {
      body = JSON.parse(sent)
    } catch {
      return json(rpcError(null, "parse error", -32700))
    }
    const batch = Array.isArray(body)
    const calls = (batch ? body : [body]) as ReadonlyArray<RpcCall | null>
    const limits = current
    const wait = take?.(calls.length) ?? 0
    if (wait > 0) {
      counts.rateLimited += calls.length
      const errors = calls.map((call) => rpcError(call?.id, "rate limit exceeded"))
      return json(batch ? errors : errors[0], 429, { "retry-after": String(wait) })
    }
    for (const call of calls) counts.byMethod[String(call?.method)] = (counts.byMethod[String(call?.method)] ?? 0) + 1

    // block tags, each asked of the node once per request and only when a filter needs it; not counted against the client
    const tags = new Map<string, Promise<bigint | undefined>>()
    const tagNumber: TagNumber = (tag) => {
      const call = tag === "latest" ? { method: "eth_blockNumber", params: [] } : { method: "eth_getBlockByNumber", params: [tag, false] }
      const known =
        tags.get(tag) ??
        post({ jsonrpc: "2.0", id: 1, ...call })
          .then((r) => r.json() as Promise<RpcAnswer>)
          .then((a) => BigInt(tag === "latest" ? (a.result as string) : (a.result as { number: string }).number))
          .catch(() => undefined) // left to the node, which answers the filter itself
      tags.set(tag, known)
      return known
    }
    const isLogs = (call: RpcCall | null) => call?.method === "eth_getLogs"
    const refused = await Promise.all(
      calls.map(async (call) => {
        if (!isLogs(call) || limits.maxLogBlocks === undefined) return undefined
        const blocks = await logBlocks(call!.params, tagNumber)
        if (blocks === undefined || blocks <= BigInt(limits.maxLogBlocks)) return undefined
        counts.rangeRefused++
        return rpcError(call!.id, `block range is too wide: ${blocks} blocks requested, at most ${limits.maxLogBlocks} allowed`)
      }),
    )

    const forwarded = calls.filter((_, i) => refused[i] === undefined)
    // without logs to count or cap, nothing in the answer is the proxy's business: the request goes
    // as it came and the node's answer comes back as it is (a block's batched read is ~200 KB)
    if (!calls.some(isLogs)) {
      const answer = await postText(sent)
      return new Response(await answer.arrayBuffer(), { status: answer.status, headers: { "content-type": answer.headers.get("content-type") ?? "application/json" } })
    }
    // the node's answers by id (a batch's may come in any order)
    const byId = new Map<string, RpcAnswer>()
    // the node's text and answers in its order, relayed as they are when the proxy changes nothing
    let relayedText = ""
    let relayedAnswers: readonly RpcAnswer[] = []
    if (forwarded.length > 0) {
      const answer = await post(batch ? forwarded : forwarded[0])
      const text = await answer.text()
      relayedText = text
      let parsed: unknown
      try {
        parsed = JSON.parse(text)
      } catch {
        parsed = undefined
      }
      // anything but a JSON-RPC answer of the same shape is relayed as it came
      if (!answer.ok || parsed === undefined || Array.isArray(parsed) !== batch) {
        return new Response(text, { status: answer.status, headers: { "content-type": answer.headers.get("content-type") ?? "text/plain" } })
      }
      relayedAnswers = batch ? (parsed as RpcAnswer[]) : [parsed as RpcAnswer]
      if (!batch) byId.set(JSON.stringify(forwarded[0]?.id ?? null), parsed as RpcAnswer)
      else for (const a of parsed as RpcAnswer[]) byId.set(JSON.stringify(a?.id ?? null), a)
    }
    const answers = calls.flatMap((call, i): RpcAnswer[] => {
      const own = refused[i]
      if (own !== undefined) return [own]
      const answer = byId.get(JSON.stringify(call?.id ?? null))
      if (answer === undefined) return [] // a notification, answered by nothing
      if (isLogs(call) && limits.maxLogResults !== undefined && Array.isArray(answer.result) && answer.result.length > limits.maxLogResults) {
        counts.resultsRefused++
        return [rpcError(call!.id, `query returned more than ${limits.maxLogResults} results`)]
      }
      if (isLogs(call) && Array.isArray(answer.result)) counts.logsServed += answer.result.length
      return [answer]
    })
    // nothing refused: the node's own text (a block's logs are ~150 KB), not the same written again
    if (answers.length === relayedAnswers.length && answers.every((a, i) => a === relayedAnswers[i])) return new Response(relayedText, { headers: { "content-type": "application/json" } })
    return json(batch ? answers : answers[0])
  }

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: options.port ?? 0,
    fetch: (request) =>
      handle(request).catch((error: unknown) => new Response(`node proxy: upstream failed: ${String(error)}`, { status: 502 })),
  })
  const port = server.port!
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    counts: () => {
      const byMethod = { ...counts.byMethod }
      const forwardedOrRefused = Object.values(byMethod).reduce((sum, n) => sum + n, 0)
      return { ...counts, byMethod, total: forwardedOrRefused + counts.rateLimited }
    },
    resetCounts: () => {
      counts = { byMethod: {}, rateLimited: 0, rangeRefused: 0, resultsRefused: 0, logsServed: 0, down: 0 }
    },
    setLimits: (limits) => {
      current = checkLimits(limits)
      take = current.requestsPerSecond !== undefined ? tokenBucket(current.requestsPerSecond) : undefined
    },
    setDown: (value) => {
      down = value
    },
    stop: async () => {
      await server.stop(true)
    },
  }
}
