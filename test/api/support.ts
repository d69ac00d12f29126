// A real API server per test: random port, SQLite key store in a temp dir,
// programs given by the test (the synthetic ones by default).
import { expect } from "bun:test"
import { Effect, type Layer } from "effect"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { startApiServer, syntheticPrograms, SYNTHETIC, type RunningApi } from "../../src/api/index.ts"
import type { SwapPrograms } from "../../src/swap/index.ts"

export interface TestApi extends RunningApi {
  readonly dir: string
  /** issues a key in the server's store */
  readonly newKey: (options?: { rpm?: number; concurrency?: number; name?: string }) => Promise<{ key: string; id: string }>
  readonly url: (path: string) => string
  readonly close: () => Promise<void>
}

export const startTestApi = async (options: {
  programs?: Layer.Layer<SwapPrograms>
  env?: Record<string, string>
  /** receives the server's log lines (LOG_FORMAT); default: Effect's logger */
  log?: (line: string) => void
} = {}): Promise<TestApi> => {
  const dir = mkdtempSync(join(tmpdir(), "api-test-"))
  const api = await startApiServer({
    programs: options.programs ?? syntheticPrograms(),
    env: { PORT: "0", DATABASE_URL: join(dir, "keys.sqlite"), LOG_LEVEL: "error", ...options.env },
    ...(options.log !== undefined ? { log: options.log } : {}),
  })
  return {
    ...api,
    dir,
    newKey: async (o = {}) => {
      const { key, record } = await Effect.runPromise(api.keys.create({ name: o.name ?? "test", rpm: o.rpm ?? 1000, concurrency: o.concurrency ?? 2 }))
      return { key, id: record.id }
    },
    url: (path) => `http://127.0.0.1:${api.port}${path}`,
    close: async () => {
      await api.stop()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

export const T = SYNTHETIC.tokens

/** A valid /quote body. */
export const quoteBody = (over: Record<string, unknown> = {}) => ({ tokenIn: T.usdc, tokenOut: T.tokenA, amountIn: "1000000", ...over })
/** A valid /swap body. */
export const swapBody = (over: Record<string, unknown> = {}) => ({
  tokenIn: T.usdc,
  tokenOut: T.tokenA,
  amountIn: "1000000",
  sender: "0x1111111111111111111111111111111111111111",
  ...over,
})

export interface Answer {
  readonly status: number
  readonly headers: Headers
  readonly body: any
  readonly text: string
}

export const post = async (api: TestApi, path: string, body: unknown, headers: Record<string, string> = {}): Promise<Answer> => {
  const response = await fetch(api.url(path), {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  })
  return answer(response)
}

export const answer = async (response: Response): Promise<Answer> => {
  const text = await response.text()
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch {
    body = undefined
  }
  return { status: response.status, headers: response.headers, body, text }
}

/** The spec's error envelope, exactly; X-Request-Id equals requestId; never a CORS header. */
export const expectError = (a: Answer, status: number, code: string, message?: string | RegExp, reason?: string) => {
  expect(a.status).toBe(status)
  expect(a.headers.get("content-type")).toBe("application/json")
  expect(Object.keys(a.body)).toEqual(["error", "requestId"])
  expect(a.body.error.code).toBe(code)
  expect(typeof a.body.error.message).toBe("string")
  if (typeof message === "string") expect(a.body.error.message).toBe(message)
  else if (message instanceof RegExp) expect(a.body.error.message).toMatch(message)
  if (reason === undefined) expect(Object.keys(a.body.error)).toEqual(["code", "message"])
  else expect(a.body.error.reason).toBe(reason)
  expectRequestId(a)
}

export const expectRequestId = (a: Answer) => {
  const id = a.headers.get("x-request-id")
  expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
  if (a.body !== undefined) expect(a.body.requestId).toBe(id)
  for (const name of a.headers.keys()) expect(name.toLowerCase().startsWith("access-control-")).toBe(false)
}

/** Sends raw bytes on one connection; answers what came back until the server closed it or `ms` passed. */
export const rawExchange = (port: number, chunks: Array<string | Uint8Array>, ms = 2000, gapMs = 0) =>
  new Promise<{ text: string; closedByServer: boolean }>((resolve, reject) => {
    let text = ""
    let settled = false
    const done = (closedByServer: boolean) => {
      if (settled) return
      settled = true
      resolve({ text, closedByServer })
    }
    Bun.connect({
      hostname: "127.0.0.1",
      port,
      socket: {
        open: async (socket) => {
          for (const chunk of chunks) {
            if (settled) return
            socket.write(chunk)
            if (gapMs > 0) await Bun.sleep(gapMs)
          }
        },
        data: (_socket, data) => {
          text += Buffer.from(data).toString("utf8")
        },
        close: () => done(true),
        error: () => done(true),
      },
    })
      .then((socket) =>
        setTimeout(() => {
          done(false)
          socket.end()
        }, ms))
      .catch(reject)
  })

/** Parses the first HTTP/1.1 response in raw text. */
export const parseRaw = (text: string) => {
  const headerEnd = text.indexOf("\r\n\r\n")
  const [statusLine, ...lines] = text.slice(0, headerEnd).split("\r\n")
  const headers = new Headers(lines.map((l) => [l.slice(0, l.indexOf(":")).trim(), l.slice(l.indexOf(":") + 1).trim()] as [string, string]))
  const length = Number(headers.get("content-length") ?? 0)
  const bodyText = text.slice(headerEnd + 4, headerEnd + 4 + length)
  return { status: Number(statusLine!.split(" ")[1]), headers, body: JSON.parse(bodyText), text: bodyText } satisfies Answer
}

/** A latch a test opens to let held program calls finish. */
export const makeGate = () => {
  let open!: () => void
  const opened = new Promise<void>((resolve) => (open = resolve))
  let waiting = 0
  return {
    opened,
    open,
    /** program calls waiting behind the gate */
    waiting: () => waiting,
    wait: Effect.promise(() => {
      waiting++
      return opened.finally(() => waiting--)
    }),
  }
}

export const until = async (check: () => boolean, ms = 5000) => {
  const end = Date.now() + ms
  while (!check()) {
    if (Date.now() > end) throw new Error("timed out waiting")
    await Bun.sleep(5)
  }
}
