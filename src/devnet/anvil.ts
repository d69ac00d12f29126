// The devnet node: anvil as a child process behind a small shell watchdog.
// The watchdog holds our end of a pipe on its stdin; when this process exits
// for any reason (even SIGKILL) the pipe closes and the watchdog stops anvil,
// so the node never outlives the service that started it. Clients reach the
// node through the base fee floor's relay (fee-floor.ts), on the port asked for.
import { Data } from "effect"
import { existsSync } from "node:fs"
import { createServer } from "node:net"
import { join, resolve } from "node:path"
import { ARC_CHAIN_ID, type ArcChainId } from "../domain/index.ts"
import { startFeeFloorRelay, type FeeFloorRelay } from "./fee-floor.ts"

export { ARC_CHAIN_ID }

/** Arc's minimum base fee: 20 gwei (in USDC wei, 18 decimals). */
export const ARC_MIN_BASE_FEE_WEI = 20_000_000_000n

const NODE_MODULES = resolve(import.meta.dir, "../../node_modules")

/**
 * The anvil binary from the platform package that @foundry-rs/anvil installs.
 * Run directly, not through the package's Node launcher, so that the process
 * we stop is the node itself.
 */
const anvilBinary = (): string => {
  const os = { linux: "linux", darwin: "darwin", win32: "win32" }[process.platform as string]
  const cpu = { x64: "amd64", arm64: "arm64" }[process.arch as string]
  const direct = join(NODE_MODULES, "@foundry-rs", `anvil-${os}-${cpu}`, "bin", process.platform === "win32" ? "anvil.exe" : "anvil")
  return existsSync(direct) ? direct : join(NODE_MODULES, ".bin", "anvil")
}

// $0 names the node by the port its clients use; "$@" is the node's command
const WATCHDOG = `
exec "$@" </dev/null &
child=$!
echo "anvil-pid $child" >&2
trap 'kill -TERM $child 2>/dev/null; wait $child; exit 0' TERM INT HUP
while read -r _; do :; done
kill -TERM $child 2>/dev/null
wait $child
`

export interface AnvilOptions {
  /** the chain id the node reports: Arc's (5042) when absent */
  readonly chainId?: ArcChainId
  readonly port?: number
  readonly host?: string
  /** state file written by anvil_dumpState, loaded at start */
  readonly loadState?: string
  readonly accounts?: number
  /** ms to wait for the node to listen */
  readonly startTimeoutMs?: number
  /** no block's base fee is below it (wei); Arc's 20 gwei when absent */
  readonly baseFeeFloorWei?: bigint
}

export interface AnvilNode {
  /** the node as its clients reach it: through the base fee floor's relay */
  readonly rpcUrl: string
  readonly host: string
  readonly port: number
  /** the base fee floor the node holds (wei) */
  readonly baseFeeFloorWei: bigint
  /** the anvil process itself (not the watchdog) */
  readonly pid: number
  readonly stop: () => Promise<void>
}

export class AnvilStartError extends Data.TaggedError("AnvilStartError")<{ readonly message: string }> {}

/** The port asked for is taken by another process; the caller's message says how to choose another. */
export class PortInUseError extends Data.TaggedError("PortInUseError")<{ readonly host: string; readonly port: number }> {
  override get message() {
    return `port ${this.port} on ${this.host} is already in use`
  }
}

/**
 * True when another process listens on host:port: found by listening there
 * for a moment. Any other failure to listen (no such address, no permission)
 * answers false and is left to the real listener to report.
 */
export const portInUse = (host: string, port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const probe = createServer()
    probe.once("error", (e: NodeJS.ErrnoException) => resolve(e.code === "EADDRINUSE"))
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve(false)))
  })

const LISTENING = /Listening on ([\d.]+):(\d+)/
/** the watchdog's report of the node's pid, on the node's stderr */
const PID_LINE = /anvil-pid (\d+)\n/
/** the first line of anvil's own report when it cannot start (clap's usage errors, or a failed bind) */
const FAILED = /^error: (.*)\n/im
const ADDRESS_IN_USE = /address already in use/i

/**
 * Starts anvil as Arc: chain id 5042 (or Arc testnet's), prague, Celo's transfer precompile on,
 * the base fee never below the floor (Arc's 20 gwei unless told). A busy port
 * fails with PortInUseError before anvil is spawned, or at once when the
 * relay cannot listen there (another process may take the port in between);
 * any failure anvil reports ends the start at once with its message.
 */
export const startAnvil = async (options: AnvilOptions = {}): Promise<AnvilNode> => {
  const host = options.host ?? "127.0.0.1"
  const requestedPort = options.port ?? 8545
  const bin = anvilBinary()
  if (!existsSync(bin)) {
    throw new AnvilStartError({ message: `anvil not found at ${bin}: run bun install` })
  }
  if (requestedPort !== 0 && (await portInUse(host, requestedPort))) throw new PortInUseError({ host, port: requestedPort })
  const floorWei = options.baseFeeFloorWei ?? ARC_MIN_BASE_FEE_WEI
  if (floorWei <= 0n) throw new AnvilStartError({ message: `the base fee floor must be at least 1 wei, not ${floorWei}` })
  // the clients' port is the relay's, held from here on; the node itself listens on a free port
  let nodeListens: (url: string) => void = () => undefined
  const nodeUrl = new Promise<string>((resolve) => {
    nodeListens = resolve
  })
  let relay: FeeFloorRelay
  try {
    relay = startFeeFloorRelay({ nodeUrl, floorWei, host, port: requestedPort })
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EADDRINUSE") throw new PortInUseError({ host, port: requestedPort })
    throw new AnvilStartError({ message: `the node's port ${requestedPort} on ${host} cannot be listened on: ${(e as Error).message}` })
  }
  const args = [
    "--host", host,
    "--port", "0",
    "--base-fee", String(floorWei),
    "--chain-id", String(options.chainId ?? ARC_CHAIN_ID),
    "--hardfork", "prague",
    "--celo",
    "--accounts", String(options.accounts ?? 10),
    "--no-request-size-limit",
    ...(options.loadState !== undefined ? ["--load-state", options.loadState] : []),
  ]
  const proc = Bun.spawn(["sh", "-c", WATCHDOG, `anvil-devnet --port ${relay.port}`, bin, ...args], {
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
  })
  let anvilPid = 0
  let output = ""
  let errors = ""
  const ready = new Promise<{ host: string; port: number }>((resolveReady, reject) => {
    const scan = async (stream: ReadableStream<Uint8Array>, isErr: boolean) => {
      const decoder = new TextDecoder()
      let settled = false
      for await (const chunk of stream) {
        // keep draining after start so the node never blocks on a full pipe
        if (settled) continue
        const text = decoder.decode(chunk, { stream: true })
        output += text
        if (isErr) {
          errors += text
          const pid = PID_LINE.exec(errors)
          if (pid) anvilPid = Number(pid[1])
          // anvil has given up: its watchdog stays until stopped, so its exit alone would never be seen.
          // The watchdog's line may have landed inside anvil's own (one write each); it is taken out whole.
          const failed = FAILED.exec(errors.replace(PID_LINE, ""))
          if (failed) {
            settled = true
            reject(
              ADDRESS_IN_USE.test(failed[1]!)
                ? new PortInUseError({ host, port: requestedPort })
                : new AnvilStartError({ message: `anvil could not start: ${failed[1]!.trim()}` }),
            )
            continue
          }
        }
        const match = LISTENING.exec(output)
        if (match) {
          settled = true
          resolveReady({ host: match[1]!, port: Number(match[2]) })
        }
      }
    }
    void scan(proc.stdout, false)
    void scan(proc.stderr, true)
    void proc.exited.then((code) => reject(new AnvilStartError({ message: `anvil exited with code ${code}: ${output.trim().slice(-500)}` })))
  })
  const timeoutMs = options.startTimeoutMs ?? 15_000
  let timer: Timer | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new AnvilStartError({ message: `anvil did not start within ${timeoutMs} ms` })), timeoutMs)
  })
  let stopped: Promise<void> | undefined
  const stop = (): Promise<void> => {
    stopped ??= (async () => {
      try {
        proc.stdin.end()
      } catch {
        // already closed
      }
      // a timer, cleared once the node is gone, so that it never holds this process open
      let grace: Timer | undefined
      const exited = await Promise.race([
        proc.exited.then(() => true),
        new Promise<false>((resolve) => {
          grace = setTimeout(() => resolve(false), 5_000)
        }),
      ])
      clearTimeout(grace)
      if (!exited) {
        if (anvilPid > 0) killQuietly(anvilPid)
        proc.kill("SIGKILL")
        await proc.exited
      }
      await relay.stop()
    })()
    return stopped
  }
  try {
    const { port } = await Promise.race([ready, timeout])
    nodeListens(`http://${host}:${port}`)
    return { rpcUrl: relay.url, host, port: relay.port, baseFeeFloorWei: floorWei, pid: anvilPid, stop }
  } catch (error) {
    await stop()
    throw error
  } finally {
    clearTimeout(timer)
  }
}

const killQuietly = (pid: number) => {
  try {
    process.kill(pid, "SIGKILL")
  } catch {
    // already gone
  }
}
