// X-Request-Id over real HTTP: a client's own id that is a safe token (1 to 64
// of A-Za-z0-9._-) is the request's id, in the response header, the body's
// requestId and the log lines; anything else is replaced by a fresh UUID.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Effect } from "effect"
import { syntheticPrograms, syntheticQuote } from "../../src/api/index.ts"
import { answer, parseRaw, post, quoteBody, rawExchange, startTestApi, type Answer, type TestApi } from "./support.ts"

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
const EVERY_SAFE_CHARACTER = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-"

let api: TestApi
let key: string
const logLines: string[] = []

beforeAll(async () => {
  api = await startTestApi({
    env: { LOG_LEVEL: "info" },
    // the quote program writes a log line while each request runs
    programs: syntheticPrograms({ quote: (r) => Effect.as(Effect.logWarning("slow source"), syntheticQuote(r)) }),
    log: (line) => logLines.push(line),
  })
  ;({ key } = await api.newKey({ rpm: 100_000 }))
})
afterAll(() => api.close())

const quote = (headers: Record<string, string>) => post(api, "/api/v1/quote", quoteBody(), { "x-api-key": key, ...headers })

/** The response's id is `id`: in the header and in the body. */
const expectId = (a: Answer, id: string) => {
  expect(a.headers.get("x-request-id")).toBe(id)
  expect(a.body.requestId).toBe(id)
}

/** The response's id is a fresh UUID, not what was sent. */
const expectFresh = (a: Answer, sent: string) => {
  const id = a.headers.get("x-request-id")!
  expect(id).toMatch(UUID)
  expect(id).not.toBe(sent)
  expect(a.body.requestId).toBe(id)
}

/** The messages logged under request id `id`. */
const loggedBy = (id: string) =>
  logLines.map((line) => JSON.parse(line) as { message: string; requestId?: string }).filter((e) => e.requestId === id).map((e) => e.message)

/** POST /quote written byte for byte, with `lines` as extra header lines. */
const rawQuote = async (lines: string[]) => {
  const body = JSON.stringify(quoteBody())
  const head = [
    "POST /api/v1/quote HTTP/1.1",
    `Host: 127.0.0.1:${api.port}`,
    "Content-Type: application/json",
    `X-Api-Key: ${key}`,
    `Content-Length: ${Buffer.byteLength(body)}`,
    "Connection: close",
    ...lines,
  ].join("\r\n")
  return parseRaw((await rawExchange(api.port, [`${head}\r\n\r\n${body}`])).text)
}

describe("a safe X-Request-Id is the request's id", () => {
  test("on an answer: the header and the body's requestId", async () => {
    const a = await quote({ "x-request-id": "order-42.retry_1" })
    expect(a.status).toBe(200)
    expectId(a, "order-42.retry_1")
  })

  test("every safe character, 64 of them (the longest accepted), and a single one", async () => {
    expect(EVERY_SAFE_CHARACTER).toHaveLength(65)
    const longest = EVERY_SAFE_CHARACTER.slice(0, 64)
    expectId(await quote({ "x-request-id": longest }), longest)
    expectId(await quote({ "x-request-id": EVERY_SAFE_CHARACTER.slice(1) }), EVERY_SAFE_CHARACTER.slice(1))
    expectId(await quote({ "x-request-id": "-" }), "-")
  })

  test("on errors too: before any key, unknown path, wrong method, bad key", async () => {
    const noKey = await post(api, "/api/v1/quote", quoteBody(), { "x-request-id": "no-key" })
    expect(noKey.status).toBe(401)
    expectId(noKey, "no-key")
    const unknown = await post(api, "/api/v1/nope", quoteBody(), { "x-request-id": "unknown-path" })
    expect(unknown.status).toBe(404)
    expectId(unknown, "unknown-path")
    const get = await answer(await fetch(api.url("/api/v1/quote"), { headers: { "x-request-id": "a-get" } }))
    expect(get.status).toBe(405)
    expectId(get, "a-get")
    const invalid = await post(api, "/api/v1/quote", quoteBody({ amountIn: "0" }), { "x-api-key": key, "x-request-id": "bad-amount" })
    expect(invalid.status).toBe(400)
    expectId(invalid, "bad-amount")
  })

  test("on the log lines written while the request runs", async () => {
    const a = await quote({ "x-request-id": "logged.request-1" })
    expect(a.status).toBe(200)
    expect(loggedBy("logged.request-1")).toEqual(["slow source"])
  })

  test("spaces around the value are not part of it (HTTP removes them)", async () => {
    expectId(await rawQuote(["X-Request-Id:   spaced-id  "]), "spaced-id")
  })
})

describe("anything else is replaced by a fresh UUID", () => {
  test("absent; the UUID is the log lines' id too", async () => {
    const a = await quote({})
    const id = a.headers.get("x-request-id")!
    expect(id).toMatch(UUID)
    expect(a.body.requestId).toBe(id)
    expect(loggedBy(id)).toEqual(["slow source"])
    const replaced = await quote({ "x-request-id": "not safe" })
    expectFresh(replaced, "not safe")
    expect(loggedBy(replaced.headers.get("x-request-id")!)).toEqual(["slow source"])
    expect(loggedBy("not safe")).toEqual([])
  })

  test("empty", async () => {
    expectFresh(await quote({ "x-request-id": "" }), "")
    expectFresh(await rawQuote(["X-Request-Id:"]), "")
  })

  test("65 characters", async () => {
    expect(EVERY_SAFE_CHARACTER).toHaveLength(65)
    expectFresh(await quote({ "x-request-id": EVERY_SAFE_CHARACTER }), EVERY_SAFE_CHARACTER)
    expectFresh(await quote({ "x-request-id": "a".repeat(1000) }), "a".repeat(1000))
  })

  for (const sent of ["order 42", "order/42", "order:42", "order,42", "order+42", "order~42", "order%2042", "<script>", "order\t42", "'42'", '"42"']) {
    test(`other characters: ${JSON.stringify(sent)}`, async () => {
      expectFresh(await quote({ "x-request-id": sent }), sent)
    })
  }

  test("a character outside ASCII", async () => {
    const sent = new Uint8Array([...new TextEncoder().encode("X-Request-Id: caf"), 0xe9])
    const body = JSON.stringify(quoteBody())
    const head = `POST /api/v1/quote HTTP/1.1\r\nHost: 127.0.0.1:${api.port}\r\nContent-Type: application/json\r\nX-Api-Key: ${key}\r\nContent-Length: ${body.length}\r\nConnection: close\r\n`
    const { text } = await rawExchange(api.port, [head, sent, `\r\n\r\n${body}`])
    expectFresh(parseRaw(text), "café")
  })

  test("two X-Request-Id headers (read as one list, \"a, b\")", async () => {
    expectFresh(await rawQuote(["X-Request-Id: first", "X-Request-Id: second"]), "first")
  })

  test("each replacement is its own", async () => {
    const ids = new Set<string>()
    for (let i = 0; i < 3; i++) ids.add((await quote({ "x-request-id": "not ok" })).headers.get("x-request-id")!)
    expect(ids.size).toBe(3)
  })
})
