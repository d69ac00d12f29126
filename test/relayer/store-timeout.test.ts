// A Postgres order store that stops answering: accept and find fail with
// OrderStoreFailure within the query timeout instead of hanging the request.
import { afterAll, beforeAll, expect, test } from "bun:test"
import { Effect, Either } from "effect"
import type { Socket } from "bun"
import { freshSchema } from "../support/services.ts"
import { emitterPlanner, fundedRelayer, signedOrder, startRelayer, startRelayerChain, type RelayerChain } from "./relayer-chain.ts"

/** A TCP relay to Postgres that can be frozen: once frozen, nothing more passes either way. */
const freezableRelay = (port: number) => {
  let frozen = false
  const server = Bun.listen<{ upstream?: Socket<unknown>; queued: Uint8Array[] }>({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      open: (client) => {
        client.data = { queued: [] }
        void Bun.connect({
          hostname: "127.0.0.1",
          port,
          socket: {
            open: (upstream) => {
              client.data.upstream = upstream
              for (const chunk of client.data.queued) upstream.write(chunk)
            },
            data: (_upstream, chunk) => void (frozen || client.write(chunk)),
            close: () => void client.end(),
          },
        })
      },
      data: (client, chunk) => {
        if (frozen) return
        if (client.data.upstream === undefined) client.data.queued.push(new Uint8Array(chunk))
        else client.data.upstream.write(chunk)
      },
      close: (client) => void client.data.upstream?.end(),
    },
  })
  return { port: server.port, freeze: () => void (frozen = true), stop: () => server.stop(true) }
}

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

test("a store that stops answering: accept and find fail within the query timeout", async () => {
  const relay = freezableRelay(5432)
  const account = await fundedRelayer(chain)
  const url = schema.databaseUrl.replace("127.0.0.1:5432", `127.0.0.1:${relay.port}`)
  const running = await startRelayer(chain, url, { privateKey: account.privateKey, queryTimeoutMs: 500 }, emitterPlanner(account.address))
  try {
    const order = await signedOrder()
    expect((await running.run(running.relayer.accept(order))).tradeHash).toBe(order.tradeHash)
    relay.freeze()
    const started = Date.now()
    const found = await running.run(Effect.either(running.relayer.find(order.tradeHash)))
    const accepted = await running.run(Effect.either(running.relayer.accept(await signedOrder())))
    const took = Date.now() - started
    expect(Either.isLeft(found) && found.left).toMatchObject({ _tag: "OrderStoreFailure", message: "cannot read the order: the order store did not answer within 500 ms" })
    expect(Either.isLeft(accepted) && accepted.left).toMatchObject({ _tag: "OrderStoreFailure", message: "cannot store the order: the order store did not answer within 500 ms" })
    expect(took).toBeLessThan(3_000)
  } finally {
    relay.stop()
    await Promise.race([running.stop(), Bun.sleep(3_000)])
  }
})
