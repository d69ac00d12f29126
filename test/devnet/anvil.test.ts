// The node's start, when it cannot start: a busy port is PortInUseError naming
// it, anvil's own complaint ends the start at once, and no node is left.
import { afterEach, describe, expect, test } from "bun:test"
import { AnvilStartError, PortInUseError, startAnvil, type AnvilNode } from "../../src/devnet/anvil.ts"
import { answers, freePort, holdPort, nodesOnPort } from "../cli/processes.ts"

const nodes: AnvilNode[] = []
const held: Array<() => void> = []

afterEach(async () => {
  for (const release of held.splice(0)) release()
  await Promise.all(nodes.splice(0).map((n) => n.stop()))
})

/** How a start ended, and how long it took. */
const attempt = async (start: () => Promise<AnvilNode>) => {
  const started = Date.now()
  try {
    const node = await start()
    nodes.push(node)
    return { node, ms: Date.now() - started }
  } catch (error) {
    return { error, ms: Date.now() - started }
  }
}

describe("startAnvil refuses at once", () => {
  test("a port another process listens on", async () => {
    const { port, release } = holdPort()
    held.push(release)
    const { error, ms } = await attempt(() => startAnvil({ port }))
    expect(error).toBeInstanceOf(PortInUseError)
    expect((error as PortInUseError).message).toBe(`port ${port} on 127.0.0.1 is already in use`)
    expect(ms).toBeLessThan(2_000)
    expect(await nodesOnPort(port)).toEqual([])
  })

  test("a port taken between the check and the node's own listen: one node starts, the other is refused", async () => {
    const port = freePort()
    const results = await Promise.all([attempt(() => startAnvil({ port })), attempt(() => startAnvil({ port }))])
    const started = results.filter((r) => r.node !== undefined)
    const refused = results.filter((r) => r.error !== undefined)
    expect(started).toHaveLength(1)
    expect(refused).toHaveLength(1)
    expect(refused[0]!.error).toBeInstanceOf(PortInUseError)
    expect((refused[0]!.error as PortInUseError).port).toBe(port)
    expect(refused[0]!.ms).toBeLessThan(5_000)
    expect(await answers(`http://127.0.0.1:${port}`)).toBe("0x13b2")
    expect(await nodesOnPort(port)).toHaveLength(2) // the one node and its watchdog
  })

  test("anything else anvil reports, with its message", async () => {
    const port = freePort()
    const { error, ms } = await attempt(() => startAnvil({ port, loadState: "/nonexistent/state.json" }))
    expect(error).toBeInstanceOf(AnvilStartError)
    expect((error as AnvilStartError).message).toContain("anvil could not start:")
    expect((error as AnvilStartError).message).toContain("/nonexistent/state.json")
    expect(ms).toBeLessThan(5_000)
    expect(await nodesOnPort(port)).toEqual([])
  })
})
