// A JSON-RPC proxy in front of a devnet node that behaves as other nodes do:
// "geth" refuses eth_simulateV1 requests whose block overrides do not move
// forward from their base block (errors -38020 / -38021, as geth and reth
// answer); "no-simulate" answers eth_simulateV1 with "method not found", as a
// node without it does; "no-overrides" drops eth_call's state overrides, as a
// node that does not take them does (the call runs against the chain's own
// code). Everything else is passed through unchanged.
import type { Server } from "bun"

export type ProxyMode = "geth" | "no-simulate" | "no-overrides"

export interface NodeProxy {
  readonly url: string
  /** eth_simulateV1 requests seen, and those refused */
  readonly counts: { simulate: number; refused: number }
  /**
   * Executions asked of the node per contract called (lower-case address): each call of an
   * eth_simulateV1 request, each eth_call and each eth_estimateGas (the node's own search, many
   * executions, counted as one here and in `estimates`)
   */
  readonly executions: Map<string, number>
  readonly estimates: Map<string, number>
  /** the methods of every HTTP request received, in order (several for a batch) */
  readonly requests: string[][]
  readonly stop: () => void
}

type RpcRequest = { readonly jsonrpc: "2.0"; readonly id: unknown; readonly method: string; readonly params?: unknown[] }

const error = (id: unknown, code: number, message: string) => ({ jsonrpc: "2.0", id, error: { code, message } })

export const startNodeProxy = (target: string, mode: ProxyMode): NodeProxy => {
  const counts = { simulate: 0, refused: 0 }
  const executions = new Map<string, number>()
  const estimates = new Map<string, number>()
  const requests: string[][] = []
  const tally = (map: Map<string, number>, to: unknown) => {
    if (typeof to !== "string") return
    map.set(to.toLowerCase(), (map.get(to.toLowerCase()) ?? 0) + 1)
  }
  const countExecutions = (request: RpcRequest) => {
    if (request.method === "eth_call" || request.method === "eth_estimateGas") {
      const [call] = (request.params ?? []) as [{ to?: string } | undefined]
      tally(executions, call?.to)
      if (request.method === "eth_estimateGas") tally(estimates, call?.to)
    } else if (request.method === "eth_simulateV1") {
      const [payload] = (request.params ?? []) as [{ blockStateCalls?: { calls?: { to?: string }[] }[] } | undefined]
      for (const block of payload?.blockStateCalls ?? []) for (const call of block.calls ?? []) tally(executions, call.to)
    }
  }
  const forward = async (request: RpcRequest): Promise<any> => {
    const res = await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(request) })
    return res.json()
  }
  const header = async (tag: unknown) => {
    const block = await forward({ jsonrpc: "2.0", id: 0, method: "eth_getBlockByNumber", params: [tag ?? "latest", false] })
    return { number: BigInt(block.result.number), timestamp: BigInt(block.result.timestamp) }
  }
  const answer = async (request: RpcRequest): Promise<unknown> => {
    countExecutions(request)
    if (request.method === "eth_call" && mode === "no-overrides") return forward({ ...request, params: (request.params ?? []).slice(0, 2) })
    if (request.method !== "eth_simulateV1") return forward(request)
    counts.simulate++
    if (mode === "no-simulate") {
      counts.refused++
      return error(request.id, -32601, "the method eth_simulateV1 does not exist/is not available")
    }
    const [payload, tag] = (request.params ?? []) as [{ blockStateCalls: { blockOverrides?: { number?: string; time?: string } }[] }, unknown]
    let { number, timestamp } = await header(tag)
    for (const block of payload.blockStateCalls) {
      const next = block.blockOverrides?.number !== undefined ? BigInt(block.blockOverrides.number) : number + 1n
      if (next <= number) {
        counts.refused++
        return error(request.id, -38020, `block numbers must be in order: ${next} <= ${number}`)
      }
      const time = block.blockOverrides?.time !== undefined ? BigInt(block.blockOverrides.time) : timestamp + 1n
      if (time <= timestamp) {
        counts.refused++
        return error(request.id, -38021, `block timestamps must be in order: ${time} <= ${timestamp}`)
      }
      number = next
      timestamp = time
    }
    return forward(request)
  }
  const server: Server<undefined> = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: async (req) => {
      const body = (await req.json()) as RpcRequest | RpcRequest[]
      requests.push((Array.isArray(body) ? body : [body]).map((r) => r.method))
      const result = Array.isArray(body) ? await Promise.all(body.map(answer)) : await answer(body)
      return Response.json(result)
    },
  })
  return { url: `http://127.0.0.1:${server.port}`, counts, executions, estimates, requests, stop: () => void server.stop(true) }
}
