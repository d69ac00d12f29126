// The relayer's promises when things go wrong, on a real devnet node and SQLite:
// a relayer stopped before it saw the receipt, or before its broadcast reached
// the node, is followed by the next one to the end with the very transaction it
// recorded (one transaction on chain); a transaction not mined in time, or priced
// below the base fee, is replaced at the same nonce and the order confirmed; a
// relayer short of USDC is unavailable, sends nothing, and sends what waited once funded.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Database } from "bun:sqlite"
import { Effect, Either } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { parseTransaction } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { OrderPlanFailure } from "../../src/relayer/index.ts"
import { freshSchema } from "../support/services.ts"
import { emitterPlanner, fillsOnChain, fundedRelayer, relayerNonce, signedOrder, startRelayer, startRelayerChain, waitFor, type RelayerChain } from "./relayer-chain.ts"

let chain: RelayerChain
let dir: string
beforeAll(async () => {
  chain = await startRelayerChain()
  dir = mkdtempSync(join(tmpdir(), "relayer-"))
})
afterAll(async () => {
  await chain?.client.setAutomine(true).catch(() => undefined)
  await chain?.stop()
  rmSync(dir, { recursive: true, force: true })
  for (const schema of schemas) await schema.drop()
})

let files = 0
const schemas: Awaited<ReturnType<typeof freshSchema>>[] = []
const databases = {
  SQLite: async () => join(dir, `orders-${++files}.sqlite`),
  Postgres: async () => {
    const schema = await freshSchema()
    schemas.push(schema)
    return schema.databaseUrl
  },
}
const freshDatabase = databases.SQLite
const SUBMITTED = new Set(["submitted"])

interface Call {
  readonly id: unknown
  readonly method: string
}

/** A relay to the node; refusing every eth_sendRawTransaction when asked: what a crash between recording and broadcasting leaves. */
const relayTo = (target: string, options: { readonly refuseSends: boolean }) => {
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: async (request) => {
      const body = await request.text()
      const parsed = JSON.parse(body) as Call | Call[]
      // a request alone or in a batch: each call refused or answered by the node
      const answer = async (call: Call) => {
        if (options.refuseSends && call.method === "eth_sendRawTransaction") return { jsonrpc: "2.0", id: call.id, error: { code: -32000, message: "refused by the test relay" } }
        const res = await fetch(target, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(call) })
        return res.json()
      }
      return Response.json(Array.isArray(parsed) ? await Promise.all(parsed.map(answer)) : await answer(parsed))
    },
  })
  return { url: `http://127.0.0.1:${server.port}`, stop: () => server.stop(true) }
}

describe.each(Object.keys(databases) as (keyof typeof databases)[])("a relayer that stops (%s)", (kind) => {
  const freshDatabase = databases[kind]
  test("stopped before the receipt: the next relayer on the database confirms the order, one transaction on chain", async () => {
    const account = await fundedRelayer(chain)
    const database = await freshDatabase()
    await chain.client.setAutomine(false)
    const first = await startRelayer(chain, database, { privateKey: account.privateKey }, emitterPlanner(account.address))
    const order = await signedOrder()
    let hash: `0x${string}`
    try {
      await first.run(first.relayer.accept(order))
      const submitted = await waitFor(first, order.tradeHash, SUBMITTED)
      hash = submitted.transactions[0]!.hash
      // broadcast: the node holds it, unmined
      for (let i = 0; i < 100 && (await chain.client.getTransaction({ hash }).catch(() => undefined)) === undefined; i++) await Bun.sleep(20)
    } finally {
      await first.stop()
    }
    try {
      await chain.client.mine({ blocks: 1 })
    } finally {
      await chain.client.setAutomine(true)
    }
    const second = await startRelayer(chain, database, { privateKey: account.privateKey }, emitterPlanner(account.address))
    try {
      const record = await waitFor(second, order.tradeHash)
      expect(record.status).toBe("confirmed")
      expect(record.transactions.map((t) => t.hash)).toEqual([hash!])
      expect(record.amountOut).toBe(order.order.amountOut)
      expect(await relayerNonce(chain, account.address)).toBe(1)
      expect((await fillsOnChain(chain, order.tradeHash)).length).toBe(1)
      // a new order takes the next nonce
      const next = await signedOrder()
      await second.run(second.relayer.accept(next))
      const sent = await waitFor(second, next.tradeHash)
      expect(sent.status).toBe("confirmed")
      expect((await chain.client.getTransaction({ hash: sent.transactions[0]!.hash })).nonce).toBe(1)
      expect(await relayerNonce(chain, account.address)).toBe(2)
    } finally {
      await second.stop()
    }
  })

  test("stopped while planning: its claim is given back and the next relayer sends the order at once", async () => {
    const account = await fundedRelayer(chain)
    const database = await freshDatabase()
    const order = await signedOrder()
    const asked = new Map<string, number>()
    const first = await startRelayer(chain, database, { privateKey: account.privateKey }, emitterPlanner(account.address, { asked, delayMs: 60_000 }))
    try {
      await first.run(first.relayer.accept(order))
      while ((asked.get(order.tradeHash) ?? 0) === 0) await Bun.sleep(20)
    } finally {
      await first.stop()
    }
    const stoppedAt = Date.now()
    const second = await startRelayer(chain, database, { privateKey: account.privateKey, claimLeaseMs: 60_000 }, emitterPlanner(account.address))
    try {
      expect((await waitFor(second, order.tradeHash, undefined, 10_000)).status).toBe("confirmed")
      expect(Date.now() - stoppedAt).toBeLessThan(10_000)
      expect(await relayerNonce(chain, account.address)).toBe(1)
    } finally {
      await second.stop()
    }
  })

  test("stopped after recording, before the node had the transaction: the next relayer broadcasts the very bytes recorded", async () => {
    const account = await fundedRelayer(chain)
    const database = await freshDatabase()
    const relay = relayTo(chain.node.rpcUrl, { refuseSends: true })
    const order = await signedOrder()
    const first = await startRelayer(chain, database, { privateKey: account.privateKey }, emitterPlanner(account.address), relay.url)
    let recorded: `0x${string}`
    try {
      await first.run(first.relayer.accept(order))
      recorded = (await waitFor(first, order.tradeHash, SUBMITTED)).transactions[0]!.hash
      await Bun.sleep(300)
    } finally {
      await first.stop()
      await relay.stop()
    }
    expect(await relayerNonce(chain, account.address)).toBe(0)
    expect(await chain.client.getTransaction({ hash: recorded! }).catch(() => undefined)).toBeUndefined()
    const second = await startRelayer(chain, database, { privateKey: account.privateKey }, emitterPlanner(account.address))
    try {
      const record = await waitFor(second, order.tradeHash)
      expect(record.status).toBe("confirmed")
      expect(record.transactions.map((t) => t.hash)).toEqual([recorded!])
      expect(await relayerNonce(chain, account.address)).toBe(1)
      expect((await fillsOnChain(chain, order.tradeHash)).length).toBe(1)
    } finally {
      await second.stop()
    }
  })
})

describe("replacement", () => {
  test("a transaction not mined in time is replaced at its nonce with higher fees; the one mined decides", async () => {
    const account = await fundedRelayer(chain)
    await chain.client.setAutomine(false)
    const running = await startRelayer(chain, await freshDatabase(), { privateKey: account.privateKey, replaceAfterMs: 800, replaceAfterBlocks: 100 }, emitterPlanner(account.address))
    const order = await signedOrder()
    try {
      await running.run(running.relayer.accept(order))
      await waitFor(running, order.tradeHash, SUBMITTED)
      // wait for the replacement, then mine
      for (let i = 0; i < 100; i++) {
        if (((await running.run(running.relayer.find(order.tradeHash)))?.transactions.length ?? 0) >= 2) break
        await Bun.sleep(50)
      }
      await chain.client.mine({ blocks: 1 })
    } finally {
      await chain.client.setAutomine(true)
    }
    try {
      const record = await waitFor(running, order.tradeHash)
      expect(record.status).toBe("confirmed")
      expect(record.transactions.length).toBeGreaterThanOrEqual(2)
      const [original, replacement] = await Promise.all(record.transactions.slice(0, 2).map((t) => chain.client.getTransaction({ hash: t.hash }).catch(() => undefined)))
      expect(replacement?.nonce).toBe(0)
      // mined: the replacement (the original was dropped from the pool by it)
      expect(record.transactions[1]!.blockNumber).not.toBeNull()
      expect(record.transactions[0]!.blockNumber).toBeNull()
      expect(original).toBeUndefined()
      expect(await relayerNonce(chain, account.address)).toBe(1)
      expect((await fillsOnChain(chain, order.tradeHash)).length).toBe(1)
    } finally {
      await running.stop()
    }
  })

  test("counted in blocks too: a transaction not mined after N blocks is replaced", async () => {
    const account = await fundedRelayer(chain)
    const running = await startRelayer(
      chain,
      await freshDatabase(),
      { privateKey: account.privateKey, baseFeePercent: 10, replaceAfterBlocks: 2, replaceAfterMs: 600_000 },
      emitterPlanner(account.address),
    )
    const order = await signedOrder()
    try {
      await running.run(running.relayer.accept(order))
      await waitFor(running, order.tradeHash, SUBMITTED)
      await Bun.sleep(500)
      // no block, no replacement
      expect((await running.run(running.relayer.find(order.tradeHash)))!.transactions.length).toBe(1)
      await chain.client.mine({ blocks: 2 })
      const record = await waitFor(running, order.tradeHash)
      expect(record.status).toBe("confirmed")
      expect(record.transactions.length).toBe(2)
      expect(await relayerNonce(chain, account.address)).toBe(1)
    } finally {
      await running.stop()
    }
  })

  test("no replacement above the fee ceiling", async () => {
    const account = await fundedRelayer(chain)
    const running = await startRelayer(
      chain,
      await freshDatabase(),
      { privateKey: account.privateKey, baseFeePercent: 10, replaceAfterMs: 100, maxFeePerGasCeiling: 10_000_000_000n },
      emitterPlanner(account.address),
    )
    const order = await signedOrder()
    try {
      await running.run(running.relayer.accept(order))
      await waitFor(running, order.tradeHash, SUBMITTED)
      await Bun.sleep(800)
      const record = (await running.run(running.relayer.find(order.tradeHash)))!
      expect(record.status).toBe("submitted")
      expect(record.transactions.length).toBe(1)
      expect(await relayerNonce(chain, account.address)).toBe(0)
    } finally {
      await running.stop()
    }
  })

  test("a nonce taken by another transaction of the account: the order waits again and is sent at the next nonce, once", async () => {
    const account = await fundedRelayer(chain)
    await chain.client.setAutomine(false)
    const running = await startRelayer(chain, await freshDatabase(), { privateKey: account.privateKey }, emitterPlanner(account.address))
    const order = await signedOrder()
    try {
      let first: `0x${string}`
      try {
        await running.run(running.relayer.accept(order))
        first = (await waitFor(running, order.tradeHash, SUBMITTED)).transactions[0]!.hash
        const sent = await chain.client.getTransaction({ hash: first })
        // the same key, elsewhere: a transfer at the order's nonce, priced higher, replaces it in the pool
        const signer = privateKeyToAccount(account.privateKey)
        const raw = await signer.signTransaction({
          type: "eip1559",
          chainId: chain.client.chain.id,
          nonce: sent.nonce,
          to: signer.address,
          value: 1n,
          gas: 21_000n,
          maxFeePerGas: sent.maxFeePerGas! * 2n,
          maxPriorityFeePerGas: sent.maxPriorityFeePerGas! * 2n,
        })
        await chain.client.sendRawTransaction({ serializedTransaction: raw })
        await chain.client.mine({ blocks: 1 })
      } finally {
        await chain.client.setAutomine(true)
      }
      const record = await waitFor(running, order.tradeHash)
      expect(record.status).toBe("confirmed")
      expect(record.transactions.length).toBe(2)
      expect(record.transactions[0]).toEqual({ hash: first!, blockNumber: null })
      expect((await chain.client.getTransaction({ hash: record.transactions[1]!.hash })).nonce).toBe(1)
      expect(await relayerNonce(chain, account.address)).toBe(2)
      expect((await fillsOnChain(chain, order.tradeHash)).length).toBe(1)
    } finally {
      await running.stop()
    }
  })

  test("a transaction not mined by the order's deadline is replaced by a transfer of nothing to the relayer itself: the order expires unexecuted, the nonce freed", async () => {
    const account = await fundedRelayer(chain)
    const running = await startRelayer(
      chain,
      await freshDatabase(),
      // priced below the base fee: not mined until replaced; replaced after one block
      { privateKey: account.privateKey, baseFeePercent: 10, replaceAfterBlocks: 1, replaceAfterMs: 600_000 },
      emitterPlanner(account.address),
    )
    const latest = await chain.client.getBlock()
    const deadline = (latest.timestamp > BigInt(Math.floor(Date.now() / 1000)) ? latest.timestamp : BigInt(Math.floor(Date.now() / 1000))) + 30n
    const order = await signedOrder({ deadline })
    const balanceBefore = await chain.client.getBalance({ address: account.address })
    try {
      await running.run(running.relayer.accept(order))
      await waitFor(running, order.tradeHash, SUBMITTED)
      // a block at the deadline: no later block may execute the order
      await chain.client.setNextBlockTimestamp({ timestamp: deadline })
      await chain.client.mine({ blocks: 1 })
      const record = await waitFor(running, order.tradeHash)
      expect(record.status).toBe("expired")
      expect(record.reason).toContain("the deadline passed before the order's transaction was mined")
      expect(record.amountOut).toBeNull()
      expect(record.transactions.length).toBe(2)
      const cancel = await chain.client.getTransaction({ hash: record.transactions[1]!.hash })
      expect(cancel.to).toBe(account.address.toLowerCase() as never)
      expect(cancel.nonce).toBe(0)
      expect(cancel.value).toBe(0n)
      expect(cancel.input).toBe("0x")
      const receipt = await chain.client.getTransactionReceipt({ hash: cancel.hash })
      expect(receipt.gasUsed).toBe(21_000n)
      // the account paid the transfer's gas and nothing else
      expect(await chain.client.getBalance({ address: account.address })).toBe(balanceBefore - 21_000n * receipt.effectiveGasPrice)
      expect(await relayerNonce(chain, account.address)).toBe(1)
      expect((await fillsOnChain(chain, order.tradeHash)).length).toBe(0)
    } finally {
      await running.stop()
    }
  })

  test("a transaction priced below the base fee is replaced above it and confirmed", async () => {
    const account = await fundedRelayer(chain)
    const database = await freshDatabase()
    const running = await startRelayer(chain, database, { privateKey: account.privateKey, baseFeePercent: 10, replaceAfterMs: 500 }, emitterPlanner(account.address))
    const order = await signedOrder()
    try {
      await running.run(running.relayer.accept(order))
      const record = await waitFor(running, order.tradeHash)
      expect(record.status).toBe("confirmed")
      expect(record.transactions.length).toBe(2)
      const block = await chain.client.getBlock({ blockNumber: record.transactions[1]!.blockNumber! })
      const db = new Database(database, { readonly: true })
      const raws = db.query("SELECT raw FROM relayer_transactions ORDER BY seq").all() as { raw: `0x${string}` }[]
      db.close()
      const [low, high] = raws.map((r) => parseTransaction(r.raw))
      expect(low!.nonce).toBe(0)
      expect(high!.nonce).toBe(0)
      expect(low!.maxFeePerGas! < block.baseFeePerGas!).toBe(true)
      // +12.5% at least on both, and at least twice the base fee plus the tip
      expect(high!.maxFeePerGas! * 8n >= low!.maxFeePerGas! * 9n).toBe(true)
      expect(high!.maxPriorityFeePerGas! * 8n >= low!.maxPriorityFeePerGas! * 9n).toBe(true)
      expect(high!.maxFeePerGas! >= 2n * 20_000_000_000n + high!.maxPriorityFeePerGas!).toBe(true)
      expect(await relayerNonce(chain, account.address)).toBe(1)
    } finally {
      await running.stop()
    }
  })
})

describe("a change of relayer key", () => {
  test("an order the former address sent is followed to confirmed by the relayer with the new key", async () => {
    const former = await fundedRelayer(chain)
    const database = await freshDatabase()
    await chain.client.setAutomine(false)
    const order = await signedOrder()
    let hash: `0x${string}`
    try {
      const first = await startRelayer(chain, database, { privateKey: former.privateKey }, emitterPlanner(former.address))
      try {
        await first.run(first.relayer.accept(order))
        hash = (await waitFor(first, order.tradeHash, SUBMITTED)).transactions[0]!.hash
        for (let i = 0; i < 100 && (await chain.client.getTransaction({ hash }).catch(() => undefined)) === undefined; i++) await Bun.sleep(20)
      } finally {
        await first.stop()
      }
      // the node loses it (a restart): the new relayer sends the recorded bytes again
      await chain.client.dropTransaction({ hash: hash! })
    } finally {
      await chain.client.setAutomine(true)
    }
    const next = await fundedRelayer(chain)
    const second = await startRelayer(chain, database, { privateKey: next.privateKey }, emitterPlanner(next.address))
    try {
      const record = await waitFor(second, order.tradeHash)
      expect(record.status).toBe("confirmed")
      expect(record.transactions.map((t) => t.hash)).toEqual([hash!])
      expect(record.amountOut).toBe(order.order.amountOut)
      expect((await chain.client.getTransaction({ hash: hash! })).from).toBe(former.address.toLowerCase() as never)
      expect(await relayerNonce(chain, former.address)).toBe(1)
      expect(await relayerNonce(chain, next.address)).toBe(0)
      expect((await fillsOnChain(chain, order.tradeHash)).length).toBe(1)
    } finally {
      await second.stop()
    }
  })

  test("an order the former address sent, unmined at its deadline, ends expired at the deadline", async () => {
    const former = await fundedRelayer(chain)
    const database = await freshDatabase()
    const latest = await chain.client.getBlock()
    const deadline = (latest.timestamp > BigInt(Math.floor(Date.now() / 1000)) ? latest.timestamp : BigInt(Math.floor(Date.now() / 1000))) + 30n
    const stuck = await signedOrder({ deadline })
    // priced below the base fee: not mined
    const first = await startRelayer(chain, database, { privateKey: former.privateKey, baseFeePercent: 10, replaceAfterMs: 600_000, replaceAfterBlocks: 1_000 }, emitterPlanner(former.address))
    try {
      await first.run(first.relayer.accept(stuck))
      await waitFor(first, stuck.tradeHash, SUBMITTED)
    } finally {
      await first.stop()
    }
    const next = await fundedRelayer(chain)
    const second = await startRelayer(chain, database, { privateKey: next.privateKey, replaceAfterMs: 600_000 }, emitterPlanner(next.address))
    try {
      await Bun.sleep(400)
      expect((await second.run(second.relayer.find(stuck.tradeHash)))!.status).toBe("submitted")
      await chain.client.setNextBlockTimestamp({ timestamp: deadline })
      await chain.client.mine({ blocks: 1 })
      const record = await waitFor(second, stuck.tradeHash)
      expect(record.status).toBe("expired")
      expect(record.reason).toContain(`the former relayer address ${former.address}`)
      expect((await fillsOnChain(chain, stuck.tradeHash)).length).toBe(0)
      expect(await relayerNonce(chain, next.address)).toBe(0)
    } finally {
      await second.stop()
    }
  })
})

describe("the balance watch", () => {
  test("a node out of reach makes the relayer unavailable, saying so", async () => {
    const account = await fundedRelayer(chain)
    const relay = relayTo(chain.node.rpcUrl, { refuseSends: false })
    const running = await startRelayer(chain, await freshDatabase(), { privateKey: account.privateKey, retryAfterSeconds: 9 }, emitterPlanner(account.address), relay.url)
    try {
      expect(await running.run(Effect.either(running.relayer.readiness))).toEqual(Either.right(undefined))
      await relay.stop()
      await Bun.sleep(250)
      const ready = await running.run(Effect.either(running.relayer.readiness))
      expect(Either.isLeft(ready) && ready.left.reason).toStartWith("the relayer cannot reach the chain")
      expect(Either.isLeft(ready) && ready.left.retryAfterSeconds).toBe(5)
      const refused = await running.run(Effect.either(running.relayer.accept(await signedOrder())))
      expect(Either.isLeft(refused) && refused.left._tag).toBe("RelayerUnavailable")
    } finally {
      await running.stop()
    }
  })

  test("a relayer short of USDC is unavailable and sends nothing; funded again, it sends what waited, once", async () => {
    const account = await fundedRelayer(chain)
    const database = await freshDatabase()
    // orders accepted while the relayer could not plan them: they wait, pending
    const waiting = await startRelayer(chain, database, { privateKey: account.privateKey }, emitterPlanner(account.address, {
      fault: () => new OrderPlanFailure({ reason: "not now", permanent: false }),
    }))
    const orders = [await signedOrder(), await signedOrder(), await signedOrder()]
    try {
      for (const o of orders) await waiting.run(waiting.relayer.accept(o))
    } finally {
      await waiting.stop()
    }
    await chain.client.setBalance({ address: account.address, value: 10n ** 15n })
    const running = await startRelayer(chain, database, { privateKey: account.privateKey, retryAfterSeconds: 17 }, emitterPlanner(account.address))
    try {
      const ready = await running.run(Effect.either(running.relayer.readiness))
      expect(Either.isLeft(ready)).toBe(true)
      if (Either.isLeft(ready)) {
        expect(ready.left._tag).toBe("RelayerUnavailable")
        expect(ready.left.reason).toContain("short of USDC")
        expect(ready.left.retryAfterSeconds).toBe(17)
      }
      const refused = await running.run(Effect.either(running.relayer.accept(await signedOrder())))
      expect(Either.isLeft(refused) && refused.left._tag).toBe("RelayerUnavailable")
      // an order accepted before is still answered
      expect((await running.run(running.relayer.accept(orders[0]!))).status).toBe("pending")
      await Bun.sleep(600)
      for (const o of orders) expect((await running.run(running.relayer.find(o.tradeHash)))?.status).toBe("pending")
      expect(await relayerNonce(chain, account.address)).toBe(0)

      await chain.client.setBalance({ address: account.address, value: 10n ** 20n })
      for (const o of orders) expect((await waitFor(running, o.tradeHash)).status).toBe("confirmed")
      expect(await running.run(Effect.either(running.relayer.readiness))).toEqual(Either.right(undefined))
      expect(await relayerNonce(chain, account.address)).toBe(3)
      for (const o of orders) expect((await fillsOnChain(chain, o.tradeHash)).length).toBe(1)
    } finally {
      await running.stop()
    }
  })
})
