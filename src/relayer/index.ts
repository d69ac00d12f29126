// The relayer room's door: gasless orders accepted into the database and sent,
// followed, replaced and settled by one actor per instance from the relayer account.
export {
  OrderPlanFailure,
  OrderPlanner,
  OrderStoreFailure,
  ORDER_STATUSES,
  Relayer,
  RelayerUnavailable,
  type AcceptedOrder,
  type OrderRecord,
  type OrderStatus,
  type PlannedOrder,
} from "./orders.ts"
export { RelayerLive, makeRelayer, type RelayerSettings } from "./relayer.ts"
export { RelayerNode, makeRelayerNode, type Head, type Receipt, type RelayerNodeShape } from "./node.ts"
export { bump, initialFees, replacementFees, type Fees } from "./fees.ts"
export { findOrderFill, type OrderFill } from "./order-filled.ts"
export { RelayerMetrics } from "./metrics.ts"
export { describeRevert } from "./revert-reason.ts"
export { RELAYER_MIGRATIONS_TABLE } from "./order-table.ts"
