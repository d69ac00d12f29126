// The hasher: an EVM program run by eth_call (its code given as a state override) that hashes a
// run of headers differing only in parentHash (each the hash of the one before) and number (+1
// each, same byte length). Calldata words: count, first parent, first number, the offset of the
// 32-byte word that ends with the number's bytes, that word with the number's bytes zeroed, the
// offset of parentHash, the RLP's length; then the RLP template. Returns count hashes.
import { bytesToHex, encodeAbiParameters, numberToHex, type Address, type Hex } from "viem"
import { assemble } from "./assembler.ts"
import { HISTORY_BLOCK_GAS_LIMIT, HistoryError } from "./fixture.ts"
import { headerRlpFields, rlpWithOffsets, type HeaderFields } from "./headers.ts"
import type { Rpc, RpcBlock } from "./rpc-batch.ts"

/** where the hasher's code is put, by state override, for its eth_call only */
const HASHER_ADDRESS: Address = "0x00000000000000000000000000000000000Bd5e1"
const HASH_OUT = 0x400
const HASHER_CODE = assemble([
  ["PUSH", 0xc0], "CALLDATALOAD", ["PUSH", 0xe0], ["PUSH", 0], "CALLDATACOPY", // memory[0, L) = template
  ["PUSH", 0], ["PUSH", 0x20], "CALLDATALOAD", ["PUSH", 0x40], "CALLDATALOAD", // stack: number parent i
  ["LABEL", "loop"],
  "DUP3", ["PUSH", 0], "CALLDATALOAD", "EQ", ["PUSHLABEL", "end"], "JUMPI", // i == count: done
  "DUP2", ["PUSH", 0xa0], "CALLDATALOAD", "MSTORE", // parentHash
  "DUP1", ["PUSH", 0x80], "CALLDATALOAD", "OR", ["PUSH", 0x60], "CALLDATALOAD", "MSTORE", // number
  ["PUSH", 0xc0], "CALLDATALOAD", ["PUSH", 0], "SHA3", // h number parent i
  "DUP1", "DUP5", ["PUSH", 5], "SHL", ["PUSH", HASH_OUT], "ADD", "MSTORE", // out[i] = h
  "SWAP2", "POP", ["PUSH", 1], "ADD", "SWAP2", ["PUSH", 1], "ADD", "SWAP2", // number+1 h i+1
  ["PUSHLABEL", "loop"], "JUMP",
  ["LABEL", "end"],
  ["PUSH", 0], "CALLDATALOAD", ["PUSH", 5], "SHL", ["PUSH", HASH_OUT], "RETURN",
])

/**
 * The hashes of `count` filler headers in a row from `first` (each the parent of the next, the
 * number one more each, of `numberLength` bytes, one base fee), in one eth_call of the hasher.
 */
export const hashHeaderRun = async (rpc: Rpc, template: RpcBlock, first: HeaderFields, numberLength: number, count: number): Promise<Hex[]> => {
  const fields = headerRlpFields(template, { parentHash: `0x${"11".repeat(32)}`, number: first.number, baseFee: first.baseFee })
  const { bytes, parentOffset, numberOffset } = rlpWithOffsets(fields, 8)
  const wordOffset = numberOffset + numberLength - 32
  const word = bytes.slice(wordOffset, wordOffset + 32)
  word.fill(0, 32 - numberLength)
  const data = encodeAbiParameters(
    [{ type: "uint256" }, { type: "bytes32" }, { type: "uint256" }, { type: "uint256" }, { type: "bytes32" }, { type: "uint256" }, { type: "uint256" }],
    [BigInt(count), first.parentHash, first.number, BigInt(wordOffset), bytesToHex(word), BigInt(parentOffset), BigInt(bytes.length)],
  )
  const out = await rpc.call<Hex>("eth_call", [
    { to: HASHER_ADDRESS, data: `${data}${bytesToHex(bytes).slice(2)}`, gas: numberToHex(HISTORY_BLOCK_GAS_LIMIT) },
    "latest",
    { [HASHER_ADDRESS]: { code: HASHER_CODE } },
  ])
  if (out.length !== 2 + count * 64) throw new HistoryError(`the header hasher returned ${(out.length - 2) / 2} bytes for ${count} headers`)
  return Array.from({ length: count }, (_, i): Hex => `0x${out.slice(2 + i * 64, 2 + (i + 1) * 64)}`)
}
