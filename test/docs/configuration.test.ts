// docs/configuration.md's table is the list of the service's variables: every
// variable src/ reads is in it, and nothing is in it that src/ does not read.
// The variables read are found in the source: the settings helpers of
// src/config (`variable("NAME", …)`, `integerIn("NAME", …)`, `Config.string("NAME")`,
// `Config.literal(…)("NAME")`, a JSON setting's `name: "NAME"`) and any
// `process.env.NAME` in src/.
import { describe, expect, test } from "bun:test"
import { readFileSync } from "node:fs"
import { join, resolve } from "node:path"

const ROOT = resolve(import.meta.dir, "../..")
const NAME = "([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*)"

/** The environment variables one source file reads. */
const variablesReadIn = (path: string, source: string): string[] => {
  const patterns = [
    // process.env.NAME, process.env["NAME"], Bun.env.NAME, anywhere in src/
    new RegExp(`\\b(?:process\\.env|Bun\\.env)(?:\\.${NAME}|\\[\\s*"${NAME}"\\s*\\])`, "g"),
    // Config.string("NAME"), Config.redacted("NAME"), …
    new RegExp(`\\bConfig\\.[a-zA-Z]+\\(\\s*"${NAME}"`, "g"),
    // Config.literal("a", "b")("NAME")
    new RegExp(`\\bConfig\\.literal\\([^()]*\\)\\(\\s*"${NAME}"`, "g"),
  ]
  if (path.startsWith("src/config/")) {
    // the settings helpers take the variable's name first: variable("NAME", …), integerIn("NAME", …)
    patterns.push(new RegExp(`\\b[a-zA-Z]+\\(\\s*"${NAME}"`, "g"))
    // a JSON setting: { name: "NAME", schema, … }
    if (source.includes("JsonVariable<")) patterns.push(new RegExp(`\\bname:\\s*"${NAME}"`, "g"))
  }
  return patterns.flatMap((pattern) => [...source.matchAll(pattern)].map((m) => m.slice(1).find((group) => group !== undefined)!))
}

const variablesRead = (root: string): Set<string> => {
  const names = new Set<string>()
  for (const file of new Bun.Glob("src/**/*.ts").scanSync({ cwd: root })) {
    for (const name of variablesReadIn(file, readFileSync(join(root, file), "utf8"))) names.add(name)
  }
  return names
}

/** The names in the first column of the table headed `| variable | … |`. */
const variablesDocumented = (markdown: string): Set<string> => {
  const lines = markdown.split("\n")
  const header = lines.findIndex((line) => /^\|\s*variable\s*\|/.test(line))
  if (header === -1) throw new Error("docs/configuration.md has no table headed | variable |")
  const names = new Set<string>()
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith("|")) break
    const first = line.split("|")[1]!
    for (const m of first.matchAll(/`([^`]+)`/g)) names.add(m[1]!)
  }
  return names
}

const compare = (read: Set<string>, documented: Set<string>) => ({
  undocumented: [...read].filter((name) => !documented.has(name)).sort(),
  unread: [...documented].filter((name) => !read.has(name)).sort(),
})

const page = () => readFileSync(join(ROOT, "docs/configuration.md"), "utf8")

describe("docs/configuration.md lists exactly the variables the service reads", () => {
  const read = variablesRead(ROOT)

  test("each way of reading a variable is found", () => {
    // one of each form, so that a scan that stopped finding one fails here rather than passing quietly
    for (const name of ["HOST", "RPC_URL", "CHAIN_ID", "LOG_LEVEL", "REDIS_URL", "DEXES", "MANIFEST_PATH", "DEVNET_PORT"]) expect(read).toContain(name)
  })

  test("every variable read is in the table", () => {
    expect(compare(read, variablesDocumented(page())).undocumented).toEqual([])
  })

  test("nothing in the table that the service does not read", () => {
    expect(compare(read, variablesDocumented(page())).unread).toEqual([])
  })

  describe("the comparison sees a planted difference", () => {
    test("a variable removed from the table", () => {
      const without = page().replace(/^\| `REDIS_PREFIX` \|.*\n/m, "")
      expect(without).not.toBe(page())
      expect(compare(read, variablesDocumented(without)).undocumented).toEqual(["REDIS_PREFIX"])
    })

    test("a variable added to the table", () => {
      const added = page().replace(/^(\| `HOST` \|.*\n)/m, "$1| `NOT_READ_BY_ANYONE` | nothing | unset |\n")
      expect(added).not.toBe(page())
      expect(compare(read, variablesDocumented(added)).unread).toContain("NOT_READ_BY_ANYONE")
    })

    test("a variable read in a new way by a settings file", () => {
      expect(variablesReadIn("src/config/x.ts", `export const c = flag("SOME_SWITCH")`)).toEqual(["SOME_SWITCH"])
      expect(variablesReadIn("src/x/y.ts", `const a = process.env.A_B ?? process.env["C_D"]`)).toEqual(["A_B", "C_D"])
      expect(variablesReadIn("src/x/y.ts", `throw new Error("USDC")`)).toEqual([])
    })
  })
})
