// Where our Solidity and its compiled artifacts live. Apart from compile.ts so
// that loading an artifact never loads the compiler.
import { join, resolve } from "node:path"

export const CONTRACTS_DIR = resolve(import.meta.dir, "../../contracts")
export const SOURCE_DIR = join(CONTRACTS_DIR, "src")
export const OUT_DIR = join(CONTRACTS_DIR, "out")
