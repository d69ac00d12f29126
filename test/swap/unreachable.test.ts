// When the node cannot be reached at /swap time, the transaction is still
// returned (simulated false, tx.gas null): minAmountOut and the deadline still
// protect it. Quotes keep being served from the last market snapshot.
import { afterAll, beforeAll, expect, test } from "bun:test"
import { Effect, Either, Layer } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startApiServer, type RunningApi } from "../../src/api/index.ts"
import { decodeExecute } from "../../src/chain/execute-call.ts"
import { testAccounts } from "../../src/devnet/index.ts"
import { chainSettings } from "../../src/config/index.ts"
import { livePrograms } from "../../src/swap/live.ts"
import { startTestDevnet, type TestDevnet } from "../support/devnet.ts"

let devnet: TestDevnet
let api: RunningApi
let proxy: ReturnType<typeof Bun.serve>
let refuse = false
let key: string
let dir: string

beforeAll(async () => {
  devnet = await startTestDevnet()
  // the service reaches the node through a proxy that can stop answering
  proxy = Bun.serve({
    port: 0,
    async fetch(request) {
      if (refuse) return new Response("unavailable", { status: 503 })
      return fetch(devnet.manifest.rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body: await request.text() })
    },
  })
  dir = mkdtempSync(join(tmpdir(), "unreachable-"))
  const settings = Either.getOrThrow(chainSettings({ RPC_URL: `http://127.0.0.1:${proxy.port}` }, devnet.manifest))
  api = await startApiServer({
    programs: livePrograms(settings).pipe(Layer.orDie),
    env: { PORT: "0", DATABASE_URL: join(dir, "keys.sqlite"), LOG_LEVEL: "error" },
  })
  key = (await Effect.runPromise(api.keys.create({ name: "unreachable", rpm: 1000 }))).key
})

afterAll(async () => {
  refuse = false
  await api?.stop()
  await proxy?.stop(true)
  await devnet?.stop()
  if (dir) rmSync(dir, { recursive: true, force: true })
})

const post = async (path: string, body: unknown) => {
  const res = await fetch(`${api.baseUrl}/${path}`, { method: "POST", headers: { "x-api-key": key, "content-type": "application/json" }, body: JSON.stringify(body) })
  return { status: res.status, body: (await res.json()) as any }
}

test("an unreachable node: /swap answers simulated false with tx.gas null, /quote still answers", async () => {
  const m = devnet.manifest
  const request = { tokenIn: m.tokens.USDC!.address, tokenOut: m.tokens.EURC!.address, amountIn: "1000000000" }
  const before = await post("quote", request)
  expect(before.status).toBe(200)

  refuse = true
  const sender = testAccounts[0]!.address
  const swap = await post("swap", { ...request, sender })
  expect(swap.status).toBe(200)
  expect(swap.body.simulated).toBe(false)
  expect(swap.body.tx.gas).toBeNull()
  // USDC takes permits, but neither its domain nor the sender's nonce can be read: no permit to sign
  expect(swap.body.permit).toBeNull()
  expect(swap.body.tx.to).toBe(m.executor)
  // the transaction still carries the quote's protections
  const decoded = decodeExecute(swap.body.tx.data)
  expect(decoded.minAmountOut).toBe(BigInt(swap.body.minAmountOut))
  expect(decoded.deadline).toBe(BigInt(swap.body.deadline))
  expect(decoded.recipient).toBe(sender)
  expect(swap.body.amountOut).toBe(before.body.amountOut)

  const quote = await post("quote", request)
  expect(quote.status).toBe(200)
  expect(quote.body.amountOut).toBe(before.body.amountOut)

  // a token never seen before must be read from the chain: routing is briefly unavailable
  const res = await fetch(`${api.baseUrl}/quote`, {
    method: "POST",
    headers: { "x-api-key": key, "content-type": "application/json" },
    body: JSON.stringify({ tokenIn: m.tokens.WETH!.address, tokenOut: m.tokens.cirBTC!.address, amountIn: "1000000000000000000" }),
  })
  expect(res.status).toBe(503)
  expect(((await res.json()) as any).error.code).toBe("UNAVAILABLE")
  expect(res.headers.get("retry-after")).not.toBeNull()
})
