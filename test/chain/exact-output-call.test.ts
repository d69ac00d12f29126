// Exact-output routes (kind 6, the kinds each entry takes) and executeExactOutput() calldata, without a chain.
import { describe, expect, test } from "bun:test"
import { toFunctionSelector, zeroAddress, type Address, type Hex } from "viem"
import { encodeExecute } from "../../src/chain/execute-call.ts"
import {
  decodeExecuteExactOutput,
  encodeExecuteExactOutput,
  executeExactOutputValue,
  type ExactOutputParams,
} from "../../src/chain/exact-output-call.ts"
import { decodeRoute, encodeRoute, RouteEncodingError, validateRoute, type Route, type RouteHop } from "../../src/chain/route-encoding.ts"

const A: Address = "0x1111111111111111111111111111111111111111"
const B: Address = "0x2222222222222222222222222222222222222222"
const C: Address = "0x3333333333333333333333333333333333333333"
const R: Address = "0x4444444444444444444444444444444444444444"
const USDC: Address = "0x3600000000000000000000000000000000000000"

const stableOut: RouteHop = { kind: "stableExactOutput", tokenIn: A, tokenOut: C, pool: R, dxHint: 0x0102n }
const v2: RouteHop = { kind: "v2", venue: 1, tokenIn: C, tokenOut: B }

describe("kind 6, a stable hop for exact output", () => {
  test("layout: kind 6, tokenOut, the pool, dxHint as 16 bytes (57 bytes); decodes back", () => {
    const route: Route = [{ shareBps: 10_000, hops: [stableOut, v2] }]
    const expected = `0x01271002${"06"}${"33".repeat(20)}${"44".repeat(20)}${"0".repeat(28)}0102${"01"}${"22".repeat(20)}01` as Hex
    expect(encodeRoute(route, "exactOutput")).toBe(expected)
    expect(decodeRoute(expected, A)).toEqual(route)
    expect(() => decodeRoute(expected.slice(0, 2 + 2 * (4 + 57) - 2) as Hex, A)).toThrow(RouteEncodingError)
  })

  test("dxHint must be 1 to 2^128 - 1", () => {
    for (const dxHint of [0n, -1n, 1n << 128n]) {
      expect(() => encodeRoute([{ shareBps: 10_000, hops: [{ ...stableOut, tokenOut: B, dxHint } as RouteHop] }], "exactOutput")).toThrow(RouteEncodingError)
    }
    encodeRoute([{ shareBps: 10_000, hops: [{ ...stableOut, tokenOut: B, dxHint: (1n << 128n) - 1n } as RouteHop] }], "exactOutput")
  })
})

describe("the kinds each entry takes", () => {
  const one = (hop: RouteHop): Route => [{ shareBps: 10_000, hops: [hop] }]
  test("exact output: v2, v3, v4 and stableExactOutput; not stable (kind 5) or external", () => {
    validateRoute([{ shareBps: 10_000, hops: [stableOut, v2] }], "exactOutput")
    validateRoute(one({ kind: "v3", venue: 2, tokenIn: A, tokenOut: B, fee: 500 }), "exactOutput")
    validateRoute(one({ kind: "v4", venue: 3, tokenIn: A, tokenOut: B, fee: 500, tickSpacing: 10, hooks: zeroAddress }), "exactOutput")
    expect(() => validateRoute(one({ kind: "stable", tokenIn: A, tokenOut: B, pool: R }), "exactOutput")).toThrow(/stable hop cannot be in an exactOutput route/)
    expect(() => validateRoute(one({ kind: "external", tokenIn: A, tokenOut: B, router: R, data: "0x" }), "exactOutput")).toThrow(RouteEncodingError)
  })
  test("exact input (execute) refuses stableExactOutput", () => {
    expect(() => encodeRoute([{ shareBps: 10_000, hops: [stableOut, v2] }])).toThrow(/stableExactOutput hop cannot be in an exactInput route/)
    expect(() =>
      encodeExecute({ tokenIn: A, tokenOut: B, amountIn: 1n, minAmountOut: 0n, recipient: R, deadline: 1n, feeBps: 0, protocolFeeBps: 0, route: [{ shareBps: 10_000, hops: [stableOut, v2] }] }),
    ).toThrow(RouteEncodingError)
  })
})

describe("encodeExecuteExactOutput", () => {
  const params: ExactOutputParams = {
    tokenIn: A,
    tokenOut: B,
    amountOut: 123_456n,
    maxAmountIn: 999_999n,
    recipient: R,
    deadline: 1_700_000_000n,
    feeBps: 25,
    feeRecipient: C,
    protocolFeeBps: 5,
    route: [{ shareBps: 10_000, hops: [stableOut, v2] }],
  }
  test("the selector of executeExactOutput((address,address,uint256,uint256,address,uint256,uint16,address,uint16,bytes)); decodes back", () => {
    const data = encodeExecuteExactOutput(params)
    expect(data.slice(0, 10)).toBe(
      toFunctionSelector("executeExactOutput((address,address,uint256,uint256,address,uint256,uint16,address,uint16,bytes))"),
    )
    const decoded = decodeExecuteExactOutput(data)
    expect(decoded).toMatchObject({ ...params, route: params.route })
    expect(decoded.routeBytes).toBe(encodeRoute(params.route as Route, "exactOutput"))
  })
  test("a route that does not lead from tokenIn to tokenOut, or of exact-input kinds, is refused", () => {
    expect(() => encodeExecuteExactOutput({ ...params, tokenOut: C })).toThrow(RouteEncodingError)
    expect(() => encodeExecuteExactOutput({ ...params, route: [{ shareBps: 10_000, hops: [{ kind: "stable", tokenIn: A, tokenOut: B, pool: R }] }] })).toThrow(RouteEncodingError)
  })
  test("value: maxAmountIn for native input, else 0", () => {
    expect(executeExactOutputValue({ tokenIn: zeroAddress, maxAmountIn: 5n })).toBe(5n)
    expect(executeExactOutputValue({ tokenIn: "0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE", maxAmountIn: 5n })).toBe(5n)
    expect(executeExactOutputValue({ tokenIn: USDC, maxAmountIn: 5n })).toBe(0n)
  })
})
