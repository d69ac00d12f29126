// The example's client is generated from the committed document by an
// independent tool (openapi-typescript), and the example type-checks against
// it: a field the document does not have fails the check.
import { describe, expect, test } from "bun:test"
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { clientTypes } from "../../examples/generate-client.ts"

const ROOT = resolve(import.meta.dir, "../..")
const EXAMPLES = join(ROOT, "examples")

const tsc = async (project: string) => {
  const proc = Bun.spawn([process.execPath, join(ROOT, "node_modules/typescript/bin/tsc"), "-p", project], { cwd: ROOT, stdout: "pipe", stderr: "pipe" })
  const [stdout, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited])
  return { code, stdout }
}

describe("the typed client", () => {
  test("examples/api.d.ts is what openapi-typescript generates from openapi.json now (bun examples/generate-client.ts)", async () => {
    expect(await clientTypes(join(ROOT, "openapi.json"))).toBe(readFileSync(join(EXAMPLES, "api.d.ts"), "utf8"))
  })

  test("the example type-checks against it; a misspelt response field does not", async () => {
    const good = await tsc(join(EXAMPLES, "tsconfig.json"))
    expect(good.stdout).toBe("")
    expect(good.code).toBe(0)

    // beside the project (its tsconfig extends the root one); not a dot folder, which tsc would not look in
    const dir = mkdtempSync(join(ROOT, "examples-check-"))
    try {
      cpSync(EXAMPLES, dir, { recursive: true })
      const example = join(dir, "swap.ts")
      writeFileSync(example, readFileSync(example, "utf8").replace("s.minAmountOut", "s.minAmountOutt"))
      const bad = await tsc(join(dir, "tsconfig.json"))
      expect(bad.code).not.toBe(0)
      expect(bad.stdout).toContain("minAmountOutt")
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 120_000)
})
