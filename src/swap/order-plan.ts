// A signed order planned at the head: priced again with its relayer fee (the
// quote's own function), its executeOrder call encoded with the real
// signatures, simulated from the relayer account on the head's state, and the
// gas limit found. /gasless/submit checks an order with it before accepting it,
// and the relayer plans each order with it when it sends (the OrderPlanner).
import { Data, Effect } from "effect"
import type { Address, Hex } from "viem"
import { encodeExecuteOrder, Rpc, Simulator, USDC_ERC20 } from "../chain/index.ts"
import { Sources } from "../sources/index.ts"
import { Tokens } from "../tokens/index.ts"
import { isNativePlaceholder, type QuoteRequest, type SwapOrder, type World } from "../domain/index.ts"
import { Internal, Unavailable, type QuoteError } from "./errors.ts"
import type { GaslessSettings } from "./gasless-quote.ts"
import type { QuoteServices } from "./quote.ts"
import { priceWithRelayerFee } from "./relayer-fee.ts"
import { gasShape } from "./gas-shape.ts"
import { atHead, gasLimit, revertReason } from "./swap.ts"

/** The order's deadline has passed at the head. */
export class OrderExpired extends Data.TaggedError("OrderExpired")<{ readonly message: string }> {}
/** The relayer fee at the head is above the most the sender signed for. */
export class RelayerFeeAboveMax extends Data.TaggedError("RelayerFeeAboveMax")<{ readonly message: string }> {}
/** The order would not pay its terms at the head, or the executor refuses it (its error's name as reason). */
export class OrderReverted extends Data.TaggedError("OrderReverted")<{ readonly reason: string | undefined; readonly message: string }> {}

export type PlanError = QuoteError | OrderExpired | RelayerFeeAboveMax | OrderReverted

export interface SignedOrder {
  readonly order: SwapOrder
  readonly signature: Hex
  readonly permitSignature: Hex | null
}

export interface OrderPlan {
  /** the executor */
  readonly to: Address
  readonly data: Hex
  /** the least gas limit the simulation found, plus headroom */
  readonly gas: bigint
  readonly relayerFee: bigint
  readonly blockNumber: bigint
}

/** The order's terms as a quote request over the venues: no slippage, the amounts are the order's. */
const termsOf = (settings: GaslessSettings, order: SwapOrder): QuoteRequest => ({
  chainId: settings.chainId,
  tokenIn: order.tokenIn,
  tokenOut: order.tokenOut,
  feeBps: order.feeBps,
  feeRecipient: order.feeBps > 0 ? order.feeRecipient : null,
  slippageBps: 0,
  allowedSources: settings.venues,
  ...(order.exactOutput ? { tradeType: "exactOutput" as const, amountOut: order.amountOut } : { tradeType: "exactInput" as const, amountIn: order.amountIn }),
})

export const planOrder = (
  services: QuoteServices,
  settings: GaslessSettings,
  relayer: Address,
  signed: SignedOrder,
): Effect.Effect<OrderPlan, PlanError, Rpc | Simulator | Tokens | Sources> =>
  Effect.gen(function* () {
    const simulator = yield* Simulator
    // planned on the head's World: the head is read in the same JSON-RPC batch as the simulation
    return yield* atHead(services.market, yield* Rpc, (world) => planAt(services, settings, relayer, signed, simulator, world))
  })

/** The order planned on `world`: priced with the relayer fee, checked against its terms, simulated as the relayer sends it. */
const planAt = (
  services: QuoteServices,
  settings: GaslessSettings,
  relayer: Address,
  signed: SignedOrder,
  simulator: Simulator["Type"],
  world: World,
): Effect.Effect<OrderPlan, PlanError, Sources> =>
  Effect.gen(function* () {
    const { order } = signed
    if (order.deadline <= world.blockTimestamp) {
      return yield* new OrderExpired({ message: `order.deadline: ${order.deadline} has passed on the chain (block ${world.blockNumber}'s time is ${world.blockTimestamp}); ask /gasless/quote for a new order` })
    }
    const { quote, relayerFee, route, priced } = yield* priceWithRelayerFee(services, world, termsOf(settings, order), { marginBps: settings.feeMarginBps, permit: signed.permitSignature !== null })
    if (relayerFee > order.maxRelayerFee) {
      return yield* new RelayerFeeAboveMax({
        message: `order.maxRelayerFee: the relayer fee at block ${world.blockNumber} is ${relayerFee}, above the signed maximum of ${order.maxRelayerFee}; ask /gasless/quote for a new order`,
      })
    }
    if (!order.exactOutput && quote.amountOut < order.amountOut + relayerFee) {
      return yield* new OrderReverted({
        reason: "Slippage",
        message: `the order cannot pay its minimum at block ${world.blockNumber}: the swap pays ${quote.amountOut} after fees, less the relayer fee of ${relayerFee} that is below order.amountOut ${order.amountOut}`,
      })
    }
    if (order.exactOutput && quote.amountIn > order.amountIn) {
      return yield* new OrderReverted({
        reason: "Slippage",
        message: `the order cannot pay its amountOut at block ${world.blockNumber} within its input: the route needs ${quote.amountIn}, above order.amountIn ${order.amountIn}`,
      })
    }
    const executor = priced.settings.address
    const data = yield* Effect.try({
      try: () =>
        encodeExecuteOrder({
          order,
          signature: signed.signature,
          permit: signed.permitSignature === null ? null : { value: order.amountIn, deadline: order.deadline, signature: signed.permitSignature },
          relayerFee,
          protocolFeeBps: priced.settings.protocolFeeBps,
          route: route.route,
        }),
      catch: (cause) => new Internal({ detail: `the order's executeOrder call could not be encoded: ${String(cause)}`, cause }),
    })
    // the relayer's transaction on the head's state, as the block after it, with the sender's real
    // balance and allowance (nothing filled in: the signatures and the permit must do their work)
    const outcome = yield* simulator
      .simulateExecute({
        sender: relayer,
        executor,
        data,
        value: 0n,
        block: { number: world.blockNumber, timestamp: world.blockTimestamp },
        findGasLimit: true,
        gasShape: gasShape({
          entry: order.exactOutput ? "orderExactOutput" : "order",
          input: order.tokenIn.toLowerCase() === USDC_ERC20.toLowerCase() ? "usdc" : "erc20",
          nativeOut: isNativePlaceholder(order.tokenOut),
          permit: signed.permitSignature !== null,
          route: route.route,
        }),
        ...(quote.gasEstimate !== null ? { gasExpected: quote.gasEstimate } : {}),
      })
      .pipe(Effect.catchTag("RpcError", (e) => Effect.fail(new Unavailable({ detail: `the order could not be simulated: ${e.method} ${e.reason}: ${e.message}`, retryAfterSeconds: 1 }))))
    if (!outcome.ok) {
      const reason = revertReason(outcome.revertData)
      return yield* new OrderReverted({ reason, message: `the order would revert at block ${world.blockNumber}${reason !== undefined ? `: ${reason}` : ""}` })
    }
    if (outcome.gasLimit === undefined) return yield* new OrderReverted({ reason: undefined, message: "no gas limit lets the order succeed" })
    return { to: executor, data, gas: gasLimit(outcome.gasLimit), relayerFee, blockNumber: world.blockNumber }
  })
