// The 16 KB body limit: a declared Content-Length over it is refused before any
// of the body arrives; a chunked body is refused as soon as it passes the limit,
// without reading the rest; the refusal is the spec's 413 INVALID_REQUEST body.
// The body's deadline: a body still incomplete after BODY_TIMEOUT_MS is refused
// with 400 INVALID_REQUEST and the request's slots are given back.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test"
import { Effect, Either } from "effect"
import { BODY_LIMIT_BYTES } from "../../src/api/index.ts"
import { loadAppConfig } from "../../src/config/index.ts"
import { answer, expectError, expectRequestId, parseRaw, post, quoteBody, rawExchange, startTestApi, type TestApi } from "./support.ts"

let api: TestApi
let key: string
beforeAll(async () => {
  api = await startTestApi()
  key = (await api.newKey({ rpm: 1000 })).key
})
afterAll(() => api.close())

const head = (extra: string[]) =>
  ["POST /api/v1/quote HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/json", `x-api-key: ${key}`, ...extra, "", ""].join("\r\n")

/** a valid quote body padded with spaces to exactly n bytes */
const padded = (n: number) => {
  const json = JSON.stringify(quoteBody())
  return json + " ".repeat(n - json.length)
}

describe("413 INVALID_REQUEST", () => {
  test("the limit is 16 KB", () => {
    expect(BODY_LIMIT_BYTES).toBe(16384)
  })

  test("a body of exactly 16384 bytes is read; 16385 is refused", async () => {
    expect((await post(api, "/api/v1/quote", padded(16384), { "x-api-key": key })).status).toBe(200)
    const over = await post(api, "/api/v1/quote", padded(16385), { "x-api-key": key })
    expectError(over, 413, "INVALID_REQUEST", "body: larger than 16384 bytes")
  })

  test("a large Content-Length is refused before the body is sent", async () => {
    // headers only: the server must answer without waiting for the 100 MB it was promised
    const { text, closedByServer } = await rawExchange(api.port, [head(["Content-Length: 100000000"])], 3000)
    const a = parseRaw(text)
    expectError(a, 413, "INVALID_REQUEST", "body: larger than 16384 bytes")
    expect(a.headers.get("connection")).toBe("close")
    expect(closedByServer).toBe(true)
  })

  test("a chunked body is refused once it passes 16 KB, without reading the rest", async () => {
    // 17 chunks of 1 KB, then the connection stays open without the terminating chunk:
    // the answer must come from what was read, not from the end of the body
    const chunk = `400\r\n${" ".repeat(1024)}\r\n`
    const { text } = await rawExchange(api.port, [head(["Transfer-Encoding: chunked"]), ...Array.from({ length: 17 }, () => chunk)], 3000, 5)
    const a = parseRaw(text)
    expectError(a, 413, "INVALID_REQUEST", "body: larger than 16384 bytes")
  })

  test("a small chunked body is fine", async () => {
    const body = JSON.stringify(quoteBody())
    const { text } = await rawExchange(api.port, [head(["Transfer-Encoding: chunked"]), `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`], 1000)
    const a = parseRaw(text)
    expect(a.status).toBe(200)
    expectRequestId(a)
  })

  test("the Content-Length check comes before the key check", async () => {
    const { text } = await rawExchange(api.port, [["POST /api/v1/quote HTTP/1.1", "Host: x", "Content-Type: application/json", "Content-Length: 20000", "", ""].join("\r\n")], 2000)
    expectError(parseRaw(text), 413, "INVALID_REQUEST")
  })

  test("a streamed request body from fetch past the limit", async () => {
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 40; i++) controller.enqueue(new Uint8Array(1024).fill(0x20))
        controller.close()
      },
    })
    const response = await fetch(api.url("/api/v1/quote"), { method: "POST", headers: { "content-type": "application/json", "x-api-key": key }, body: stream, duplex: "half" } as RequestInit)
    expectError(await answer(response), 413, "INVALID_REQUEST", "body: larger than 16384 bytes")
  })
})

describe("a body not received within BODY_TIMEOUT_MS: 400 INVALID_REQUEST, slots given back", () => {
  const DEADLINE_MS = 300
  const servers: TestApi[] = []
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close()
  })
  const start = async (env: Record<string, string> = {}) => {
    const server = await startTestApi({ env: { BODY_TIMEOUT_MS: String(DEADLINE_MS), ...env } })
    servers.push(server)
    return server
  }
  const headFor = (apiKey: string, extra: string[]) =>
    ["POST /api/v1/quote HTTP/1.1", "Host: 127.0.0.1", "Content-Type: application/json", `x-api-key: ${apiKey}`, ...extra, "", ""].join("\r\n")
  const body = JSON.stringify(quoteBody())
  /** headers promising the whole body, then only its first 10 bytes; the connection stays open */
  const partial = (apiKey: string) => [headFor(apiKey, [`Content-Length: ${body.length}`]), body.slice(0, 10)]

  test("the default deadline is 5000 ms; BODY_TIMEOUT_MS sets it", async () => {
    expect(Either.getOrThrow(await Effect.runPromise(Effect.either(loadAppConfig({})))).bodyTimeoutMs).toBe(5000)
    expect(Either.getOrThrow(await Effect.runPromise(Effect.either(loadAppConfig({ BODY_TIMEOUT_MS: "750" })))).bodyTimeoutMs).toBe(750)
    expect(Either.isLeft(await Effect.runPromise(Effect.either(loadAppConfig({ BODY_TIMEOUT_MS: "0" }))))).toBe(true)
  })

  test("part of a declared Content-Length: 400 at the deadline, and the key's slot is free again", async () => {
    const server = await start()
    const { key: oneAtATime } = await server.newKey({ concurrency: 1 })
    const started = performance.now()
    const slow = rawExchange(server.port, partial(oneAtATime), 5000)
    // while the body is awaited, the request holds the key's only slot
    await Bun.sleep(100)
    expectError(await post(server, "/api/v1/quote", quoteBody(), { "x-api-key": oneAtATime }), 429, "CONCURRENCY_LIMITED")
    const { text, closedByServer } = await slow
    const took = performance.now() - started
    const a = parseRaw(text)
    expectError(a, 400, "INVALID_REQUEST", `body: not received within ${DEADLINE_MS} ms`)
    // the rest of the body may still come: the connection is not reused
    expect(a.headers.get("connection")).toBe("close")
    expect(closedByServer).toBe(true)
    expect(took).toBeGreaterThanOrEqual(DEADLINE_MS - 20)
    expect(took).toBeLessThan(DEADLINE_MS + 1500)
    // the slot came back with the answer
    expect((await post(server, "/api/v1/quote", quoteBody(), { "x-api-key": oneAtATime })).status).toBe(200)
  })

  test("the server's in-flight slot is given back too", async () => {
    const server = await start({ MAX_IN_FLIGHT: "1" })
    const { key: k } = await server.newKey()
    const slow = rawExchange(server.port, partial(k), 5000)
    await Bun.sleep(100)
    expectError(await post(server, "/api/v1/quote", quoteBody(), { "x-api-key": k }), 503, "OVERLOADED")
    expectError(parseRaw((await slow).text), 400, "INVALID_REQUEST", `body: not received within ${DEADLINE_MS} ms`)
    expect((await post(server, "/api/v1/quote", quoteBody(), { "x-api-key": k })).status).toBe(200)
  })

  test("a chunked body trickled one byte at a time: 400 at the deadline, not at its end", async () => {
    const server = await start()
    const { key: k } = await server.newKey({ concurrency: 1 })
    const started = performance.now()
    // 40 one-byte chunks, 50 ms apart: 2 s in all, never finished
    const { text } = await rawExchange(server.port, [headFor(k, ["Transfer-Encoding: chunked"]), ...Array.from({ length: 40 }, () => "1\r\n \r\n")], 5000, 50)
    const took = performance.now() - started
    expectError(parseRaw(text), 400, "INVALID_REQUEST", `body: not received within ${DEADLINE_MS} ms`)
    expect(took).toBeGreaterThanOrEqual(DEADLINE_MS - 20)
    expect(took).toBeLessThan(1500)
    expect((await post(server, "/api/v1/quote", quoteBody(), { "x-api-key": k })).status).toBe(200)
  })

  test("a body that arrives in pieces within the deadline is answered", async () => {
    const server = await start()
    const { key: k } = await server.newKey()
    // the same body in three pieces after the headers, 60 ms apart: complete after 180 ms
    const pieces = [body.slice(0, 10), body.slice(10, 40), body.slice(40)]
    const declared = await rawExchange(server.port, [headFor(k, [`Content-Length: ${body.length}`]), ...pieces], 800, 60)
    expect(parseRaw(declared.text).status).toBe(200)
    const chunks = pieces.map((p) => `${p.length.toString(16)}\r\n${p}\r\n`)
    chunks[2] += "0\r\n\r\n"
    const chunked = await rawExchange(server.port, [headFor(k, ["Transfer-Encoding: chunked"]), ...chunks], 800, 60)
    expect(parseRaw(chunked.text).status).toBe(200)
  })
})
