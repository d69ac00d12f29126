// One exchange with an aggregator over real HTTP: the answer's body is limited
// while it is read. A server that streams without end (or far past the limit)
// is cut off once the limit is passed, and what was read is all that was held;
// a slow body or a server that never answers is let go at the caller's budget,
// its connection closed; a redirect is refused.
import { afterAll, describe, expect, test } from "bun:test"
import { HttpClientRequest } from "@effect/platform"
import { Cause, Effect, Either, Exit } from "effect"
import { exchange, MAX_ANSWER_BYTES } from "../../src/sources/http.ts"

const CHUNK = new Uint8Array(64 * 1024).fill(0x20)

/** A server streaming `total` bytes of spaces (endless when undefined) without a Content-Length, counting what it has handed to the connection. */
const streamingServer = (total: number | undefined) => {
  const state = { sent: 0 }
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch: () =>
      new Response(
        new ReadableStream<Uint8Array>({
          pull(controller) {
            if (total !== undefined && state.sent >= total) return controller.close()
            const chunk = total === undefined ? CHUNK : CHUNK.subarray(0, Math.min(CHUNK.length, total - state.sent))
            state.sent += chunk.length
            controller.enqueue(chunk)
          },
        }),
        { headers: { "content-type": "application/json" } },
      ),
  })
  return { url: `http://127.0.0.1:${server.port}/quote`, state, stop: () => server.stop(true) }
}

const servers: Array<{ stop: () => unknown }> = []
afterAll(() => {
  for (const s of servers) s.stop()
})

const ask = (url: string) => Effect.runPromise(Effect.either(exchange("test-aggregator", HttpClientRequest.get(url))))

describe("the answer's body", () => {
  test("an endless body is cut off just past the limit: the exchange fails as unavailable and the server's stream stops", async () => {
    const server = streamingServer(undefined)
    servers.push(server)
    const started = performance.now()
    const result = await ask(server.url)
    expect(performance.now() - started).toBeLessThan(10_000)
    expect(Either.isLeft(result) && result.left).toMatchObject({ source: "test-aggregator", reason: "unavailable", message: `answer is over the ${MAX_ANSWER_BYTES}-byte limit` })
    // what the server produced, buffered in the sockets on the way included, stays within a few times the limit
    await Bun.sleep(200)
    const after = server.state.sent
    expect(after).toBeLessThan(16 * MAX_ANSWER_BYTES)
    await Bun.sleep(300)
    expect(server.state.sent).toBe(after)
  }, 20_000)

  test("a body past the limit without a Content-Length is refused; one at the limit is read", async () => {
    const over = streamingServer(MAX_ANSWER_BYTES + 1)
    const at = streamingServer(MAX_ANSWER_BYTES)
    servers.push(over, at)
    expect(Either.isLeft(await ask(over.url))).toBe(true)
    const read = await ask(at.url)
    // a megabyte of spaces is not JSON: the answer arrives, with no parsed body
    expect(Either.isRight(read) && read.right).toEqual({ status: 200, json: undefined })
  })

  test("a declared Content-Length over the limit is refused before the body is read", async () => {
    const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response(new Uint8Array(MAX_ANSWER_BYTES + 1).fill(0x20)) })
    servers.push({ stop: () => server.stop(true) })
    const result = await ask(`http://127.0.0.1:${server.port}/`)
    expect(Either.isLeft(result) && result.left.message).toBe(`answer of ${MAX_ANSWER_BYTES + 1} bytes is over the ${MAX_ANSWER_BYTES}-byte limit`)
  })

  test("a compressed body is counted as it decompresses: a small gzip of a huge answer is refused", async () => {
    const bomb = Bun.gzipSync(new Uint8Array(64 * MAX_ANSWER_BYTES).fill(0x20))
    expect(bomb.length).toBeLessThan(MAX_ANSWER_BYTES)
    const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response(bomb, { headers: { "content-encoding": "gzip", "content-type": "application/json" } }) })
    servers.push({ stop: () => server.stop(true) })
    const result = await ask(`http://127.0.0.1:${server.port}/`)
    expect(Either.isLeft(result) && result.left.message).toBe(`answer is over the ${MAX_ANSWER_BYTES}-byte limit`)
  })

  test("a JSON answer under the limit is parsed", async () => {
    const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => Response.json({ buyAmount: "123", note: "é".repeat(1000) }) })
    servers.push({ stop: () => server.stop(true) })
    const result = await ask(`http://127.0.0.1:${server.port}/`)
    expect(Either.isRight(result) && result.right).toEqual({ status: 200, json: { buyAmount: "123", note: "é".repeat(1000) } })
  })

  test("a body that trickles is cut off at the caller's budget: the connection is closed and the server's stream stops", async () => {
    const state = { sent: 0, cancelled: false }
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: () =>
        new Response(
          new ReadableStream<Uint8Array>({
            async pull(controller) {
              await Bun.sleep(20)
              state.sent++
              controller.enqueue(CHUNK.subarray(0, 16))
            },
            cancel() {
              state.cancelled = true
            },
          }),
          { headers: { "content-type": "application/json" } },
        ),
    })
    servers.push({ stop: () => server.stop(true) })
    const started = performance.now()
    const result = await Effect.runPromise(Effect.either(Effect.timeout(exchange("test-aggregator", HttpClientRequest.get(`http://127.0.0.1:${server.port}/`)), "200 millis")))
    expect(performance.now() - started).toBeLessThan(1_000)
    expect(Either.isLeft(result) && result.left._tag).toBe("TimeoutException")
    await Bun.sleep(200)
    expect(state.cancelled).toBe(true)
    const after = state.sent
    await Bun.sleep(200)
    expect(state.sent).toBe(after)
  })

  test("a connection cut in the middle of the body is unavailable: the answer could not be read", async () => {
    const listener = Bun.listen({
      hostname: "127.0.0.1",
      port: 0,
      socket: {
        data(socket) {
          socket.write('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 1000\r\n\r\n{"buyAmount":')
          setTimeout(() => socket.end(), 20)
        },
      },
    })
    servers.push({ stop: () => listener.stop(true) })
    const exit = await Effect.runPromiseExit(exchange("test-aggregator", HttpClientRequest.get(`http://127.0.0.1:${listener.port}/`)))
    // a failure, not a defect: the body's stream is released cleanly after the cut
    expect(Exit.isFailure(exit) && !Cause.isDie(exit.cause)).toBe(true)
    const error = Exit.isFailure(exit) ? Cause.failureOption(exit.cause) : undefined
    expect(error?._tag === "Some" && error.value).toMatchObject({ source: "test-aggregator", reason: "unavailable" })
    expect(error?._tag === "Some" && error.value.message).toStartWith("answer could not be read: ")
  })
})

describe("the connection", () => {
  test("a server that never answers is left at the caller's budget, and sees the request go away", async () => {
    let gone = 0
    const server = Bun.serve({
      hostname: "127.0.0.1",
      port: 0,
      fetch: (request) =>
        new Promise<Response>(() => {
          request.signal.addEventListener("abort", () => gone++)
        }),
    })
    servers.push({ stop: () => server.stop(true) })
    const started = performance.now()
    const result = await Effect.runPromise(Effect.either(Effect.timeout(exchange("test-aggregator", HttpClientRequest.get(`http://127.0.0.1:${server.port}/`)), "200 millis")))
    expect(performance.now() - started).toBeLessThan(1_000)
    expect(Either.isLeft(result) && result.left._tag).toBe("TimeoutException")
    await Bun.sleep(100)
    // one request, not retried, and aborted
    expect(gone).toBe(1)
  })

  test("a redirect is not followed: the exchange fails as a failed connection and the other server is never asked", async () => {
    let elsewhere = 0
    const other = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => (elsewhere++, Response.json({ buyAmount: "1" })) })
    const redirecting = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => Response.redirect(`http://127.0.0.1:${other.port}/`, 302) })
    servers.push({ stop: () => other.stop(true) }, { stop: () => redirecting.stop(true) })
    const result = await ask(`http://127.0.0.1:${redirecting.port}/`)
    expect(Either.isLeft(result) && result.left).toMatchObject({ reason: "unavailable" })
    expect(Either.isLeft(result) && result.left.message).toStartWith("connection failed: ")
    expect(elsewhere).toBe(0)
  })
})
