// Block headers as anvil hashes them: the RLP of a Prague header, the hash of an empty filler
// header and of a real block's header, the base fee of the block after, and where in a header's
// RLP its parent hash and number lie (for the hasher).
import { hexToBytes, keccak256, toRlp, type Hex } from "viem"
import type { RpcBlock } from "./rpc-batch.ts"

export const EMPTY_ROOT: Hex = "0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421"
export const ZERO_BLOOM: Hex = `0x${"00".repeat(256)}`

/** EIP-1559's next base fee (alloy's calc_next_block_base_fee: elasticity 2, denominator 8) */
export const nextBaseFee = (gasUsed: bigint, gasLimit: bigint, baseFee: bigint): bigint => {
  const target = gasLimit / 2n
  if (gasUsed === target) return baseFee
  if (gasUsed > target) {
    const delta = (baseFee * (gasUsed - target)) / (target * 8n)
    return baseFee + (delta > 1n ? delta : 1n)
  }
  const delta = (baseFee * (target - gasUsed)) / (target * 8n)
  return baseFee > delta ? baseFee - delta : 0n
}

/** minimal big-endian bytes of an integer as RLP wants it (0 is empty) */
const intHex = (n: bigint): Hex => {
  if (n === 0n) return "0x"
  const digits = n.toString(16)
  return `0x${digits.length % 2 === 0 ? digits : `0${digits}`}`
}

/** The fields of a Prague header in RLP order. */
export interface HeaderFields {
  readonly parentHash: Hex
  readonly number: bigint
  readonly baseFee: bigint
}
export const headerRlpFields = (t: RpcBlock, f: HeaderFields): Hex[] => [
  f.parentHash,
  t.sha3Uncles,
  t.miner,
  t.stateRoot,
  EMPTY_ROOT,
  EMPTY_ROOT,
  ZERO_BLOOM,
  "0x",
  intHex(f.number),
  intHex(BigInt(t.gasLimit)),
  "0x",
  intHex(BigInt(t.timestamp)),
  t.extraData,
  t.mixHash,
  t.nonce,
  intHex(f.baseFee),
  EMPTY_ROOT,
  intHex(BigInt(t.blobGasUsed)),
  intHex(BigInt(t.excessBlobGas)),
  t.parentBeaconBlockRoot,
  t.requestsHash,
]

/** The block hash anvil computes for a filler header (checked against real blocks in the test). */
export const fillerHeaderHash = (template: RpcBlock, fields: HeaderFields): Hex => keccak256(toRlp(headerRlpFields(template, fields)))

/** The RPC header fields of a real block hash the same way (a sanity check of the encoding). */
export const realHeaderHash = (b: RpcBlock): Hex =>
  keccak256(
    toRlp([
      b.parentHash, b.sha3Uncles, b.miner, b.stateRoot, b.transactionsRoot, b.receiptsRoot, b.logsBloom,
      intHex(BigInt(b.difficulty)), intHex(BigInt(b.number)), intHex(BigInt(b.gasLimit)), intHex(BigInt(b.gasUsed)),
      intHex(BigInt(b.timestamp)), b.extraData, b.mixHash, b.nonce, intHex(BigInt(b.baseFeePerGas)), b.withdrawalsRoot,
      intHex(BigInt(b.blobGasUsed)), intHex(BigInt(b.excessBlobGas)), b.parentBeaconBlockRoot, b.requestsHash,
    ]),
  )

/** RLP of one header with the offsets of parentHash's and number's bytes. */
export const rlpWithOffsets = (fields: readonly Hex[], numberIndex: number) => {
  const bytes = hexToBytes(toRlp(fields))
  // the list's prefix, then each item; a 32-byte item is 0xa0 + 32 bytes
  const listPrefix = bytes[0]! >= 0xf8 ? 1 + (bytes[0]! - 0xf7) : 1
  let at = listPrefix
  const dataOffsets: number[] = []
  for (const field of fields) {
    const item = hexToBytes(toRlp(field))
    const length = (field.length - 2) / 2
    dataOffsets.push(at + item.length - length)
    at += item.length
  }
  return { bytes, parentOffset: dataOffsets[0]!, numberOffset: dataOffsets[numberIndex]! }
}
