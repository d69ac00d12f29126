// The relayer's metrics: orders entering each status, the time from accept to
// confirmation, the fees earned per token, the relayer account's balance.
import { Effect, Metric, MetricBoundaries } from "effect"
import type { Address } from "viem"
import type { OrderStatus } from "./orders.ts"

export const RelayerMetrics = {
  /** transitions into a status (pending: accepted) */
  orders: Metric.counter("relayer_orders_total", { description: "gasless orders entering each status (tag status)", incremental: true }),
  confirmationSeconds: Metric.histogram(
    "relayer_order_confirmation_seconds",
    MetricBoundaries.exponential({ start: 0.25, factor: 2, count: 12 }),
    "seconds from an order's accept to its confirmation",
  ),
  /** in the token's smallest unit, tagged by the token's address */
  feesEarned: Metric.counter("relayer_fees_earned_total", { description: "relayer fees received, in tokenOut's smallest unit (tag token)", bigint: true, incremental: true }),
  balance: Metric.gauge("relayer_balance_wei", { description: "the relayer account's USDC (native) balance, wei", bigint: true }),
} as const

export const countStatus = (status: OrderStatus, count = 1): Effect.Effect<void> =>
  count > 0 ? Metric.incrementBy(Metric.tagged(RelayerMetrics.orders, "status", status), count) : Effect.void

export const recordConfirmation = (seconds: number, token: Address, fee: bigint | null): Effect.Effect<void> =>
  Effect.zipRight(
    Metric.update(RelayerMetrics.confirmationSeconds, seconds),
    fee === null || fee === 0n ? Effect.void : Metric.incrementBy(Metric.tagged(RelayerMetrics.feesEarned, "token", token), fee),
  )
