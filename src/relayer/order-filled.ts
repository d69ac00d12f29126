// The executor's OrderFilled event: what an order paid and received, read from
// the receipt of the transaction that filled it (decoded by the chain room's
// one decoder of the event).
import type { Address, Hex, Log } from "viem"
import { decodeOrderFilled } from "../chain/index.ts"

export interface OrderFill {
  readonly amountIn: bigint
  readonly amountOut: bigint
  readonly relayerFee: bigint
}

/**
 * The fill of order `tradeHash` among `logs`: its OrderFilled event as emitted by `emitter`, the
 * contract the transaction called (a token or pool on the route could emit a look-alike).
 */
export const findOrderFill = (logs: readonly Log[], tradeHash: Hex, emitter: Address): OrderFill | undefined => {
  for (const log of logs) {
    if (log.address.toLowerCase() !== emitter.toLowerCase()) continue
    const event = decodeOrderFilled(log)
    if (event !== undefined && event.orderHash.toLowerCase() === tradeHash.toLowerCase()) {
      return { amountIn: event.amountIn, amountOut: event.amountOut, relayerFee: event.relayerFee }
    }
  }
  return undefined
}
