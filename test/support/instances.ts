// API instances as child processes (test/support/instance.ts), sharing keys and
// limits through whatever the environment names; each is stopped by PID.
import { resolve } from "node:path"

const SCRIPT = resolve(import.meta.dir, "instance.ts")

export interface Instance {
  readonly port: number
  readonly adminPort: number | null
  readonly pid: number
  readonly proc: ReturnType<typeof Bun.spawn>
  /** http://127.0.0.1:port/api/v1 + path */
  readonly url: (path: string) => string
  /** every stdout line so far (JSON log lines, READY) */
  readonly lines: string[]
  readonly stderr: () => string
  /** SIGTERM, then the exit code */
  readonly stop: () => Promise<number>
  /** SIGKILL, as a crash */
  readonly kill: () => Promise<void>
}

export const startInstance = async (env: Record<string, string>, timeoutMs = 15_000): Promise<Instance> => {
  const childEnv: Record<string, string | undefined> = { ...process.env, PORT: "0", LOG_LEVEL: "warn", ...env }
  const proc = Bun.spawn([process.execPath, SCRIPT], { env: childEnv, stdout: "pipe", stderr: "pipe" })
  const lines: string[] = []
  let errText = ""
  void (async () => {
    for await (const chunk of proc.stderr as ReadableStream<Uint8Array>) errText += Buffer.from(chunk).toString("utf8")
  })()
  const ready = new Promise<{ port: number; adminPort: number | null; pid: number }>((resolveReady, reject) => {
    const timer = setTimeout(() => reject(new Error(`instance not ready within ${timeoutMs} ms: ${errText}`)), timeoutMs)
    void (async () => {
      let pending = ""
      for await (const chunk of proc.stdout as ReadableStream<Uint8Array>) {
        pending += Buffer.from(chunk).toString("utf8")
        let newline: number
        while ((newline = pending.indexOf("\n")) !== -1) {
          const line = pending.slice(0, newline)
          pending = pending.slice(newline + 1)
          lines.push(line)
          if (line.startsWith("READY ")) {
            clearTimeout(timer)
            resolveReady(JSON.parse(line.slice(6)))
          }
        }
      }
      clearTimeout(timer)
      reject(new Error(`instance exited before it was ready (code ${await proc.exited}): ${errText}`))
    })()
  })
  try {
    const info = await ready
    return {
      ...info,
      proc,
      lines,
      url: (path) => `http://127.0.0.1:${info.port}/api/v1${path}`,
      stderr: () => errText,
      stop: async () => {
        proc.kill("SIGTERM")
        return await proc.exited
      },
      kill: async () => {
        proc.kill("SIGKILL")
        await proc.exited
      },
    }
  } catch (e) {
    proc.kill("SIGKILL")
    await proc.exited
    throw e
  }
}
