// The fields of an aggregator's answer as Schemas: what each accepts, what it
// makes of it, and the invalid-answer message a wrong or missing one gives.
import { describe, expect, test } from "bun:test"
import { Effect, Schema } from "effect"
import { Amount, Calldata, ChecksummedAddress, decodeAnswer, ObjectWith, OptionalAmount, required } from "../../src/sources/answer-fields.ts"

const MAX_UINT256 = (1n << 256n) - 1n

const Answer = Schema.Struct({
  amount: required(Amount),
  router: required(ChecksummedAddress),
  tx: ObjectWith({ data: required(Calldata), gas: OptionalAmount }),
})
const good = { amount: "1000", router: "0x000000000000000000000000000000000000a11a", tx: { data: "0xE21FD0E9AA", gas: null } }

const decode = decodeAnswer("fields-test", Answer)
const outcome = (input: unknown) => Effect.runPromise(Effect.either(decode(input)))
const messageOf = async (input: unknown) => {
  const result = await outcome(input)
  if (result._tag === "Right") throw new Error("decoded")
  expect(result.left).toMatchObject({ _tag: "SourceError", source: "fields-test", reason: "invalid-answer" })
  return result.left.message
}

describe("a good answer", () => {
  test("amounts become bigints, the address is checksummed, the calldata lowercased, a null gas absent", async () => {
    const result = await outcome(good)
    expect(result._tag === "Right" && result.right).toEqual({ amount: 1000n, router: "0x000000000000000000000000000000000000A11A", tx: { data: "0xe21fd0e9aa" } })
  })

  test("amounts up to uint256, leading zeros read as the number", () => {
    const amount = Schema.decodeUnknownSync(Amount)
    expect(amount(MAX_UINT256.toString())).toBe(MAX_UINT256)
    expect(amount("007")).toBe(7n)
    expect(amount("0")).toBe(0n)
  })

  test("an address in any case is taken (the case is not checked as a checksum) and checksummed", () => {
    expect(Schema.decodeUnknownSync(ChecksummedAddress)("0x000000000000000000000000000000000000a11A")).toBe("0x000000000000000000000000000000000000A11A")
  })
})

describe("each wrong field names itself", () => {
  const cases: Array<[string, unknown, string]> = [
    ["an amount as a JSON number", { ...good, amount: 1000 }, "amount is not a whole-number string: 1000"],
    ["an amount with a fraction", { ...good, amount: "1.5" }, 'amount is not a whole-number string: "1.5"'],
    ["a negative amount", { ...good, amount: "-1" }, 'amount is not a whole-number string: "-1"'],
    ["an amount above uint256", { ...good, amount: (MAX_UINT256 + 1n).toString() }, `amount is not a whole-number string: "${(MAX_UINT256 + 1n).toString()}"`],
    ["an amount of 79 digits", { ...good, amount: "0".repeat(79) }, `amount is not a whole-number string: "${"0".repeat(78)}`],
    ["a missing amount", { ...good, amount: undefined }, "amount is not a whole-number string: undefined"],
    ["a short address", { ...good, router: "0x1234" }, 'router is not an address: "0x1234"'],
    ["an address that is not hex", { ...good, router: `0x${"z".repeat(40)}` }, "router is not an address"],
    ["a missing address", { ...good, router: undefined }, "router is not an address: undefined"],
    ["calldata without a selector", { ...good, tx: { data: "0x123456" } }, "tx.data is not calldata (hex bytes with a selector, at most 16777215 bytes)"],
    ["calldata of odd length", { ...good, tx: { data: "0x123456789" } }, "tx.data is not calldata"],
    ["a gas figure that is not a number", { ...good, tx: { data: "0x12345678", gas: "lots" } }, 'tx.gas is not a whole-number string: "lots"'],
    ["an object that is null", { ...good, tx: null }, "tx is missing"],
    ["an object that is an array", { ...good, tx: [] }, "tx is missing"],
  ]
  for (const [label, input, message] of cases) test(label, async () => expect(await messageOf(input)).toStartWith(message))

  test("the first wrong field, in the Struct's order, is the one named", async () => {
    expect(await messageOf({ ...good, router: "x", amount: "y" })).toStartWith("amount ")
  })

  test("a whole answer that is not an object gives the message it was given, alone", async () => {
    const decodeRoot = decodeAnswer("fields-test", ObjectWith({ amount: required(Amount) }, "the answer is not a JSON object"))
    for (const input of [null, [], "text", 5]) {
      const result = await Effect.runPromise(Effect.either(decodeRoot(input)))
      expect(result._tag === "Left" && result.left.message).toBe("the answer is not a JSON object")
    }
  })

  test("a label renames the field's path", async () => {
    const labelled = decodeAnswer("fields-test", Answer, (path) => `build ${path}`)
    const result = await Effect.runPromise(Effect.either(labelled({ ...good, tx: { data: "0x" } })))
    expect(result._tag === "Left" && result.left.message).toStartWith("build tx.data is not calldata")
  })
})
