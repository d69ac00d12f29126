// The committed OpenAPI document (openapi.json at the repository's root), as
// the admin listener and `bun run docs` read it.
import { readFileSync } from "node:fs"
import { join } from "node:path"

export const OPENAPI_FILE = join(import.meta.dir, "..", "..", "openapi.json")

/** The document, parsed; throws with the path when it cannot be read. */
export const readOpenApiFile = (path: string = OPENAPI_FILE): Record<string, unknown> => {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>
  } catch (e) {
    throw new Error(`cannot read the OpenAPI document ${path}: ${(e as Error).message}`)
  }
}
