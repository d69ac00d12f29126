// `bun run serve` with a relayer, killed with SIGKILL between accepting a
// gasless order and its confirmation, then started again on the same
// database: the order ends `confirmed`, sent once. The devnet mines only when
// told, so the order's transaction is still waiting when the service dies,
// and again when the next one starts; the chain then shows one transaction
// from the relayer and one OrderFilled for the order, and the same signed
// order replayed to the restarted service answers its tradeHash, unsent.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Effect } from "effect"
import { join, resolve } from "node:path"
import { erc20Abi, parseAbiItem, type Address, type Hex } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { makeApiKeys } from "../../src/access/index.ts"
import { loadKeyStoreConfig } from "../../src/config/index.ts"
import { devnetRelayer, fundDevnetRelayer, testAccounts, writeManifest } from "../../src/devnet/index.ts"
import { startTestDevnet, type TestDevnet } from "../support/devnet.ts"
import { cliTestResources, spawnServeOver } from "./processes.ts"

const ROOT = resolve(import.meta.dir, "../..")
const { tempDir, track } = cliTestResources("gasless-kill-")

let devnet: TestDevnet
beforeAll(async () => {
  devnet = await startTestDevnet()
  await fundDevnetRelayer(devnet.manifest)
})
afterAll(async () => {
  await devnet.client.request({ method: "evm_setAutomine" as never, params: [true] as never }).catch(() => undefined)
  await devnet.stop()
})

const spawnServe = (manifestPath: string, databaseUrl: string) =>
  spawnServeOver(ROOT, track, manifestPath, { DATABASE_URL: databaseUrl, RELAYER_PRIVATE_KEY: devnetRelayer.privateKey })

const automine = (on: boolean) => devnet.client.request({ method: "evm_setAutomine" as never, params: [on] as never })

describe("a gasless order across a SIGKILL of the service", () => {
  test("accepted, sent, the service killed before the block, started again: confirmed, sent once", async () => {
    const dir = tempDir()
    const manifestPath = join(dir, "manifest.json")
    writeManifest(manifestPath, devnet.manifest)
    const databaseUrl = join(dir, "keys.sqlite")
    const { key } = await Effect.runPromise(
      Effect.scoped(Effect.flatMap(loadKeyStoreConfig({ DATABASE_URL: databaseUrl }), (config) => Effect.flatMap(makeApiKeys(config), (keys) => keys.create({ name: "kill", rpm: 10_000 })))),
    )
    const client = devnet.client
    const eurc = devnet.manifest.tokens.EURC!.address as Address
    const weth = devnet.manifest.tokens.WETH!.address as Address

    // a wallet holding EURC and no USDC
    const wallet = privateKeyToAccount(generatePrivateKey())
    const funded = await client.writeContract({ address: eurc, abi: erc20Abi, functionName: "transfer", args: [wallet.address, 500_000_000n], account: testAccounts[0]!.address, chain: client.chain })
    await client.waitForTransactionReceipt({ hash: funded, pollingInterval: 20 })

    const first = spawnServe(manifestPath, databaseUrl)
    let base = await first.ready()
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${base}/${path}`, { method: "POST", headers: { "content-type": "application/json", "x-api-key": key }, body: JSON.stringify(body) })
      return { status: res.status, body: (await res.json()) as any }
    }

    const q = await post("gasless/quote", { tokenIn: eurc, tokenOut: weth, amountIn: "500000000", sender: wallet.address })
    expect(q.status, JSON.stringify(q.body)).toBe(200)
    const nonceBefore = await client.getTransactionCount({ address: devnetRelayer.address })
    const wethBefore = await client.readContract({ address: weth, abi: erc20Abi, functionName: "balanceOf", args: [wallet.address] })

    // from here on blocks come only when asked: the order's transaction waits in the pool
    await automine(false)
    const signed = {
      order: q.body.order.typedData.message,
      signature: await wallet.signTypedData(q.body.order.typedData),
      permit: { signature: await wallet.signTypedData(q.body.permit.typedData) },
    }
    const submitted = await post("gasless/submit", signed)
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200)
    const tradeHash = submitted.body.tradeHash as Hex
    let status: any
    for (let i = 0; i < 200 && status?.status !== "submitted"; i++) {
      status = (await post("gasless/status", { tradeHash })).body
      await Bun.sleep(50)
    }
    expect(status.status).toBe("submitted")
    expect(status.transactions.length).toBe(1)
    const sent = status.transactions[0].hash as Hex

    // killed between acceptance and confirmation
    first.proc.kill("SIGKILL")
    expect(await first.proc.exited).not.toBe(0)

    // started again on the same database, the transaction still unmined: it is followed, not sent again
    const second = spawnServe(manifestPath, databaseUrl)
    base = await second.ready()
    expect((await post("gasless/status", { tradeHash })).body.status).toBe("submitted")
    await Bun.sleep(2_500)
    expect(await client.getTransactionCount({ address: devnetRelayer.address, blockTag: "pending" })).toBe(nonceBefore + 1)

    await client.request({ method: "evm_mine" as never, params: [] as never })
    await automine(true)
    for (let i = 0; i < 200 && status.status !== "confirmed"; i++) {
      await Bun.sleep(100)
      status = (await post("gasless/status", { tradeHash })).body
    }
    expect(status.status).toBe("confirmed")
    expect(status.transactions.map((t: { hash: string }) => t.hash)).toEqual([sent])

    // the chain: one transaction from the relayer, one OrderFilled for the order, paid as it says
    expect(await client.getTransactionCount({ address: devnetRelayer.address })).toBe(nonceBefore + 1)
    const filled = await client.getLogs({
      address: devnet.manifest.executor as Address,
      event: parseAbiItem("event OrderFilled(bytes32 indexed orderHash, address indexed sender, address indexed relayer, uint256 amountIn, uint256 amountOut, uint256 relayerFee)"),
      args: { orderHash: tradeHash },
      fromBlock: 0n,
    })
    expect(filled.length).toBe(1)
    expect(filled[0]!.transactionHash).toBe(sent)
    expect(BigInt(status.amountOut)).toBe(filled[0]!.args.amountOut!)
    expect(await client.readContract({ address: weth, abi: erc20Abi, functionName: "balanceOf", args: [wallet.address] })).toBe(wethBefore + filled[0]!.args.amountOut!)
    expect(await client.getBalance({ address: wallet.address })).toBe(0n)

    // the same signed order replayed to the restarted service: its tradeHash, never a second send
    const replayed = await post("gasless/submit", signed)
    expect(replayed.status).toBe(200)
    expect(replayed.body).toMatchObject({ tradeHash, status: "confirmed" })
    await Bun.sleep(500)
    expect(await client.getTransactionCount({ address: devnetRelayer.address })).toBe(nonceBefore + 1)

    second.proc.kill("SIGTERM")
    expect(await second.proc.exited).toBe(0)
  }, 120_000)
})
