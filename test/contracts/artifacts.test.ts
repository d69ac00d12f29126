// The committed artifacts in contracts/out are exactly what the sources compile to today.
import { expect, test } from "bun:test"
import { existsSync, readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { compileAll, OUT_DIR, serializeArtifact } from "../../src/contracts/index.ts"

test("every artifact in contracts/out equals a fresh compile of contracts/src, and there are no others", () => {
  const fresh = compileAll()
  const expected = new Map(fresh.map((a) => [`${a.contractName}.json`, serializeArtifact(a)]))
  const committed = readdirSync(OUT_DIR).filter((f) => f.endsWith(".json")).sort()
  expect(committed).toEqual([...expected.keys()].sort())
  const stale = [...expected].filter(([file, text]) => !existsSync(join(OUT_DIR, file)) || readFileSync(join(OUT_DIR, file), "utf8") !== text)
  // names the artifacts to rebuild with `bun run contracts:build`
  expect(stale.map(([file]) => file)).toEqual([])
  expect(expected.has("RouteExecutor.json")).toBe(true)
}, 120_000)

test("the service reads its artifacts without loading the compiler: solc is loaded by the first compile only", () => {
  // a process of its own: this test file compiles, and a module once loaded stays loaded
  const script = `
    const solcLoaded = () => Object.keys(require.cache).some((path) => path.includes("/node_modules/solc/"))
    await import("./src/api/index.ts")
    await import("./src/chain/index.ts")
    const { ownArtifact } = await import("./src/contracts/index.ts")
    const executor = ownArtifact("RouteExecutor")
    console.log(JSON.stringify({ solc: solcLoaded(), bytecode: executor.bytecode.length > 2 }))
  `
  const run = Bun.spawnSync([process.execPath, "-e", script], { cwd: join(import.meta.dir, "../.."), stderr: "pipe" })
  expect(run.stderr.toString()).toBe("")
  expect(JSON.parse(run.stdout.toString().trim())).toEqual({ solc: false, bytecode: true })
})
