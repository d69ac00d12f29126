// The API's documentation: the page carries the document whole and loads
// nothing from elsewhere; the admin listener serves it and the document, and
// says so plainly when the document cannot be read; `bun run docs` writes the
// page whole or not at all.
import { describe, expect, test } from "bun:test"
import { Effect, Exit, Option, Scope } from "effect"
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { docsPage, OPENAPI_FILE, readOpenApiFile, serveAdmin, type AdminDocs } from "../../src/ops/index.ts"

const DOCUMENT = {
  openapi: "3.1.0",
  info: { title: "A test API </script><script>alert(1)</script>", version: "1" },
  paths: { "/x": { post: { description: "holds </script> and <!-- too", responses: { "200": { description: "ok" } } } } },
}

/** the document inlined in a page, read back out of it */
const inlined = (page: string) => {
  const start = page.indexOf("Redoc.init(") + "Redoc.init(".length
  const end = page.indexOf(', { expandResponses', start)
  return JSON.parse(page.slice(start, end))
}

describe("docsPage", () => {
  test("inlines the document whole, and Redoc's bundle", () => {
    const page = docsPage(DOCUMENT)
    expect(inlined(page)).toEqual(DOCUMENT)
    expect(page).toContain("Redoc.init(")
    expect(page.length).toBeGreaterThan(500_000)
  })
  test("a document holding </script> cannot end the script: only the page's own script elements close", () => {
    const page = docsPage(DOCUMENT)
    expect(page.match(/<\/script>/g)!.length).toBe(2)
    expect(page).toContain("<title>A test API &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;</title>")
  })
  test("loads no script or style from elsewhere", () => {
    const page = docsPage(DOCUMENT)
    expect(page).not.toMatch(/<script[^>]+src=/)
    expect(page).not.toMatch(/<link[^>]+href=/)
  })
})

const withAdmin = async <A>(docs: AdminDocs | undefined, f: (url: string) => Promise<A>) => {
  const scope = Effect.runSync(Scope.make())
  const inputs = { keys: { kind: "memory" as const, ping: Effect.void }, limitStore: Option.none(), market: Option.none(), marketStaleAfterMs: 1000 }
  const server = await Effect.runPromise(Scope.extend(serveAdmin({ host: "127.0.0.1", port: 0 }, inputs, docs), scope))
  try {
    return await f(server.url)
  } finally {
    await Effect.runPromise(Scope.close(scope, Exit.void))
  }
}

describe("the admin listener", () => {
  test("GET /docs is the page of the committed document; GET /openapi.json is that document", async () => {
    await withAdmin(undefined, async (url) => {
      const page = await fetch(`${url}/docs`)
      expect(page.status).toBe(200)
      expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8")
      const committed = JSON.parse(readFileSync(OPENAPI_FILE, "utf8"))
      expect(inlined(await page.text())).toEqual(committed)
      const document = await fetch(`${url}/openapi.json`)
      expect(document.status).toBe(200)
      expect(document.headers.get("content-type")).toBe("application/json")
      expect(await document.json()).toEqual(committed)
    })
  })
  test("a document that cannot be read: 503 with why, and /health still answers", async () => {
    const docs = { openApi: () => readOpenApiFile("/nonexistent/openapi.json") }
    await withAdmin(docs, async (url) => {
      const page = await fetch(`${url}/docs`)
      expect(page.status).toBe(503)
      expect(await page.text()).toStartWith("the API's documentation is unavailable: cannot read the OpenAPI document /nonexistent/openapi.json")
      expect((await fetch(`${url}/openapi.json`)).status).toBe(503)
      expect((await fetch(`${url}/health`)).status).toBe(200)
    })
  })
})

describe("bun run docs", () => {
  const run = async (out: string) => {
    const proc = Bun.spawn(["bun", "src/cli/docs.ts", out], { cwd: join(import.meta.dir, "..", ".."), stdout: "pipe", stderr: "pipe" })
    const [stdout, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited])
    return { stdout, stderr, code }
  }
  test("writes the page of the committed document, creating its folder", async () => {
    const dir = mkdtempSync(join(tmpdir(), "docs-"))
    try {
      const out = join(dir, "site", "api.html")
      const { code, stdout } = await run(out)
      expect(code).toBe(0)
      expect(stdout).toContain(`wrote ${out}`)
      expect(inlined(readFileSync(out, "utf8"))).toEqual(JSON.parse(readFileSync(OPENAPI_FILE, "utf8")))
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
  test("an OUT it cannot write: exit 1, a one-line error, nothing left behind", async () => {
    const dir = mkdtempSync(join(tmpdir(), "docs-"))
    try {
      // a file where the folder should be
      await Bun.write(join(dir, "taken"), "")
      const out = join(dir, "taken", "api.html")
      const { code, stderr } = await run(out)
      expect(code).toBe(1)
      expect(stderr.trim().split("\n")).toHaveLength(1)
      expect(stderr).toStartWith("error: ")
      expect(existsSync(out)).toBe(false)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
