// bun run contracts:build: compiles contracts/src into contracts/out/<Name>.json.
import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { compileAll, OUT_DIR, serializeArtifact } from "../contracts/index.ts"

const artifacts = compileAll()
mkdirSync(OUT_DIR, { recursive: true })
const written = new Set<string>()
for (const artifact of artifacts) {
  const file = `${artifact.contractName}.json`
  const tmp = join(OUT_DIR, `.${file}.tmp`)
  writeFileSync(tmp, serializeArtifact(artifact))
  renameSync(tmp, join(OUT_DIR, file))
  written.add(file)
}
for (const file of readdirSync(OUT_DIR)) {
  if (file.endsWith(".json") && !written.has(file)) rmSync(join(OUT_DIR, file))
}
console.log(`compiled ${artifacts.length} contracts into ${OUT_DIR}`)
