// The relayer's vocabulary: an accepted gasless order, its record as the
// database keeps it, what the request programs plan for it at the head, and the
// services and errors others code against.
import { Context, Data, type Effect } from "effect"
import type { Address, Hex } from "viem"
import type { SwapOrder } from "../domain/index.ts"

export type OrderStatus = "pending" | "submitted" | "confirmed" | "failed" | "expired"

export const ORDER_STATUSES: readonly OrderStatus[] = ["pending", "submitted", "confirmed", "failed", "expired"]

export interface AcceptedOrder {
  /** the order's EIP-712 digest (unique key) */
  readonly tradeHash: Hex
  /** the API key that submitted it (status is only for that key) */
  readonly keyId: string
  readonly order: SwapOrder
  readonly signature: Hex
  readonly permitSignature: Hex | null
}

export interface OrderRecord extends AcceptedOrder {
  readonly status: OrderStatus
  /** every transaction sent for the order, in the order sent (a replacement shares the nonce of the one before) */
  readonly transactions: ReadonlyArray<{ readonly hash: Hex; readonly blockNumber: bigint | null }>
  readonly amountIn: bigint | null
  readonly amountOut: bigint | null
  readonly relayerFee: bigint | null
  readonly reason: string | null
}

/** What the relayer asks of the request programs when it sends an order: its transaction priced at the head. */
export interface PlannedOrder {
  readonly to: Address
  readonly data: Hex
  readonly gas: bigint
  readonly relayerFee: bigint
}

/** The order cannot be planned now: `permanent` fails it, else it is tried again on the next poll. */
export class OrderPlanFailure extends Data.TaggedError("OrderPlanFailure")<{ readonly reason: string; readonly permanent: boolean }> {}

export class OrderPlanner extends Context.Tag("OrderPlanner")<
  OrderPlanner,
  { readonly plan: (order: AcceptedOrder) => Effect.Effect<PlannedOrder, OrderPlanFailure> }
>() {}

/** The relayer cannot take orders now (short of USDC, node unreachable): why, and when to ask again. */
export class RelayerUnavailable extends Data.TaggedError("RelayerUnavailable")<{ readonly reason: string; readonly retryAfterSeconds: number }> {}

/** The order store could not be read or written. */
export class OrderStoreFailure extends Data.TaggedError("OrderStoreFailure")<{ readonly message: string }> {}

export class Relayer extends Context.Tag("Relayer")<
  Relayer,
  {
    readonly address: Address
    /** stores the order as pending (idempotent: the same tradeHash answers the record there is, never a second row) */
    readonly accept: (order: AcceptedOrder) => Effect.Effect<OrderRecord, RelayerUnavailable | OrderStoreFailure>
    readonly find: (tradeHash: Hex) => Effect.Effect<OrderRecord | undefined, OrderStoreFailure>
    /** the balance watch: short of USDC (or node unreachable) answers why and when to retry */
    readonly readiness: Effect.Effect<void, RelayerUnavailable>
  }
>() {}
