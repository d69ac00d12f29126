// The word-by-word coder of one-word functions against viem's generic coder:
// the same calldata, the same results (numbers and bigints, checksummed
// addresses), and an error wherever viem refuses the data or the arguments.
import { describe, expect, test } from "bun:test"
import fc from "fast-check"
import { decodeFunctionResult, encodeAbiParameters, encodeFunctionData, parseAbi, type Abi, type AbiParameter, type Hex } from "viem"
import { staticFunction } from "../../src/chain/static-abi.ts"
import { STABLE_POOL_ABI, V2_PAIR_ABI, V3_POOL_ABI, V4_STATE_VIEW_ABI } from "../../src/market/abis.ts"

const INTEGER_BITS = [8, 16, 24, 32, 40, 48, 56, 64, 96, 112, 128, 160, 256]
const TYPES = [...INTEGER_BITS.flatMap((b) => [`uint${b}`, `int${b}`]), "uint", "int", "address", "bool", "bytes1", "bytes4", "bytes20", "bytes32"]

const bitsOf = (type: string) => (type === "uint" || type === "int" ? 256 : Number(type.replace(/^u?int/, "")))

/** a value of a one-word type as viem takes and gives it: number up to 48 bits, bigint past */
const valueOf = (type: string): fc.Arbitrary<unknown> => {
  if (type === "address") return fc.uint8Array({ minLength: 20, maxLength: 20 }).map((b) => `0x${Buffer.from(b).toString("hex")}`)
  if (type === "bool") return fc.boolean()
  if (type.startsWith("bytes")) {
    const size = Number(type.slice(5))
    return fc.uint8Array({ minLength: size, maxLength: size }).map((b) => `0x${Buffer.from(b).toString("hex")}`)
  }
  const bits = bitsOf(type)
  const signed = !type.startsWith("u")
  const min = signed ? -(1n << BigInt(bits - 1)) : 0n
  const max = signed ? (1n << BigInt(bits - 1)) - 1n : (1n << BigInt(bits)) - 1n
  const edges = fc.constantFrom(min, max, 0n, min + 1n, max - 1n)
  const n = fc.oneof(edges, fc.bigInt({ min, max }))
  return bits > 48 ? n : n.map(Number)
}

const signature = fc.record({
  inputs: fc.array(fc.constantFrom(...TYPES), { maxLength: 4 }),
  outputs: fc.array(fc.constantFrom(...TYPES), { minLength: 1, maxLength: 7 }),
})

const abiOf = (inputs: readonly string[], outputs: readonly string[]): Abi => [
  {
    type: "function",
    name: "f",
    stateMutability: "view",
    inputs: inputs.map((type, i): AbiParameter => ({ type, name: `a${i}` })),
    outputs: outputs.map((type, i): AbiParameter => ({ type, name: `r${i}` })),
  },
]

const params = (types: readonly string[]) => types.map((type): AbiParameter => ({ type }))

/** viem's answer, or the fact that it threw */
const viem = <A>(f: () => A): { ok: true; value: A } | { ok: false } => {
  try {
    return { ok: true, value: f() }
  } catch {
    return { ok: false }
  }
}

describe("one-word function coder", () => {
  test("encodes calls and decodes answers as viem does, for every one-word type", () => {
    fc.assert(
      fc.property(
        signature.chain(({ inputs, outputs }) =>
          fc.record({ inputs: fc.constant(inputs), outputs: fc.constant(outputs), args: fc.tuple(...inputs.map(valueOf)), results: fc.tuple(...outputs.map(valueOf)) }),
        ),
        ({ inputs, outputs, args, results }) => {
          const abi = abiOf(inputs, outputs)
          const coder = staticFunction(abi, "f")!
          expect(coder.encode(args)).toBe(encodeFunctionData({ abi, functionName: "f", args }))
          const data = encodeAbiParameters(params(outputs), results)
          expect(coder.decode(data)).toEqual(decodeFunctionResult({ abi, functionName: "f", data }))
        },
      ),
      { numRuns: 2_000 },
    )
  })

  test("throws where viem throws: data short of the results, words outside their type, arguments out of range", () => {
    fc.assert(
      fc.property(signature, fc.array(fc.uint8Array({ minLength: 32, maxLength: 32 }), { maxLength: 8 }), fc.nat({ max: 40 }), ({ inputs, outputs }, words, cut) => {
        const abi = abiOf(inputs, outputs)
        const coder = staticFunction(abi, "f")!
        // any words (an integer's high bits set, a bool of 2, …), the answer cut anywhere
        const full = `0x${words.map((w) => Buffer.from(w).toString("hex")).join("")}`
        const data = full.slice(0, Math.max(2, full.length - cut * 2)) as Hex
        const expected = viem(() => decodeFunctionResult({ abi, functionName: "f", data }))
        const ours = viem(() => coder.decode(data))
        expect(ours.ok).toBe(expected.ok)
        if (expected.ok && ours.ok) expect(ours.value).toEqual(expected.value)
      }),
      { numRuns: 2_000 },
    )
  })

  test("refuses arguments viem refuses: out of range, not an address, the wrong count", () => {
    const abi = parseAbi(["function f(uint8 a, int24 b, address c) view returns (bool)"])
    const coder = staticFunction(abi, "f")!
    const ok = "0x00000000000000000000000000000000000000aa"
    for (const args of [
      [256, 0, ok],
      [-1, 0, ok],
      [0, 1 << 23, ok],
      [0, -(1 << 23) - 1, ok],
      [0, 0, "0x1234"],
      [0, 0, "0x00000000000000000000000000000000000000aA"],
      [0, 0],
    ]) {
      expect(viem(() => encodeFunctionData({ abi, functionName: "f", args: args as never })).ok).toBe(false)
      expect(() => coder.encode(args)).toThrow()
    }
  })

  test("the market's reads take this path; a function with a dynamic type or an overloaded name is left to viem", () => {
    expect(staticFunction(V2_PAIR_ABI, "getReserves")).toBeDefined()
    expect(staticFunction(V3_POOL_ABI, "slot0")).toBeDefined()
    expect(staticFunction(V3_POOL_ABI, "ticks")).toBeDefined()
    expect(staticFunction(V4_STATE_VIEW_ABI, "getSlot0")).toBeDefined()
    expect(staticFunction(STABLE_POOL_ABI, "balances")).toBeDefined()
    expect(staticFunction(parseAbi(["function name() view returns (string)"]), "name")).toBeUndefined()
    expect(staticFunction(parseAbi(["function f(uint256[] a) view returns (uint256)"]), "f")).toBeUndefined()
    expect(staticFunction(parseAbi(["function f(uint256 a) view returns (uint256)", "function f(address a) view returns (uint256)"]), "f")).toBeUndefined()
  })
})
