// A reverted order's reason in words: the executor's errors by name and
// arguments, Solidity's Error(string) and Panic(uint256), other data shown short.
import { describe, expect, test } from "bun:test"
import { encodeErrorResult, parseAbi } from "viem"
import { routeExecutorAbi } from "../../src/chain/index.ts"
import { describeRevert } from "../../src/relayer/index.ts"

describe("describeRevert", () => {
  test("the executor's own errors", () => {
    expect(describeRevert(encodeErrorResult({ abi: routeExecutorAbi, errorName: "Slippage", args: [5n, 7n] }))).toBe("Slippage(5, 7)")
    expect(describeRevert(encodeErrorResult({ abi: routeExecutorAbi, errorName: "Paused" }))).toBe("Paused")
  })

  test("Error(string) and Panic(uint256)", () => {
    const abi = parseAbi(["error Error(string)", "error Panic(uint256)"])
    expect(describeRevert(encodeErrorResult({ abi, errorName: "Error", args: ["too late"] }))).toBe("too late")
    expect(describeRevert(encodeErrorResult({ abi, errorName: "Panic", args: [0x11n] }))).toBe("panic 17")
  })

  test("nothing for empty data; other data shown, cut short", () => {
    expect(describeRevert("0x")).toBeUndefined()
    expect(describeRevert("0xdeadbeef")).toBe("revert data 0xdeadbeef")
    expect(describeRevert(`0x12345678${"00".repeat(64)}`)).toBe(`revert data 0x12345678${"00".repeat(32)}…`)
  })
})
