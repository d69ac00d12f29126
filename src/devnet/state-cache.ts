// A built devnet's chain state, kept on disk by the hash of everything that
// shapes it (scenario, compiled contracts, the deployer's own code), so the
// same scenario starts again in the time it takes to load a file.
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { OUT_DIR } from "../contracts/index.ts"
import { UNISWAP_ARTIFACTS } from "../contracts/index.ts"

const ROOT = resolve(import.meta.dir, "../..")
export const CACHE_DIR = join(ROOT, ".cache", "devnet")

const filesIn = (dir: string, suffix: string): string[] =>
  existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(suffix)).sort().map((f) => join(dir, f)) : []

/** The cache key: the scenario's text and every input of the deployment. */
export const stateKey = (scenarioText: string): string => {
  const hash = createHash("sha256")
  hash.update(JSON.stringify(JSON.parse(scenarioText)))
  const inputs = [
    ...filesIn(OUT_DIR, ".json"),
    ...filesIn(import.meta.dir, ".ts"),
    ...Object.values(UNISWAP_ARTIFACTS).map((p) => join(ROOT, "node_modules", p)),
  ]
  for (const file of inputs) hash.update(file).update(readFileSync(file))
  return hash.digest("hex").slice(0, 32)
}

export interface CachedState {
  /** anvil_dumpState's output */
  readonly state: string
  /** the manifest as deployed, before the node's URL is filled in */
  readonly manifest: unknown
}

export const readCachedState = (key: string): CachedState | undefined => {
  const file = join(CACHE_DIR, `${key}.json`)
  if (!existsSync(file)) return undefined
  try {
    return JSON.parse(readFileSync(file, "utf8")) as CachedState
  } catch {
    return undefined // a damaged entry is rebuilt
  }
}

export const writeCachedState = (key: string, entry: CachedState): void => {
  mkdirSync(CACHE_DIR, { recursive: true })
  const file = join(CACHE_DIR, `${key}.json`)
  const tmp = `${file}.${process.pid}.tmp`
  writeFileSync(tmp, JSON.stringify(entry))
  renameSync(tmp, file)
}
