// Requests in flight shared through Redis: a sorted set of slots per key, each
// slot a lease scored by its expiry. A slot is taken only when fewer than `max`
// unexpired leases exist; the instance renews its leases (one batched call every
// lease/3) while the requests run and removes them when they end, so a crashed
// instance's slots free themselves within one lease.
import { Effect, Schedule, type Scope } from "effect"
import { randomBytes } from "node:crypto"
import { hostname } from "node:os"
import { InFlightFull, makeInFlight, type InFlightShape, type LimitStoreUnavailable } from "./limits.ts"
import { acquireSlot, countSlots, renewSlots } from "./redis-scripts.ts"
import type { LimitStore, RedisCallError } from "./redis-store.ts"

export interface RedisInFlightShape extends InFlightShape {
  /** Renews every lease this instance holds (run on a schedule; exposed for tests). */
  readonly renew: Effect.Effect<void>
  /** Leases this instance holds now. */
  readonly held: Effect.Effect<number>
}

/**
 * In-flight slots as leases in Redis under `<prefix>inflight:<key>`, with this
 * instance's in-process slots as the fallback. Leases are renewed every
 * lease/3 while the scope lives; on close, the leases still held are removed.
 */
export const makeRedisInFlight = (store: LimitStore): Effect.Effect<RedisInFlightShape, never, Scope.Scope> =>
  Effect.gen(function* () {
    const local = makeInFlight()
    const prefix = `${store.config.prefix}inflight:`
    const instance = `${hostname()}:${process.pid}:${randomBytes(4).toString("hex")}`
    let counter = 0
    /** slot → its set */
    const held = new Map<string, string>()

    type Outcome =
      | { readonly kind: "held"; readonly set: string; readonly slot: string }
      | { readonly kind: "full" }
      | { readonly kind: "local"; readonly error: RedisCallError }
    const FULL: Outcome = { kind: "full" }

    const acquire = (key: string, max: number): Effect.Effect<Outcome> => {
      const set = prefix + key
      const slot = `${instance}:${++counter}`
      return Effect.match(acquireSlot(store, set, max, slot), {
        onFailure: (error): Outcome => ({ kind: "local", error }),
        onSuccess: (taken): Outcome => {
          if (!taken) return FULL
          held.set(slot, set)
          return { kind: "held", set, slot }
        },
      })
    }

    // when this fails the lease expires by itself
    const remove = (set: string, slot: string): Effect.Effect<void> => Effect.ignore(store.command("ZREM", [set, slot]))

    const release = (outcome: Outcome): Effect.Effect<void> => {
      if (outcome.kind !== "held") return Effect.void
      held.delete(outcome.slot)
      return remove(outcome.set, outcome.slot)
    }

    const withSlot = <A, E, R>(key: string, max: number, self: Effect.Effect<A, E, R>): Effect.Effect<A, E | InFlightFull | LimitStoreUnavailable, R> =>
      Effect.acquireUseRelease(
        acquire(key, max),
        (outcome): Effect.Effect<A, E | InFlightFull | LimitStoreUnavailable, R> => {
          switch (outcome.kind) {
            case "held":
              return self
            case "full":
              return Effect.fail(new InFlightFull({ max }))
            case "local":
              return store.degrade("inflight", outcome.error, local.withSlot(key, max, self))
          }
        },
        release,
      )

    const renew: Effect.Effect<void> = Effect.suspend(() => {
      if (held.size === 0) return Effect.void
      return renewSlots(store, [...held.entries()]).pipe(
        Effect.flatMap((lost) =>
          lost > 0
            ? Effect.logWarning(`shared limits: ${lost} in-flight lease(s) expired before their requests ended (Redis unreachable for longer than INFLIGHT_LEASE_MS?)`)
            : Effect.void),
        Effect.ignore,
      )
    })
    yield* Effect.forkScoped(Effect.repeat(renew, Schedule.spaced(Math.max(1, Math.floor(store.config.leaseMs / 3)))))
    // on close: whatever is still held goes back at once rather than at lease expiry
    yield* Effect.addFinalizer(() =>
      Effect.suspend(() => {
        const slots = [...held.entries()]
        held.clear()
        return Effect.forEach(slots, ([slot, set]) => remove(set, slot), { discard: true, concurrency: "unbounded" })
      }))

    const count = (key: string): Effect.Effect<number> =>
      Effect.catchAll(countSlots(store, prefix + key), () => local.count(key))

    return {
      withSlot,
      count,
      size: Effect.sync(() => new Set(held.values()).size),
      renew,
      held: Effect.sync(() => held.size),
    } satisfies RedisInFlightShape
  })
