// A relayer process killed with SIGKILL after it recorded and broadcast an
// order's transaction, before the transaction was mined: the relayer started
// next on the same SQLite file follows the recorded transaction to its receipt
// and sends nothing again (one transaction on chain, one OrderFilled event).
import { afterAll, beforeAll, expect, test } from "bun:test"
import { Database } from "bun:sqlite"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { OrderPlanFailure } from "../../src/relayer/index.ts"
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
})

const claimedBy = (path: string, tradeHash: string): string | null => {
  const db = new Database(path, { readonly: true })
  try {
    return (db.query("SELECT claimed_by FROM relayer_orders WHERE trade_hash = ?").get(tradeHash.toLowerCase()) as { claimed_by: string | null }).claimed_by
  } finally {
    db.close()
  }
}

const sentHash = (path: string, tradeHash: string): `0x${string}` | undefined => {
  const db = new Database(path, { readonly: true })
  try {
    const row = db.query("SELECT hash FROM relayer_transactions WHERE trade_hash = ?").get(tradeHash.toLowerCase()) as { hash: `0x${string}` } | null
    return row?.hash
  } finally {
    db.close()
  }
}

test("a relayer killed (SIGKILL) after sending, before the receipt: the next one confirms the order, sent once", async () => {
  const account = await fundedRelayer(chain)
  const path = join(dir, "orders.sqlite")
  const order = await signedOrder()
  // accepted, not yet sent
  const accepting = await startRelayer(chain, path, { privateKey: account.privateKey }, emitterPlanner(account.address, {
    fault: () => new OrderPlanFailure({ reason: "not now", permanent: false }),
  }))
  try {
    expect((await accepting.run(accepting.relayer.accept(order))).status).toBe("pending")
  } finally {
    await accepting.stop()
  }

  await chain.client.setAutomine(false)
  const child = Bun.spawn(["bun", join(import.meta.dir, "relayer-process.ts"), path, chain.node.rpcUrl, account.privateKey, account.address], {
    stdout: "pipe",
    stderr: "pipe",
  })
  let hash: `0x${string}` | undefined
  try {
    const until = Date.now() + 20_000
    while (Date.now() < until) {
      hash = sentHash(path, order.tradeHash)
      if (hash !== undefined && (await chain.client.getTransaction({ hash }).catch(() => undefined)) !== undefined) break
      await Bun.sleep(50)
    }
    expect(hash).toBeDefined()
  } finally {
    child.kill("SIGKILL")
    await child.exited
  }
  expect(child.signalCode).toBe("SIGKILL")
  try {
    await chain.client.mine({ blocks: 1 })
  } finally {
    await chain.client.setAutomine(true)
  }

  const next = await startRelayer(chain, path, { privateKey: account.privateKey }, emitterPlanner(account.address))
  try {
    const record = await waitFor(next, order.tradeHash)
    expect(record.status).toBe("confirmed")
    expect(record.transactions.map((t) => t.hash)).toEqual([hash!])
    expect(record.relayerFee).toBe(order.order.maxRelayerFee)
    expect(await relayerNonce(chain, account.address)).toBe(1)
    expect((await fillsOnChain(chain, order.tradeHash)).length).toBe(1)
  } finally {
    await next.stop()
  }
}, 60_000)

test("a relayer killed (SIGKILL) while planning: its claim lapses with its lease and the next one sends the order, once", async () => {
  const account = await fundedRelayer(chain)
  const path = join(dir, "claimed.sqlite")
  const order = await signedOrder()
  const accepting = await startRelayer(chain, path, { privateKey: account.privateKey }, emitterPlanner(account.address, {
    fault: () => new OrderPlanFailure({ reason: "not now", permanent: false }),
  }))
  try {
    await accepting.run(accepting.relayer.accept(order))
  } finally {
    await accepting.stop()
  }
  // claims with a 1.5 s lease, plans for a minute
  const child = Bun.spawn(["bun", join(import.meta.dir, "relayer-process.ts"), path, chain.node.rpcUrl, account.privateKey, account.address, "1500", "60000"], {
    stdout: "pipe",
    stderr: "pipe",
  })
  try {
    const until = Date.now() + 20_000
    while (Date.now() < until && claimedBy(path, order.tradeHash) === null) await Bun.sleep(50)
    expect(claimedBy(path, order.tradeHash)).not.toBeNull()
  } finally {
    child.kill("SIGKILL")
    await child.exited
  }
  const next = await startRelayer(chain, path, { privateKey: account.privateKey }, emitterPlanner(account.address))
  try {
    // still claimed by the killed process, until its lease lapses
    expect((await next.run(next.relayer.find(order.tradeHash)))!.status).toBe("pending")
    const record = await waitFor(next, order.tradeHash)
    expect(record.status).toBe("confirmed")
    expect(record.transactions.length).toBe(1)
    expect(await relayerNonce(chain, account.address)).toBe(1)
    expect((await fillsOnChain(chain, order.tradeHash)).length).toBe(1)
  } finally {
    await next.stop()
  }
}, 60_000)
