// executeOrder's calldata, cancelNonce's, the OrderFilled decoder and the order refusals'
// names: pure encoding against the executor's ABI (the devnet tests send them for real).
import { describe, expect, test } from "bun:test"
import { encodeAbiParameters, encodeErrorResult, encodeEventTopics, getAddress, hashTypedData, keccak256, toFunctionSelector, toHex, zeroAddress, type Address, type Hex } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import {
  decodeExecuteOrder,
  decodeExecutorError,
  decodeOrderFilled,
  encodeCancelNonce,
  encodeExecuteOrder,
  encodeNonceUsed,
  ORDER_ERRORS,
  ORDER_FILLED_EVENT,
  routeExecutorAbi,
  type Route,
} from "../../src/chain/index.ts"
import { swapOrderTypedData, type SwapOrder } from "../../src/domain/index.ts"

const sender = privateKeyToAccount("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d")
const executor: Address = getAddress("0x00000000000000000000000000000000000000e0")
const EURC: Address = getAddress("0x00000000000000000000000000000000000000a1")
const USDC: Address = "0x3600000000000000000000000000000000000000"
const order: SwapOrder = {
  sender: sender.address,
  recipient: getAddress("0x00000000000000000000000000000000000000b2"),
  tokenIn: EURC,
  tokenOut: USDC,
  exactOutput: false,
  amountIn: 100_000_000n,
  amountOut: 99_000_000n,
  maxRelayerFee: 50_000n,
  feeBps: 10,
  feeRecipient: getAddress("0x00000000000000000000000000000000000000c3"),
  nonce: 2n ** 200n + 7n,
  deadline: 1_900_000_000n,
}
const route: Route = [{ shareBps: 10_000, hops: [{ kind: "v3", venue: 2, tokenIn: EURC, tokenOut: USDC, fee: 500 }] }]

describe("encodeExecuteOrder", () => {
  test("the order, its signature, the permit's (v, r, s) of the order's tokenIn, the fee and the route read back as given", async () => {
    const signature = await sender.signTypedData(swapOrderTypedData(5042, executor, order))
    const permitSignature = `0x${"11".repeat(32)}${"22".repeat(32)}1c` as Hex
    const data = encodeExecuteOrder({ order, signature, permit: { value: 5n, deadline: 9n, signature: permitSignature }, relayerFee: 40_000n, protocolFeeBps: 25, route })
    expect(data.slice(0, 10)).toBe(toFunctionSelector("executeOrder((address,address,address,address,bool,uint256,uint256,uint256,uint16,address,uint256,uint256),bytes,(address,uint256,uint256,uint8,bytes32,bytes32),uint256,uint16,bytes)"))
    const decoded = decodeExecuteOrder(data)
    expect(decoded.order).toEqual(order)
    expect(decoded.signature).toBe(signature)
    expect(decoded.permit).toEqual({ token: EURC, value: 5n, deadline: 9n, v: 28, r: `0x${"11".repeat(32)}`, s: `0x${"22".repeat(32)}` })
    expect([decoded.relayerFee, decoded.protocolFeeBps]).toEqual([40_000n, 25])
  })

  test("no permit: token 0x0 and zeros; a route that does not lead from tokenIn to tokenOut is refused before encoding", async () => {
    const data = encodeExecuteOrder({ order, signature: "0x", permit: null, relayerFee: 0n, protocolFeeBps: 0, route })
    expect(decodeExecuteOrder(data).permit).toEqual({ token: zeroAddress, value: 0n, deadline: 0n, v: 0, r: `0x${"00".repeat(32)}`, s: `0x${"00".repeat(32)}` })
    expect(() => encodeExecuteOrder({ order: { ...order, tokenOut: EURC, tokenIn: USDC }, signature: "0x", permit: null, relayerFee: 0n, protocolFeeBps: 0, route })).toThrow()
  })

  test("cancelNonce and nonceUsed calldata", () => {
    expect(encodeCancelNonce(5n)).toBe(`${toFunctionSelector("cancelNonce(uint256)")}${encodeAbiParameters([{ type: "uint256" }], [5n]).slice(2)}`)
    expect(encodeNonceUsed(sender.address, 5n).slice(0, 10)).toBe(toFunctionSelector("nonceUsed(address,uint256)"))
  })
})

describe("decodeOrderFilled", () => {
  test("an OrderFilled log gives its six fields; any other log, undefined", () => {
    const orderHash = hashTypedData(swapOrderTypedData(5042, executor, order))
    const relayer = getAddress("0x00000000000000000000000000000000000000d4")
    const topics = encodeEventTopics({ abi: [ORDER_FILLED_EVENT], eventName: "OrderFilled", args: { orderHash, sender: order.sender, relayer } }) as Hex[]
    const data = encodeAbiParameters([{ type: "uint256" }, { type: "uint256" }, { type: "uint256" }], [1n, 2n, 3n])
    expect(decodeOrderFilled({ data, topics })).toEqual({ orderHash, sender: order.sender, relayer, amountIn: 1n, amountOut: 2n, relayerFee: 3n })
    expect(decodeOrderFilled({ data, topics: [keccak256(toHex("Other()")), ...topics.slice(1)] })).toBeUndefined()
  })
})

describe("the order refusals", () => {
  test("decodeExecutorError names each one; none is a SIMULATION_FAILED reason but Expired", () => {
    const cases: ReadonlyArray<readonly [string, readonly unknown[]]> = [
      ["InvalidSignature", []],
      ["NonceUsed", [order.sender, 7n]],
      ["RelayerFeeTooHigh", [2n, 1n]],
      ["NativeOrderInput", []],
      ["PermitTokenMismatch", [EURC]],
    ]
    for (const [name, args] of cases) {
      const data = encodeErrorResult({ abi: routeExecutorAbi, errorName: name, args })
      expect(decodeExecutorError(data)).toEqual({ name, args })
      expect(name in ORDER_ERRORS).toBe(true)
    }
    const expired = encodeErrorResult({ abi: routeExecutorAbi, errorName: "Expired", args: [1n] })
    expect(decodeExecutorError(expired)).toEqual({ name: "Expired", args: [1n], reason: "Expired" })
    const orderEntryFault = encodeErrorResult({ abi: routeExecutorAbi, errorName: "InvalidConfig", args: [9] })
    expect(decodeExecutorError(orderEntryFault)).toMatchObject({ fault: "OrderEntry" })
  })
})
