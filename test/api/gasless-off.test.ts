// Without a relayer (RELAYER_PRIVATE_KEY unset) the gasless endpoints answer
// 404 NOT_FOUND saying gasless swaps are not enabled, behind the same edge as
// every endpoint: the key first (401), POST only (405), X-Request-Id, the
// rate-limit headers; a body, valid or not, is not looked at.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { post, startTestApi, type TestApi } from "./support.ts"

let api: TestApi
let key: string

beforeAll(async () => {
  api = await startTestApi()
  key = (await api.newKey()).key
})

afterAll(async () => {
  await api?.close()
})

describe("gasless endpoints without a relayer", () => {
  for (const path of ["/api/v1/gasless/quote", "/api/v1/gasless/submit", "/api/v1/gasless/status"]) {
    test(`${path}: 404 NOT_FOUND, gasless swaps are not enabled`, async () => {
      for (const body of [{}, "not json", { tradeHash: "0x12" }]) {
        const res = await post(api, path, body, { "x-api-key": key, "x-request-id": "gasless-off-1" })
        expect(res.status).toBe(404)
        expect(res.body).toEqual({
          error: { code: "NOT_FOUND", message: "gasless swaps are not enabled on this service: it has no relayer (RELAYER_PRIVATE_KEY)" },
          requestId: "gasless-off-1",
        })
        expect(res.headers.get("x-request-id")).toBe("gasless-off-1")
        expect(res.headers.get("x-ratelimit-limit")).toBe("1000")
      }
      // the edge comes first: no key, another method
      expect((await post(api, path, {})).status).toBe(401)
      const get = await fetch(api.url(path), { method: "GET", headers: { "x-api-key": key } })
      expect(get.status).toBe(405)
    })
  }
})
