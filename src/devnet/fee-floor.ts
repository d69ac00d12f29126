// The devnet's base fee floor, as on Arc: no block prices gas below it.
//
// anvil follows EIP-1559 and has no floor: each block below its gas target
// lowers the next base fee by up to 1/8, so an idle devnet falls from any
// start to 7 wei within a few hundred blocks. anvil_setNextBlockBaseFeePerGas
// sets only the next block's fee, and a follower that sets it after each block
// races the senders (a transaction priced on a decayed fee then waits forever
// once the floor is back). So the node's clients reach it through this relay,
// which lets one block-making request through at a time and, once its blocks
// are mined, puts the next base fee back on the floor when it fell below.
// Reads of what is mined (logs, blocks, receipts, state and calls at a mined
// block) pass straight through at any time, as a node serves them while it
// makes a block; every other request (anything that may price the next block,
// or names the pending one) waits for the block-making one under way. Blocks
// mined on a timer (evm_setIntervalMining) are made by no request, so the floor
// holds only for blocks that requests make: the devnet mines on request
// (automatically, or by evm_mine/anvil_mine).
import { Data } from "effect"

/** Transactions: each makes a block when the node mines automatically (its default). */
const SENDING = new Set(["eth_sendRawTransaction", "eth_sendTransaction", "eth_sendRawTransactionSync", "eth_sendTransactionSync"])

/** Switches of automatic mining: followed, so that a transaction is known to make a block or not. */
const AUTOMINE = new Set(["evm_setAutomine", "anvil_setAutomine"])

/** The requests that make a block (or change the next one's base fee) and are followed by a check of it. */
const BLOCK_MAKING = new Set([
  ...SENDING,
  ...AUTOMINE,
  "evm_mine",
  "anvil_mine",
  "evm_mine_detailed",
  "anvil_mine_detailed",
  "evm_revert",
  "anvil_revert",
  "anvil_reset",
  "anvil_loadState",
  "anvil_setNextBlockBaseFeePerGas",
])

/**
 * Reads of mined blocks and the state at them: none can show the next block's base fee (what the
 * floor is put back on after a block), so none waits for a block being made; with "pending" anywhere
 * in the request they wait like any other. eth_call is one only at a block number (readsMined).
 */
const MINED_READS = new Set([
  "eth_chainId",
  "net_version",
  "web3_clientVersion",
  "eth_blockNumber",
  "eth_getLogs",
  "eth_getBlockByNumber",
  "eth_getBlockByHash",
  "eth_getBlockReceipts",
  "eth_getTransactionByHash",
  "eth_getTransactionReceipt",
  "eth_getBalance",
  "eth_getCode",
  "eth_getStorageAt",
  "eth_getTransactionCount",
  "eth_maxPriorityFeePerGas",
])

/** A read of mined state: one of MINED_READS, or an eth_call at a block named by its number (at "latest" a call may see the next block's fee). */
const readsMined = (c: RpcCall | null): boolean => {
  if (c === null || typeof c !== "object") return false
  if (c.method === "eth_call") return Array.isArray(c.params) && typeof c.params[1] === "string" && /^0x[0-9a-fA-F]+$/.test(c.params[1])
  return MINED_READS.has(c.method as string)
}

interface RpcCall {
  readonly jsonrpc?: unknown
  readonly id?: unknown
  readonly method?: unknown
  readonly params?: unknown
}

export interface FeeFloorRelay {
  /** http://host:port */
  readonly url: string
  readonly port: number
  readonly stop: () => Promise<void>
}

export class FeeFloorError extends Data.TaggedError("FeeFloorError")<{ readonly message: string }> {}

const toHex = (n: bigint | number) => `0x${n.toString(16)}`

/** A count of blocks as anvil_mine takes it (a hex string or a number), 1 when absent. */
const blockCount = (value: unknown): number | undefined => {
  if (value === undefined || value === null) return 1
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return value
  if (typeof value === "string" && /^0x[0-9a-fA-F]+$/.test(value)) return Number(BigInt(value))
  return undefined
}

/**
 * Relays JSON-RPC over HTTP from host:port to the node at `nodeUrl`, holding
 * its base fee at `floorWei` or above. Listens before it returns (requests wait
 * for the node's URL); a port another process holds throws the listener's
 * EADDRINUSE error.
 */
export const startFeeFloorRelay = (options: {
  /** the node's own URL, once it listens */
  readonly nodeUrl: Promise<string>
  readonly floorWei: bigint
  readonly host: string
  readonly port: number
}): FeeFloorRelay => {
  const { floorWei } = options
  let id = 0
  const call = async <T>(method: string, params: unknown[] = []): Promise<T> => {
    const res = await fetch(await options.nodeUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: ++id, method, params }),
    })
    const body = (await res.json()) as { result?: T; error?: { message?: string } }
    if (body.error !== undefined) throw new FeeFloorError({ message: `${method}: ${body.error.message ?? "failed"}` })
    return body.result as T
  }
  const forward = async (body: string): Promise<Response> => {
    const res = await fetch(await options.nodeUrl, { method: "POST", headers: { "content-type": "application/json" }, body })
    return new Response(await res.arrayBuffer(), { status: res.status, headers: { "content-type": "application/json" } })
  }

  let automine = true

  /** Lifts the next base fee to the floor, once the transactions ready to mine are mined when `mined` says they will be. */
  const holdFloor = async (mined: boolean) => {
    for (let i = 0; mined && i < 500; i++) {
      const status = await call<{ pending: string }>("txpool_status")
      if (BigInt(status.pending) === 0n) break
      await Bun.sleep(2)
    }
    const history = await call<{ baseFeePerGas: string[] }>("eth_feeHistory", ["0x1", "latest", []])
    const next = BigInt(history.baseFeePerGas.at(-1) ?? "0x0")
    if (next < floorWei) await call("anvil_setNextBlockBaseFeePerGas", [toHex(floorWei)])
  }

  /** One block-making call, its blocks each on the floor; answers the node's reply. */
  const blockMaking = async (one: RpcCall): Promise<unknown> => {
    const send = async (c: RpcCall) => {
      const res = await fetch(await options.nodeUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(c) })
      return res.json()
    }
    const params = Array.isArray(one.params) ? one.params : []
    if (one.method === "anvil_setNextBlockBaseFeePerGas" && typeof params[0] === "string" && /^0x[0-9a-fA-F]+$/.test(params[0])) {
      // a fee set below the floor is raised to it
      const asked = BigInt(params[0])
      return send(asked < floorWei ? { ...one, params: [toHex(floorWei), ...params.slice(1)] } : one)
    }
    const count = one.method === "anvil_mine" ? blockCount(params[0]) : undefined
    if (count !== undefined && count > 1) {
      // several blocks in one call: mined one at a time, each on the floor
      let answer: unknown
      for (let i = 0; i < count; i++) {
        answer = await send({ ...one, params: ["0x1", ...params.slice(1)] })
        if ((answer as { error?: unknown }).error !== undefined) return answer
        await holdFloor(false)
      }
      return answer
    }
    const answer = await send(one)
    if (AUTOMINE.has(one.method as string) && typeof params[0] === "boolean" && (answer as { error?: unknown }).error === undefined) {
      automine = params[0]
    }
    // with automatic mining off a transaction waits for a mine request, which is followed itself
    if (SENDING.has(one.method as string) && !automine) return answer
    await holdFloor(SENDING.has(one.method as string))
    return answer
  }

  // one block-making request at a time; other requests wait for the one under way to settle
  let settled: Promise<unknown> = Promise.resolve()
  const serialised = <T>(work: () => Promise<T>): Promise<T> => {
    const run = settled.then(work, work)
    settled = run.catch(() => undefined)
    return run
  }

  const handle = async (request: Request): Promise<Response> => {
    const body = await request.text()
    let parsed: unknown
    try {
      parsed = JSON.parse(body)
    } catch {
      return forward(body)
    }
    const calls = (Array.isArray(parsed) ? parsed : [parsed]) as RpcCall[]
    if (!calls.some((c) => c !== null && typeof c === "object" && BLOCK_MAKING.has(c.method as string))) {
      const minedOnly = !body.includes('"pending"') && calls.every(readsMined)
      if (!minedOnly) await settled
      return forward(body)
    }
    const answers = await serialised(async () => {
      const out: unknown[] = []
      for (const c of calls) {
        if (c !== null && typeof c === "object" && BLOCK_MAKING.has(c.method as string)) out.push(await blockMaking(c))
        else out.push(await (await forward(JSON.stringify(c))).json())
      }
      return out
    })
    return Response.json(Array.isArray(parsed) ? answers : answers[0])
  }

  const server = Bun.serve({
    hostname: options.host,
    port: options.port,
    // the node's own request size limit is off; so is the relay's
    maxRequestBodySize: Number.MAX_SAFE_INTEGER,
    idleTimeout: 0,
    fetch: (request) =>
      handle(request).catch(
        (e) => Response.json({ jsonrpc: "2.0", id: null, error: { code: -32603, message: `devnet relay: ${e instanceof Error ? e.message : String(e)}` } }, { status: 502 }),
      ),
  })
  const port = server.port!
  return {
    url: `http://${options.host}:${port}`,
    port,
    stop: async () => {
      await server.stop(true)
    },
  }
}
