// The one table from tagged errors to the spec's answers: what a reverting
// contract can put in front of a client is bounded.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Effect } from "effect"
import { encodeErrorResult, parseAbi } from "viem"
import { renderError, syntheticPrograms, syntheticSwap } from "../../src/api/index.ts"
import { SimulationFailed } from "../../src/swap/index.ts"
import { revertReason } from "../../src/swap/swap.ts"
import { post, startTestApi, swapBody, type TestApi } from "./support.ts"
import { fixedAmount } from "../../src/domain/index.ts"

/** what a token reverting with `require(false, text)` returns */
const revertData = (text: string) => encodeErrorResult({ abi: parseAbi(["error Error(string)"]), errorName: "Error", args: [text] })
const simulationFailed = (text: string) => new SimulationFailed({ reason: revertReason(revertData(text))! })

describe("SIMULATION_FAILED reasons", () => {
  test("a revert string of up to 200 characters is sent whole", () => {
    const text = "ERC20: transfer amount exceeds allowance".padEnd(200, ".")
    expect(renderError(simulationFailed(text))).toMatchObject({ status: 409, code: "SIMULATION_FAILED", reason: text, message: `the transaction would revert: ${text}` })
  })

  test("a longer one is cut to 200 characters, the last one …", () => {
    const text = "x".repeat(100_000)
    const rendered = renderError(simulationFailed(text))
    expect(rendered.reason).toBe(`${"x".repeat(199)}…`)
    expect(rendered.message).toBe(`the transaction would revert: ${"x".repeat(199)}…`)
  })

  test("characters outside the BMP are counted and cut whole", () => {
    const text = "🦄".repeat(300)
    expect(renderError(simulationFailed(text)).reason).toBe(`${"🦄".repeat(199)}…`)
  })

  test("over HTTP: the body carries the cut reason", async () => {
    const api: TestApi = await startTestApi({
      programs: syntheticPrograms({ swap: (r) => (fixedAmount(r) === 21n ? Effect.fail(simulationFailed("revert ".repeat(10_000))) : Effect.succeed(syntheticSwap(r))) }),
    })
    try {
      const { key } = await api.newKey({ rpm: 100 })
      const res = await post(api, "/api/v1/swap", swapBody({ amountIn: "21" }), { "x-api-key": key })
      expect(res.status).toBe(409)
      expect(res.body.error.reason).toBe(`${"revert ".repeat(10_000).slice(0, 199)}…`)
      expect(res.text.length).toBeLessThan(1_000)
    } finally {
      await api.close()
    }
  })
})
