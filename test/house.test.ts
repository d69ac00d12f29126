// The house drawn from its imports: rooms (src's top-level folders) are entered
// only through their door (index.ts); no cycle between rooms; data one way,
// edge -> programs -> services -> pure math; the pure rooms import nothing of
// Effect, Bun or HTTP, and run only pure code.
import { describe, expect, test } from "bun:test"
import { Glob } from "bun"
import { readFileSync } from "node:fs"
import { dirname, relative, resolve } from "node:path"

const SRC = resolve(import.meta.dir, "../src")

/** Pure rooms: math and data, no Effect, no I/O. */
const PURE = new Set(["addresses", "amm", "fees", "pricer", "pricing", "routing"])
/** Layers, highest first: a room's runtime imports go to its own layer or below. */
const LAYER: Record<string, number> = {
  main: 4, cli: 4,
  api: 3,
  swap: 2,
  config: 1, access: 1, ops: 1, market: 1, tokens: 1, sources: 1, chain: 1, contracts: 1, devnet: 1,
  addresses: 0, amm: 0, fees: 0, pricer: 0, pricing: 0, routing: 0,
}

interface Import {
  readonly from: string
  readonly fromRoom: string
  readonly target: string
  readonly targetRoom: string
  readonly typeOnly: boolean
  readonly bare: string | undefined
}

const roomOf = (file: string): string => {
  const rel = relative(SRC, file)
  return rel.includes("/") ? rel.split("/")[0]! : rel.replace(/\.ts$/, "")
}

const imports: Import[] = []
for (const path of new Glob("**/*.ts").scanSync(SRC)) {
  const file = resolve(SRC, path)
  const text = readFileSync(file, "utf8")
  for (const m of text.matchAll(/^(?:import|export)\s+(type\s+)?(?:[^"';]*?\sfrom\s+)?["']([^"']+)["']/gm)) {
    const spec = m[2]!
    const typeOnly = m[1] !== undefined
    if (!spec.startsWith(".")) {
      imports.push({ from: path, fromRoom: roomOf(file), target: spec, targetRoom: "", typeOnly, bare: spec })
      continue
    }
    const target = resolve(dirname(file), spec)
    imports.push({ from: path, fromRoom: roomOf(file), target: relative(SRC, target), targetRoom: roomOf(target), typeOnly, bare: undefined })
  }
}
const crossing = imports.filter((i) => i.bare === undefined && i.fromRoom !== i.targetRoom)

describe("the house", () => {
  test("every room is entered through its door", () => {
    const rooms = new Set(crossing.map((i) => i.targetRoom))
    const pastDoors = crossing.filter((i) => rooms.has(i.targetRoom) && i.target !== `${i.targetRoom}/index.ts` && i.target.includes("/"))
    expect(pastDoors.map((i) => `${i.from} -> ${i.target}`)).toEqual([])
  })

  test("no cycle between rooms", () => {
    const next = new Map<string, Set<string>>()
    for (const i of crossing) next.set(i.fromRoom, (next.get(i.fromRoom) ?? new Set()).add(i.targetRoom))
    const cycles: string[] = []
    const path: string[] = []
    const done = new Set<string>()
    const visit = (room: string) => {
      if (path.includes(room)) {
        cycles.push([...path.slice(path.indexOf(room)), room].join(" -> "))
        return
      }
      if (done.has(room)) return
      path.push(room)
      for (const to of next.get(room) ?? []) visit(to)
      path.pop()
      done.add(room)
    }
    for (const room of next.keys()) visit(room)
    expect(cycles).toEqual([])
  })

  test("data one way: edge -> programs -> services -> pure math", () => {
    const unknown = [...new Set(imports.map((i) => i.fromRoom))].filter((room) => LAYER[room] === undefined)
    expect(unknown).toEqual([])
    const upward = crossing.filter((i) => !i.typeOnly && LAYER[i.targetRoom]! > LAYER[i.fromRoom]!)
    expect(upward.map((i) => `${i.from} -> ${i.target}`)).toEqual([])
  })

  test("the pure rooms import nothing of Effect, Bun or HTTP, and run only pure code", () => {
    const impure = imports.filter(
      (i) =>
        PURE.has(i.fromRoom) &&
        !i.typeOnly &&
        (i.bare !== undefined ? i.bare !== "viem" : !PURE.has(i.targetRoom) && i.targetRoom !== i.fromRoom),
    )
    expect(impure.map((i) => `${i.from} -> ${i.target}`)).toEqual([])
  })
})
