// The packed route format and execute() calldata, without a chain.
import { describe, expect, test } from "bun:test"
import fc from "fast-check"
import { encodeAbiParameters, getAddress, toFunctionSelector, zeroAddress, type Address, type Hex } from "viem"
import {
  decodeExecute,
  decodeExecutorError,
  encodeExecute,
  executeValue,
  isNativeToken,
  poolToken,
  USDC_ERC20,
} from "../../src/chain/execute-call.ts"
import { decodeRoute, encodeRoute, RouteEncodingError, validateRoute, type Route, type RouteHop } from "../../src/chain/route-encoding.ts"

const A: Address = "0x1111111111111111111111111111111111111111"
const B: Address = "0x2222222222222222222222222222222222222222"
const C: Address = "0x3333333333333333333333333333333333333333"
const R: Address = "0x4444444444444444444444444444444444444444"

describe("encodeRoute: byte layout", () => {
  test("one split, one V3 hop of venue 2", () => {
    const route: Route = [{ shareBps: 10_000, hops: [{ kind: "v3", venue: 2, tokenIn: A, tokenOut: B, fee: 500 }] }]
    // 01 split | 2710 = 10000 | 01 hop | 02 V3 | tokenOut | 02 venue | 0001f4 = 500
    expect(encodeRoute(route)).toBe(`0x01271001${"02"}${"22".repeat(20)}020001f4`)
  })

  test("two splits: V2 (venue 1) then V4 (venue 255) with a negative tick spacing; an external hop with its data", () => {
    const route: Route = [
      {
        shareBps: 2_500,
        hops: [
          { kind: "v2", venue: 1, tokenIn: A, tokenOut: B },
          { kind: "v4", venue: 255, tokenIn: B, tokenOut: C, fee: 3000, tickSpacing: -1, hooks: R },
        ],
      },
      { shareBps: 7_500, hops: [{ kind: "external", tokenIn: A, tokenOut: C, router: R, data: "0xdeadbeef" }] },
    ]
    const expected =
      "0x02" +
      // split 0: 09c4 = 2500, two hops
      "09c4" + "02" +
      "01" + "22".repeat(20) + "01" +
      "03" + "33".repeat(20) + "ff" + "000bb8" + "ffffff" + "44".repeat(20) +
      // split 1: 1d4c = 7500, one hop
      "1d4c" + "01" +
      "04" + "33".repeat(20) + "44".repeat(20) + "000004" + "deadbeef"
    expect(encodeRoute(route)).toBe(expected as Hex)
    expect(decodeRoute(expected as Hex, A)).toEqual(route)
  })

  test("a stable hop: kind 5, tokenOut, the pool (41 bytes); venue 0 is an id like any other", () => {
    const route: Route = [
      { shareBps: 10_000, hops: [{ kind: "stable", tokenIn: A, tokenOut: C, pool: R }, { kind: "v2", venue: 0, tokenIn: C, tokenOut: B }] },
    ]
    const expected = `0x01271002${"05"}${"33".repeat(20)}${"44".repeat(20)}${"01"}${"22".repeat(20)}00` as Hex
    expect(encodeRoute(route)).toBe(expected)
    expect(decodeRoute(expected, A)).toEqual(route)
  })
})

describe("kind 7: an external router in an exact-output route", () => {
  const hop = (fields: Partial<RouteHop> = {}): RouteHop => ({ kind: "externalExactOutput", tokenIn: A, tokenOut: B, router: R, maxAmountIn: 1_005_000n, data: "0xabcdef01", ...fields }) as RouteHop

  test("kind 7, tokenOut, the router, maxIn as 16 bytes, the data's length and the data (60 + length bytes); decoded back", () => {
    const route: Route = [{ shareBps: 10_000, hops: [hop()] }]
    const bytes = encodeRoute(route, "exactOutput")
    expect(bytes).toBe(`0x01271001${"07"}${"22".repeat(20)}${"44".repeat(20)}${(1_005_000n).toString(16).padStart(32, "0")}000004abcdef01`)
    expect((bytes.length - 2) / 2).toBe(1 + 3 + 60 + 4)
    expect(decodeRoute(bytes, A)).toEqual([{ shareBps: 10_000, hops: [{ ...hop(), router: getAddress(R), tokenIn: getAddress(A), tokenOut: getAddress(B) } as RouteHop] }])
  })

  test("exact output only, first in its split (alone or before a stable hop), maxIn within 1 to 2^128 - 1", () => {
    expect(() => encodeRoute([{ shareBps: 10_000, hops: [hop()] }], "exactInput")).toThrow(RouteEncodingError)
    expect(() => encodeRoute([{ shareBps: 10_000, hops: [{ kind: "v2", venue: 1, tokenIn: A, tokenOut: C }, hop({ tokenIn: C })] }], "exactOutput")).toThrow("must be the first of its split")
    expect(() => encodeRoute([{ shareBps: 10_000, hops: [hop(), { kind: "v2", venue: 1, tokenIn: B, tokenOut: C }] }], "exactOutput")).toThrow("must be the first of its split")
    expect(() => encodeRoute([{ shareBps: 10_000, hops: [hop(), { kind: "stableExactOutput", tokenIn: B, tokenOut: C, pool: R, dxHint: 1n }] }], "exactOutput")).not.toThrow()
    expect(() => encodeRoute([{ shareBps: 10_000, hops: [hop({ maxAmountIn: 0n } as Partial<RouteHop>)] }], "exactOutput")).toThrow("maxAmountIn")
    expect(() => encodeRoute([{ shareBps: 10_000, hops: [hop({ maxAmountIn: 1n << 128n } as Partial<RouteHop>)] }], "exactOutput")).toThrow("maxAmountIn")
  })
})

describe("validateRoute", () => {
  const hop = (tokenIn: Address, tokenOut: Address): RouteHop => ({ kind: "v2", venue: 1, tokenIn, tokenOut })
  const refused = (route: Route) => expect(() => validateRoute(route)).toThrow(RouteEncodingError)

  test("refuses what the contract would refuse", () => {
    refused([])
    refused([{ shareBps: 10_000, hops: [] }])
    refused([{ shareBps: 9_999, hops: [hop(A, B)] }])
    refused([{ shareBps: 0, hops: [hop(A, B)] }, { shareBps: 10_000, hops: [hop(A, B)] }])
    refused([{ shareBps: 10_000, hops: [hop(A, B), hop(C, A)] }]) // C does not follow B
    refused([{ shareBps: 10_000, hops: [hop(A, A)] }])
    refused([{ shareBps: 10_000, hops: [hop(A, zeroAddress)] }])
    refused([{ shareBps: 5_000, hops: [hop(A, B)] }, { shareBps: 5_000, hops: [hop(A, C)] }]) // different ends
    refused([{ shareBps: 5_000, hops: [hop(A, B)] }, { shareBps: 5_000, hops: [hop(C, B)] }]) // different starts
    expect(() => encodeRoute([{ shareBps: 10_000, hops: [{ kind: "v3", venue: 2, tokenIn: A, tokenOut: B, fee: 1 << 24 }] }])).toThrow(RouteEncodingError)
    expect(() => encodeRoute([{ shareBps: 10_000, hops: [{ kind: "v4", venue: 3, tokenIn: A, tokenOut: B, fee: 0, tickSpacing: 1 << 23, hooks: R }] }])).toThrow(RouteEncodingError)
    // a venue id is a uint8
    for (const venue of [256, -1, 1.5, Number.NaN]) {
      expect(() => encodeRoute([{ shareBps: 10_000, hops: [{ kind: "v2", venue, tokenIn: A, tokenOut: B }] }])).toThrow(RouteEncodingError)
      expect(() => encodeRoute([{ shareBps: 10_000, hops: [{ kind: "v3", venue, tokenIn: A, tokenOut: B, fee: 500 }] }])).toThrow(RouteEncodingError)
      expect(() => encodeRoute([{ shareBps: 10_000, hops: [{ kind: "v4", venue, tokenIn: A, tokenOut: B, fee: 0, tickSpacing: 1, hooks: R }] }])).toThrow(RouteEncodingError)
    }
    expect(() => encodeRoute([{ shareBps: 10_000, hops: [{ kind: "stable", tokenIn: A, tokenOut: B, pool: "0x1234" as Address }] }])).toThrow(RouteEncodingError)
    validateRoute([{ shareBps: 4_000, hops: [hop(A, B)] }, { shareBps: 6_000, hops: [hop(A, C), hop(C, B)] }])
  })

  test("decodeRoute refuses truncated, unknown and left-over bytes", () => {
    for (const hop of [
      { kind: "v2", venue: 1, tokenIn: A, tokenOut: B },
      { kind: "v3", venue: 2, tokenIn: A, tokenOut: B, fee: 500 },
      { kind: "v4", venue: 3, tokenIn: A, tokenOut: B, fee: 500, tickSpacing: 10, hooks: R },
      { kind: "stable", tokenIn: A, tokenOut: B, pool: R },
    ] as const) {
      const good = encodeRoute([{ shareBps: 10_000, hops: [hop] }])
      expect(decodeRoute(good, A)).toEqual([{ shareBps: 10_000, hops: [hop] }])
      expect(() => decodeRoute(good.slice(0, -2) as Hex, A)).toThrow(RouteEncodingError)
      expect(() => decodeRoute(`${good}00`, A)).toThrow(RouteEncodingError)
    }
    expect(() => decodeRoute(`0x01271001${"07"}${"22".repeat(20)}`, A)).toThrow(RouteEncodingError)
    expect(() => decodeRoute(`0x01271001${"06"}${"22".repeat(20)}`, A)).toThrow(RouteEncodingError)
    expect(() => decodeRoute("0x00", A)).toThrow(RouteEncodingError)
  })
})

// random valid routes over a handful of tokens
const tokenArb = fc.constantFrom(A, B, C, getAddress("0x00000000000000000000000000000000000000aa"), getAddress("0xffffffffffffffffffffffffffffffffffffff01"))
const venueArb = fc.integer({ min: 0, max: 0xff })
const hopBodyArb = fc.oneof(
  fc.record({ kind: fc.constant("v2" as const), venue: venueArb }),
  fc.record({ kind: fc.constant("v3" as const), venue: venueArb, fee: fc.integer({ min: 0, max: 0xff_ffff }) }),
  fc.record({
    kind: fc.constant("v4" as const),
    venue: venueArb,
    fee: fc.integer({ min: 0, max: 0xff_ffff }),
    tickSpacing: fc.integer({ min: -0x80_0000, max: 0x7f_ffff }),
    hooks: tokenArb,
  }),
  fc.record({
    kind: fc.constant("external" as const),
    router: tokenArb,
    data: fc.uint8Array({ maxLength: 80 }).map((b) => `0x${Buffer.from(b).toString("hex")}` as Hex),
  }),
  fc.record({ kind: fc.constant("stable" as const), pool: tokenArb }),
)
const routeArb = fc
  .record({
    splits: fc.array(fc.record({ weight: fc.integer({ min: 1, max: 50 }), bodies: fc.array(hopBodyArb, { minLength: 1, maxLength: 4 }) }), { minLength: 1, maxLength: 5 }),
    tokens: fc.array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 8, maxLength: 8 }),
  })
  .map(({ splits, tokens }) => {
    const tokenIn = A
    const tokenOut = B
    const middle = [C, getAddress("0x00000000000000000000000000000000000000aa"), getAddress("0xffffffffffffffffffffffffffffffffffffff01")]
    const total = splits.reduce((s, x) => s + x.weight, 0)
    const shares = splits.map((x) => Math.max(1, Math.floor((x.weight * (10_000 - splits.length)) / total)))
    shares[shares.length - 1]! += 10_000 - shares.reduce((a, b) => a + b, 0)
    return splits.map((split, s): { shareBps: number; hops: RouteHop[] } => {
      let at = tokenIn
      const hops = split.bodies.map((body, h): RouteHop => {
        const out = h === split.bodies.length - 1 ? tokenOut : middle[(tokens[(s + h) % 8]! + h) % middle.length]!
        // avoid a hop to its own input
        const tokenOutFinal = out === at ? (out === C ? getAddress("0x00000000000000000000000000000000000000aa") : C) : out
        const hop = { ...body, tokenIn: at, tokenOut: h === split.bodies.length - 1 ? tokenOut : tokenOutFinal } as RouteHop
        at = hop.tokenOut
        return hop
      })
      return { shareBps: shares[s]!, hops }
    })
  })
  .filter((route) => {
    try {
      validateRoute(route)
      return true
    } catch {
      return false
    }
  })

describe("round trips", () => {
  test("decodeRoute(encodeRoute(r)) = r, and the length is what the format says", () => {
    fc.assert(
      fc.property(routeArb, (route) => {
        const encoded = encodeRoute(route)
        expect(decodeRoute(encoded, A)).toEqual(route)
        const hopBytes = (h: RouteHop) =>
          h.kind === "v2" ? 22 : h.kind === "v3" ? 25 : h.kind === "v4" ? 48 : h.kind === "stable" ? 41 : h.kind === "stableExactOutput" ? 57 : 44 + (h.data.length - 2) / 2
        const length = 1 + route.reduce((s, split) => s + 3 + split.hops.reduce((t, h) => t + hopBytes(h), 0), 0)
        expect((encoded.length - 2) / 2).toBe(length)
      }),
      { numRuns: 300 },
    )
  })

  test("decodeExecute(encodeExecute(p)) gives the parameters back", () => {
    fc.assert(
      fc.property(
        routeArb,
        fc.bigInt({ min: 0n, max: (1n << 256n) - 1n }),
        fc.bigInt({ min: 0n, max: (1n << 256n) - 1n }),
        fc.integer({ min: 0, max: 100 }),
        fc.integer({ min: 0, max: 100 }),
        (route, amountIn, minAmountOut, feeBps, protocolFeeBps) => {
          const params = { tokenIn: A, tokenOut: B, amountIn, minAmountOut, recipient: C, deadline: 1_700_000_000n, feeBps, feeRecipient: R, protocolFeeBps, route }
          const decoded = decodeExecute(encodeExecute(params))
          expect(decoded).toEqual({ ...params, routeBytes: encodeRoute(route) })
        },
      ),
      { numRuns: 100 },
    )
  })
})

describe("execute calldata", () => {
  const route: Route = [{ shareBps: 10_000, hops: [{ kind: "v3", venue: 2, tokenIn: USDC_ERC20, tokenOut: B, fee: 500 }] }]
  const base = { tokenIn: zeroAddress, tokenOut: B, amountIn: 10n ** 18n + 5n, minAmountOut: 1n, recipient: C, deadline: 1n, feeBps: 0, protocolFeeBps: 25, route }

  test("the selector is execute's, with the parameters as one tuple", () => {
    expect(encodeExecute(base).slice(0, 10)).toBe(
      toFunctionSelector("execute((address,address,uint256,uint256,address,uint256,uint16,address,uint16,bytes))"),
    )
  })

  test("native input: the route starts at the ERC-20 USDC, the value is amountIn; the fee recipient defaults to zero", () => {
    expect(executeValue(base)).toBe(10n ** 18n + 5n)
    expect(executeValue({ tokenIn: A, amountIn: 7n })).toBe(0n)
    expect(decodeExecute(encodeExecute(base)).feeRecipient).toBe(zeroAddress)
    expect(isNativeToken("0xEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEEE")).toBe(true)
    expect(isNativeToken("0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee")).toBe(true)
    expect(poolToken(zeroAddress)).toBe(USDC_ERC20)
    expect(poolToken(A)).toBe(A)
  })

  test("a route that does not start at tokenIn or end at tokenOut is refused before encoding", () => {
    expect(() => encodeExecute({ ...base, tokenIn: A })).toThrow(RouteEncodingError)
    expect(() => encodeExecute({ ...base, tokenOut: C })).toThrow(RouteEncodingError)
    // already-encoded bytes are passed through as they are
    expect(() => encodeExecute({ ...base, tokenIn: A, route: "0x00" })).not.toThrow()
  })
})

describe("decodeExecutorError", () => {
  const encodeError = (signature: string, types: { type: string }[], values: unknown[]): Hex =>
    `${toFunctionSelector(signature)}${encodeAbiParameters(types, values).slice(2)}` as Hex

  test("names the API reason and the fault", () => {
    expect(decodeExecutorError(encodeError("Slippage(uint256,uint256)", [{ type: "uint256" }, { type: "uint256" }], [5n, 6n]))).toEqual({
      name: "Slippage",
      args: [5n, 6n],
      reason: "Slippage",
    })
    expect(decodeExecutorError(encodeError("InvalidRoute(uint8)", [{ type: "uint8" }], [3]))).toEqual({
      name: "InvalidRoute",
      args: [3],
      reason: "InvalidRoute",
      fault: "UnknownPool",
    })
    expect(decodeExecutorError(encodeError("InvalidConfig(uint8)", [{ type: "uint8" }], [2]))).toMatchObject({ fault: "FeeRecipient" })
    expect(decodeExecutorError(encodeError("Paused()", [], []))).toEqual({ name: "Paused", args: [], reason: "Paused" })
    expect(decodeExecutorError(encodeError("Reentrancy()", [], []))).toEqual({ name: "Reentrancy", args: [] })
    expect(decodeExecutorError("0x12345678")).toBeUndefined()
  })

  test("a revert string or a panic is not one of the executor's errors", () => {
    expect(decodeExecutorError(encodeError("Error(string)", [{ type: "string" }], ["UniswapV2: K"]))).toBeUndefined()
    expect(decodeExecutorError(encodeError("Panic(uint256)", [{ type: "uint256" }], [0x11n]))).toBeUndefined()
  })
})
