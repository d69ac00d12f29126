// The relayer on a shared Postgres: two instances (each its own pool) with one
// relayer account, given the same 50 orders, send each exactly once, with no
// nonce used twice; the same tradeHash accepted by both is one row.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { SQL } from "bun"
import { freshSchema } from "../support/services.ts"
import { emitterPlanner, fillsOnChain, fundedRelayer, relayerNonce, signedOrder, startRelayer, startRelayerChain, waitFor, type RelayerChain } from "./relayer-chain.ts"

let chain: RelayerChain
let schema: Awaited<ReturnType<typeof freshSchema>>
beforeAll(async () => {
  chain = await startRelayerChain()
  schema = await freshSchema()
})
afterAll(async () => {
  await chain?.stop()
  await schema?.drop()
})

describe("two relayer instances on one Postgres and one account", () => {
  test("the same 50 orders, given to both, are each sent exactly once, one nonce each", async () => {
    const account = await fundedRelayer(chain)
    const settings = { privateKey: account.privateKey, pollIntervalMs: 50, claimBatch: 4 }
    const a = await startRelayer(chain, schema.databaseUrl, settings, emitterPlanner(account.address))
    const b = await startRelayer(chain, schema.databaseUrl, settings, emitterPlanner(account.address))
    try {
      const orders = await Promise.all(Array.from({ length: 50 }, (_, i) => signedOrder({ from: 1 + (i % 5) })))
      // both instances are given every order, at once
      const [fromA, fromB] = await Promise.all([
        Promise.all(orders.map((o) => a.run(a.relayer.accept(o)))),
        Promise.all(orders.map((o) => b.run(b.relayer.accept(o)))),
      ])
      expect(fromA.map((r) => r.tradeHash)).toEqual(fromB.map((r) => r.tradeHash))
      const records = await Promise.all(orders.map((o, i) => waitFor(i % 2 === 0 ? a : b, o.tradeHash, undefined, 60_000)))
      expect(records.map((r) => r.status)).toEqual(orders.map(() => "confirmed"))

      expect(await relayerNonce(chain, account.address)).toBe(50)
      const fills = await Promise.all(orders.map((o) => fillsOnChain(chain, o.tradeHash)))
      expect(fills.map((f) => f.length)).toEqual(orders.map(() => 1))
      const hashes = records.flatMap((r) => r.transactions.map((t) => t.hash))
      const mined = await Promise.all(records.map((r) => chain.client.getTransaction({ hash: r.transactions.find((t) => t.blockNumber !== null)!.hash })))
      expect(new Set(mined.map((t) => t.nonce)).size).toBe(50)
      expect(mined.every((t) => t.from.toLowerCase() === account.address.toLowerCase())).toBe(true)
      expect(hashes.length).toBe(50)

      const db = new SQL(schema.databaseUrl, { max: 1 })
      try {
        const [orderRows] = await db`SELECT COUNT(*)::int AS n FROM relayer_orders`
        const [txRows] = await db`SELECT COUNT(*)::int AS n, COUNT(DISTINCT nonce)::int AS nonces FROM relayer_transactions`
        const [nonceRow] = await db`SELECT next_nonce::int AS next FROM relayer_nonces WHERE relayer = ${account.address}`
        expect(orderRows.n).toBe(50)
        expect(txRows).toEqual({ n: 50, nonces: 50 })
        expect(nonceRow.next).toBe(50)
        // both instances sent some: the work was shared, not left to one
        const senders = await db`SELECT sent_by, COUNT(*)::int AS n FROM relayer_transactions GROUP BY sent_by`
        expect(senders.length).toBe(2)
      } finally {
        await db.close()
      }
    } finally {
      await Promise.all([a.stop(), b.stop()])
    }
  }, 120_000)
})
