// The node proxy (src/devnet/node-proxy.ts) in a child process of its own, as a
// node is reached over the network: a benchmark timing the service's block step
// in its own process then pays for its own requests only, not for relaying
// them too. `bun bench/support/node-proxy-process.ts <nodeUrl> <limits.json>`
// prints {url} as one JSON line, then answers each line on its stdin
// ("counts", "reset") with one JSON line, and stops when its stdin closes.
import { startNodeProxy, type NodeProxyCounts, type NodeProxyLimits } from "../../src/devnet/index.ts"

export interface NodeProxyProcess {
  readonly url: string
  readonly counts: () => Promise<NodeProxyCounts>
  readonly resetCounts: () => Promise<void>
  readonly stop: () => Promise<void>
}

/** The proxy in front of `nodeUrl` in a child process; `stop` ends it. */
export const startNodeProxyProcess = async (nodeUrl: string, limits: NodeProxyLimits): Promise<NodeProxyProcess> => {
  const child = Bun.spawn([process.execPath, import.meta.path, nodeUrl, JSON.stringify(limits)], { stdin: "pipe", stdout: "pipe", stderr: "inherit" })
  const reader = child.stdout.getReader()
  const decoder = new TextDecoder()
  let buffered = ""
  const line = async (): Promise<string> => {
    while (!buffered.includes("\n")) {
      const next = await reader.read()
      if (next.done) throw new Error("the node proxy's process ended")
      buffered += decoder.decode(next.value, { stream: true })
    }
    const at = buffered.indexOf("\n")
    const out = buffered.slice(0, at)
    buffered = buffered.slice(at + 1)
    return out
  }
  // one question at a time: each answer is the next line
  let queue: Promise<unknown> = Promise.resolve()
  const ask = <A>(question: string): Promise<A> => {
    const answer = queue.then(async () => {
      child.stdin.write(`${question}\n`)
      await child.stdin.flush()
      return JSON.parse(await line()) as A
    })
    queue = answer.catch(() => undefined)
    return answer
  }
  const { url } = JSON.parse(await line()) as { url: string }
  return {
    url,
    counts: () => ask<NodeProxyCounts>("counts"),
    resetCounts: () => ask<null>("reset").then(() => undefined),
    stop: async () => {
      child.stdin.end()
      const killer = setTimeout(() => child.kill("SIGKILL"), 10_000)
      await child.exited
      clearTimeout(killer)
    },
  }
}

if (import.meta.main) {
  const proxy = await startNodeProxy(process.argv[2]!, JSON.parse(process.argv[3]!) as NodeProxyLimits)
  console.log(JSON.stringify({ url: proxy.url }))
  let pending = ""
  for await (const chunk of Bun.stdin.stream()) {
    pending += new TextDecoder().decode(chunk)
    let at: number
    while ((at = pending.indexOf("\n")) >= 0) {
      const question = pending.slice(0, at).trim()
      pending = pending.slice(at + 1)
      if (question === "counts") console.log(JSON.stringify(proxy.counts()))
      else if (question === "reset") {
        proxy.resetCounts()
        console.log("null")
      }
    }
  }
  await proxy.stop()
}
