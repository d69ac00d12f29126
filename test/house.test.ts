// The house drawn from its imports, read with TypeScript's own parser
// (test/support/house.ts): rooms (src's top-level folders) are entered only
// through their door; no cycle between rooms; every room has one place in a
// strict order and imports only rooms below it; nothing but the entry points
// knows the devnet; the pure rooms import only pure rooms and a few named,
// pure helpers, and touch no I/O, clock, timer or console. Each rule is then
// proven by planting its fault in an in-memory copy of src/.
import { describe, expect, test } from "bun:test"
import { HOUSE, inspectHouse, readHouse, RULES, type HousePlan, type HouseReport, type Rule } from "./support/house.ts"

const house = readHouse()
const real = inspectHouse(house)

const faults = (report: HouseReport, rule: Rule): string[] =>
  report.violations.filter((v) => v.rule === rule).map((v) => `${v.file}: ${v.detail}`)

/** The real house with `code` added at the end of one of its files (or as a new file). */
const planted = (file: string, code: string, plan: HousePlan = HOUSE): HouseReport => {
  const copy = new Map(house)
  copy.set(file, `${house.get(file) ?? ""}\n${code}\n`)
  return inspectHouse(copy, plan)
}

/** The rules a planted fault broke, each once. */
const broken = (report: HouseReport): Rule[] => [...new Set(report.violations.map((v) => v.rule))].sort()

describe("the house", () => {
  test("the parser reads every import of src/", () => {
    expect(house.size).toBeGreaterThan(100)
    expect(real.imports.length).toBeGreaterThan(house.size)
    // every file that has an import or re-export statement has it parsed
    const withImports = [...house].filter(([, text]) => /^(import|export)\b[^;]*?\bfrom\s*["']/ms.test(text)).map(([file]) => file)
    const parsed = new Set(real.imports.map((i) => i.file))
    expect(withImports.filter((file) => !parsed.has(file))).toEqual([])
    expect(withImports.length).toBeGreaterThan(100)
  })

  test.each(RULES.map((rule) => [rule]))("%s: the real house keeps the rule, and the rule looked at something", (rule) => {
    expect(real.checked[rule]).toBeGreaterThan(0)
    expect(faults(real, rule)).toEqual([])
  })

  test("the order names each room once, and every room of src/", () => {
    expect(new Set(HOUSE.order).size).toBe(HOUSE.order.length)
    const rooms = new Set([...house.keys()].map((f) => (f.includes("/") ? f.split("/")[0]! : f.replace(/\.ts$/, ""))))
    expect([...rooms].filter((room) => !HOUSE.order.includes(room))).toEqual([])
    expect(HOUSE.order.filter((room) => !rooms.has(room))).toEqual([])
    expect(HOUSE.pure.every((room) => HOUSE.order.indexOf(room) < HOUSE.order.indexOf("config"))).toBe(true)
  })

  test.each(HOUSE.exceptions.map((e) => [`${e.from} -> ${e.to}`, e]))("the exception %s is still needed", (_, exception) => {
    expect(exception.reason.length).toBeGreaterThan(0)
    const without = inspectHouse(house, { ...HOUSE, exceptions: HOUSE.exceptions.filter((e) => e !== exception) })
    const arrow = (rule: Rule) => faults(without, rule).filter((f) => f.includes(`${exception.from} imports`) || f.includes(`imports the room ${exception.to}`))
    expect(arrow("order").filter((f) => f.includes(`imports ${exception.to},`)).length).toBeGreaterThan(0)
    expect(arrow("pure-imports").length).toBeGreaterThan(0)
  })

  test("each pure package allowance is used", () => {
    const used = HOUSE.pureImports.filter((a) =>
      real.imports.some((i) => a.rooms.includes(i.room) && i.pkg === a.pkg && i.names.some((n) => a.names.includes(n.name))),
    )
    expect(used).toEqual([...HOUSE.pureImports])
  })
})

describe("each rule fails on a planted fault", () => {
  test("door: an import past another room's door", () => {
    const report = planted("api/edge.ts", `import type { World } from "../market/types.ts"`)
    expect(faults(report, "door")).toEqual(["api/edge.ts: past the door of market: api/edge.ts -> market/types.ts (import, type only)"])
  })

  test("door: a room without a door (and without a place in the order)", () => {
    const report = planted("payouts/orders.ts", `export const orders = 1`)
    expect(faults(report, "door")).toEqual(["payouts: payouts has no door (payouts/index.ts)"])
    expect(faults(report, "order")).toEqual(["payouts: payouts has no place in the order of the house"])
  })

  test("cycle: a type-only arrow back up closes a loop", () => {
    const report = planted("swap/quote.ts", `import type { ServerShape } from "../api/index.ts"`)
    expect(faults(report, "cycle")).toEqual(["api: api -> swap -> api"])
    // the order alone would already refuse it: the cycle rule holds even with no order at all
    const unordered = planted("swap/quote.ts", `import type { ServerShape } from "../api/index.ts"`, { ...HOUSE, order: [...HOUSE.order].reverse() })
    expect(faults(unordered, "cycle")).toEqual(["api: api -> swap -> api"])
  })

  test("order: access -> tokens (two services that shared one layer)", () => {
    const report = planted("access/live.ts", `import { Tokens } from "../tokens/index.ts"`)
    expect(broken(report)).toEqual(["order"])
    expect(faults(report, "order")).toEqual(["access/live.ts: access imports tokens, which stands above it: access/live.ts -> tokens/index.ts (import)"])
  })

  test("order: market -> devnet", () => {
    const report = planted("market/market-state.ts", `import { startDevnet } from "../devnet/index.ts"`)
    expect(broken(report)).toEqual(["devnet", "order"])
  })

  test("order: a type-only import counts", () => {
    const report = planted("chain/rpc.ts", `import type { World } from "../market/index.ts"`)
    expect(faults(report, "order")).toEqual(["chain/rpc.ts: chain imports market, which stands above it: chain/rpc.ts -> market/index.ts (import, type only)"])
  })

  test("order: a re-export counts", () => {
    const report = planted("tokens/index.ts", `export { MarketState } from "../market/index.ts"`)
    expect(faults(report, "order")).toEqual(["tokens/index.ts: tokens imports market, which stands above it: tokens/index.ts -> market/index.ts (export)"])
  })

  test("order: an exception excuses types only, not a value across the same arrow", () => {
    const plan: HousePlan = { ...HOUSE, exceptions: [{ from: "pricer", to: "market", reason: "a planted exception" }] }
    expect(broken(planted("pricer/price.ts", `import type { MarketState } from "../market/index.ts"`, plan))).toEqual([])
    expect(broken(planted("pricer/price.ts", `import type { MarketState } from "../market/index.ts"`))).toEqual(["order", "pure-imports"])
    expect(broken(planted("pricer/price.ts", `import { MarketState } from "../market/index.ts"`, plan))).toEqual(["order", "pure-imports"])
  })

  test("order: a dynamic import whose path is computed", () => {
    const report = planted("swap/quote.ts", `const room = "market"\nexport const later = () => import(\`../\${room}/index.ts\`)`)
    expect(faults(report, "order")).toEqual(["swap/quote.ts: an import the house cannot read: swap/quote.ts -> <computed: import(`../${room}/index.ts`)> (dynamic)"])
  })

  test("devnet: the edge may not know the devnet, though it stands above it", () => {
    const report = planted("api/server.ts", `import { startDevnet } from "../devnet/index.ts"`)
    expect(broken(report)).toEqual(["devnet"])
    expect(faults(report, "devnet")).toEqual(["api/server.ts: only cli and main may import the devnet: api/server.ts -> devnet/index.ts (import)"])
  })

  const pureImportFaults: [string, string, string][] = [
    ["viem's client in amm", "amm/v2.ts", `import { createPublicClient, http } from "viem"`],
    ["a dynamic import of effect", "routing/search.ts", `export const later = () => import("effect")`],
    ["from\"effect\" without a space", "pricer/fees.ts", `import{Effect}from"effect"`],
    ["a type import of a service into routing", "routing/types.ts", `import type { World } from "../market/index.ts"`],
    ["a re-export of effect", "pricer/index.ts", `export { Effect } from "effect"`],
    ["a type re-export of a service", "amm/index.ts", `export type { Rpc } from "../chain/index.ts"`],
    ["import = require", "amm/v3.ts", `import fs = require("node:fs")`],
    ["a type written as import(\"effect\")", "pricer/quote.ts", `export type Later = import("effect").Effect.Effect<number>`],
    ["a viem helper allowed only in addresses", "routing/graph.ts", `import { getAddress } from "viem"`],
    ["a namespace import of an allowed package", "domain/checksum.ts", `import * as viem from "viem"`],
    ["a Bun module", "pricer/impact.ts", `import { file } from "bun"`],
  ]
  test.each(pureImportFaults)("pure-imports: %s", (_, file, code) => {
    const report = planted(file, code)
    const found = faults(report, "pure-imports")
    expect(found.length).toBe(1)
    expect(found[0]!.startsWith(`${file}: pure ${file.split("/")[0]} `)).toBe(true)
  })

  const globalFaults: [string, string, string][] = [
    ["fetch", "routing/search.ts", `export const load = () => fetch("http://127.0.0.1/")`],
    ["Bun", "routing/graph.ts", `export const save = () => Bun.write("graph.json", "{}")`],
    ["process", "amm/v2.ts", `export const fee = process.env.FEE`],
    ["Date.now", "pricer/fees.ts", `export const at = () => Date.now()`],
    ["Date() (the clock)", "pricer/impact.ts", `export const at = () => new Date()`],
    ["setTimeout", "routing/optimiser.ts", `setTimeout(() => {}, 1)`],
    ["setInterval", "routing/optimiser.ts", `setInterval(() => {}, 1)`],
    ["queueMicrotask", "pricer/rank.ts", `queueMicrotask(() => {})`],
    ["console", "pricer/price.ts", `console.log("priced")`],
    ["require", "domain/chains.ts", `export const fs = require("node:fs")`],
    ["globalThis", "amm/v3.ts", `export const f = globalThis["fet" + "ch"]`],
    ["Math.random", "routing/search.ts", `export const pick = () => Math.random()`],
    ["performance", "routing/search.ts", `export const t = () => performance.now()`],
    ["import.meta", "amm/v4.ts", `export const here = import.meta.dir`],
  ]
  test.each(globalFaults)("pure-globals: %s", (name, file, code) => {
    const report = planted(file, code)
    const found = faults(report, "pure-globals")
    expect(found.length).toBe(1)
    expect(found[0]!).toContain(`${file}: pure ${file.split("/")[0]} touches ${name} (line `)
  })

  test("pure-globals: a property or member named like a global is not one", () => {
    const report = planted("routing/search.ts", `export const o = { fetch: 1, console: 2 }\nexport const p = o.fetch + o.console\nexport const q = (r: { process: number }) => r.process`)
    expect(faults(report, "pure-globals")).toEqual([])
  })
})
