// Writes examples/api.d.ts: the API's types, generated from ../openapi.json by
// openapi-typescript (a tool of its own, not the code that wrote the document).
// Run it after `bun run openapi`: bun examples/generate-client.ts
import openapiTS, { astToString } from "openapi-typescript"
import { renameSync, writeFileSync } from "node:fs"
import { join } from "node:path"

const HEADER = "// Generated from ../openapi.json by openapi-typescript: bun examples/generate-client.ts. Do not edit.\n\n"

/** The client types of the document at `documentPath`, as the file holds them. */
export const clientTypes = async (documentPath: string): Promise<string> =>
  `${HEADER}${astToString(await openapiTS(new URL(`file://${documentPath}`)))}`

if (import.meta.main) {
  const out = join(import.meta.dir, "api.d.ts")
  const text = await clientTypes(join(import.meta.dir, "..", "openapi.json"))
  writeFileSync(`${out}.tmp`, text)
  renameSync(`${out}.tmp`, out)
  console.log(`wrote ${out}`)
}
