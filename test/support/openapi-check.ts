// Every answer of the API that a test receives, held against the committed
// OpenAPI document: preloaded (test/support/setup.ts), it wraps fetch, and a
// response from a path under /api/v1/ whose body the document does not allow
// fails the request that got it, and so the test.
import Ajv2020 from "ajv/dist/2020"
import { readFileSync } from "node:fs"
import { join } from "node:path"

const DOCUMENT_PATH = join(import.meta.dir, "..", "..", "openapi.json")
const BASE = "/api/v1/"

type Validate = ((data: unknown) => boolean) & { errors?: unknown }

let checker: ((path: string, method: string, status: number, body: unknown) => string | undefined) | undefined

const makeChecker = () => {
  const document = JSON.parse(readFileSync(DOCUMENT_PATH, "utf8")) as { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> }
  const ajv = new Ajv2020({ strict: false, allErrors: true })
  ajv.addSchema(document, "openapi")
  const compiled = new Map<string, Validate>()
  const pointer = (...parts: string[]) => `openapi#/${parts.map((p) => p.replaceAll("~", "~0").replaceAll("/", "~1")).join("/")}`
  return (path: string, method: string, status: number, body: unknown): string | undefined => {
    const operation = document.paths[path]?.[method.toLowerCase()]
    // an unknown path or method still answers with a documented error body
    const ref = operation?.responses[String(status)] !== undefined
      ? pointer("paths", path, method.toLowerCase(), "responses", String(status), "content", "application/json", "schema")
      : status >= 400 ? pointer("components", "schemas", `Error${status}`) : undefined
    if (ref === undefined) return `${method} ${path} answered ${status}, which the document does not list`
    let validate = compiled.get(ref)
    if (validate === undefined) {
      validate = ajv.compile({ $ref: ref }) as Validate
      compiled.set(ref, validate)
    }
    return validate(body) ? undefined : `${method} ${path} ${status}: ${ajv.errorsText(validate.errors as never)}`
  }
}

/** What is wrong with this answer of the API by the committed document, or undefined. */
export const documentProblem = (path: string, method: string, status: number, body: unknown): string | undefined => {
  checker ??= makeChecker()
  return checker(path, method, status, body)
}

/** Wraps the global fetch so that every answer from the API's paths is checked. */
export const checkApiAnswers = () => {
  const original = globalThis.fetch
  const checked = async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]): Promise<Response> => {
    const response = await original(input, init)
    const url = new URL(input instanceof Request ? input.url : String(input))
    const method = init?.method ?? (input instanceof Request ? input.method : "GET")
    // an answer without a body (HEAD) has nothing to check
    // the API's answers all carry X-Request-Id (another server on the same path, say the admin listener, is not checked)
    if (!url.pathname.startsWith(BASE) || method.toUpperCase() === "HEAD" || !response.headers.has("x-request-id")) return response
    const type = response.headers.get("content-type") ?? ""
    if (!type.startsWith("application/json")) return response
    const text = await response.clone().text()
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      throw new Error(`${url.pathname} answered ${response.status} with a body that is not JSON: ${text.slice(0, 200)}`)
    }
    const problem = documentProblem(url.pathname, method, response.status, body)
    if (problem !== undefined) throw new Error(`the answer breaks openapi.json: ${problem}`)
    const requestId = (body as { requestId?: unknown }).requestId
    if (response.headers.get("x-request-id") !== requestId) throw new Error(`${url.pathname}: X-Request-Id differs from the body's requestId`)
    return response
  }
  globalThis.fetch = Object.assign(checked, original) as typeof fetch
}
