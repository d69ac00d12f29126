// The hand-written aggregate3 coder against viem's generic ABI coder: the same
// bytes out, the same results back, for calls and answers of every length.
import { describe, expect, test } from "bun:test"
import { decodeFunctionData, encodeAbiParameters, encodeFunctionData, getAddress, type Address, type Hex } from "viem"
import { decodeAggregate3, encodeAggregate3 } from "../../src/chain/aggregate3.ts"

const AGGREGATE3_ABI = [
  {
    type: "function",
    name: "aggregate3",
    stateMutability: "payable",
    inputs: [{ name: "calls", type: "tuple[]", components: [{ name: "target", type: "address" }, { name: "allowFailure", type: "bool" }, { name: "callData", type: "bytes" }] }],
    outputs: [],
  },
] as const
const RESULTS = [{ type: "tuple[]", components: [{ name: "success", type: "bool" }, { name: "returnData", type: "bytes" }] }] as const

const randomHex = (bytes: number): Hex => `0x${Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString("hex")}`
/** lengths around the 32-byte words: empty, one short of a word, a word, one past */
const LENGTHS = [0, 1, 4, 31, 32, 33, 36, 64, 68, 100, 257]

describe("aggregate3 coder", () => {
  test("encodes calls byte for byte as viem does, for 0 to 40 calls of every data length", () => {
    for (const n of [0, 1, 2, 3, 7, 40]) {
      const calls = Array.from({ length: n }, (_, i) => ({ target: getAddress(randomHex(20)) as Address, callData: randomHex(LENGTHS[i % LENGTHS.length]!) }))
      const data = encodeAggregate3(calls)
      expect(data.slice(0, 10)).toBe("0x82ad56cb")
      const args = calls.map((c) => ({ target: c.target, allowFailure: true, callData: c.callData }))
      expect(data).toBe(encodeFunctionData({ abi: AGGREGATE3_ABI, functionName: "aggregate3", args: [args] }))
      expect(decodeFunctionData({ abi: AGGREGATE3_ABI, data }).args[0]).toEqual(args)
    }
  })

  test("decodes answers as viem encodes them, failures and empty data included", () => {
    for (const n of [0, 1, 2, 5, 40]) {
      const results = Array.from({ length: n }, (_, i) => ({ success: i % 3 !== 1, returnData: randomHex(LENGTHS[(i * 5) % LENGTHS.length]!) }))
      expect(decodeAggregate3(encodeAbiParameters(RESULTS, [results]))).toEqual(results)
    }
  })

  test("refuses what is not an answer: cut short, a length past the end, a success that is no bool", () => {
    const answer = encodeAbiParameters(RESULTS, [[{ success: true, returnData: randomHex(40) }]])
    expect(() => decodeAggregate3(answer.slice(0, answer.length - 64) as Hex)).toThrow()
    expect(() => decodeAggregate3("0x")).toThrow()
    // the one result's data length (the last word before the data) made larger than the answer
    const longer = answer.replace(`${(40).toString(16).padStart(64, "0")}`, `${(4_000).toString(16).padStart(64, "0")}`) as Hex
    expect(() => decodeAggregate3(longer)).toThrow()
    // success = 2
    const notBool = answer.replace(/^(0x(?:[0-9a-f]{64}){3})0{63}1/, "$1" + "0".repeat(63) + "2") as Hex
    expect(notBool).not.toBe(answer)
    expect(() => decodeAggregate3(notBool)).toThrow()
  })
})
