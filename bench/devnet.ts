// Devnet readiness: from nothing to a written manifest for the default scenario,
// built from scratch and loaded from the state cache.
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startDevnet } from "../src/devnet/index.ts"
import type { Measurement } from "./measurement.ts"

const TARGET_MS = 10_000

const timeStart = async (useCache: boolean) => {
  const dir = mkdtempSync(join(tmpdir(), "devnet-bench-"))
  const started = performance.now()
  const devnet = await startDevnet({ port: 0, manifestPath: join(dir, "manifest.json"), useCache })
  const ms = performance.now() - started
  await devnet.stop()
  rmSync(dir, { recursive: true, force: true })
  return { ms, fromCache: devnet.fromCache }
}

export const run = async (): Promise<Measurement[]> => {
  const cold = await timeStart(false)
  // the first cached start fills the cache; the second loads it
  await timeStart(true)
  const warm = await timeStart(true)
  return [
    { name: "ready, default scenario, built", value: Math.round(cold.ms), unit: "ms", target: `< ${TARGET_MS}`, met: cold.ms < TARGET_MS },
    { name: "ready, default scenario, from state cache", value: Math.round(warm.ms), unit: "ms", target: `< ${TARGET_MS}`, met: warm.ms < TARGET_MS, note: warm.fromCache ? "" : "cache not used" },
  ]
}
