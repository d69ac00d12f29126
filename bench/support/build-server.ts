// One build's API server as a child process, for comparing builds in one run:
// `bun bench/support/build-server.ts <spec.json>` imports the server from the
// spec's `root` (this checkout, or a second worktree holding an earlier commit,
// with its own node_modules), starts it with the synthetic programs or with the
// live programs over a running devnet, creates `keys` keys, prints
// {port, keys} as one JSON line, and stops when its stdin closes.
import { Effect, Either, Layer } from "effect"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

export interface BuildServerSpec {
  /** the checkout whose src/ is served */
  readonly root: string
  readonly programs: "synthetic" | { readonly manifestFile: string }
  readonly keys: number
}

export interface BuildServer {
  readonly port: number
  /** the child process serving the build */
  readonly pid: number
  readonly keys: readonly string[]
  readonly stop: () => Promise<void>
}

/** Starts the build at `spec.root` in a child process; `stop` ends it. */
export const startBuildServer = async (spec: BuildServerSpec): Promise<BuildServer> => {
  const specFile = join(tmpdir(), `build-server-${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}.json`)
  await Bun.write(specFile, JSON.stringify(spec))
  const child = Bun.spawn([process.execPath, import.meta.path, specFile], { stdin: "pipe", stdout: "pipe", stderr: "inherit" })
  const reader = child.stdout.getReader()
  let text = ""
  while (!text.includes("\n")) {
    const next = await reader.read()
    if (next.done) break
    text += new TextDecoder().decode(next.value)
  }
  rmSync(specFile, { force: true })
  if (!text.includes("\n")) throw new Error(`the server of ${spec.root} did not start`)
  const started = JSON.parse(text.split("\n")[0]!) as { port: number; keys: string[] }
  return {
    ...started,
    pid: child.pid,
    stop: async () => {
      child.stdin.end()
      const killer = setTimeout(() => child.kill("SIGKILL"), 10_000)
      await child.exited
      clearTimeout(killer)
    },
  }
}

if (import.meta.main) {
  const spec = JSON.parse(readFileSync(process.argv[2]!, "utf8")) as BuildServerSpec
  const api = await import(join(spec.root, "src/api/index.ts"))
  const dir = mkdtempSync(join(tmpdir(), "build-server-"))
  let programs: unknown
  if (spec.programs === "synthetic") programs = api.syntheticPrograms()
  else {
    const { chainSettings } = await import(join(spec.root, "src/config/index.ts"))
    const { livePrograms } = await import(join(spec.root, "src/swap/live.ts"))
    const manifest = JSON.parse(readFileSync(spec.programs.manifestFile, "utf8"))
    // the own router alone, as bench/api.ts serves it
    const settings = Either.getOrThrow(chainSettings({ AGGREGATORS: "[]" }, manifest))
    programs = (livePrograms(settings) as Layer.Layer<unknown, unknown>).pipe(Layer.orDie)
  }
  const server = await api.startApiServer({
    programs,
    env: { PORT: "0", HOST: "127.0.0.1", DATABASE_URL: join(dir, "keys.sqlite"), LOG_LEVEL: "error", MAX_IN_FLIGHT: "4096" },
  })
  const keys: string[] = []
  // a key's own concurrency is not what the load measures: 64 connections over the keys may meet on one
  for (let i = 0; i < spec.keys; i++) {
    keys.push((await Effect.runPromise(server.keys.create({ name: `bench ${i}`, rpm: 1_000_000_000, concurrency: 64 }) as Effect.Effect<{ key: string }>)).key)
  }
  process.stdout.write(`${JSON.stringify({ port: server.port, keys })}\n`)
  // runs until the parent closes stdin (or dies)
  for await (const _ of Bun.stdin.stream()) {
    // nothing is sent; the loop ends when stdin closes
  }
  await server.stop()
  rmSync(dir, { recursive: true, force: true })
  process.exit(0)
}
