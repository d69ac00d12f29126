// The relayer: accepts signed orders into the database, and one fiber (the
// actor) that alone sends from the relayer account of this instance. Each poll
// it expires pending orders past their deadline, follows every submitted order
// to its receipt (replacing a transaction not mined in time, re-broadcasting one
// the node lost), and, while the account holds enough USDC, claims pending
// orders, plans each at the head, signs it and records the signed transaction
// with its nonce before broadcasting it. The database is the truth: an instance
// that starts again follows what was recorded and never signs an order twice;
// instances sharing one Postgres and one account take nonces from one row, in turn.
import * as SqlClient from "@effect/sql/SqlClient"
import { Cause, Clock, Duration, Effect, Either, Layer, Metric, Queue, Redacted } from "effect"
import { getAddress, keccak256, parseTransaction, type Address, type Hex, type TransactionSerializableEIP1559 } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import type { RpcError } from "../chain/index.ts"
import { initialFees, replacementFees, type Fees } from "./fees.ts"
import { countStatus, recordConfirmation, RelayerMetrics } from "./metrics.ts"
import { RelayerNode, type Head, type Receipt } from "./node.ts"
import { findOrderFill } from "./order-filled.ts"
import { describeRevert } from "./revert-reason.ts"
import {
  acceptedOf,
  big,
  findOrder,
  forUpdate,
  insertOrder,
  migrateOrders,
  num,
  orderColumns,
  skipLocked,
  storeFailure,
  transactionsOf,
  type OrderRow,
  type TransactionRow,
} from "./order-table.ts"
import { OrderPlanner, OrderStoreFailure, Relayer, RelayerUnavailable, type AcceptedOrder, type OrderRecord, type PlannedOrder } from "./orders.ts"

export interface RelayerSettings {
  /** the relayer account's key (RELAYER_PRIVATE_KEY) */
  readonly privateKey: Hex | Redacted.Redacted<string>
  /** how often the actor looks at the chain and the database, ms (default 1000) */
  readonly pollIntervalMs?: number
  /** how often orders in flight are looked at, ms (default 200, at most pollIntervalMs); a new order wakes the actor at once */
  readonly followIntervalMs?: number
  /** a transaction not mined after this many blocks is replaced (default 3) */
  readonly replaceAfterBlocks?: number
  /** … or after this long, ms, whichever comes first: a devnet mines only on demand (default 30000) */
  readonly replaceAfterMs?: number
  /** below this balance (wei of native USDC) the relayer is unavailable; default: minimumOrders orders of gasPerOrder at twice the base fee */
  readonly minimumBalance?: bigint
  /** default 10 */
  readonly minimumOrders?: number
  /** default 500000 */
  readonly gasPerOrder?: bigint
  /** what RelayerUnavailable asks a client to wait, seconds (default 30) */
  readonly retryAfterSeconds?: number
  /** how long an instance holds an order it claimed before another may take it, ms (default 30000) */
  readonly claimLeaseMs?: number
  /** orders claimed per poll (default 16) */
  readonly claimBatch?: number
  /** no replacement prices gas above this max fee per gas, wei (default: no ceiling) */
  readonly maxFeePerGasCeiling?: bigint
  /** how long accept and find wait for the database, ms (default 2000): a store that does not answer is an OrderStoreFailure */
  readonly queryTimeoutMs?: number
  /** the first send's max fee as a percent of the head's base fee, plus the tip (default 200); below 100 only to test replacement */
  readonly baseFeePercent?: number
}

const keyOf = (key: RelayerSettings["privateKey"]): Hex => (typeof key === "string" ? key : (Redacted.value(key) as Hex))

/** The relayer over the process's database (SqlClient), the chain (RelayerNode) and the request programs (OrderPlanner). */
export const RelayerLive = (settings: RelayerSettings): Layer.Layer<Relayer, OrderStoreFailure | RpcError, SqlClient.SqlClient | RelayerNode | OrderPlanner> =>
  Layer.scoped(Relayer, makeRelayer(settings))

export const makeRelayer = (settings: RelayerSettings) =>
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const node = yield* RelayerNode
    const planner = yield* OrderPlanner
    const account = privateKeyToAccount(keyOf(settings.privateKey))
    const address = account.address
    const pollMs = settings.pollIntervalMs ?? 1_000
    const followMs = settings.followIntervalMs ?? 200
    const replaceAfterBlocks = BigInt(settings.replaceAfterBlocks ?? 3)
    const replaceAfterMs = settings.replaceAfterMs ?? 30_000
    const retryAfterSeconds = settings.retryAfterSeconds ?? 30
    const leaseMs = settings.claimLeaseMs ?? 30_000
    const batch = settings.claimBatch ?? 16
    // this instance's claims; a new one after a restart, whose old claims lapse with their lease
    const me = `${address}:${crypto.randomUUID()}`

    yield* migrateOrders.pipe(Effect.provideService(SqlClient.SqlClient, sql))
    // the account's first nonce: what the chain has seen of it; raised later when the chain is ahead
    const startNonce = yield* node.nonce(address, "pending")
    yield* Effect.mapError(
      sql`INSERT INTO relayer_nonces (relayer, next_nonce) VALUES (${address}, ${Number(startNonce)}) ON CONFLICT (relayer) DO NOTHING`,
      storeFailure("cannot store the relayer's nonce"),
    )

    // ---- the balance watch

    const balanceCheck: Effect.Effect<void, RelayerUnavailable> = Effect.gen(function* () {
      const [head, balance] = yield* Effect.all([node.head, node.balance(address)], { concurrency: 2 })
      yield* Metric.set(RelayerMetrics.balance, balance)
      const minimum = settings.minimumBalance ?? BigInt(settings.minimumOrders ?? 10) * (settings.gasPerOrder ?? 500_000n) * head.baseFeePerGas * 2n
      if (balance < minimum) {
        return yield* new RelayerUnavailable({
          reason: `the relayer ${address} is short of USDC: it holds ${balance} wei, needs at least ${minimum} wei to send orders`,
          retryAfterSeconds,
        })
      }
    }).pipe(
      Effect.catchTag("RpcError", (e) =>
        Effect.fail(new RelayerUnavailable({ reason: `the relayer cannot reach the chain: ${e.message}`, retryAfterSeconds: Math.min(retryAfterSeconds, 5) }))),
    )
    const readiness = yield* Effect.cachedWithTTL(balanceCheck, Duration.millis(pollMs))

    // ---- signing and broadcasting

    const sign = (tx: { to: Address; data: Hex; gas: bigint; nonce: bigint; fees: Fees }) =>
      Effect.promise(() =>
        account.signTransaction({
          type: "eip1559",
          chainId: node.chainId,
          nonce: Number(tx.nonce),
          to: tx.to,
          data: tx.data,
          gas: tx.gas,
          value: 0n,
          maxFeePerGas: tx.fees.maxFeePerGas,
          maxPriorityFeePerGas: tx.fees.maxPriorityFeePerGas,
        } satisfies TransactionSerializableEIP1559),
      ).pipe(Effect.map((raw) => ({ raw, hash: keccak256(raw) })))

    // a refusal (already known, nonce mined, underpriced) is for the follower to judge from the chain
    const broadcast = (raw: Hex, hash: Hex, tradeHash: string, refusal: "warning" | "debug" = "warning") =>
      Effect.catchAll(Effect.asVoid(node.send(raw)), (e) =>
        (refusal === "warning" ? Effect.logWarning : Effect.logDebug)("relayer: the node refused a transaction").pipe(
          Effect.annotateLogs({ tradeHash, hash, error: e.message })))

    // ---- transitions

    const expire = (now: number) =>
      Effect.flatMap(
        sql<{ trade_hash: string }>`UPDATE relayer_orders SET status = 'expired', reason = 'the deadline passed before the order was sent',
            finished_at = ${now}, claimed_by = NULL
          WHERE status = 'pending' AND deadline <= ${Math.floor(now / 1000)} RETURNING trade_hash`,
        (rows) => countStatus("expired", rows.length),
      )

    const failPending = (tradeHash: string, reason: string, now: number) =>
      Effect.flatMap(
        sql<{ trade_hash: string }>`UPDATE relayer_orders SET status = 'failed', reason = ${reason}, finished_at = ${now}, claimed_by = NULL
          WHERE trade_hash = ${tradeHash} AND status = 'pending' AND claimed_by = ${me} RETURNING trade_hash`,
        (rows) => countStatus("failed", rows.length),
      )

    const retryLater = (tradeHash: string, now: number) =>
      sql`UPDATE relayer_orders SET next_attempt_at = ${now + pollMs}, claimed_by = NULL
        WHERE trade_hash = ${tradeHash} AND status = 'pending' AND claimed_by = ${me}`

    /** Records the signed transaction of a claimed order, then broadcasts it. */
    const send = (accepted: AcceptedOrder, planned: PlannedOrder) =>
      Effect.gen(function* () {
        const [head, tip, chainNonce] = yield* Effect.all([node.head, node.tip, node.nonce(address, "pending")], { concurrency: 3 })
        const now = yield* Clock.currentTimeMillis
        const fees = initialFees(head.baseFeePerGas, tip, settings.baseFeePercent)
        const signed = yield* sql.withTransaction(
          Effect.gen(function* () {
            const nonces = yield* sql<{ next_nonce: number | string }>`SELECT next_nonce FROM relayer_nonces WHERE relayer = ${address} ${forUpdate(sql)}`
            const rows = yield* sql<{ status: string; claimed_by: string | null; deadline: number | string }>`SELECT status, claimed_by, deadline
              FROM relayer_orders WHERE trade_hash = ${accepted.tradeHash} ${forUpdate(sql)}`
            const row = rows[0]
            // expired, or claimed by another instance after this one's lease lapsed: not this instance's to send
            if (row === undefined || row.status !== "pending" || row.claimed_by !== me || num(row.deadline) <= Math.floor(now / 1000)) return undefined
            const stored = BigInt(nonces[0]!.next_nonce)
            const nonce = stored > chainNonce ? stored : chainNonce
            const tx = yield* sign({ to: planned.to, data: planned.data, gas: planned.gas, nonce, fees })
            yield* sql`INSERT INTO relayer_transactions (hash, trade_hash, relayer, nonce, seq, raw, sent_by, sent_at, sent_block, block_number)
              VALUES (${tx.hash}, ${accepted.tradeHash}, ${address}, ${Number(nonce)}, 0, ${tx.raw}, ${me}, ${now}, ${Number(head.number)}, NULL)`
            yield* sql`UPDATE relayer_orders SET status = 'submitted', relayer = ${address}, nonce = ${Number(nonce)}, claimed_by = NULL
              WHERE trade_hash = ${accepted.tradeHash}`
            yield* sql`UPDATE relayer_nonces SET next_nonce = ${Number(nonce + 1n)} WHERE relayer = ${address}`
            return { ...tx, nonce }
          }),
        )
        if (signed === undefined) return
        yield* countStatus("submitted")
        yield* Effect.logInfo("relayer: order sent").pipe(Effect.annotateLogs({ tradeHash: accepted.tradeHash, hash: signed.hash, nonce: signed.nonce.toString() }))
        yield* broadcast(signed.raw, signed.hash, accepted.tradeHash)
      })

    /** Claims pending orders (each by one instance), plans, and sends each. */
    const claimAndSend = Effect.gen(function* () {
      const now = yield* Clock.currentTimeMillis
      const claimed = yield* sql.withTransaction(
        sql<OrderRow>`UPDATE relayer_orders SET claimed_by = ${me}, claim_until = ${now + leaseMs}
          WHERE trade_hash IN (
            SELECT trade_hash FROM relayer_orders
            WHERE status = 'pending' AND next_attempt_at <= ${now} AND (claimed_by IS NULL OR claim_until < ${now})
            ORDER BY accepted_at LIMIT ${batch} ${skipLocked(sql)})
          RETURNING ${orderColumns(sql)}`,
      )
      const ordered = [...claimed].sort((a, b) => num(a.accepted_at) - num(b.accepted_at))
      for (const row of ordered) {
        const accepted = acceptedOf(row)
        yield* Effect.gen(function* () {
          const planned = yield* Effect.either(planner.plan(accepted))
          const at = yield* Clock.currentTimeMillis
          if (Either.isRight(planned)) {
            yield* send(accepted, planned.right)
          } else if (planned.left.permanent) {
            yield* failPending(accepted.tradeHash, planned.left.reason, at)
          } else {
            yield* Effect.logDebug("relayer: the order cannot be planned now; tried again on the next poll").pipe(
              Effect.annotateLogs({ tradeHash: accepted.tradeHash, reason: planned.left.reason }))
            yield* retryLater(accepted.tradeHash, at)
          }
        }).pipe(
          // the chain or the database failed before the order was recorded as sent: given back, tried on the next poll
          Effect.catchAllCause((cause) =>
            Cause.isInterruptedOnly(cause)
              ? Effect.failCause(cause)
              : Effect.zipRight(
                  Effect.logWarning("relayer: an order could not be sent; tried again on the next poll", cause).pipe(Effect.annotateLogs({ tradeHash: accepted.tradeHash })),
                  Effect.ignore(Effect.flatMap(Clock.currentTimeMillis, (at) => retryLater(accepted.tradeHash, at))),
                )),
        )
      }
      return claimed.length > 0
    })

    // ---- following submitted orders

    const settle = (row: OrderRow, tx: TransactionRow, receipt: Receipt, now: number) =>
      Effect.gen(function* () {
        const called = parseTransaction(tx.raw as Hex).to
        // the transfer to itself that freed the nonce of an order past its deadline: the order never ran
        const cancelled = called != null && row.relayer !== null && getAddress(called) === getAddress(row.relayer)
        const fill = receipt.success && called != null && !cancelled ? findOrderFill(receipt.logs, row.trade_hash as Hex, called) : undefined
        if (receipt.success && fill === undefined && !cancelled) {
          yield* Effect.logWarning("relayer: the order's transaction succeeded without an OrderFilled event").pipe(
            Effect.annotateLogs({ tradeHash: row.trade_hash, hash: tx.hash }))
        }
        const status = cancelled ? "expired" : receipt.success ? "confirmed" : "failed"
        const reason = cancelled
          ? `the deadline passed before the order's transaction was mined; ${tx.hash}, a transfer of nothing to the relayer itself, took its nonce in block ${receipt.blockNumber}`
          : receipt.success
            ? null
            : `the transaction ${tx.hash} reverted in block ${receipt.blockNumber}${yield* revertReason(tx, getAddress(row.relayer ?? address), receipt.blockNumber)}`
        const settled = yield* sql.withTransaction(
          Effect.zipLeft(
            sql<{ accepted_at: number | string }>`UPDATE relayer_orders SET status = ${status}, reason = ${reason}, finished_at = ${now},
                amount_in = ${fill?.amountIn.toString() ?? null}, amount_out = ${fill?.amountOut.toString() ?? null}, relayer_fee = ${fill?.relayerFee.toString() ?? null}
              WHERE trade_hash = ${row.trade_hash} AND status = 'submitted' RETURNING accepted_at`,
            sql`UPDATE relayer_transactions SET block_number = ${Number(receipt.blockNumber)} WHERE hash = ${tx.hash}`,
          ),
        )
        if (settled.length === 0) return
        yield* countStatus(status)
        if (status === "confirmed") yield* recordConfirmation((now - num(settled[0]!.accepted_at)) / 1000, getAddress(row.token_out), fill?.relayerFee ?? null)
      })

    /** Why a mined transaction reverted, as its call replayed on the parent block says (": <reason>"), or "" when it cannot say. */
    const revertReason = (tx: TransactionRow, from: Address, blockNumber: bigint) => {
      const sent = parseTransaction(tx.raw as Hex)
      return node.revertData({ from, to: sent.to!, data: sent.data ?? "0x", gas: sent.gas! }, blockNumber - 1n).pipe(
        Effect.map((data) => {
          const why = data === undefined ? undefined : describeRevert(data)
          return why === undefined ? "" : `: ${why}`
        }),
        Effect.orElseSucceed(() => ""),
      )
    }

    /**
     * A transaction not mined in time, replaced at its nonce with higher fees: by the same call, or, once
     * the head is at the order's deadline (no later block may execute it), by a transfer of nothing to the
     * relayer itself, which frees the nonce for 21,000 gas instead of a revert's.
     */
    const replace = (row: OrderRow, last: TransactionRow, head: Head) =>
      Effect.gen(function* () {
        const previous = parseTransaction(last.raw as Hex)
        const cancel = head.timestamp >= BigInt(row.deadline)
        const call = cancel ? { to: address, data: "0x" as Hex, gas: 21_000n } : { to: previous.to!, data: previous.data ?? "0x", gas: previous.gas! }
        const tip = yield* node.tip
        const fees = replacementFees(
          { maxFeePerGas: previous.maxFeePerGas ?? 0n, maxPriorityFeePerGas: previous.maxPriorityFeePerGas ?? 0n },
          head.baseFeePerGas,
          tip,
        )
        if (settings.maxFeePerGasCeiling !== undefined && fees.maxFeePerGas > settings.maxFeePerGasCeiling) {
          yield* Effect.logDebug("relayer: a transaction not mined in time is not replaced: its fees would pass the ceiling").pipe(
            Effect.annotateLogs({ tradeHash: row.trade_hash, hash: last.hash, maxFeePerGas: fees.maxFeePerGas.toString() }))
          return
        }
        const now = yield* Clock.currentTimeMillis
        const signed = yield* sql.withTransaction(
          Effect.gen(function* () {
            const rows = yield* sql<{ status: string }>`SELECT status FROM relayer_orders WHERE trade_hash = ${row.trade_hash} ${forUpdate(sql)}`
            const seqs = yield* sql<{ seq: number | string | null }>`SELECT MAX(seq) AS seq FROM relayer_transactions WHERE trade_hash = ${row.trade_hash}`
            // settled meanwhile, or replaced by another instance
            if (rows[0]?.status !== "submitted" || seqs[0]?.seq === null || num(seqs[0]!.seq!) !== num(last.seq)) return undefined
            const tx = yield* sign({ ...call, nonce: BigInt(previous.nonce!), fees })
            yield* sql`INSERT INTO relayer_transactions (hash, trade_hash, relayer, nonce, seq, raw, sent_by, sent_at, sent_block, block_number)
              VALUES (${tx.hash}, ${row.trade_hash}, ${address}, ${num(last.nonce)}, ${num(last.seq) + 1}, ${tx.raw}, ${me}, ${now}, ${Number(head.number)}, NULL)`
            return tx
          }),
        )
        if (signed === undefined) return
        yield* Effect.logInfo(cancel ? "relayer: a transaction not mined by the order's deadline is replaced by a transfer to itself" : "relayer: a transaction not mined in time is replaced").pipe(
          Effect.annotateLogs({ tradeHash: row.trade_hash, replaced: last.hash, hash: signed.hash, maxFeePerGas: fees.maxFeePerGas.toString() }))
        yield* broadcast(signed.raw, signed.hash, row.trade_hash)
      })

    /**
     * Every submitted order, of this instance's relayer address or of a former one (a key changed, or
     * another instance's): its receipts, a nonce another transaction took, and for this address's own,
     * a replacement or the recorded bytes again. A former address's order is followed without its key:
     * its recorded bytes sent again while the node has lost them, and, unmined at its deadline, expired.
     */
    const follow = Effect.gen(function* () {
      const submitted = yield* sql<OrderRow>`SELECT ${orderColumns(sql)} FROM relayer_orders
        WHERE status = 'submitted' ORDER BY relayer, nonce`
      if (submitted.length === 0) return false
      // read before the receipts: a nonce mined by then whose transactions have no receipt was used by another;
      // a head at an order's deadline then means no later block may execute it
      const accounts = [...new Set(submitted.map((row) => getAddress(row.relayer!)))]
      const minedOf = new Map(yield* Effect.forEach(accounts, (account) => Effect.map(node.nonce(account, "latest"), (n) => [account, n] as const), { concurrency: 4 }))
      const head = yield* node.head
      for (const row of submitted) {
        const txs = yield* transactionsOf(sql, row.trade_hash)
        if (txs.length === 0) continue
        const receipts = yield* Effect.forEach(txs, (tx) => Effect.map(node.receipt(tx.hash as Hex), (receipt) => ({ tx, receipt })), { concurrency: 4 })
        const found = receipts.find((r) => r.receipt !== undefined)
        const now = yield* Clock.currentTimeMillis
        if (found !== undefined) {
          yield* settle(row, found.tx, found.receipt!, now)
          continue
        }
        const account = getAddress(row.relayer!)
        if (minedOf.get(account)! > big(row.nonce)!) {
          // another transaction of the account took the nonce: none of the order's can be mined now, so
          // it was never executed; it waits again, pending, for a new nonce
          const requeued = yield* sql<{ trade_hash: string }>`UPDATE relayer_orders
            SET status = 'pending', relayer = NULL, nonce = NULL, next_attempt_at = ${now}, claimed_by = NULL
            WHERE trade_hash = ${row.trade_hash} AND status = 'submitted' RETURNING trade_hash`
          if (requeued.length > 0) {
            yield* countStatus("pending")
            yield* Effect.logWarning("relayer: another transaction of the relayer account used the order's nonce; the order is sent again").pipe(
              Effect.annotateLogs({ tradeHash: row.trade_hash, nonce: String(row.nonce) }))
          }
          continue
        }
        const last = txs.at(-1)!
        if (account !== address) {
          if (head.timestamp >= BigInt(row.deadline)) {
            const expired = yield* sql<{ trade_hash: string }>`UPDATE relayer_orders SET status = 'expired', finished_at = ${now},
                reason = ${`the deadline passed before the order's transaction from the former relayer address ${account} was mined`}
              WHERE trade_hash = ${row.trade_hash} AND status = 'submitted' RETURNING trade_hash`
            yield* countStatus("expired", expired.length)
          } else if (!(yield* node.knows(last.hash as Hex))) {
            // without the key nothing better can be sent: tried again on every look, a refusal logged in debug only
            yield* broadcast(last.raw as Hex, last.hash as Hex, row.trade_hash, "debug")
          }
          continue
        }
        if (head.number - BigInt(last.sent_block) >= replaceAfterBlocks || now - num(last.sent_at) >= replaceAfterMs) {
          yield* replace(row, last, head)
        } else if (!(yield* node.knows(last.hash as Hex))) {
          // lost by the node, or recorded by an instance that stopped before broadcasting: the very same bytes again
          yield* broadcast(last.raw as Hex, last.hash as Hex, row.trade_hash)
        }
      }
      return true
    })

    // ---- the actor

    /** One round: expiries, the orders in flight, new orders; whether any order is in flight or was sent. */
    const tick = Effect.gen(function* () {
      yield* expire(yield* Clock.currentTimeMillis)
      const following = yield* follow
      const sent = Either.isRight(yield* Effect.either(balanceCheck)) ? yield* claimAndSend : false
      return following || sent
    }).pipe(
      Effect.catchAllCause((cause) => Effect.as(Effect.logWarning("relayer: a poll failed; tried again on the next one", cause), false)),
    )
    // an accepted order wakes the actor at once; while orders are in flight it looks again sooner
    const wake = yield* Queue.sliding<void>(1)
    const pause = (busy: boolean) => Effect.race(Effect.sleep(Duration.millis(busy ? Math.min(pollMs, followMs) : pollMs)), Queue.take(wake))
    // claims of orders this instance has not sent are given back when it stops, once the actor has
    // stopped (finalizers run last to first)
    yield* Effect.addFinalizer(() =>
      Effect.ignore(sql`UPDATE relayer_orders SET claimed_by = NULL WHERE claimed_by = ${me} AND status = 'pending'`))
    yield* Effect.forkScoped(Effect.forever(Effect.flatMap(tick, pause)))

    const queryTimeoutMs = settings.queryTimeoutMs ?? 2_000
    const bounded = <A, E>(what: string, self: Effect.Effect<A, E>): Effect.Effect<A, E | OrderStoreFailure> =>
      // disconnected: the answer does not wait for the stuck query to be cancelled
      Effect.timeoutFail(Effect.disconnect(self), {
        duration: Duration.millis(queryTimeoutMs),
        onTimeout: () => new OrderStoreFailure({ message: `${what}: the order store did not answer within ${queryTimeoutMs} ms` }),
      })
    const find = (tradeHash: Hex): Effect.Effect<OrderRecord | undefined, OrderStoreFailure> => bounded("cannot read the order", findOrder(sql, tradeHash.toLowerCase()))
    return Relayer.of({
      address,
      accept: (order) =>
        bounded("cannot store the order", Effect.gen(function* () {
          const tradeHash = order.tradeHash.toLowerCase() as Hex
          const existing = yield* findOrder(sql, tradeHash)
          if (existing !== undefined) return existing
          yield* readiness
          const inserted = yield* insertOrder(sql, { ...order, tradeHash }, yield* Clock.currentTimeMillis)
          if (inserted) yield* Effect.zipRight(countStatus("pending"), Queue.offer(wake, undefined))
          const record = yield* findOrder(sql, tradeHash)
          return record!
        })),
      find,
      readiness,
    })
  })
