// A JSON-RPC client that sends many requests in one batch (the fixture sends thousands of
// transactions a round), and the shapes of the node's blocks and receipts it reads.
import type { Hex } from "viem"
import { HistoryError } from "./fixture.ts"

export type RpcRequest = { readonly method: string; readonly params: readonly unknown[] }

export const rpcClient = (url: string) => {
  let id = 0
  const post = async (body: unknown): Promise<unknown> => {
    const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
    if (!res.ok) throw new HistoryError(`node answered HTTP ${res.status}`)
    return res.json()
  }
  const call = async <T = unknown>(method: string, params: readonly unknown[] = []): Promise<T> => {
    const answer = (await post({ jsonrpc: "2.0", id: ++id, method, params })) as { result?: T; error?: { message: string } }
    if (answer.error) throw new HistoryError(`${method}: ${answer.error.message}`)
    return answer.result as T
  }
  /** many requests in JSON-RPC batches, answers in order; throws on the first error */
  const batch = async <T = unknown>(requests: readonly RpcRequest[], size = 500): Promise<T[]> => {
    const out: T[] = []
    for (let start = 0; start < requests.length; start += size) {
      const slice = requests.slice(start, start + size)
      const first = id + 1
      id += slice.length
      const body = slice.map((r, i) => ({ jsonrpc: "2.0", id: first + i, method: r.method, params: r.params }))
      const answers = (await post(body)) as Array<{ id: number; result?: T; error?: { message: string } }>
      const byId = new Map(answers.map((a) => [a.id, a]))
      slice.forEach((r, i) => {
        const a = byId.get(first + i)
        if (a === undefined) throw new HistoryError(`${r.method}: no answer in the batch`)
        if (a.error) throw new HistoryError(`${r.method}: ${a.error.message}`)
        out.push(a.result as T)
      })
    }
    return out
  }
  return { call, batch }
}
export type Rpc = ReturnType<typeof rpcClient>

export interface RpcBlock {
  readonly number: Hex
  readonly hash: Hex
  readonly parentHash: Hex
  readonly sha3Uncles: Hex
  readonly miner: Hex
  readonly stateRoot: Hex
  readonly transactionsRoot: Hex
  readonly receiptsRoot: Hex
  readonly logsBloom: Hex
  readonly difficulty: Hex
  readonly gasLimit: Hex
  readonly gasUsed: Hex
  readonly timestamp: Hex
  readonly extraData: Hex
  readonly mixHash: Hex
  readonly nonce: Hex
  readonly baseFeePerGas: Hex
  readonly withdrawalsRoot: Hex
  readonly blobGasUsed: Hex
  readonly excessBlobGas: Hex
  readonly parentBeaconBlockRoot: Hex
  readonly requestsHash: Hex
  readonly transactions: readonly Hex[]
}

export interface RpcReceipt {
  readonly transactionHash: Hex
  readonly status: Hex
  readonly contractAddress: Hex | null
  readonly blockNumber: Hex
}
