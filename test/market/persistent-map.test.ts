// The market's persistent map: after any changes it reads as a Map given the
// same changes would, and every earlier version reads as it did.
import { describe, expect, test } from "bun:test"
import fc from "fast-check"
import { PersistentMap } from "../../src/market/persistent-map.ts"

type Op = { readonly set: true; readonly key: string; readonly value: number } | { readonly set: false; readonly key: string }

// few distinct keys so that sets and deletes meet: pool ids, short strings, and long keys that differ
// only in their middle (the hash reads a long key's ends: these all hash alike)
const key = fc.oneof(
  fc.integer({ min: 0, max: 300 }).map((i) => `0x${i.toString(16).padStart(40, "0")}`),
  fc.string({ maxLength: 3 }),
  fc.integer({ min: 0, max: 20 }).map((i) => `${"a".repeat(10)}${i}${"z".repeat(10)}`),
)
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ set: fc.constant(true as const), key, value: fc.integer() }),
  fc.record({ set: fc.constant(false as const), key }),
)

const contents = (map: ReadonlyMap<string, number>) => [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))

describe("PersistentMap", () => {
  test("each version, drafted in batches, reads as a Map with the same changes; the versions before it are unchanged", () => {
    fc.assert(
      fc.property(fc.array(fc.array(op, { maxLength: 60 }), { maxLength: 12 }), (batches) => {
        const versions: { map: PersistentMap<number>; expected: [string, number][] }[] = []
        let map = PersistentMap.empty<number>()
        const native = new Map<string, number>()
        for (const batch of batches) {
          const draft = map.edit()
          for (const o of batch) {
            if (o.set) {
              draft.set(o.key, o.value)
              native.set(o.key, o.value)
            } else expect(draft.delete(o.key)).toBe(native.delete(o.key))
            expect(draft.size).toBe(native.size)
          }
          map = draft.done()
          versions.push({ map, expected: contents(native) })
          expect(map.size).toBe(native.size)
          for (const o of batch) expect(map.get(o.key)).toBe(native.get(o.key))
          for (const [k, v] of native) expect(map.has(k) && map.get(k) === v).toBe(true)
          expect(contents(map)).toEqual(contents(native))
          expect([...map.keys()].length).toBe(native.size)
          let n = 0
          map.forEach(() => n++)
          expect(n).toBe(native.size)
        }
        for (const { map, expected } of versions) expect(contents(map)).toEqual(expected)
      }),
      { numRuns: 300 },
    )
  })

  test("100,000 keys are each kept, and deleting half leaves the other half", () => {
    const draft = PersistentMap.empty<number>().edit()
    for (let i = 0; i < 100_000; i++) draft.set(`k${i}`, i)
    const map = draft.done()
    expect(map.size).toBe(100_000)
    for (let i = 0; i < 100_000; i += 7) expect(map.get(`k${i}`)).toBe(i)
    const fewer = map.edit()
    for (let i = 0; i < 100_000; i += 2) fewer.delete(`k${i}`)
    const odd = fewer.done()
    expect(odd.size).toBe(50_000)
    expect(odd.get("k3")).toBe(3)
    expect(odd.has("k4")).toBe(false)
    expect(map.get("k4")).toBe(4)
  })

  test("a draft is closed once done", () => {
    const draft = PersistentMap.empty<number>().edit()
    draft.set("a", 1)
    draft.done()
    expect(() => draft.set("b", 2)).toThrow()
  })

  test("from: a Map's entries; a PersistentMap itself", () => {
    const map = PersistentMap.from(new Map([["a", 1], ["b", 2]]))
    expect(contents(map)).toEqual([["a", 1], ["b", 2]])
    expect(PersistentMap.from(map)).toBe(map)
    expect(new Map(map)).toEqual(new Map([["a", 1], ["b", 2]]))
  })
})
