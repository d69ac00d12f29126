// eth_simulateV1's request as this service writes it against the one viem's
// simulateBlocks writes for the same blocks, and the answer read the same way
// (status, return or revert data, gas used), through a transport that records
// what is sent and answers as a node does.
import { describe, expect, test } from "bun:test"
import { createPublicClient, custom, type Address, type Hex } from "viem"
import { simulatedCall, simulateParams, type SimulateBlock, type SimulatedCallRpc } from "../../src/chain/simulate-request.ts"

const A = "0x1111111111111111111111111111111111111111" as Address
const B = "0x2222222222222222222222222222222222222222" as Address
const SLOT = `0x${"ab".repeat(32)}` as Hex
const VALUE = `0x${"00".repeat(31)}07` as Hex

const ANSWER = [
  {
    number: "0x65",
    calls: [
      { status: "0x1", returnData: `0x${"00".repeat(31)}2a`, gasUsed: "0x1d4c0", logs: [{ address: A, topics: [SLOT], data: "0x", blockNumber: "0x65", logIndex: "0x0", transactionIndex: "0x0", transactionHash: SLOT, blockHash: SLOT }] },
      { status: "0x0", returnData: "0x", gasUsed: "0x5208", error: { code: 3, message: "execution reverted", data: "0x08c379a0" } },
      { status: "0x0", returnData: "0x", gasUsed: "0x30d40" },
    ],
  },
]

/** A client whose node records each request and answers ANSWER. */
const recording = () => {
  const sent: unknown[] = []
  const client = createPublicClient({
    transport: custom({
      request: async ({ method, params }: { method: string; params: unknown }) => {
        sent.push(JSON.parse(JSON.stringify({ method, params })))
        return ANSWER
      },
    }),
  })
  return { client, sent }
}

const BLOCKS: SimulateBlock[] = [
  {
    blockOverrides: { number: 101n, time: 1_700_000_001n },
    stateOverrides: [
      { address: A, balance: 10n ** 24n },
      { address: B, stateDiff: [{ slot: SLOT, value: VALUE }] },
      { address: "0x3333333333333333333333333333333333333333", code: "0x6000", nonce: 3 },
    ],
    calls: [
      { from: A, to: B, data: "0x12345678", value: 0n },
      { from: A, to: B, data: "0x", value: 5n, gas: 210_000n },
      { to: B, data: "0xabcdef" },
    ],
  },
  { blockOverrides: { time: 1_700_000_100n }, calls: [{ to: A, data: "0x70a08231" }] },
]

describe("eth_simulateV1 request and answer", () => {
  for (const blockNumber of [100n, undefined]) {
    test(`the same request as viem's simulateBlocks (${blockNumber === undefined ? "latest" : `on block ${blockNumber}`})`, async () => {
      const viem = recording()
      await viem.client.simulateBlocks({
        ...(blockNumber !== undefined ? { blockNumber } : {}),
        blocks: BLOCKS.map((b) => ({ ...b, calls: b.calls.map(({ from, ...c }) => ({ ...c, ...(from !== undefined ? { account: from } : {}) })) })) as never,
      })
      const ours = { method: "eth_simulateV1", params: JSON.parse(JSON.stringify(simulateParams(BLOCKS, blockNumber))) }
      expect(ours).toEqual(viem.sent[0] as never)
    })
  }

  test("the answer read as viem reads it: success, return or revert data, gas used", async () => {
    const viem = recording()
    const [block] = await viem.client.simulateBlocks({ blocks: [{ calls: [{ to: A, data: "0x" }, { to: A, data: "0x" }, { to: A, data: "0x" }] }] })
    const theirs = block!.calls.map((c) => ({ success: c.status === "success", data: (c as { data: Hex }).data ?? "0x", gasUsed: c.gasUsed }))
    expect((ANSWER[0]!.calls as readonly SimulatedCallRpc[]).map(simulatedCall)).toEqual(theirs)
    expect(theirs.map((c) => c.success)).toEqual([true, false, false])
    expect(theirs[1]!.data).toBe("0x08c379a0")
  })
})
