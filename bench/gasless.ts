// Gasless swaps end to end on the devnet: /gasless/quote's latency beside
// /swap's for the same trade, one request at a time in one run; the time from
// /gasless/submit to `confirmed` (the relayer polls once a second, the devnet
// mines at once); and the gas of the relayer's transaction per order beside a
// user's own /swap transaction of the same trade (both mined, gasUsed).
import { Effect, Either, Layer } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { erc20Abi, maxUint256, type Address, type Hex } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { startApiServer } from "../src/api/index.ts"
import { chainSettings } from "../src/config/index.ts"
import { devnetClient, devnetRelayer, fundDevnetRelayer, startDevnet, testAccounts } from "../src/devnet/index.ts"
import { livePrograms } from "../src/swap/live.ts"
import { percentile, type Measurement } from "./measurement.ts"

const LATENCY_ROUNDS = 40
const ORDERS = 8

export async function run(): Promise<Measurement[]> {
  const dir = mkdtempSync(join(tmpdir(), "gasless-bench-"))
  const devnet = await startDevnet({ port: 0 })
  try {
    await fundDevnetRelayer(devnet.manifest)
    const settings = Either.getOrThrow(chainSettings({ AGGREGATORS: "[]", RELAYER_PRIVATE_KEY: devnetRelayer.privateKey }, devnet.manifest))
    const api = await startApiServer({
      programs: livePrograms(settings, undefined, { kind: "sqlite", path: join(dir, "keys.sqlite") }).pipe(Layer.orDie),
      env: { PORT: "0", DATABASE_URL: join(dir, "keys.sqlite"), LOG_LEVEL: "error" },
    })
    try {
      const { key } = await Effect.runPromise(api.keys.create({ name: "gasless bench", rpm: 1_000_000, concurrency: 8 }))
      const post = async (path: string, body: unknown) => {
        const res = await fetch(`${api.baseUrl}/${path}`, { method: "POST", headers: { "content-type": "application/json", "x-api-key": key }, body: JSON.stringify(body) })
        const json = (await res.json()) as any
        if (res.status !== 200) throw new Error(`/${path} answered ${res.status}: ${JSON.stringify(json)}`)
        return json
      }
      const client = devnetClient(devnet.manifest.rpcUrl, devnet.manifest.multicall3 as Address, devnet.manifest.chainId)
      const eurc = devnet.manifest.tokens.EURC!.address as Address
      const weth = devnet.manifest.tokens.WETH!.address as Address
      const trader = testAccounts[6]!.address
      const trade = (i: number) => ({ tokenIn: eurc, tokenOut: weth, amountIn: (100_000_000n + BigInt(i) * 1_009n).toString(), sender: trader })

      // latency, one request at a time, alternating
      const gasless: number[] = []
      const swap: number[] = []
      for (let i = 0; i < LATENCY_ROUNDS; i++) {
        let t = performance.now()
        await post("gasless/quote", trade(2 * i))
        gasless.push(performance.now() - t)
        t = performance.now()
        await post("swap", trade(2 * i + 1))
        swap.push(performance.now() - t)
      }

      // a user's own swap of the same trade from a new wallet holding EURC and USDC for gas: an
      // approval, then /swap's transaction as returned (what a gasless order replaces)
      const user = privateKeyToAccount(generatePrivateKey())
      await client.setBalance({ address: user.address, value: 10n ** 18n })
      const give = await client.writeContract({ address: eurc, abi: erc20Abi, functionName: "transfer", args: [user.address, 100_000_000n], account: testAccounts[0]!.address, chain: client.chain })
      await client.waitForTransactionReceipt({ hash: give, pollingInterval: 20 })
      const approve = await client.writeContract({ address: eurc, abi: erc20Abi, functionName: "approve", args: [devnet.manifest.executor as Address, maxUint256], account: user, chain: client.chain })
      const approveGas = (await client.waitForTransactionReceipt({ hash: approve, pollingInterval: 20 })).gasUsed
      const own = await post("swap", { ...trade(0), amountIn: "100000000", sender: user.address })
      const ownHash = await client.sendTransaction({ account: user, chain: client.chain, to: own.tx.to, data: own.tx.data, value: BigInt(own.tx.value), gas: BigInt(own.tx.gas) })
      const ownGas = (await client.waitForTransactionReceipt({ hash: ownHash, pollingInterval: 20 })).gasUsed

      // orders from wallets holding only EURC, signed with a permit, submitted and followed to the end
      const toConfirmed: number[] = []
      const relayerGas: bigint[] = []
      for (let i = 0; i < ORDERS; i++) {
        const wallet = privateKeyToAccount(generatePrivateKey())
        const funded = await client.writeContract({ address: eurc, abi: erc20Abi, functionName: "transfer", args: [wallet.address, 100_000_000n], account: testAccounts[0]!.address, chain: client.chain })
        await client.waitForTransactionReceipt({ hash: funded, pollingInterval: 20 })
        const q = await post("gasless/quote", { ...trade(0), amountIn: "100000000", sender: wallet.address })
        const body = {
          order: q.order.typedData.message,
          signature: await wallet.signTypedData(q.order.typedData),
          ...(q.permit !== null ? { permit: { signature: await wallet.signTypedData(q.permit.typedData) } } : {}),
        }
        const t = performance.now()
        const { tradeHash } = await post("gasless/submit", body)
        let status: any
        do {
          await Bun.sleep(20)
          status = await post("gasless/status", { tradeHash })
        } while (status.status === "pending" || status.status === "submitted")
        if (status.status !== "confirmed") throw new Error(`order ${tradeHash} ended ${status.status}: ${status.reason}`)
        toConfirmed.push(performance.now() - t)
        const receipt = await client.getTransactionReceipt({ hash: status.transactions.at(-1).hash as Hex })
        relayerGas.push(receipt.gasUsed)
      }

      const ms = (v: number) => Math.round(v * 100) / 100
      const median = <A extends number | bigint>(xs: A[]) => [...xs].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))[Math.floor(xs.length / 2)]!
      const gasPerOrder = median(relayerGas)
      return [
        { name: "/gasless/quote p50 (one request at a time)", value: ms(percentile(gasless, 50)), unit: "ms", note: `p99 ${ms(percentile(gasless, 99))} ms; priced at the head, the sender's funds read there` },
        { name: "/swap p50, the same trades (same run)", value: ms(percentile(swap, 50)), unit: "ms", note: `p99 ${ms(percentile(swap, 99))} ms; simulated on the node` },
        { name: "/gasless/submit to confirmed, median", value: ms(median(toConfirmed)), unit: "ms", note: `${ORDERS} orders with a permit; an accepted order wakes the relayer, which looks at orders in flight every 200 ms; the devnet mines at once` },
        { name: "relayer gas per order (with a permit), median", value: Number(gasPerOrder), unit: "gas", note: `each from a new wallet; ${relayerGas.join(", ")}` },
        { name: "a user's own approve + /swap of the same trade, new wallet", value: Number(approveGas + ownGas), unit: "gas", note: `approve ${approveGas} + swap ${ownGas}; the order costs ${Number(gasPerOrder) - Number(approveGas + ownGas)} more in one transaction (signature, nonce, permit, the input pulled into the executor and paid out, the relayer's fee)` },
      ]
    } finally {
      await api.stop()
    }
  } finally {
    await devnet.stop()
    rmSync(dir, { recursive: true, force: true })
  }
}
