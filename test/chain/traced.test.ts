// Spans where a tracer records them: under a tracer set by a layer, `traced` runs
// its effect in a span (named, with its attributes, under the span around it),
// and the node reads are spanned as the market bench times them; under Effect's
// own tracer no span is made, and the effect's value or failure passes as it is.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { Effect, Either, Layer, Option, Tracer } from "effect"
import { parseAbi, type Address } from "viem"
import { makeRpc, read, traced } from "../../src/chain/index.ts"
import { testAccounts } from "../../src/devnet/index.ts"
import { startTestDevnet, type TestDevnet } from "../support/devnet.ts"

/** A tracer recording each span's name, attributes and parent's name as it ends. */
const recorder = () => {
  const native = Effect.runSync(Effect.tracerWith(Effect.succeed))
  const ended: Array<{ readonly name: string; readonly parent: string | undefined; readonly attributes: Record<string, unknown> }> = []
  const tracer = Tracer.make({
    context: native.context,
    span: (name, parent, context, links, startTime, kind, options) => {
      const span = native.span(name, parent, context, links, startTime, kind, options)
      const end = span.end.bind(span)
      span.end = (endTime, exit) => {
        end(endTime, exit)
        const parentName = Option.isSome(parent) && parent.value._tag === "Span" ? parent.value.name : undefined
        ended.push({ name, parent: parentName, attributes: Object.fromEntries(span.attributes) })
      }
      return span
    },
  })
  return { ended, layer: Layer.setTracer(tracer) }
}

const spanName = Effect.map(Effect.currentSpan, (span) => span.name)

describe("traced", () => {
  test("under a tracer that records: a span around the effect, named, with its attributes, inside the span around it", async () => {
    const { ended, layer } = recorder()
    const inner = traced("inner", { attributes: { pools: 3 } })(spanName)
    const result = await Effect.runPromise(traced("outer")(Effect.zip(inner, spanName)).pipe(Effect.provide(layer)))
    expect(result).toEqual(["inner", "outer"])
    expect(ended).toEqual([
      { name: "inner", parent: "outer", attributes: { pools: 3 } },
      { name: "outer", parent: undefined, attributes: {} },
    ])
  })

  test("under Effect's own tracer: no span is made, and the value or failure is the effect's own", async () => {
    const inside = await Effect.runPromise(Effect.either(traced("outer")(spanName)))
    expect(Either.isLeft(inside)).toBe(true)
    expect(await Effect.runPromise(traced("x")(Effect.succeed(7)))).toBe(7)
    expect(await Effect.runPromise(Effect.flip(traced("x")(Effect.fail("refused"))))).toBe("refused")
  })
})

describe("the node reads", () => {
  let devnet: TestDevnet
  beforeAll(async () => {
    devnet = await startTestDevnet()
  })
  afterAll(async () => {
    await devnet?.stop()
  })

  test("are spanned under a tracer that records: a multicall's eth_call inside its own span, the head on its own", async () => {
    const { ended, layer } = recorder()
    const eurc = devnet.manifest.tokens.EURC!.address as Address
    const rpc = await Effect.runPromise(makeRpc({ urls: [devnet.manifest.rpcUrl], chainId: 5042, multicall3: devnet.manifest.multicall3 as Address, timeoutMs: 2_000 }))
    const balanceOf = parseAbi(["function balanceOf(address) view returns (uint256)"])
    await Effect.runPromise(
      Effect.zip(rpc.blockNumber(), rpc.multicall([read({ address: eurc, abi: balanceOf, functionName: "balanceOf", args: [testAccounts[0]!.address] })])).pipe(Effect.provide(layer)),
    )
    expect(ended.map(({ name, parent }) => ({ name, parent }))).toEqual([
      { name: "Rpc.blockNumber", parent: undefined },
      { name: "Rpc.call", parent: "Rpc.multicall" },
      { name: "Rpc.multicall", parent: undefined },
    ])
  })
})
