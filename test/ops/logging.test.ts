// Log output: one JSON object per line with timestamp, level, message and the
// request id of the request that wrote it (LOG_FORMAT=json, the default), or
// logfmt lines (LOG_FORMAT=text).
import { describe, expect, test } from "bun:test"
import { Cause, Effect } from "effect"
import { syntheticPrograms, syntheticQuote } from "../../src/api/index.ts"
import { jsonLogger, loggerLayer } from "../../src/ops/index.ts"
import { expectError, post, quoteBody, startTestApi } from "../api/support.ts"
import { fixedAmount } from "../../src/domain/index.ts"

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

describe("the JSON logger", () => {
  test("one object per line: timestamp, level, message, annotations as fields, cause", () => {
    const lines: string[] = []
    Effect.runSync(
      Effect.all([
        Effect.logInfo("plain"),
        Effect.logWarning("two", "parts", { n: 1n }).pipe(Effect.annotateLogs({ requestId: "r-1", pool: "0xabc" })),
        Effect.logError("failed", Cause.fail(new Error("boom"))),
        Effect.logDebug("hidden below the minimum level"),
      ]).pipe(Effect.provide(loggerLayer("json", (line) => lines.push(line)))),
    )
    expect(lines.length).toBe(3)
    const [plain, annotated, failed] = lines.map((l) => JSON.parse(l))
    expect(Object.keys(plain)).toEqual(["timestamp", "level", "message", "fiber"])
    expect(plain.timestamp).toMatch(ISO)
    expect(plain).toMatchObject({ level: "info", message: "plain" })
    expect(annotated).toMatchObject({ level: "warn", message: 'two parts {"n":"1"}', requestId: "r-1", pool: "0xabc" })
    expect(failed.level).toBe("error")
    expect(failed.message).toBe("failed")
    expect(failed.cause).toContain("boom")
    for (const line of lines) expect(line).not.toContain("\n")
  })

  test("annotations cannot overwrite the fixed fields", () => {
    const lines: string[] = []
    Effect.runSync(Effect.logInfo("real").pipe(Effect.annotateLogs({ message: "fake", level: "fake" }), Effect.provide(loggerLayer("json", (l) => lines.push(l)))))
    expect(JSON.parse(lines[0]!)).toMatchObject({ message: "real", level: "info" })
    expect(jsonLogger).toBeFunction()
  })
})

describe("a server's logs", () => {
  test("LOG_FORMAT=json: what a request's program logs, and its failure, carry the response's X-Request-Id", async () => {
    const lines: string[] = []
    const api = await startTestApi({
      env: { LOG_LEVEL: "info" },
      programs: syntheticPrograms({
        quote: (r) => (fixedAmount(r) === 666n ? Effect.dieMessage("the program broke") : Effect.as(Effect.logInfo("quoting"), syntheticQuote(r))),
      }),
      log: (line) => lines.push(line),
    })
    try {
      const entries = () => lines.map((l) => JSON.parse(l))
      expect(entries().some((e) => e.level === "info" && e.message.startsWith("API listening on http://127.0.0.1:"))).toBe(true)
      const { key } = await api.newKey()
      const ok = await post(api, "/api/v1/quote", quoteBody(), { "x-api-key": key })
      expect(ok.status).toBe(200)
      const quoting = entries().filter((e) => e.message === "quoting")
      expect(quoting).toHaveLength(1)
      expect(quoting[0].requestId).toBe(ok.headers.get("x-request-id"))

      const broken = await post(api, "/api/v1/quote", quoteBody({ amountIn: "666" }), { "x-api-key": key })
      expectError(broken, 502, "INTERNAL")
      const defect = entries().find((e) => e.level === "error" && e.message.startsWith("POST /api/v1/quote: defect"))
      expect(defect.requestId).toBe(broken.body.requestId)
      expect(defect.message).toContain("the program broke")
    } finally {
      await api.close()
    }
  })

  test("LOG_FORMAT=text: logfmt lines, the request id as a field", async () => {
    const lines: string[] = []
    const api = await startTestApi({
      env: { LOG_LEVEL: "info", LOG_FORMAT: "text" },
      programs: syntheticPrograms({ quote: (r) => Effect.as(Effect.logWarning("slow source"), syntheticQuote(r)) }),
      log: (line) => lines.push(line),
    })
    try {
      const { key } = await api.newKey()
      const ok = await post(api, "/api/v1/quote", quoteBody(), { "x-api-key": key })
      const line = lines.find((l) => l.includes('message="slow source"'))!
      expect(line).toMatch(/^timestamp=\S+ level=WARN fiber=#\d+ message="slow source" requestId=[0-9a-f-]{36}$/)
      expect(line).toContain(`requestId=${ok.headers.get("x-request-id")}`)
    } finally {
      await api.close()
    }
  })
})
