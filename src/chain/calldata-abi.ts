// The calldata of a function whose parameters are one-word types (static-abi.ts),
// `bytes`, and tuples of those, written word by word. The executor's entries
// (execute, executeExactOutput, permitAndCall, executeOrder) take a tuple of
// words and a route's bytes; viem's generic coder looked the function up, hashed
// its signature and walked and checked every parameter on every /swap, a
// twentieth of its CPU. The layout is the ABI's: a dynamic value (bytes, a tuple
// holding one) has its offset in the head and its encoding in the tail; bytes are
// their length and the data padded right to a word. The text is viem's to the
// byte (test/chain/calldata-abi.test.ts holds them equal), and a value a word
// cannot hold throws as viem throws; bytes must be 0x and whole bytes.
import { toFunctionSelector, type Abi, type AbiFunction, type AbiParameter, type Hex } from "viem"
import { coderOf } from "./static-abi.ts"

type Encode = (value: unknown) => string

interface Coder {
  /** true when the value goes in the tail, its offset in the head */
  readonly dynamic: boolean
  readonly encode: Encode
}

const WORD = 64
const lengthWord = (n: number): string => n.toString(16).padStart(WORD, "0")

const bytesCoder: Coder = {
  dynamic: true,
  encode: (value) => {
    if (typeof value !== "string" || !/^0x(?:[0-9a-fA-F]{2})*$/.test(value)) throw new TypeError(`${String(value).slice(0, 80)} is not bytes`)
    const digits = value.length - 2
    const padded = Math.ceil(digits / WORD) * WORD
    return lengthWord(digits / 2) + value.slice(2).toLowerCase().padEnd(padded, "0")
  },
}

/** Heads then tails of `values` under `coders` (a tuple's fields, or a function's arguments). */
const sequence = (coders: readonly Coder[], values: readonly unknown[]): string => {
  const parts: string[] = new Array(coders.length)
  // a static value's head is its whole encoding (a static tuple's is several words); a dynamic one's, its offset
  let offset = 0
  for (let i = 0; i < coders.length; i++) {
    const part = coders[i]!.encode(values[i])
    parts[i] = part
    offset += coders[i]!.dynamic ? 32 : part.length / 2
  }
  let head = ""
  let tail = ""
  for (let i = 0; i < coders.length; i++) {
    if (!coders[i]!.dynamic) head += parts[i]!
    else {
      head += lengthWord(offset)
      tail += parts[i]!
      offset += parts[i]!.length / 2
    }
  }
  return head + tail
}

const tupleCoder = (components: readonly AbiParameter[]): Coder | undefined => {
  const coders = components.map(coderFor)
  if (coders.some((c) => c === undefined)) return undefined
  const fields = coders as Coder[]
  const names = components.map((c) => c.name)
  const named = names.every((n) => n !== undefined && n !== "")
  return {
    dynamic: fields.some((c) => c.dynamic),
    encode: (value) => {
      if (Array.isArray(value)) {
        if (value.length !== fields.length) throw new RangeError(`a tuple of ${fields.length} fields, got ${value.length} values`)
        return sequence(fields, value)
      }
      if (!named || typeof value !== "object" || value === null) throw new TypeError(`${String(value)} is not a tuple`)
      const record = value as Record<string, unknown>
      return sequence(fields, names.map((n) => record[n!]))
    },
  }
}

const coderFor = (param: AbiParameter): Coder | undefined => {
  if (param.type === "bytes") return bytesCoder
  if (param.type === "tuple" && "components" in param) return tupleCoder(param.components)
  const word = coderOf(param)
  return word === undefined ? undefined : { dynamic: false, encode: word.word }
}

/**
 * The calldata writer of `abi`'s function `name`; undefined when a parameter is anything but a
 * one-word type, bytes or a tuple of those, or the ABI overloads the name.
 */
export const calldataEncoder = (abi: Abi, name: string): ((args: readonly unknown[]) => Hex) | undefined => {
  const matches = abi.filter((item): item is AbiFunction => item.type === "function" && item.name === name)
  if (matches.length !== 1) return undefined
  const fn = matches[0]!
  const coders = fn.inputs.map(coderFor)
  if (coders.some((c) => c === undefined)) return undefined
  const args = coders as Coder[]
  const selector = toFunctionSelector(fn)
  return (values) => {
    if (values.length !== args.length) throw new RangeError(`${fn.name} takes ${args.length} arguments, got ${values.length}`)
    return `${selector}${sequence(args, values)}` as Hex
  }
}

/** calldataEncoder of a function it covers: one it does not fails where it is asked for (at load), never on a request. */
export const functionEncoder = (abi: Abi, name: string): ((args: readonly unknown[]) => Hex) => {
  const encoder = calldataEncoder(abi, name)
  if (encoder === undefined) throw new Error(`${name} takes a parameter the calldata writer does not cover, or is overloaded`)
  return encoder
}
