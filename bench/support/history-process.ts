// A devnet with a market history (bench/market-history) and the node proxy in
// front of it, in a child process of their own, as a node is to the service:
// a benchmark timing the service's block step in its own process then pays for
// the service's own work and requests only, not for relaying them to the node
// (the devnet's fee-floor relay and the proxy) or for making the blocks.
// `bun bench/support/history-process.ts <spec.json>` prints the manifest, the
// first block and the proxy's URL as one JSON line, then answers each JSON line
// on its stdin ({q: "counts" | "reset" | "touch" | "confirm"}) with one JSON
// line, and stops the proxy and the devnet when its stdin closes.
import { Schema } from "effect"
import { decodeManifest, Manifest, startNodeProxy, type NodeProxyCounts, type NodeProxyLimits } from "../../src/devnet/index.ts"
import { startHistoryDevnet } from "../market-history/index.ts"

export interface HistorySpec {
  readonly pools: number
  readonly blocks: number
  readonly swaps: number
  readonly limits: NodeProxyLimits
}

export interface HistoryProcess {
  readonly manifest: Manifest
  /** the block before the first factory deployment (MARKET_FROM_BLOCK) */
  readonly fromBlock: bigint
  /** the node proxy's URL: the service's RPC_URL */
  readonly url: string
  /** the node's own endpoint (the devnet's fee relay in front of anvil), without the proxy */
  readonly nodeUrl: string
  readonly counts: () => Promise<NodeProxyCounts>
  readonly resetCounts: () => Promise<void>
  /** one transaction swapping on `count` pools: its block once mined, and the check that it succeeded, to run later */
  readonly sendTouch: (count: number) => Promise<{ readonly block: bigint; readonly confirmed: () => Promise<void> }>
  readonly stop: () => Promise<void>
}

type Question = { readonly q: "counts" } | { readonly q: "reset" } | { readonly q: "touch"; readonly count: number } | { readonly q: "confirm"; readonly id: number }

/** The history devnet and its proxy in a child process; `stop` ends both. */
export const startHistoryProcess = async (spec: HistorySpec): Promise<HistoryProcess> => {
  const child = Bun.spawn([process.execPath, import.meta.path, JSON.stringify(spec)], { stdin: "pipe", stdout: "pipe", stderr: "inherit" })
  const reader = child.stdout.getReader()
  const decoder = new TextDecoder()
  let buffered = ""
  const line = async (): Promise<unknown> => {
    while (!buffered.includes("\n")) {
      const next = await reader.read()
      if (next.done) throw new Error("the history devnet's process ended")
      buffered += decoder.decode(next.value, { stream: true })
    }
    const at = buffered.indexOf("\n")
    const answer = JSON.parse(buffered.slice(0, at)) as { error?: string }
    buffered = buffered.slice(at + 1)
    if (typeof answer === "object" && answer !== null && answer.error !== undefined) throw new Error(answer.error)
    return answer
  }
  const stop = async () => {
    child.stdin.end()
    const killer = setTimeout(() => child.kill("SIGKILL"), 20_000)
    await child.exited
    clearTimeout(killer)
  }
  // one question at a time: each answer is the next line
  let queue: Promise<unknown> = Promise.resolve()
  const ask = <A>(question: Question): Promise<A> => {
    const answer = queue.then(async () => {
      child.stdin.write(`${JSON.stringify(question)}\n`)
      await child.stdin.flush()
      return (await line()) as A
    })
    queue = answer.catch(() => undefined)
    return answer
  }
  let started: { manifest: unknown; fromBlock: string; url: string; nodeUrl: string }
  try {
    started = (await line()) as typeof started
  } catch (e) {
    await stop()
    throw e
  }
  return {
    manifest: decodeManifest(started.manifest),
    fromBlock: BigInt(started.fromBlock),
    url: started.url,
    nodeUrl: started.nodeUrl,
    counts: () => ask<NodeProxyCounts>({ q: "counts" }),
    resetCounts: () => ask({ q: "reset" }).then(() => undefined),
    sendTouch: async (count) => {
      const { block, id } = await ask<{ block: string; id: number }>({ q: "touch", count })
      return { block: BigInt(block), confirmed: () => ask({ q: "confirm", id }).then(() => undefined) }
    },
    stop,
  }
}

if (import.meta.main) {
  const spec = JSON.parse(process.argv[2]!) as HistorySpec
  const say = (answer: unknown) => console.log(JSON.stringify(answer))
  const history = await startHistoryDevnet({ pools: spec.pools, blocks: spec.blocks, swaps: spec.swaps }).catch((e: unknown) => {
    say({ error: `the history devnet could not be built: ${String(e)}` })
    process.exit(1)
  })
  const proxy = await startNodeProxy(history.devnet.node.rpcUrl, spec.limits)
  say({ manifest: Schema.encodeSync(Manifest)(history.devnet.manifest), fromBlock: history.fromBlock.toString(), url: proxy.url, nodeUrl: history.devnet.node.rpcUrl })
  const checks = new Map<number, () => Promise<void>>()
  const answer = async (question: Question): Promise<unknown> => {
    switch (question.q) {
      case "counts":
        return proxy.counts()
      case "reset":
        proxy.resetCounts()
        return null
      case "touch": {
        const { block, confirmed } = await history.sendTouch(question.count)
        checks.set(checks.size, confirmed)
        return { block: block.toString(), id: checks.size - 1 }
      }
      case "confirm":
        await checks.get(question.id)!()
        return null
    }
  }
  let pending = ""
  for await (const chunk of Bun.stdin.stream()) {
    pending += new TextDecoder().decode(chunk)
    let at: number
    while ((at = pending.indexOf("\n")) >= 0) {
      const question = JSON.parse(pending.slice(0, at)) as Question
      pending = pending.slice(at + 1)
      say(await answer(question).catch((e: unknown) => ({ error: String(e) })))
    }
  }
  await proxy.stop()
  await history.stop()
}
