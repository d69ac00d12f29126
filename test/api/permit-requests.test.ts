// The /swap request's permit field (API 1.2 section 2): what is accepted
// (typed: value and deadline as bigints, the signature as hex) and what is
// refused, with a message naming permit or the field inside it.
import { describe, expect, test } from "bun:test"
import { Either } from "effect"
import { decodeSwapRequest, JsonNumber } from "../../src/api/index.ts"

const EXECUTOR = "0x5E1eC7eD00000000000000000000000000000001" as const
const NOW = 1_800_000_000
const rules = { chainId: 5042, executor: EXECUTOR, nowSeconds: NOW, sourceNames: new Set(["uniswap-v3"]) } as const
const EURC = "0x00000000000000000000000000000000000000A1"
const SENDER = "0x1111111111111111111111111111111111111111"
const SIG65 = `0x${"ab".repeat(64)}1b` as const
const SIG64 = `0x${"cd".repeat(64)}` as const
const permit = { value: "1000", deadline: String(NOW + 600), signature: SIG65 }
const swap = (over: Record<string, unknown>) => decodeSwapRequest({ tokenIn: EURC, tokenOut: "0x00000000000000000000000000000000000000b2", amountIn: "1000", sender: SENDER, ...over }, rules)

const refused = (e: Either.Either<unknown, { readonly message: string }>): string => {
  if (Either.isRight(e)) throw new Error("accepted")
  return e.left.message
}

describe("permit: accepted", () => {
  test("value and deadline as digit strings, a 65-byte signature", () => {
    const r = Either.getOrThrow(swap({ permit }))
    expect(r.permit).toEqual({ value: 1000n, deadline: BigInt(NOW + 600), signature: SIG65 })
  })
  test("value and deadline as JSON numbers (as read from a body), a 64-byte EIP-2098 signature, uppercase hex", () => {
    const r = Either.getOrThrow(swap({ permit: { value: new JsonNumber(1000, "1e3"), deadline: NOW + 60, signature: SIG64.toUpperCase().replace("0X", "0x") } }))
    expect(r.permit).toEqual({ value: 1000n, deadline: BigInt(NOW + 60), signature: SIG64 })
  })
  test("a value far above amountIn (what the transaction takes is checked against the chain's pricing)", () => {
    expect(Either.getOrThrow(swap({ permit: { ...permit, value: ((1n << 256n) - 1n).toString() } })).permit?.value).toBe((1n << 256n) - 1n)
  })
  test("permit null is no permit", () => {
    expect(Either.getOrThrow(swap({ permit: null })).permit).toBeUndefined()
  })
  test("without permit, the request has none", () => {
    expect("permit" in Either.getOrThrow(swap({}))).toBe(false)
  })
})

describe("permit: refused, naming the field", () => {
  const cases: Array<[string, unknown, RegExp]> = [
    ["not an object", "0xabc", /^permit: /],
    ["value missing", { deadline: permit.deadline, signature: SIG65 }, /^permit\.value: is required/],
    ["deadline missing", { value: "1", signature: SIG65 }, /^permit\.deadline: is required/],
    ["signature missing", { value: "1", deadline: permit.deadline }, /^permit\.signature: is required/],
    ["value zero", { ...permit, value: "0" }, /^permit\.value: must be greater than 0/],
    ["value a fraction", { ...permit, value: 1.5 }, /^permit\.value: /],
    ["value beyond uint256", { ...permit, value: (1n << 256n).toString() }, /^permit\.value: must be below 2\^256/],
    ["deadline not a number", { ...permit, deadline: "soon" }, /^permit\.deadline: /],
    ["signature of 63 bytes", { ...permit, signature: `0x${"ab".repeat(63)}` }, /^permit\.signature: must be the permit's signature as hex: 65 bytes/],
    ["signature of 66 bytes", { ...permit, signature: `0x${"ab".repeat(66)}` }, /^permit\.signature: /],
    ["signature not hex", { ...permit, signature: `0x${"zz".repeat(65)}` }, /^permit\.signature: /],
    ["an unknown field", { ...permit, nonce: "0" }, /^permit\.nonce: unknown field/],
  ]
  for (const [name, value, message] of cases) {
    test(name, () => expect(refused(swap({ permit: value }))).toMatch(message))
  }
  test("a deadline already past", () => {
    expect(refused(swap({ permit: { ...permit, deadline: NOW } }))).toBe(`permit.deadline: ${NOW} has passed (now is ${NOW}); sign a new permit`)
    expect(refused(swap({ permit: { ...permit, deadline: 1 } }))).toMatch(/^permit\.deadline: 1 has passed/)
  })
  test("native input, by either placeholder", () => {
    for (const native of ["0x0000000000000000000000000000000000000000", "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE"]) {
      expect(refused(swap({ tokenIn: native, permit }))).toMatch(/^permit: native USDC input is paid with tx\.value and takes no permit/)
    }
  })
  test("a field before permit in the tables is reported first", () => {
    expect(refused(swap({ sender: "0x12", permit: { ...permit, value: "0" } }))).toMatch(/^sender: /)
  })
})
