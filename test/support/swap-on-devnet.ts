// The whole service over a devnet of its own, for tests that send /swap
// transactions as a client would: a devnet, the API on a free port with one
// key, and the client's steps (approve when needed, send tx exactly as
// returned) with the chain's balances to check them against.
import { Effect, Either, Layer } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { erc20Abi, type Address, type Hex, type TransactionReceipt } from "viem"
import { startApiServer, type RunningApi } from "../../src/api/index.ts"
import type { Manifest } from "../../src/devnet/index.ts"
import { chainSettings, type ChainSettings } from "../../src/config/index.ts"
import { livePrograms } from "../../src/swap/live.ts"
import { startTestDevnet, type TestDevnet } from "./devnet.ts"

export const NATIVE = "0x0000000000000000000000000000000000000000" as Address

export interface SwapOnDevnet {
  readonly devnet: TestDevnet
  readonly api: RunningApi
  readonly manifest: Manifest
  readonly post: (
    path: "quote" | "swap" | "sources" | "tokens" | "gasless/quote" | "gasless/submit" | "gasless/status",
    body: Record<string, unknown>,
    key?: string,
  ) => Promise<{ status: number; body: any; headers: Headers }>
  readonly token: (symbol: string) => Address
  /** ERC-20 balance, or the native balance for NATIVE */
  readonly balanceOf: (asset: Address, holder: Address) => Promise<bigint>
  /** approve(spender, amount) when the allowance falls short, then tx exactly as returned; the receipt, whatever its status */
  readonly send: (swap: any, from: Address) => Promise<TransactionReceipt>
  /** the API's key store (SQLite), for another instance sharing it */
  readonly keyStore: string
  /** the service's chain settings, for another instance over the same devnet */
  readonly settings: ChainSettings
  readonly stop: () => Promise<void>
}

export const startSwapOnDevnet = async (
  options: {
    /** the scenario, as JSON text; the default scenario when absent */
    readonly scenarioText?: string
    /** the endpoint the service reads the chain through (a proxy in front of the devnet, say) */
    readonly rpcUrl?: (devnet: TestDevnet) => string
    /** more of the service's chain settings, as environment variables (MAX_PRICE_IMPACT_BPS, RELAYER_PRIVATE_KEY, say) */
    readonly env?: Record<string, string>
    /** more of the API's settings (ADMIN_PORT, say) */
    readonly apiEnv?: Record<string, string>
  } = {},
): Promise<SwapOnDevnet> => {
  const devnet = await startTestDevnet(options.scenarioText !== undefined ? { scenarioText: options.scenarioText } : {})
  const manifest = devnet.manifest
  const dir = mkdtempSync(join(tmpdir(), "swap-on-devnet-"))
  let api: RunningApi | undefined
  let settings: ChainSettings
  try {
    const rpcUrl = options.rpcUrl?.(devnet)
    settings = Either.getOrThrow(chainSettings({ ...options.env, ...(rpcUrl !== undefined ? { RPC_URL: rpcUrl } : {}) }, manifest))
    api = await startApiServer({
      // a relayer (RELAYER_PRIVATE_KEY) keeps its orders in the key store's database
      programs: livePrograms(settings, undefined, { kind: "sqlite", path: join(dir, "keys.sqlite") }).pipe(Layer.orDie),
      env: { PORT: "0", DATABASE_URL: join(dir, "keys.sqlite"), LOG_LEVEL: "error", ...options.apiEnv },
    })
  } catch (e) {
    await devnet.stop()
    rmSync(dir, { recursive: true, force: true })
    throw e
  }
  const running = api
  const { key } = await Effect.runPromise(running.keys.create({ name: "swap-tests", rpm: 100_000, concurrency: 8 }))
  const client = devnet.client

  const post: SwapOnDevnet["post"] = async (path, body, as = key) => {
    const res = await fetch(`${running.baseUrl}/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": as },
      body: JSON.stringify(body),
    })
    return { status: res.status, body: (await res.json()) as any, headers: res.headers }
  }
  const balanceOf: SwapOnDevnet["balanceOf"] = (asset, holder) =>
    asset === NATIVE ? client.getBalance({ address: holder }) : client.readContract({ address: asset, abi: erc20Abi, functionName: "balanceOf", args: [holder] })
  const send: SwapOnDevnet["send"] = async (swap, from) => {
    if (swap.approval !== null) {
      const { token, spender, amount } = swap.approval
      const allowance = await client.readContract({ address: token, abi: erc20Abi, functionName: "allowance", args: [from, spender] })
      if (allowance < BigInt(amount)) {
        const hash = await client.writeContract({ address: token, abi: erc20Abi, functionName: "approve", args: [spender, BigInt(amount)], account: from, chain: client.chain })
        await client.waitForTransactionReceipt({ hash, pollingInterval: 20 })
      }
    }
    const hash = await client.sendTransaction({
      account: from,
      to: swap.tx.to as Address,
      data: swap.tx.data as Hex,
      value: BigInt(swap.tx.value),
      gas: BigInt(swap.tx.gas),
      chain: client.chain,
    })
    return client.waitForTransactionReceipt({ hash, pollingInterval: 20 })
  }
  return {
    devnet,
    api: running,
    manifest,
    keyStore: join(dir, "keys.sqlite"),
    settings,
    post,
    token: (symbol) => manifest.tokens[symbol]!.address as Address,
    balanceOf,
    send,
    stop: async () => {
      await running.stop()
      await devnet.stop()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}
