// The committed OpenAPI document is the one the code generates, and it says
// what the edge does: every path, every error status with its codes, the headers.
import { describe, expect, test } from "bun:test"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { ERROR_TABLE, openApiJson } from "../../src/api/index.ts"

const committed = readFileSync(join(import.meta.dir, "..", "..", "openapi.json"), "utf8")
const document = JSON.parse(committed)

describe("openapi.json", () => {
  test("is what the code generates now (run `bun run openapi` after changing the API)", () => {
    expect(openApiJson()).toBe(committed)
  })
  test("its description names both trade types and both chains", () => {
    for (const words of ["exact input (amountIn)", "exact output (amountOut)", "5042", "5042002"]) expect(document.info.description).toContain(words)
  })
  test("is OpenAPI 3.1 with the seven endpoints, POST only, behind an API key in either header", () => {
    expect(document.openapi).toBe("3.1.0")
    expect(Object.keys(document.paths).sort()).toEqual([
      "/api/v1/gasless/quote", "/api/v1/gasless/status", "/api/v1/gasless/submit", "/api/v1/quote", "/api/v1/sources", "/api/v1/swap", "/api/v1/tokens",
    ])
    for (const item of Object.values<Record<string, unknown>>(document.paths)) expect(Object.keys(item)).toEqual(["post"])
    expect(document.components.securitySchemes).toEqual({
      apiKey: { type: "apiKey", name: "x-api-key", in: "header" },
      bearer: { type: "http", scheme: "bearer" },
    })
  })
  test("every error of the edge's table is documented on every endpoint, at its status, with its code", () => {
    for (const [path, item] of Object.entries<any>(document.paths)) {
      for (const [tag, { status, code }] of Object.entries(ERROR_TABLE)) {
        const response = item.post.responses[String(status)]
        expect(response, `${path} ${tag}`).toBeDefined()
        const schema = document.components.schemas[response.content["application/json"].schema.$ref.split("/").at(-1)]
        expect(schema.properties.error.properties.code.enum, `${path} ${tag}`).toContain(code)
      }
    }
  })
  test("headers: X-Request-Id on every answer, the rate-limit headers once a key was accepted, Retry-After on 429 and 503, Allow on 405", () => {
    for (const item of Object.values<any>(document.paths)) {
      for (const [status, response] of Object.entries<any>(item.post.responses)) {
        const names = Object.keys(response.headers)
        expect(names).toContain("X-Request-Id")
        const keyed = !["401", "404", "405"].includes(status)
        for (const h of ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"]) expect(names.includes(h)).toBe(keyed)
        expect(names.includes("Retry-After")).toBe(status === "429" || status === "503")
        expect(names.includes("Allow")).toBe(status === "405")
      }
      const requestHeaders = item.post.parameters.filter((p: any) => p.in === "header").map((p: any) => p.name)
      expect(requestHeaders).toEqual(["x-request-id"])
    }
  })
  test("the request bodies are the edge's fields, required as the spec says", () => {
    const body = (path: string) => document.paths[path].post.requestBody.content["application/json"].schema
    expect(body("/api/v1/quote").required).toEqual(["tokenIn", "tokenOut"])
    expect(body("/api/v1/quote").oneOf).toEqual([{ required: ["amountIn"] }, { required: ["amountOut"] }])
    expect(body("/api/v1/swap").oneOf).toEqual([{ required: ["amountIn"] }, { required: ["amountOut"] }])
    expect(Object.keys(body("/api/v1/quote").properties)).toEqual(["tokenIn", "tokenOut", "amountIn", "amountOut", "feeBps", "feeRecipient", "slippageBps", "chainId", "includeSources", "excludeSources"])
    expect(body("/api/v1/swap").required).toEqual(["tokenIn", "tokenOut", "sender"])
    expect(Object.keys(body("/api/v1/swap").properties)).toEqual([
      "tokenIn", "tokenOut", "amountIn", "amountOut", "feeBps", "feeRecipient", "slippageBps", "chainId", "includeSources", "excludeSources", "sender", "recipient", "deadline", "quoteId", "permit",
    ])
    expect(body("/api/v1/quote").additionalProperties).toBe(false)
    expect(body("/api/v1/gasless/quote").required).toEqual(["tokenIn", "tokenOut", "sender"])
    expect(body("/api/v1/gasless/quote").oneOf).toEqual([{ required: ["amountIn"] }, { required: ["amountOut"] }])
    expect(Object.keys(body("/api/v1/gasless/quote").properties)).toEqual([
      "tokenIn", "tokenOut", "amountIn", "amountOut", "feeBps", "feeRecipient", "slippageBps", "chainId", "includeSources", "excludeSources", "sender", "recipient", "deadline",
    ])
    const component = (path: string) => document.components.schemas[body(path).$ref.split("/").at(-1)]
    expect(component("/api/v1/gasless/submit").required).toEqual(["order", "signature"])
    expect(component("/api/v1/gasless/status").required).toEqual(["tradeHash"])
  })
})
