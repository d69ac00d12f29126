// Two `bun run serve` instances with one relayer key on one Postgres key store,
// given the same 50 signed gasless orders (each submitted to both): every order
// is confirmed and sent exactly once, from one account whose nonces never
// collide; both instances answer the same tradeHash for an order.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Effect } from "effect"
import { join, resolve } from "node:path"
import { erc20Abi, parseAbiItem, type Address, type Hex } from "viem"
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts"
import { makeApiKeys } from "../../src/access/index.ts"
import { loadKeyStoreConfig } from "../../src/config/index.ts"
import { devnetRelayer, fundDevnetRelayer, testAccounts, writeManifest } from "../../src/devnet/index.ts"
import { startTestDevnet, type TestDevnet } from "../support/devnet.ts"
import { freshSchema } from "../support/services.ts"
import { cliTestResources, spawnServeOver } from "./processes.ts"

const ROOT = resolve(import.meta.dir, "../..")
const { tempDir, track } = cliTestResources("gasless-instances-")
const ORDERS = 50

let devnet: TestDevnet
let schema: Awaited<ReturnType<typeof freshSchema>>
beforeAll(async () => {
  devnet = await startTestDevnet()
  await fundDevnetRelayer(devnet.manifest)
  schema = await freshSchema()
})
afterAll(async () => {
  await devnet?.stop()
  await schema?.drop()
})

const spawnServe = (manifestPath: string) =>
  spawnServeOver(ROOT, track, manifestPath, {
    DATABASE_URL: schema.databaseUrl,
    KEY_HASH_SECRET: "gasless-instances-secret-0123456789abcdef",
    RELAYER_PRIVATE_KEY: devnetRelayer.privateKey,
  })

describe("two instances, one Postgres, one relayer key", () => {
  test("the same 50 orders submitted to both: each confirmed, sent exactly once, nonces in a row", async () => {
    const dir = tempDir()
    const manifestPath = join(dir, "manifest.json")
    writeManifest(manifestPath, devnet.manifest)
    const { key } = await Effect.runPromise(
      Effect.scoped(
        Effect.flatMap(loadKeyStoreConfig({ DATABASE_URL: schema.databaseUrl, KEY_HASH_SECRET: "gasless-instances-secret-0123456789abcdef" }), (config) =>
          Effect.flatMap(makeApiKeys(config), (keys) => keys.create({ name: "instances", rpm: 100_000, concurrency: 16 }))),
      ),
    )
    const client = devnet.client
    const eurc = devnet.manifest.tokens.EURC!.address as Address
    const weth = devnet.manifest.tokens.WETH!.address as Address

    const instances = [spawnServe(manifestPath), spawnServe(manifestPath)]
    const bases = await Promise.all(instances.map((i) => i.ready()))
    const post = async (base: string, path: string, body: unknown) => {
      const res = await fetch(`${base}/${path}`, { method: "POST", headers: { "content-type": "application/json", "x-api-key": key }, body: JSON.stringify(body) })
      return { status: res.status, body: (await res.json()) as any }
    }

    // 50 wallets holding EURC only, each with a signed order (and permit) from alternating instances' quotes
    const wallets: PrivateKeyAccount[] = []
    for (let i = 0; i < ORDERS; i++) {
      const wallet = privateKeyToAccount(generatePrivateKey())
      const hash = await client.writeContract({ address: eurc, abi: erc20Abi, functionName: "transfer", args: [wallet.address, 20_000_000n], account: testAccounts[0]!.address, chain: client.chain })
      await client.waitForTransactionReceipt({ hash, pollingInterval: 20 })
      wallets.push(wallet)
    }
    const signed: unknown[] = []
    for (const [i, wallet] of wallets.entries()) {
      const q = await post(bases[i % 2]!, "gasless/quote", { tokenIn: eurc, tokenOut: weth, amountIn: "20000000", sender: wallet.address, slippageBps: 300 })
      expect(q.status, JSON.stringify(q.body)).toBe(200)
      signed.push({
        order: q.body.order.typedData.message,
        signature: await wallet.signTypedData(q.body.order.typedData),
        permit: { signature: await wallet.signTypedData(q.body.permit.typedData) },
      })
    }
    const nonceBefore = await client.getTransactionCount({ address: devnetRelayer.address })

    // every order to both instances at once, eight orders at a time (the key's 16 in flight)
    const answers: { status: number; body: any }[] = []
    for (let i = 0; i < ORDERS; i += 8) {
      answers.push(...(await Promise.all(signed.slice(i, i + 8).flatMap((body) => bases.map((base) => post(base, "gasless/submit", body))))))
    }
    const tradeHashes: Hex[] = []
    for (let i = 0; i < ORDERS; i++) {
      const [a, b] = [answers[2 * i]!, answers[2 * i + 1]!]
      expect(a.status, JSON.stringify(a.body)).toBe(200)
      expect(b.status, JSON.stringify(b.body)).toBe(200)
      expect(b.body.tradeHash).toBe(a.body.tradeHash)
      tradeHashes.push(a.body.tradeHash)
    }

    // all confirmed, as either instance tells
    const statuses = new Map<Hex, any>()
    const until = Date.now() + 60_000
    while (statuses.size < ORDERS && Date.now() < until) {
      for (const [i, tradeHash] of tradeHashes.entries()) {
        if (statuses.has(tradeHash)) continue
        const status = (await post(bases[i % 2]!, "gasless/status", { tradeHash })).body
        if (status.status === "confirmed" || status.status === "failed" || status.status === "expired") statuses.set(tradeHash, status)
      }
      await Bun.sleep(100)
    }
    expect([...statuses.values()].map((s) => s.status)).toEqual(Array(ORDERS).fill("confirmed"))

    // the chain: exactly 50 transactions from the relayer, one OrderFilled per order, each in the one transaction the order lists
    expect(await client.getTransactionCount({ address: devnetRelayer.address })).toBe(nonceBefore + ORDERS)
    const fills = await client.getLogs({
      address: devnet.manifest.executor as Address,
      event: parseAbiItem("event OrderFilled(bytes32 indexed orderHash, address indexed sender, address indexed relayer, uint256 amountIn, uint256 amountOut, uint256 relayerFee)"),
      fromBlock: 0n,
    })
    for (const tradeHash of tradeHashes) {
      const mine = fills.filter((f) => f.args.orderHash === tradeHash)
      expect(mine.length).toBe(1)
      expect(statuses.get(tradeHash).transactions.map((t: { hash: string }) => t.hash)).toEqual([mine[0]!.transactionHash])
    }
    const nonces = await Promise.all(fills.filter((f) => tradeHashes.includes(f.args.orderHash!)).map(async (f) => (await client.getTransaction({ hash: f.transactionHash })).nonce))
    expect([...nonces].sort((a, b) => a - b)).toEqual(Array.from({ length: ORDERS }, (_, i) => nonceBefore + i))

    for (const { proc } of instances) proc.kill("SIGTERM")
    for (const { proc } of instances) expect(await proc.exited).toBe(0)
  }, 180_000)
})
