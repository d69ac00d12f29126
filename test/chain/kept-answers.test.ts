// Answers kept per key: a key asked again is answered from its kept answer;
// concurrent first askings share one computation; a failed one, or one whose
// answer says not to keep it, is made again; a kept answer expires, or never
// with an infinite time; past the capacity the oldest goes; and an asker
// interrupted while computing leaves the others to compute for themselves.
import { describe, expect, test } from "bun:test"
import { Deferred, Effect, Exit, Fiber } from "effect"
import { makeKeptAnswers } from "../../src/chain/kept-answers.ts"

const counted = () => {
  let calls = 0
  const check = (value: string) => () => Effect.sync(() => (calls++, value))
  return { check, calls: () => calls }
}

describe("kept answers", () => {
  test("a pair asked again is answered from its kept check", async () => {
    const pairs = makeKeptAnswers<string, never>({ capacity: 10, ttlMs: 60_000, keep: () => true })
    const c = counted()
    expect(await Effect.runPromise(pairs.get("a|b", c.check("ab")))).toBe("ab")
    expect(await Effect.runPromise(pairs.get("a|b", c.check("other")))).toBe("ab")
    expect(await Effect.runPromise(pairs.get("b|a", c.check("ba")))).toBe("ba")
    expect(c.calls()).toBe(2)
  })

  test("concurrent first askings share one check", async () => {
    const pairs = makeKeptAnswers<string, never>({ capacity: 10, ttlMs: 60_000, keep: () => true })
    let calls = 0
    const gate = Effect.runSync(Deferred.make<void>())
    const check = () => Effect.zipRight(Effect.sync(() => calls++), Effect.as(Deferred.await(gate), "ab"))
    const askers = Array.from({ length: 5 }, () => Effect.runFork(pairs.get("a|b", check)))
    await Effect.runPromise(Effect.yieldNow())
    Effect.runSync(Deferred.succeed(gate, undefined))
    for (const f of askers) expect(await Effect.runPromise(Fiber.join(f))).toBe("ab")
    expect(calls).toBe(1)
  })

  test("a failed check is passed to every asker waiting for it, and made again next time", async () => {
    const pairs = makeKeptAnswers<string, string>({ capacity: 10, ttlMs: 60_000, keep: () => true })
    let calls = 0
    const gate = Effect.runSync(Deferred.make<void>())
    const failing = () => Effect.zipRight(Effect.sync(() => calls++), Effect.zipRight(Deferred.await(gate), Effect.fail("node down")))
    const first = Effect.runFork(pairs.get("a|b", failing))
    const waiting = Effect.runFork(pairs.get("a|b", failing))
    await Effect.runPromise(Effect.yieldNow())
    Effect.runSync(Deferred.succeed(gate, undefined))
    expect(await Effect.runPromise(Fiber.await(first))).toEqual(Exit.fail("node down"))
    expect(await Effect.runPromise(Fiber.await(waiting))).toEqual(Exit.fail("node down"))
    expect(calls).toBe(1)
    expect(await Effect.runPromise(pairs.get("a|b", () => Effect.succeed("ab")))).toBe("ab")
  })

  test("an answer the check says not to keep is asked again", async () => {
    const pairs = makeKeptAnswers<string, never>({ capacity: 10, ttlMs: 60_000, keep: (v) => v !== "unverified" })
    const c = counted()
    expect(await Effect.runPromise(pairs.get("a|b", c.check("unverified")))).toBe("unverified")
    expect(await Effect.runPromise(pairs.get("a|b", c.check("verified")))).toBe("verified")
    expect(await Effect.runPromise(pairs.get("a|b", c.check("again")))).toBe("verified")
    expect(c.calls()).toBe(2)
  })

  test("a kept check expires after its time; past the capacity the oldest kept goes first", async () => {
    let clock = 0
    const pairs = makeKeptAnswers<string, never>({ capacity: 2, ttlMs: 1_000, keep: () => true, now: () => clock })
    const c = counted()
    await Effect.runPromise(pairs.get("a", c.check("a1")))
    clock = 999
    expect(await Effect.runPromise(pairs.get("a", c.check("a2")))).toBe("a1")
    clock = 1_000
    expect(await Effect.runPromise(pairs.get("a", c.check("a3")))).toBe("a3")
    expect(c.calls()).toBe(2)
    // a kept at 1,000; then b and c: a, the oldest, goes
    await Effect.runPromise(pairs.get("b", c.check("b1")))
    await Effect.runPromise(pairs.get("c", c.check("c1")))
    expect(await Effect.runPromise(pairs.get("b", c.check("b2")))).toBe("b1")
    expect(await Effect.runPromise(pairs.get("c", c.check("c2")))).toBe("c1")
    expect(await Effect.runPromise(pairs.get("a", c.check("a4")))).toBe("a4")
    expect(c.calls()).toBe(5)
  })

  test("with an infinite time and no keep rule, every answer is kept until the capacity lets it go", async () => {
    let clock = 0
    const kept = makeKeptAnswers<string, never>({ capacity: 1, ttlMs: Number.POSITIVE_INFINITY, now: () => clock })
    const c = counted()
    await Effect.runPromise(kept.get("a", c.check("a1")))
    clock = 1e15
    expect(await Effect.runPromise(kept.get("a", c.check("a2")))).toBe("a1")
    await Effect.runPromise(kept.get("b", c.check("b1")))
    expect(await Effect.runPromise(kept.get("a", c.check("a3")))).toBe("a3")
    expect(c.calls()).toBe(3)
  })

  test("an asker interrupted while checking: the askers waiting for it check for themselves, and are not interrupted", async () => {
    const pairs = makeKeptAnswers<string, never>({ capacity: 10, ttlMs: 60_000, keep: () => true })
    let calls = 0
    const first = Effect.runFork(pairs.get("a|b", () => Effect.zipRight(Effect.sync(() => calls++), Effect.never)))
    await Effect.runPromise(Effect.yieldNow())
    const waiting = Effect.runFork(pairs.get("a|b", () => Effect.sync(() => (calls++, "ab"))))
    await Effect.runPromise(Effect.yieldNow())
    await Effect.runPromise(Fiber.interrupt(first))
    expect(await Effect.runPromise(Fiber.join(waiting))).toBe("ab")
    expect(calls).toBe(2)
    expect(await Effect.runPromise(pairs.get("a|b", () => Effect.succeed("later")))).toBe("ab")
  })

  test("an asking made but never run holds no check under way: the next asker checks", async () => {
    const pairs = makeKeptAnswers<string, never>({ capacity: 10, ttlMs: 60_000, keep: () => true })
    const c = counted()
    pairs.get("a|b", c.check("never run"))
    const answer = await Effect.runPromise(Effect.timeout(pairs.get("a|b", c.check("ab")), "1 second"))
    expect(answer).toBe("ab")
    expect(c.calls()).toBe(1)
  })
})
