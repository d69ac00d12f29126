// The relayer on a real devnet node and a real SQLite file, then Postgres: accept is idempotent,
// an order is sent, mined and settled from its OrderFilled event, plan failures
// and reverts fail it with their reason, a temporary failure is tried again, an
// order unsent by its deadline expires.
import * as SqlClient from "@effect/sql/SqlClient"
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Effect, Metric } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { OrderPlanFailure, RelayerMetrics, type OrderStatus } from "../../src/relayer/index.ts"
import { freshSchema } from "../support/services.ts"
import { EMITTER_REVERT, emitterPlanner, fillsOnChain, fundedRelayer, relayerNonce, signedOrder, startRelayer, startRelayerChain, waitFor, type RelayerChain } from "./relayer-chain.ts"
import { freePort } from "../cli/processes.ts"

let chain: RelayerChain
let dir: string
const schemas: Awaited<ReturnType<typeof freshSchema>>[] = []
beforeAll(async () => {
  chain = await startRelayerChain()
  dir = mkdtempSync(join(tmpdir(), "relayer-"))
})
afterAll(async () => {
  await chain?.stop()
  rmSync(dir, { recursive: true, force: true })
  for (const schema of schemas) await schema.drop()
})

let files = 0
const databases = {
  SQLite: async () => join(dir, `orders-${++files}.sqlite`),
  Postgres: async () => {
    const schema = await freshSchema()
    schemas.push(schema)
    return schema.databaseUrl
  },
}

describe.each(Object.keys(databases) as (keyof typeof databases)[])("the relayer on %s", (kind) => {
  const freshDatabase = databases[kind]
  test("the same order accepted twice is one row and one record", async () => {
    const account = await fundedRelayer(chain)
    // a planner that never sends: the order stays pending
    const running = await startRelayer(chain, await freshDatabase(), { privateKey: account.privateKey }, emitterPlanner(account.address, {
      fault: () => new OrderPlanFailure({ reason: "not now", permanent: false }),
    }))
    try {
      const order = await signedOrder()
      const first = await running.run(running.relayer.accept(order))
      const second = await running.run(running.relayer.accept(order))
      expect(first.status).toBe("pending")
      expect(second).toEqual(first)
      expect(first.tradeHash).toBe(order.tradeHash)
      expect(first.order).toEqual(order.order)
      expect(first.signature).toBe(order.signature)
      const rows = await running.run(Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ n: number }>`SELECT COUNT(*) AS n FROM relayer_orders`))
      expect(Number(rows[0]!.n)).toBe(1)
      expect(await running.run(running.relayer.find("0x" + "ab".repeat(32) as `0x${string}`))).toBeUndefined()
    } finally {
      await running.stop()
    }
  })

  test("an order is sent from the relayer account, mined, and confirmed with the amounts of its OrderFilled event", async () => {
    const account = await fundedRelayer(chain)
    const running = await startRelayer(chain, await freshDatabase(), { privateKey: account.privateKey }, emitterPlanner(account.address))
    try {
      expect(running.relayer.address).toBe(account.address)
      const order = await signedOrder()
      const accepted = await running.run(running.relayer.accept(order))
      expect(accepted.status === "pending" || accepted.status === "submitted").toBe(true)
      const record = await waitFor(running, order.tradeHash)
      expect(record.status).toBe("confirmed")
      expect(record.amountIn).toBe(order.order.amountIn)
      expect(record.amountOut).toBe(order.order.amountOut)
      expect(record.relayerFee).toBe(order.order.maxRelayerFee)
      expect(record.reason).toBeNull()
      expect(record.transactions.length).toBe(1)
      const [tx] = record.transactions
      const receipt = await chain.client.getTransactionReceipt({ hash: tx!.hash })
      expect(receipt.status).toBe("success")
      expect(receipt.from.toLowerCase()).toBe(account.address.toLowerCase())
      expect(tx!.blockNumber).toBe(receipt.blockNumber)
      // EIP-1559, priced over the head's base fee (the devnet's 20 gwei floor)
      const sent = await chain.client.getTransaction({ hash: tx!.hash })
      expect(sent.type).toBe("eip1559")
      expect(sent.maxFeePerGas! >= 2n * 20_000_000_000n).toBe(true)
      expect(await relayerNonce(chain, account.address)).toBe(1)
      expect((await fillsOnChain(chain, order.tradeHash)).length).toBe(1)
    } finally {
      await running.stop()
    }
  })

  test("an accepted order wakes the relayer: sent and confirmed long before its next poll", async () => {
    const account = await fundedRelayer(chain)
    // the actor's first poll runs at start; the next would be a minute later
    const running = await startRelayer(chain, await freshDatabase(), { privateKey: account.privateKey, pollIntervalMs: 60_000 }, emitterPlanner(account.address))
    try {
      await Bun.sleep(300)
      const order = await signedOrder()
      const started = performance.now()
      await running.run(running.relayer.accept(order))
      let record = await running.run(running.relayer.find(order.tradeHash))
      while (record?.status !== "confirmed" && performance.now() - started < 10_000) {
        await Bun.sleep(25)
        record = await running.run(running.relayer.find(order.tradeHash))
      }
      expect(record?.status).toBe("confirmed")
      expect(performance.now() - started).toBeLessThan(10_000)
      expect(await relayerNonce(chain, account.address)).toBe(1)
    } finally {
      await running.stop()
    }
  })

  test("the relayer's requests go through the service's endpoints: the first one down, the next one sends and follows", async () => {
    const account = await fundedRelayer(chain)
    const dead = `http://127.0.0.1:${freePort()}`
    const running = await startRelayer(chain, await freshDatabase(), { privateKey: account.privateKey }, emitterPlanner(account.address), [dead, chain.node.rpcUrl])
    try {
      const order = await signedOrder()
      await running.run(running.relayer.accept(order))
      const record = await waitFor(running, order.tradeHash)
      expect(record.status).toBe("confirmed")
      expect(await relayerNonce(chain, account.address)).toBe(1)
    } finally {
      await running.stop()
    }
  })

  test("a transaction that succeeds without the order's OrderFilled event: confirmed, amounts unknown", async () => {
    const account = await fundedRelayer(chain)
    const running = await startRelayer(chain, await freshDatabase(), { privateKey: account.privateKey }, emitterPlanner(account.address, {
      to: "0x000000000000000000000000000000000000dEaD",
    }))
    try {
      const order = await signedOrder()
      await running.run(running.relayer.accept(order))
      const record = await waitFor(running, order.tradeHash)
      expect(record.status).toBe("confirmed")
      expect([record.amountIn, record.amountOut, record.relayerFee, record.reason]).toEqual([null, null, null, null])
      expect((await chain.client.getTransactionReceipt({ hash: record.transactions[0]!.hash })).logs).toEqual([])
    } finally {
      await running.stop()
    }
  })

  test("metrics: each status entered, the time from accept to confirmation, the fee earned in tokenOut", async () => {
    const order = await signedOrder()
    const token = order.order.tokenOut
    const read = () =>
      Effect.runPromise(
        Effect.all({
          statuses: Effect.all(
            (["pending", "submitted", "confirmed"] as OrderStatus[]).map((status) =>
              Effect.map(Metric.value(Metric.tagged(RelayerMetrics.orders, "status", status)), (s) => Number(s.count))),
          ),
          confirmations: Effect.map(Metric.value(RelayerMetrics.confirmationSeconds), (s) => s.count),
          fees: Effect.map(Metric.value(Metric.tagged(RelayerMetrics.feesEarned, "token", token)), (s) => BigInt(s.count)),
          balance: Effect.map(Metric.value(RelayerMetrics.balance), (s) => BigInt(s.value)),
        }),
      )
    const account = await fundedRelayer(chain)
    const running = await startRelayer(chain, await freshDatabase(), { privateKey: account.privateKey }, emitterPlanner(account.address))
    try {
      const before = await read()
      await running.run(running.relayer.accept(order))
      expect((await waitFor(running, order.tradeHash)).status).toBe("confirmed")
      const after = await read()
      expect(after.statuses.map((n, i) => n - before.statuses[i]!)).toEqual([1, 1, 1])
      expect(after.confirmations - before.confirmations).toBe(1)
      expect(after.fees - before.fees).toBe(order.order.maxRelayerFee)
      expect(after.balance > 0n && after.balance <= 10n ** 20n).toBe(true)
    } finally {
      await running.stop()
    }
  })

  test("a permanent plan failure fails the order with its reason, a revert fails it, a temporary one is tried again", async () => {
    const account = await fundedRelayer(chain)
    const permanent = await signedOrder({ amountIn: 11n })
    const reverting = await signedOrder({ amountIn: 12n })
    const temporary = await signedOrder({ amountIn: 13n })
    const asked = new Map<string, number>()
    const running = await startRelayer(chain, await freshDatabase(), { privateKey: account.privateKey }, emitterPlanner(account.address, {
      asked,
      fault: (o) =>
        o.tradeHash === permanent.tradeHash
          ? new OrderPlanFailure({ reason: "the order cannot pay its minimum at the head", permanent: true })
          : o.tradeHash === reverting.tradeHash
            ? "revert"
            : o.tradeHash === temporary.tradeHash && (asked.get(o.tradeHash) ?? 0) <= 2
              ? new OrderPlanFailure({ reason: "no route now", permanent: false })
              : undefined,
    }))
    try {
      for (const o of [permanent, reverting, temporary]) await running.run(running.relayer.accept(o))
      const failed = await waitFor(running, permanent.tradeHash)
      expect(failed.status).toBe("failed")
      expect(failed.reason).toBe("the order cannot pay its minimum at the head")
      expect(failed.transactions).toEqual([])
      const reverted = await waitFor(running, reverting.tradeHash)
      expect(reverted.status).toBe("failed")
      expect(reverted.reason).toBe(`the transaction ${reverted.transactions[0]!.hash} reverted in block ${reverted.transactions[0]!.blockNumber}: ${EMITTER_REVERT}`)
      expect(reverted.transactions.length).toBe(1)
      expect((await chain.client.getTransactionReceipt({ hash: reverted.transactions[0]!.hash })).status).toBe("reverted")
      const retried = await waitFor(running, temporary.tradeHash)
      expect(retried.status).toBe("confirmed")
      expect(asked.get(temporary.tradeHash)).toBe(3)
      expect(asked.get(permanent.tradeHash)).toBe(1)
      // the revert and the retried order: two transactions
      expect(await relayerNonce(chain, account.address)).toBe(2)
    } finally {
      await running.stop()
    }
  })

  test("an order not sent by its deadline expires", async () => {
    const account = await fundedRelayer(chain)
    const running = await startRelayer(chain, await freshDatabase(), { privateKey: account.privateKey }, emitterPlanner(account.address, {
      fault: () => new OrderPlanFailure({ reason: "no route now", permanent: false }),
    }))
    try {
      const order = await signedOrder({ deadline: BigInt(Math.floor(Date.now() / 1000) + 2) })
      expect((await running.run(running.relayer.accept(order))).status).toBe("pending")
      const record = await waitFor(running, order.tradeHash, undefined, 6_000)
      expect(record.status).toBe("expired")
      expect(record.reason).toContain("deadline")
      expect(record.transactions).toEqual([])
      expect(await relayerNonce(chain, account.address)).toBe(0)
    } finally {
      await running.stop()
    }
  })
})
