// bun run docs [OUT]: the API's documentation page (Redoc over the committed
// openapi.json) as one static HTML file, by default docs/api.html. The file
// appears whole or not at all.
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs"
import { dirname, join, resolve } from "node:path"
import { docsPage, readOpenApiFile } from "../ops/index.ts"

const DEFAULT_OUT = join(import.meta.dir, "..", "..", "docs", "api.html")

const out = resolve(process.argv[2] ?? DEFAULT_OUT)
const aside = `${out}.${process.pid}.tmp`
try {
  const page = docsPage(readOpenApiFile())
  mkdirSync(dirname(out), { recursive: true })
  writeFileSync(aside, page)
  renameSync(aside, out)
  console.log(`wrote ${out} (${page.length} bytes)`)
} catch (e) {
  if (existsSync(aside)) rmSync(aside)
  console.error(`error: ${(e as Error).message}`)
  process.exit(1)
}
