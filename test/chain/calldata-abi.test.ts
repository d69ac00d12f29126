// The calldata writer of functions taking one-word types, bytes and tuples of them,
// against viem's generic coder: the same calldata for the executor's entries and for
// generated signatures (static and dynamic tuples, nested, several bytes, empty
// bytes), an error wherever viem refuses the arguments, and no writer for a
// function it does not cover.
import { describe, expect, test } from "bun:test"
import fc from "fast-check"
import { encodeFunctionData, parseAbi, type Abi, type AbiFunction, type AbiParameter } from "viem"
import { calldataEncoder } from "../../src/chain/calldata-abi.ts"
import { routeExecutorAbi } from "../../src/chain/index.ts"

const hexOf = (b: Uint8Array) => `0x${Buffer.from(b).toString("hex")}`
const ONE_WORD = ["uint8", "uint16", "uint48", "uint160", "uint256", "int24", "int256", "address", "bool", "bytes4", "bytes32"]

/** a value of a parameter as viem takes it: numbers up to 48 bits, bigints past; tuples as records by name */
const valueOf = (param: AbiParameter): fc.Arbitrary<unknown> => {
  const type = param.type
  if (type === "tuple") {
    const components = (param as { components: readonly AbiParameter[] }).components
    return fc.record(Object.fromEntries(components.map((c) => [c.name!, valueOf(c)])))
  }
  if (type === "bytes") return fc.uint8Array({ maxLength: 200 }).map(hexOf)
  if (type === "address") return fc.uint8Array({ minLength: 20, maxLength: 20 }).map(hexOf)
  if (type === "bool") return fc.boolean()
  if (type.startsWith("bytes")) {
    const size = Number(type.slice(5))
    return fc.uint8Array({ minLength: size, maxLength: size }).map(hexOf)
  }
  const bits = type === "uint" || type === "int" ? 256 : Number(type.replace(/^u?int/, ""))
  const signed = type.startsWith("int")
  const min = signed ? -(1n << BigInt(bits - 1)) : 0n
  const max = signed ? (1n << BigInt(bits - 1)) - 1n : (1n << BigInt(bits)) - 1n
  const n = fc.oneof(fc.constantFrom(min, max, 0n), fc.bigInt({ min, max }))
  return bits > 48 ? n : n.map(Number)
}

const functionOf = (abi: Abi, name: string) => abi.find((item): item is AbiFunction => item.type === "function" && item.name === name)!

/** generated parameter lists: one-word types, bytes, tuples of them two deep */
let named = 0
const paramOf = (depth: number): fc.Arbitrary<AbiParameter> =>
  fc.oneof(
    { arbitrary: fc.constantFrom(...ONE_WORD).map((type) => ({ type, name: `p${named++}` })), weight: 5 },
    { arbitrary: fc.constant(null).map(() => ({ type: "bytes", name: `p${named++}` })), weight: 2 },
    ...(depth > 0
      ? [{ arbitrary: fc.array(paramOf(depth - 1), { minLength: 1, maxLength: 4 }).map((components) => ({ type: "tuple", name: `p${named++}`, components }) as AbiParameter), weight: 2 }]
      : []),
  )

const abiOf = (inputs: readonly AbiParameter[]): Abi => [{ type: "function", name: "f", stateMutability: "nonpayable", inputs, outputs: [] }]

describe("the calldata writer", () => {
  for (const name of ["execute", "executeExactOutput", "permitAndCall", "executeOrder"]) {
    test(`writes the executor's ${name} as viem does`, () => {
      const fn = functionOf(routeExecutorAbi, name)
      const encode = calldataEncoder(routeExecutorAbi, name)!
      expect(encode).toBeDefined()
      fc.assert(
        fc.property(fc.tuple(...fn.inputs.map(valueOf)), (args) => {
          expect(encode(args)).toBe(encodeFunctionData({ abi: routeExecutorAbi, functionName: name, args } as never))
        }),
        { numRuns: 300 },
      )
    })
  }

  test("writes generated signatures as viem does: static and dynamic tuples, nested, several bytes", () => {
    fc.assert(
      fc.property(
        fc.array(paramOf(2), { maxLength: 5 }).chain((inputs) => fc.tuple(fc.constant(inputs), fc.tuple(...inputs.map(valueOf)))),
        ([inputs, args]) => {
          const abi = abiOf(inputs)
          expect(calldataEncoder(abi, "f")!(args)).toBe(encodeFunctionData({ abi, functionName: "f", args }))
        },
      ),
      { numRuns: 500 },
    )
  })

  test("refuses what viem refuses: a value out of its type, a wrong count; and bytes that are not whole hex bytes", () => {
    const abi = parseAbi(["function f((uint16 fee, bytes data) p, address to)"])
    const encode = calldataEncoder(abi, "f")!
    const to = "0x1111111111111111111111111111111111111111"
    expect(() => encode([{ fee: 70_000, data: "0x" }, to])).toThrow()
    expect(() => encodeFunctionData({ abi, functionName: "f", args: [{ fee: 70_000, data: "0x" }, to] })).toThrow()
    expect(() => encode([{ fee: 1, data: "0x" }, "0x12"])).toThrow()
    expect(() => encodeFunctionData({ abi, functionName: "f", args: [{ fee: 1, data: "0x" }, "0x12" as never] })).toThrow()
    expect(() => encode([{ fee: 1, data: "0x" }])).toThrow()
    expect(() => encode([{ fee: 1, data: "0xabc" }, to])).toThrow("is not bytes")
    expect(() => encode([{ fee: 1, data: "0xzz" }, to])).toThrow("is not bytes")
    expect(encode([[1, "0xAB"], to])).toBe(encodeFunctionData({ abi, functionName: "f", args: [{ fee: 1, data: "0xab" }, to] }))
  })

  test("has no writer for arrays, strings or an overloaded name: those stay viem's", () => {
    expect(calldataEncoder(parseAbi(["function f(uint256[] xs)"]), "f")).toBeUndefined()
    expect(calldataEncoder(parseAbi(["function f(string s)"]), "f")).toBeUndefined()
    expect(calldataEncoder(parseAbi(["function f(uint256 x)", "function f(address a)"]), "f")).toBeUndefined()
  })
})
