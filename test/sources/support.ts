// An aggregator API for source tests: a local HTTP server whose answers each
// test scripts, recording every request it gets; and a raw TCP listener that
// drops connections, for the "connection failed" paths.
import { Effect } from "effect"
import { getAddress, type Address } from "viem"
import type { ExternalContext } from "../../src/sources/index.ts"
import type { ExactOutputSourceRequest, SourceRequest } from "../../src/pricer/index.ts"
import type { World } from "../../src/domain/index.ts"

export interface Seen {
  readonly method: string
  readonly path: string
  readonly query: URLSearchParams
  readonly headers: Headers
  readonly body: unknown
}

export type Script = (seen: Seen) => Response | Promise<Response>

export const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } })

export const scriptedServer = () => {
  let script: Script = () => json({ message: "no script" }, 500)
  const seen: Seen[] = []
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      const url = new URL(request.url)
      const text = request.method === "POST" ? await request.text() : ""
      const entry: Seen = { method: request.method, path: url.pathname, query: url.searchParams, headers: request.headers, body: text ? JSON.parse(text) : undefined }
      seen.push(entry)
      return script(entry)
    },
  })
  return {
    url: `http://127.0.0.1:${server.port}`,
    seen,
    answer: (next: Script) => {
      script = next
    },
    stop: () => server.stop(true),
  }
}

/**
 * A TCP listener that counts connections; `respond` decides per connection from the request's
 * first bytes: a raw HTTP answer, or undefined to close the connection without answering.
 */
export const rawServer = (respond: (request: string) => string | undefined) => {
  let connections = 0
  const listener = Bun.listen({
    hostname: "127.0.0.1",
    port: 0,
    socket: {
      open() {
        connections++
      },
      data(socket, data) {
        const answer = respond(Buffer.from(data).toString("latin1"))
        if (answer === undefined) socket.end()
        else {
          socket.write(answer)
          socket.end()
        }
      },
    },
  })
  return { url: `http://127.0.0.1:${listener.port}`, connections: () => connections, stop: () => listener.stop(true) }
}

export const rawJson = (body: unknown) => {
  const text = JSON.stringify(body)
  return `HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(text)}\r\nconnection: close\r\n\r\n${text}`
}

export const EXECUTOR: Address = getAddress("0x00000000000000000000000000000000000e0e0e")
export const ROUTER: Address = getAddress("0x000000000000000000000000000000000000a11a")
export const OTHER_ROUTER: Address = getAddress("0x000000000000000000000000000000000000b22b")
export const TOKEN_IN: Address = getAddress("0x1111111111111111111111111111111111111111")
export const TOKEN_OUT: Address = getAddress("0x2222222222222222222222222222222222222222")
export const SENDER: Address = getAddress("0x3333333333333333333333333333333333333333")

export const context: ExternalContext = { chainId: 5042, executor: EXECUTOR }

/** A World at 1 gwei gas whose executor allowlists `routers` (only ROUTER unless given). */
export const worldAllowing = (routers: readonly Address[] = [ROUTER]): World =>
  ({
    gasPriceWei: 1_000_000_000n,
    executor: { address: EXECUTOR, protocolFeeBps: 25, paused: false, allowedRouters: new Set(routers.map((r) => r.toLowerCase())) },
  }) as unknown as World

/** Gas converted to tokenOut as if it were 6-decimal USDC. */
export const request: SourceRequest = {
  tokenIn: TOKEN_IN,
  tokenOut: TOKEN_OUT,
  amountIn: 1_000_000n,
  snapshot: worldAllowing(),
  nativeToTokenOut: (wei) => wei / 10n ** 12n,
  slippageBps: 50,
  sender: SENDER,
}

/** The same trade asked as an exact output: 990000 of TOKEN_OUT (gross, ERC-20 units). */
export const buyRequest: ExactOutputSourceRequest = {
  tokenIn: TOKEN_IN,
  tokenOut: TOKEN_OUT,
  amountOut: 990_000n,
  snapshot: worldAllowing(),
  nativeToTokenIn: (wei) => wei / 10n ** 12n,
  slippageBps: 50,
  sender: SENDER,
}

/** Runs an effect to its Exit: the tests look at failures as values. */
export const exitOf = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromiseExit(effect)

export const failureOf = async <A, E>(effect: Effect.Effect<A, E>): Promise<E> => {
  const result = await Effect.runPromise(Effect.flip(effect))
  return result
}
