// bun run openapi: writes the API's OpenAPI 3.1 document, generated from the
// edge's Schemas, to openapi.json at the repository's root (the committed copy
// a test holds the code to).
import { renameSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { openApiJson } from "../api/index.ts"

export const OPENAPI_PATH = join(import.meta.dir, "..", "..", "openapi.json")

if (import.meta.main) {
  const text = openApiJson()
  const aside = `${OPENAPI_PATH}.${process.pid}.tmp`
  writeFileSync(aside, text)
  renameSync(aside, OPENAPI_PATH)
  console.log(`wrote ${OPENAPI_PATH} (${text.length} bytes)`)
}
