// Every relative link of the README, the changelog and docs/ leads somewhere:
// the file or folder exists, and an anchor names a heading of the page it
// points into (GitHub's heading ids). The commands they write do too: every
// `bun test PATH` names a file or folder that exists, every `bun bench NAME` a
// subject of bench/index.ts.
import { describe, expect, test } from "bun:test"
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join, relative, resolve } from "node:path"

const ROOT = resolve(import.meta.dir, "../..")

/** The pages whose links are checked, relative to `root`. */
const pagesOf = (root: string): string[] => [
  ...["README.md", "CHANGELOG.md"].filter((page) => existsSync(join(root, page))),
  ...(existsSync(join(root, "docs"))
    ? readdirSync(join(root, "docs"))
        .filter((name) => name.endsWith(".md"))
        .sort()
        .map((name) => `docs/${name}`)
    : []),
]

/** The text outside fenced code blocks and inline code, line by line. */
const proseLines = (markdown: string): string[] => {
  const lines: string[] = []
  let fence: string | undefined
  for (const line of markdown.split("\n")) {
    const marker = /^\s*(```+|~~~+)/.exec(line)?.[1]
    if (marker !== undefined && (fence === undefined || marker.startsWith(fence))) {
      fence = fence === undefined ? marker : undefined
      lines.push("")
      continue
    }
    lines.push(fence === undefined ? line.replace(/(`+)[^`]*?\1/g, "") : "")
  }
  return lines
}

/** GitHub's id for a heading: lower case, punctuation dropped, spaces to hyphens; repeats get -1, -2, … */
const headingIds = (markdown: string): Set<string> => {
  const ids = new Set<string>()
  const seen = new Map<string, number>()
  let fence: string | undefined
  for (const line of markdown.split("\n")) {
    const marker = /^\s*(```+|~~~+)/.exec(line)?.[1]
    if (marker !== undefined && (fence === undefined || marker.startsWith(fence))) {
      fence = fence === undefined ? marker : undefined
      continue
    }
    const heading = fence === undefined ? /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1] : undefined
    if (heading === undefined) continue
    const text = heading.replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    const base = text
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, "")
      .replace(/\s/g, "-")
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    ids.add(count === 0 ? base : `${base}-${count}`)
  }
  return ids
}

/** Every link of a page that does not resolve: "page:line: target (why)". */
const brokenLinks = (root: string): string[] => {
  const problems: string[] = []
  for (const page of pagesOf(root)) {
    const file = join(root, page)
    proseLines(readFileSync(file, "utf8")).forEach((line, index) => {
      for (const match of line.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
        const target = match[1]!
        if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue // http:, https:, mailto:
        const hash = target.indexOf("#")
        const path = hash === -1 ? target : target.slice(0, hash)
        const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1))
        const into = path === "" ? file : resolve(dirname(file), decodeURIComponent(path))
        const where = `${page}:${index + 1}: ${target}`
        if (!existsSync(into)) {
          problems.push(`${where} (no ${relative(root, into)})`)
          continue
        }
        if (anchor === undefined) continue
        if (statSync(into).isDirectory() || !into.endsWith(".md")) {
          problems.push(`${where} (an anchor into ${relative(root, into)}, which has no headings)`)
          continue
        }
        if (!headingIds(readFileSync(into, "utf8")).has(anchor)) problems.push(`${where} (no heading #${anchor} in ${relative(root, into)})`)
      }
    })
  }
  return problems
}

/** The text inside fenced code blocks and inline code, line by line: where commands are written. */
const codeLines = (markdown: string): string[] => {
  const lines: string[] = []
  let fence: string | undefined
  for (const line of markdown.split("\n")) {
    const marker = /^\s*(```+|~~~+)/.exec(line)?.[1]
    if (marker !== undefined && (fence === undefined || marker.startsWith(fence))) {
      fence = fence === undefined ? marker : undefined
      lines.push("")
      continue
    }
    lines.push(fence !== undefined ? line : [...line.matchAll(/(`+)([^`]*?)\1/g)].map((m) => m[2]).join("\n"))
  }
  return lines
}

/** The bench subjects, as bench/index.ts lists them. */
const benchSubjects = (root: string): Set<string> =>
  new Set([...readFileSync(join(root, "bench/index.ts"), "utf8").matchAll(/\{\s*name:\s*"([a-z0-9-]+)"/g)].map((m) => m[1]!))

/** Every `bun test PATH` whose path does not exist and every `bun bench NAME` that is not a subject: "page:line: command (why)". */
const brokenCommands = (root: string): string[] => {
  const problems: string[] = []
  const subjects = benchSubjects(root)
  for (const page of pagesOf(root)) {
    codeLines(readFileSync(join(root, page), "utf8")).forEach((line, index) => {
      for (const match of line.matchAll(/\bbun test[ \t]+([^\s`;&|]+)/g)) {
        if (!existsSync(join(root, match[1]!))) problems.push(`${page}:${index + 1}: bun test ${match[1]} (no ${match[1]})`)
      }
      for (const match of line.matchAll(/\bbun bench((?:[ \t]+[a-z][a-z0-9-]*)*)/g)) {
        for (const name of match[1]!.trim().split(/\s+/).filter((n) => n !== "")) {
          if (!subjects.has(name)) problems.push(`${page}:${index + 1}: bun bench ${name} (not a subject of bench/index.ts)`)
        }
      }
    })
  }
  return problems
}

describe("links in README.md and docs/", () => {
  test("the README and every reference page are checked", () => {
    const pages = pagesOf(ROOT)
    expect(pages).toContain("README.md")
    for (const page of ["api", "configuration", "deployment", "executor", "devnet", "benchmarks", "architecture"]) {
      expect(pages).toContain(`docs/${page}.md`)
    }
  })

  test("every relative link resolves, anchors included", () => {
    expect(brokenLinks(ROOT)).toEqual([])
  })

  test("the README links every page of docs/", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8")
    const unlinked = pagesOf(ROOT)
      .filter((page) => page.startsWith("docs/"))
      .filter((page) => !readme.includes(`](${page})`))
    expect(unlinked).toEqual([])
  })

  test("every test file and bench subject a command names exists", () => {
    expect(benchSubjects(ROOT).has("market")).toBe(true)
    expect(brokenCommands(ROOT)).toEqual([])
  })

  describe("the check finds what is broken", () => {
    const planted = (pages: Record<string, string>) => {
      const root = mkdtempSync(join(tmpdir(), "docs-links-"))
      try {
        mkdirSync(join(root, "docs"))
        for (const [page, text] of Object.entries(pages)) writeFileSync(join(root, page), text)
        return brokenLinks(root)
      } finally {
        rmSync(root, { recursive: true, force: true })
      }
    }

    test("a link to a missing page, and one to a missing heading", () => {
      const problems = planted({
        "README.md": "# R\n\nSee [the API](docs/api.md), [gone](docs/gone.md) and [limits](docs/api.md#limits).\n",
        "docs/api.md": "# API\n\n## Errors\n\nBack [home](../README.md#r).\n",
      })
      expect(problems).toEqual(["README.md:3: docs/gone.md (no docs/gone.md)", "README.md:3: docs/api.md#limits (no heading #limits in docs/api.md)"])
    })

    test("links inside code are not links; external ones are not followed", () => {
      const problems = planted({
        "README.md": "# R\n\n`[x](nowhere.md)`\n\n```md\n[y](nowhere.md)\n```\n\n[site](https://example.com/x.md)\n",
      })
      expect(problems).toEqual([])
    })

    test("a command naming a missing test file or an unknown bench subject; prose is not a command", () => {
      const root = mkdtempSync(join(tmpdir(), "docs-commands-"))
      try {
        mkdirSync(join(root, "docs"))
        mkdirSync(join(root, "bench"))
        mkdirSync(join(root, "test/pricer"), { recursive: true })
        writeFileSync(join(root, "test/pricer/fees.test.ts"), "")
        writeFileSync(join(root, "bench/index.ts"), 'const subjects = [\n  { name: "routing", run },\n  { name: "api", run },\n]\n')
        writeFileSync(
          join(root, "README.md"),
          "# R\n\nOne file: `bun test test/fees/fees.test.ts`, or `bun test test/pricer/fees.test.ts`.\n\n```sh\nbun bench routing apis   # some\nbun bench\n```\n\nRun bun bench quickly, or bun test everything.\n",
        )
        expect(brokenCommands(root)).toEqual(["README.md:3: bun test test/fees/fees.test.ts (no test/fees/fees.test.ts)", "README.md:6: bun bench apis (not a subject of bench/index.ts)"])
      } finally {
        rmSync(root, { recursive: true, force: true })
      }
    })

    test("headings get GitHub's ids", () => {
      const ids = headingIds("# POST /quote\n## The devnet's aggregator\n## Fees and `minAmountOut`\n## Errors\n## Errors\n```\n# not a heading\n```\n")
      expect([...ids]).toEqual(["post-quote", "the-devnets-aggregator", "fees-and-minamountout", "errors", "errors-1"])
    })
  })
})
