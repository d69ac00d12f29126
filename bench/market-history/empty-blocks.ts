// The empty blocks between rounds, appended fast. They are not mined with anvil_mine: anvil's
// cost per mined block grows with the chain (the prague history contracts' storage, a state
// snapshot and a full state-root computation per block: measured ~1.5 ms a block on a fresh
// node, ~11 ms once 8,000 blocks exist), so a million blocks would take hours. They are appended
// with anvil_loadState instead: empty headers chained by parent hash exactly as anvil hashes them
// (the hashes computed by the header hasher in one eth_call per run of 25,000), with the base fee
// decaying as it does over empty blocks, and the timestamp of the block before them (Arc's
// blocks are sub-second, so many blocks share a second; the chain's clock stays at the wall
// clock, so swap deadlines keep working). The node serves them like mined blocks
// (eth_getBlockByNumber/ByHash, eth_getLogs scans them) and the next mined block is their child.
// What they lack is state: eth_call at one of them fails.
import { gzipSync } from "node:zlib"
import { numberToHex, type Hex } from "viem"
import { HistoryError } from "./fixture.ts"
import { hashHeaderRun } from "./header-hasher.ts"
import { EMPTY_ROOT, fillerHeaderHash, nextBaseFee, ZERO_BLOOM } from "./headers.ts"
import type { Rpc, RpcBlock } from "./rpc-batch.ts"

/** filler blocks per anvil_loadState */
const FILLER_CHUNK = 25_000
/** filler blocks hashed per eth_call of the hasher */
const HASH_CHUNK = 25_000

/**
 * Appends `count` empty blocks after the head, each the child of the one before, through
 * anvil_loadState, their base fee never below the devnet's floor. Returns the new head number.
 */
export const appendEmptyBlocks = async (rpc: Rpc, count: number, floorWei: bigint): Promise<bigint> => {
  if (count <= 0) return BigInt(await rpc.call<Hex>("eth_blockNumber"))
  const head = await rpc.call<RpcBlock>("eth_getBlockByNumber", ["latest", false])
  let parent = head.hash
  let number = BigInt(head.number) + 1n
  const floored = (fee: bigint) => (fee < floorWei ? floorWei : fee)
  let baseFee = floored(nextBaseFee(BigInt(head.gasUsed), BigInt(head.gasLimit), BigInt(head.baseFeePerGas)))
  const last = BigInt(head.number) + BigInt(count)
  // runs of headers with the same base fee and number length: the hasher hashes a run at once
  let pending: Array<{ parent: Hex; number: bigint; baseFee: bigint }> = []
  const staticJson = (fee: bigint) =>
    `","sha3Uncles":"${head.sha3Uncles}","miner":"${head.miner}","stateRoot":"${head.stateRoot}","transactionsRoot":"${EMPTY_ROOT}",` +
    `"receiptsRoot":"${EMPTY_ROOT}","logsBloom":"${ZERO_BLOOM}","difficulty":"0x0","gasLimit":"${head.gasLimit}","gasUsed":"0x0",` +
    `"timestamp":"${head.timestamp}","extraData":"${head.extraData}","mixHash":"${head.mixHash}","nonce":"${head.nonce}",` +
    `"baseFeePerGas":"${numberToHex(fee)}","withdrawalsRoot":"${EMPTY_ROOT}","blobGasUsed":"${head.blobGasUsed}",` +
    `"excessBlobGas":"${head.excessBlobGas}","parentBeaconBlockRoot":"${head.parentBeaconBlockRoot}","requestsHash":"${head.requestsHash}","number":"`
  const flush = async () => {
    if (pending.length === 0) return
    const lastBlock = pending[pending.length - 1]!
    const parts: string[] = []
    let json = ""
    let fee = -1n
    for (const b of pending) {
      if (b.baseFee !== fee) {
        fee = b.baseFee
        json = staticJson(fee)
      }
      parts.push(`{"header":{"parentHash":"${b.parent}${json}${numberToHex(b.number)}"},"transactions":[],"ommers":[],"withdrawals":[]}`)
    }
    const env =
      `{"number":"${numberToHex(lastBlock.number)}","beneficiary":"${head.miner}","timestamp":"${head.timestamp}",` +
      `"gas_limit":${BigInt(head.gasLimit)},"basefee":${lastBlock.baseFee},"difficulty":"0x0","prevrandao":"${head.mixHash}",` +
      `"blob_excess_gas_and_price":{"excess_blob_gas":${BigInt(head.excessBlobGas)},"blob_gasprice":1},"slot_num":0}`
    const state = `{"block":${env},"accounts":{},"best_block_number":${lastBlock.number},"blocks":[${parts.join(",")}],"transactions":[],"historical_states":null}`
    const zipped = gzipSync(Buffer.from(state), { level: 1 })
    const loaded = await rpc.call<boolean>("anvil_loadState", [`0x${zipped.toString("hex")}`])
    if (loaded !== true) throw new HistoryError("anvil_loadState refused the filler blocks")
    pending = []
  }

  while (number <= last) {
    // the longest run from here with one base fee and one number length
    const length = (number.toString(16).length + 1) >> 1
    const lengthEnd = (1n << BigInt(8 * length)) - 1n
    const settled = floored(nextBaseFee(0n, BigInt(head.gasLimit), baseFee)) === baseFee
    const runEnd = settled ? (last < lengthEnd ? last : lengthEnd) : number
    const runCount = Number(runEnd - number + 1n)
    if (runCount < 16 || number < 0x80n) {
      for (let i = 0; i < runCount; i++) {
        const hash = fillerHeaderHash(head, { parentHash: parent, number, baseFee })
        pending.push({ parent, number, baseFee })
        parent = hash
        number++
        baseFee = floored(nextBaseFee(0n, BigInt(head.gasLimit), baseFee))
        if (pending.length >= FILLER_CHUNK) await flush()
      }
      continue
    }
    for (let done = 0; done < runCount; ) {
      const n = Math.min(HASH_CHUNK, runCount - done, FILLER_CHUNK - pending.length)
      const hashes = await hashHeaderRun(rpc, head, { parentHash: parent, number, baseFee }, length, n)
      for (const hash of hashes) {
        pending.push({ parent, number, baseFee })
        parent = hash
        number++
      }
      done += n
      if (pending.length >= FILLER_CHUNK) await flush()
    }
  }
  await flush()
  const after = await rpc.call<RpcBlock>("eth_getBlockByNumber", ["latest", false])
  if (BigInt(after.number) !== last || after.hash !== parent) {
    throw new HistoryError(`the filler blocks did not land as computed: head ${BigInt(after.number)} ${after.hash}, expected ${last} ${parent}`)
  }
  return last
}
