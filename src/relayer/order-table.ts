// The orders' tables in the process's SQL database (SQLite or Postgres, one
// text for both): orders with their status, every transaction signed for them
// (written before it is broadcast), and the next nonce of each relayer account,
// which instances sharing one Postgres and one account advance in turn.
import * as SqlClient from "@effect/sql/SqlClient"
import { Effect } from "effect"
import { getAddress, type Address, type Hex } from "viem"
import { migrate, type Migrations } from "../database/index.ts"
import type { SwapOrder } from "../domain/index.ts"
import { OrderStoreFailure, type AcceptedOrder, type OrderRecord, type OrderStatus } from "./orders.ts"

export const RELAYER_MIGRATIONS_TABLE = "relayer_migrations"

// bigint columns hold ms since the epoch, nonces, seconds and block numbers; amounts are decimal text
export const RELAYER_MIGRATIONS: Migrations = {
  "1_relayer_orders": Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    yield* sql`CREATE TABLE relayer_orders (
      trade_hash       text PRIMARY KEY,
      key_id           text NOT NULL,
      order_json       text NOT NULL,
      signature        text NOT NULL,
      permit_signature text,
      deadline         bigint NOT NULL,
      token_out        text NOT NULL,
      status           text NOT NULL,
      accepted_at      bigint NOT NULL,
      next_attempt_at  bigint NOT NULL,
      claimed_by       text,
      claim_until      bigint,
      relayer          text,
      nonce            bigint,
      amount_in        text,
      amount_out       text,
      relayer_fee      text,
      reason           text,
      finished_at      bigint
    )`
    yield* sql`CREATE INDEX relayer_orders_pending ON relayer_orders (status, next_attempt_at)`
    yield* sql`CREATE TABLE relayer_transactions (
      hash         text PRIMARY KEY,
      trade_hash   text NOT NULL,
      relayer      text NOT NULL,
      nonce        bigint NOT NULL,
      seq          integer NOT NULL,
      raw          text NOT NULL,
      sent_by      text NOT NULL,
      sent_at      bigint NOT NULL,
      sent_block   bigint NOT NULL,
      block_number bigint
    )`
    yield* sql`CREATE INDEX relayer_transactions_order ON relayer_transactions (trade_hash, seq)`
    yield* sql`CREATE TABLE relayer_nonces (
      relayer    text PRIMARY KEY,
      next_nonce bigint NOT NULL
    )`
  }),
}

const describe = (e: unknown): string => {
  if (!(e instanceof Error)) return String(e)
  const cause = (e as { cause?: unknown }).cause
  return cause instanceof Error && cause.message !== "" && cause.message !== e.message ? `${e.message}: ${cause.message}` : e.message
}
export const storeFailure = (what: string) => (e: unknown) => new OrderStoreFailure({ message: `${what}: ${describe(e)}` })

/** Brings the relayer's tables up to date. */
export const migrateOrders = Effect.mapError(
  migrate({ table: RELAYER_MIGRATIONS_TABLE, lock: "arc-swap relayer migrations", migrations: RELAYER_MIGRATIONS }),
  storeFailure("cannot migrate the relayer's tables"),
)

// ---- rows

export interface OrderRow {
  readonly trade_hash: string
  readonly key_id: string
  readonly order_json: string
  readonly signature: string
  readonly permit_signature: string | null
  readonly deadline: number | string
  readonly token_out: string
  readonly status: string
  readonly accepted_at: number | string
  readonly claimed_by: string | null
  readonly relayer: string | null
  readonly nonce: number | string | null
  readonly amount_in: string | null
  readonly amount_out: string | null
  readonly relayer_fee: string | null
  readonly reason: string | null
}

export interface TransactionRow {
  readonly hash: string
  readonly trade_hash: string
  readonly nonce: number | string
  readonly seq: number | string
  readonly raw: string
  readonly sent_at: number | string
  readonly sent_block: number | string
  readonly block_number: number | string | null
}

/** A SQL integer as a number (Postgres answers bigint columns as text). */
export const num = (value: number | string): number => (typeof value === "number" ? value : Number(value))
export const big = (value: number | string | null): bigint | null => (value === null ? null : BigInt(value))

const encodeOrder = (order: SwapOrder): string =>
  JSON.stringify({
    ...order,
    amountIn: order.amountIn.toString(),
    amountOut: order.amountOut.toString(),
    maxRelayerFee: order.maxRelayerFee.toString(),
    nonce: order.nonce.toString(),
    deadline: order.deadline.toString(),
  })

const decodeOrder = (text: string): SwapOrder => {
  const o = JSON.parse(text) as Record<string, unknown>
  return {
    sender: getAddress(o.sender as string),
    recipient: getAddress(o.recipient as string),
    tokenIn: getAddress(o.tokenIn as string),
    tokenOut: getAddress(o.tokenOut as string),
    exactOutput: o.exactOutput as boolean,
    amountIn: BigInt(o.amountIn as string),
    amountOut: BigInt(o.amountOut as string),
    maxRelayerFee: BigInt(o.maxRelayerFee as string),
    feeBps: o.feeBps as number,
    feeRecipient: getAddress(o.feeRecipient as string),
    nonce: BigInt(o.nonce as string),
    deadline: BigInt(o.deadline as string),
  }
}

export const acceptedOf = (row: OrderRow): AcceptedOrder => ({
  tradeHash: row.trade_hash as Hex,
  keyId: row.key_id,
  order: decodeOrder(row.order_json),
  signature: row.signature as Hex,
  permitSignature: row.permit_signature as Hex | null,
})

const recordOf = (row: OrderRow, transactions: ReadonlyArray<TransactionRow>): OrderRecord => ({
  ...acceptedOf(row),
  status: row.status as OrderStatus,
  transactions: transactions.map((t) => ({ hash: t.hash as Hex, blockNumber: big(t.block_number) })),
  amountIn: big(row.amount_in),
  amountOut: big(row.amount_out),
  relayerFee: big(row.relayer_fee),
  reason: row.reason,
})

/** A deadline as the bigint column holds it: a deadline beyond 2^53 seconds never comes. */
const deadlineColumn = (deadline: bigint): number => (deadline > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(deadline))

// ---- statements

export const orderColumns = (sql: SqlClient.SqlClient) =>
  sql.literal(
    "trade_hash, key_id, order_json, signature, permit_signature, deadline, token_out, status, accepted_at, claimed_by, relayer, nonce, amount_in, amount_out, relayer_fee, reason",
  )

export const transactionsOf = (sql: SqlClient.SqlClient, tradeHash: string) =>
  sql<TransactionRow>`SELECT hash, trade_hash, nonce, seq, raw, sent_at, sent_block, block_number FROM relayer_transactions WHERE trade_hash = ${tradeHash} ORDER BY seq`

export const findOrder = (sql: SqlClient.SqlClient, tradeHash: string): Effect.Effect<OrderRecord | undefined, OrderStoreFailure> =>
  Effect.gen(function* () {
    const rows = yield* sql<OrderRow>`SELECT ${orderColumns(sql)} FROM relayer_orders WHERE trade_hash = ${tradeHash}`
    const row = rows[0]
    if (row === undefined) return undefined
    return recordOf(row, yield* transactionsOf(sql, tradeHash))
  }).pipe(Effect.mapError(storeFailure("cannot read the order")))

/** Inserts the order as pending unless its tradeHash is there; true when this call inserted it. */
export const insertOrder = (sql: SqlClient.SqlClient, accepted: AcceptedOrder, now: number): Effect.Effect<boolean, OrderStoreFailure> =>
  Effect.map(
    sql<{ trade_hash: string }>`INSERT INTO relayer_orders
        (trade_hash, key_id, order_json, signature, permit_signature, deadline, token_out, status, accepted_at, next_attempt_at)
      VALUES (${accepted.tradeHash.toLowerCase()}, ${accepted.keyId}, ${encodeOrder(accepted.order)}, ${accepted.signature}, ${accepted.permitSignature},
        ${deadlineColumn(accepted.order.deadline)}, ${getAddress(accepted.order.tokenOut)}, 'pending', ${now}, ${now})
      ON CONFLICT (trade_hash) DO NOTHING
      RETURNING trade_hash`,
    (rows) => rows.length === 1,
  ).pipe(Effect.mapError(storeFailure("cannot store the order")))

/** The database's own clause that skips rows other transactions hold (Postgres); SQLite has one writer. */
export const skipLocked = (sql: SqlClient.SqlClient) => sql.literal(sql.onDialectOrElse({ pg: () => "FOR UPDATE SKIP LOCKED", orElse: () => "" }))
/** Locks the rows read until the transaction ends (Postgres); SQLite's transaction holds the whole file. */
export const forUpdate = (sql: SqlClient.SqlClient) => sql.literal(sql.onDialectOrElse({ pg: () => "FOR UPDATE", orElse: () => "" }))
