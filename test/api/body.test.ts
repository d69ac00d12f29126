// The 16 KB body limit: a declared Content-Length over it is refused before any
// of the body arrives; a chunked body is refused as soon as it passes the limit,
// without reading the rest; the refusal is the spec's 413 INVALID_REQUEST body.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { BODY_LIMIT_BYTES } from "../../src/api/index.ts"
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
