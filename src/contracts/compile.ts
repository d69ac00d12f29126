// Compiles the project's own Solidity (contracts/src) with the npm solc into
// artifacts of the shape { abi, bytecode, deployedBytecode }.
import { readdirSync, readFileSync, existsSync } from "node:fs"
import { createRequire } from "node:module"
import { join, relative, resolve } from "node:path"
import { SOURCE_DIR } from "./paths.ts"

type Solc = typeof import("solc")
let loadedSolc: Solc | undefined
/**
 * solc, loaded on the first compile: it instantiates its compiler when loaded (~0.9 s and over
 * 150 MB of memory here), which no process reading a compiled artifact through this room's door should pay.
 */
const solc = (): Solc => (loadedSolc ??= createRequire(import.meta.url)("solc") as Solc)

const NODE_MODULES = resolve(import.meta.dir, "../../node_modules")

/** One settings object for every contract, so artifacts are reproducible. */
export const SOLC_SETTINGS = {
  optimizer: { enabled: true, runs: 10_000 },
  evmVersion: "cancun",
  viaIR: false,
  metadata: { bytecodeHash: "none", appendCBOR: false },
  outputSelection: { "*": { "*": ["abi", "evm.bytecode.object", "evm.deployedBytecode.object"] } },
} as const

/**
 * Optimizer runs for contracts that must stay within EIP-170's 24,576 bytes of code at the
 * default runs: each is compiled again with these settings, and that artifact replaces the
 * default one. RouteExecutor at 1,000 runs: 23,960 bytes (about 390 more at 2,000 runs and 870
 * more at 4,000, over the limit); a single V3 exact-input hop costs 15 gas more than at 2,000.
 */
export const OPTIMIZER_RUNS_BY_CONTRACT: Readonly<Record<string, number>> = { RouteExecutor: 1_000 }

export interface Artifact {
  readonly contractName: string
  readonly sourceName: string
  readonly abi: ReadonlyArray<unknown>
  readonly bytecode: `0x${string}`
  readonly deployedBytecode: `0x${string}`
}

export class CompileError extends Error {
  override readonly name = "CompileError"
}

const listSources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return listSources(path)
    return entry.name.endsWith(".sol") ? [path] : []
  })

const findImports = (path: string): { contents: string } | { error: string } => {
  for (const base of [SOURCE_DIR, NODE_MODULES]) {
    const file = join(base, path)
    if (existsSync(file)) return { contents: readFileSync(file, "utf8") }
  }
  return { error: `import not found: ${path}` }
}

/** Compiles every source under contracts/src; returns one artifact per deployable contract. */
const compile = (sources: Record<string, { content: string }>, settings: object) => {
  const input = { language: "Solidity", sources, settings }
  const output = JSON.parse(solc().compile(JSON.stringify(input), { import: findImports }))
  const errors = (output.errors ?? []).filter((e: { severity: string }) => e.severity === "error")
  if (errors.length > 0) {
    throw new CompileError(errors.map((e: { formattedMessage: string }) => e.formattedMessage).join("\n"))
  }
  return output
}

export const compileAll = (): Artifact[] => {
  const sources: Record<string, { content: string }> = {}
  for (const file of listSources(SOURCE_DIR).sort()) {
    sources[relative(SOURCE_DIR, file)] = { content: readFileSync(file, "utf8") }
  }
  const output = compile(sources, SOLC_SETTINGS)
  for (const [name, runs] of Object.entries(OPTIMIZER_RUNS_BY_CONTRACT)) {
    const sourceName = Object.keys(output.contracts ?? {}).find((source) => name in output.contracts[source])
    if (sourceName === undefined) throw new CompileError(`OPTIMIZER_RUNS_BY_CONTRACT names ${name}, which no source defines`)
    const own = compile(sources, {
      ...SOLC_SETTINGS,
      optimizer: { enabled: true, runs },
      outputSelection: { [sourceName]: { [name]: SOLC_SETTINGS.outputSelection["*"]["*"] } },
    })
    output.contracts[sourceName][name] = own.contracts[sourceName][name]
  }
  const artifacts: Artifact[] = []
  const seen = new Map<string, string>()
  for (const [sourceName, contracts] of Object.entries<Record<string, any>>(output.contracts ?? {})) {
    if (!(sourceName in sources)) continue
    for (const [contractName, out] of Object.entries<any>(contracts)) {
      const bytecode = out.evm.bytecode.object as string
      if (bytecode.length === 0) continue // interfaces and abstract contracts
      const previous = seen.get(contractName)
      if (previous !== undefined) {
        throw new CompileError(`contract name ${contractName} is defined in both ${previous} and ${sourceName}`)
      }
      seen.set(contractName, sourceName)
      artifacts.push({
        contractName,
        sourceName,
        abi: out.abi,
        bytecode: `0x${bytecode}`,
        deployedBytecode: `0x${out.evm.deployedBytecode.object}`,
      })
    }
  }
  return artifacts.sort((a, b) => a.contractName.localeCompare(b.contractName))
}

/** The exact text an artifact is stored as in contracts/out/<Name>.json. */
export const serializeArtifact = (artifact: Artifact): string => `${JSON.stringify(artifact, null, 2)}\n`
