// What the CLI tests look at from outside: a chain that answers, the processes
// a command left behind, ports held by another process; and what a test file
// starts and takes, given back after each test.
import { afterEach } from "bun:test"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

export const waitFor = async (check: () => boolean, ms: number, what: string) => {
  const until = Date.now() + ms
  while (!check()) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`)
    await Bun.sleep(50)
  }
}

/** The chain id a JSON-RPC endpoint answers, or undefined when nothing answers there. */
export const answers = async (rpcUrl: string) => {
  try {
    const res = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
      signal: AbortSignal.timeout(1000),
    })
    return ((await res.json()) as { result: string }).result
  } catch {
    return undefined
  }
}

export const alive = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}

/** The anvil processes started under a process (its descendants named anvil). */
export const anvilUnder = async (root: number): Promise<number[]> => {
  const table = await new Response(Bun.spawn(["ps", "-eo", "pid=,ppid=,comm="]).stdout).text()
  const rows = table.split("\n").map((l) => l.trim().split(/\s+/)).filter((r) => r.length === 3)
  const children = new Map<number, number[]>()
  for (const [pid, ppid] of rows) children.set(Number(ppid), [...(children.get(Number(ppid)) ?? []), Number(pid)])
  const found: number[] = []
  const walk = (pid: number) => {
    for (const child of children.get(pid) ?? []) {
      if (rows.find((r) => Number(r[0]) === child)?.[2] === "anvil") found.push(child)
      walk(child)
    }
  }
  walk(root)
  return found
}

/**
 * Processes, wherever they run, that are a node for the port: a watchdog whose
 * command line names the port its clients use (the node itself listens on a
 * port of its own behind the fee floor's relay) and the node it started.
 */
export const nodesOnPort = async (port: number): Promise<string[]> => {
  const table = await new Response(Bun.spawn(["ps", "-eo", "pid=,ppid=,args="]).stdout).text()
  const rows = table
    .split("\n")
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
  const watchdogs = rows.filter((m) => /anvil/.test(m[3]!) && new RegExp(`--port ${port}(\\s|$)`).test(m[3]!))
  const ids = new Set(watchdogs.map((m) => m[1]))
  const nodes = rows.filter((m) => ids.has(m[2]) && /anvil/.test(m[3]!))
  return [...watchdogs, ...nodes].map((m) => `${m[1]} ${m[3]}`)
}

/** A port another process finds taken: listened on by this one until `release`. */
export const holdPort = (): { readonly port: number; readonly release: () => void } => {
  const listener = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data() {} } })
  return { port: listener.port, release: () => listener.stop(true) }
}

/** A port nothing listens on right now. */
export const freePort = (): number => {
  const { port, release } = holdPort()
  release()
  return port
}

/**
 * What one CLI test file starts and takes, given back after each test: temporary directories,
 * spawned processes (killed), held ports (released).
 */
export const cliTestResources = (prefix: string) => {
  const dirs: string[] = []
  const procs: Bun.Subprocess[] = []
  const held: Array<() => void> = []
  afterEach(() => {
    for (const p of procs.splice(0)) p.kill("SIGKILL")
    for (const release of held.splice(0)) release()
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
  })
  return {
    tempDir: () => {
      const dir = mkdtempSync(join(tmpdir(), prefix))
      dirs.push(dir)
      return dir
    },
    track: <P extends Bun.Subprocess>(proc: P): P => {
      procs.push(proc)
      return proc
    },
    hold: () => {
      const port = holdPort()
      held.push(port.release)
      return port
    },
  }
}

/** The lines a process writes to `stream`, as they come (read in the background). */
export const linesOf = (stream: ReadableStream<Uint8Array>): string[] => {
  const lines: string[] = []
  void (async () => {
    let pending = ""
    for await (const chunk of stream) {
      pending += Buffer.from(chunk).toString("utf8")
      const parts = pending.split("\n")
      pending = parts.pop()!
      lines.push(...parts)
    }
  })()
  return lines
}

/** The chain-side variables a test's `bun run serve --manifest` must not inherit from this process. */
const SERVE_CHAIN_VARIABLES = ["CHAIN_ID", "RPC_URL", "EXECUTOR_ADDRESS", "KEY_HASH_SECRET", "ADMIN_PORT", "REDIS_URL", "MARKET_SNAPSHOT", "AGGREGATORS"]

/**
 * `bun run serve --manifest FILE` from the repository at `root` with `vars` (the chain from the
 * manifest, nothing inherited of it), tracked by `track`; `ready` waits for its "API ready" line
 * and answers the API's base URL.
 */
export const spawnServeOver = (
  root: string,
  track: <P extends Bun.Subprocess>(proc: P) => P,
  manifestPath: string,
  vars: Record<string, string>,
) => {
  const env: Record<string, string | undefined> = { ...process.env, PORT: "0", LOG_LEVEL: "error" }
  for (const name of SERVE_CHAIN_VARIABLES) delete env[name]
  Object.assign(env, vars)
  const proc = track(Bun.spawn([process.execPath, "run", "--silent", "serve", "--manifest", manifestPath], { cwd: root, env, stdout: "pipe", stderr: "pipe" }))
  const lines = linesOf(proc.stdout)
  const ready = async () => {
    await waitFor(() => lines.some((l) => l.startsWith("API ready at ")), 30_000, "the API")
    return lines.find((l) => l.startsWith("API ready at "))!.split(" ")[3]!
  }
  return { proc, ready }
}
