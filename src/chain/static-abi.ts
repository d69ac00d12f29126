// A contract function whose arguments and results are all one-word types
// (uintN, intN, address, bool, bytesN), encoded and decoded word by word.
// The market reads thousands of pools in a step through such functions
// (getReserves, slot0, liquidity, balances), and viem's generic coder, which
// looks the function up and walks its parameters on every call, cost more than
// the node took to answer them. The answers are viem's to the value (its
// number/bigint split, checksummed addresses), and it throws where viem throws
// (data too short for the results, a bool that is not 0 or 1, a small integer
// past 2^53, an argument out of its type's range); any other function is left
// to viem.
import { checksumAddress, isAddress, toFunctionSelector, type Abi, type AbiFunction, type AbiParameter, type Hex } from "viem"

/** A function's calldata from its arguments and its result from the data returned. */
export interface StaticFunction {
  readonly encode: (args: readonly unknown[]) => Hex
  readonly decode: (data: Hex) => unknown
}

type Word = (value: unknown) => string
type Read = (word: string) => unknown

const WORD = 64
const TWO_256 = 1n << 256n

const hexWord = (n: bigint): string => n.toString(16).padStart(WORD, "0")

const integerWord = (bits: number, signed: boolean): Word => {
  const min = signed ? -(1n << BigInt(bits - 1)) : 0n
  const max = signed ? (1n << BigInt(bits - 1)) - 1n : (1n << BigInt(bits)) - 1n
  return (value) => {
    if (typeof value !== "bigint" && typeof value !== "number") throw new TypeError(`expected a number for int${bits}, got ${typeof value}`)
    const n = BigInt(value)
    if (n < min || n > max) throw new RangeError(`${n} is out of range for ${signed ? "int" : "uint"}${bits}`)
    return hexWord(n < 0n ? n + TWO_256 : n)
  }
}

const integerRead = (bits: number, signed: boolean): Read => (word) => {
  let n = BigInt(`0x${word}`)
  if (signed && n >= 1n << 255n) n -= TWO_256
  if (bits > 48) return n
  const number = Number(n)
  if (!Number.isSafeInteger(number)) throw new RangeError(`${n} is not a safe integer`)
  return number
}

const addressWord: Word = (value) => {
  if (typeof value !== "string" || !isAddress(value)) throw new TypeError(`${String(value)} is not an address`)
  return value.slice(2).toLowerCase().padStart(WORD, "0")
}

const boolWord: Word = (value) => {
  if (typeof value !== "boolean") throw new TypeError(`expected a bool, got ${typeof value}`)
  return hexWord(value ? 1n : 0n)
}

const boolRead: Read = (word) => {
  // as viem: a word that is not 0 or 1 is not a bool
  if (!/^0{63}[01]$/.test(word)) throw new RangeError(`0x${word} is not a bool`)
  return word.endsWith("1")
}

const bytesWord = (size: number): Word => (value) => {
  if (typeof value !== "string" || !/^0x[0-9a-fA-F]*$/.test(value) || value.length !== 2 + size * 2) throw new TypeError(`${String(value)} is not bytes${size}`)
  return value.slice(2).toLowerCase().padEnd(WORD, "0")
}

const INTEGER = /^(u?)int(\d*)$/
const BYTES = /^bytes(\d+)$/

/** The coder of one parameter, when it is one word. */
export const coderOf = (param: AbiParameter): { readonly word: Word; readonly read: Read; readonly reads?: number } | undefined => {
  const integer = INTEGER.exec(param.type)
  if (integer !== null) {
    const bits = integer[2] === "" ? 256 : Number(integer[2])
    const signed = integer[1] === ""
    return { word: integerWord(bits, signed), read: integerRead(bits, signed) }
  }
  if (param.type === "address") return { word: addressWord, read: (word) => checksumAddress(`0x${word.slice(24)}`) }
  if (param.type === "bool") return { word: boolWord, read: boolRead }
  const bytes = BYTES.exec(param.type)
  if (bytes !== null) {
    const size = Number(bytes[1])
    // the value is the word's first `size` bytes: only those need be there
    if (size >= 1 && size <= 32) return { word: bytesWord(size), read: (word) => `0x${word.slice(0, size * 2)}`, reads: size }
  }
  return undefined
}

const compile = (fn: AbiFunction): StaticFunction | undefined => {
  const inputs = fn.inputs.map(coderOf)
  const outputs = fn.outputs.map(coderOf)
  if (inputs.some((c) => c === undefined) || outputs.some((c) => c === undefined)) return undefined
  const words = inputs.map((c) => c!.word)
  const reads = outputs.map((c) => c!.read)
  const selector = toFunctionSelector(fn)
  // as viem: no data, less than a word, or too little for the last result's bytes is not the function's answer
  const least = Math.max(32, (outputs.length - 1) * 32 + (outputs.at(-1)?.reads ?? 32))
  return {
    encode: (args) => {
      if (args.length !== words.length) throw new RangeError(`${fn.name} takes ${words.length} arguments, got ${args.length}`)
      let data: string = selector
      for (let i = 0; i < words.length; i++) data += words[i]!(args[i])
      return data as Hex
    },
    decode: (data) => {
      if (reads.length === 0) return undefined
      if (data.length < 2 + least * 2) throw new RangeError(`${(data.length - 2) / 2} bytes are too few for ${fn.name}'s ${reads.length} results`)
      if (reads.length === 1) return reads[0]!(data.slice(2, 2 + WORD))
      return reads.map((read, i) => read(data.slice(2 + i * WORD, 2 + (i + 1) * WORD)))
    },
  }
}

const compiled = new WeakMap<Abi, Map<string, StaticFunction | undefined>>()

/**
 * The word-by-word coder of `abi`'s function `name`, kept per ABI; undefined when the function
 * takes or returns anything but one-word types, or the ABI overloads its name.
 */
export const staticFunction = (abi: Abi, name: string): StaticFunction | undefined => {
  let byName = compiled.get(abi)
  if (byName === undefined) compiled.set(abi, (byName = new Map()))
  if (byName.has(name)) return byName.get(name)
  const matches = abi.filter((item): item is AbiFunction => item.type === "function" && item.name === name)
  const coder = matches.length === 1 ? compile(matches[0]!) : undefined
  byName.set(name, coder)
  return coder
}
