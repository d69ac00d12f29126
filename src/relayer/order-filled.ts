// The executor's OrderFilled event: what an order paid and received, read from
// the receipt of the transaction that filled it.
import { parseAbi, parseEventLogs, type Hex, type Log } from "viem"

export const orderFilledAbi = parseAbi([
  "event OrderFilled(bytes32 indexed orderHash, address indexed sender, address indexed relayer, uint256 amountIn, uint256 amountOut, uint256 relayerFee)",
])

export interface OrderFill {
  readonly amountIn: bigint
  readonly amountOut: bigint
  readonly relayerFee: bigint
}

/** The fill of order `tradeHash` among `logs`, if one of them is its OrderFilled event. */
export const findOrderFill = (logs: readonly Log[], tradeHash: Hex): OrderFill | undefined => {
  const events = parseEventLogs({ abi: orderFilledAbi, eventName: "OrderFilled", logs: logs as Log[], strict: true })
  const event = events.find((e) => e.args.orderHash.toLowerCase() === tradeHash.toLowerCase())
  return event === undefined ? undefined : { amountIn: event.args.amountIn, amountOut: event.args.amountOut, relayerFee: event.args.relayerFee }
}
