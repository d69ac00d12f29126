// Multicall3's aggregate3 call and its answer, encoded and decoded by hand:
// its ABI is fixed ((address,bool,bytes)[] in, (bool,bytes)[] out), and viem's
// generic coder spent more time on it than the node took to run the reads
// (every /swap reads the sender's funds through it).
import { toFunctionSelector, type Address, type Hex } from "viem"

const SELECTOR = toFunctionSelector("aggregate3((address,bool,bytes)[])")

const word = (n: number): string => n.toString(16).padStart(64, "0")

/** aggregate3(calls) with every call allowed to fail. */
export const encodeAggregate3 = (calls: ReadonlyArray<{ readonly target: Address; readonly callData: Hex }>): Hex => {
  const heads: string[] = []
  const tails: string[] = []
  // each tuple's offset counts from the start of the offsets, after the array's length
  let offset = calls.length * 32
  for (const call of calls) {
    heads.push(word(offset))
    const bytes = call.callData.slice(2)
    const length = bytes.length / 2
    const padded = bytes.padEnd(Math.ceil(length / 32) * 64, "0")
    const tuple = `${call.target.slice(2).toLowerCase().padStart(64, "0")}${word(1)}${word(96)}${word(length)}${padded}`
    tails.push(tuple)
    offset += tuple.length / 2
  }
  return `${SELECTOR}${word(32)}${word(calls.length)}${heads.join("")}${tails.join("")}` as Hex
}

/** aggregate3's (bool success, bytes returnData)[]; throws on data that is not one. */
export const decodeAggregate3 = (data: Hex): Array<{ readonly success: boolean; readonly returnData: Hex }> => {
  const hex = data.slice(2)
  const bytes = hex.length / 2
  const at = (byte: number): number => {
    if (byte < 0 || byte + 32 > bytes) throw new Error(`aggregate3 answer: a word at byte ${byte} lies past its ${bytes} bytes`)
    const value = Number.parseInt(hex.slice(byte * 2, byte * 2 + 64), 16)
    if (!Number.isSafeInteger(value)) throw new Error(`aggregate3 answer: the word at byte ${byte} is not an offset or a length`)
    return value
  }
  const array = at(0)
  const count = at(array)
  const start = array + 32
  const results: Array<{ readonly success: boolean; readonly returnData: Hex }> = []
  for (let i = 0; i < count; i++) {
    const tuple = start + at(start + i * 32)
    const success = at(tuple)
    if (success > 1) throw new Error(`aggregate3 answer: result ${i}'s success is ${success}, not a bool`)
    const field = tuple + at(tuple + 32)
    const length = at(field)
    if (field + 32 + length > bytes) throw new Error(`aggregate3 answer: result ${i}'s data lies past the answer`)
    results.push({ success: success === 1, returnData: `0x${hex.slice((field + 32) * 2, (field + 32 + length) * 2)}` })
  }
  return results
}
