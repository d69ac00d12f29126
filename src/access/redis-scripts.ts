// The Lua scripts behind the shared limits, each with its call typed: the keys
// and arguments it takes and what its reply means are read here and nowhere
// else. Each decision is one atomic script on Redis's own clock (TIME), so
// instances never disagree and their clocks do not matter. The store runs them
// by SHA and sends the source only when Redis does not have it yet.
// One Redis primary: lease renewal touches several keys in one script, which
// Redis Cluster would refuse.
import { Effect } from "effect"
import type { RateDecision } from "./limits.ts"
import type { LimitStore, RedisCallError } from "./redis-store.ts"

const TOKEN_BUCKET = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local per = tonumber(ARGV[1])
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1])
local at = tonumber(state[2])
if tokens == nil or at == nil then
  tokens = per
  at = now
end
local elapsed = now - at
if elapsed < 0 then elapsed = 0 end
tokens = math.min(per, tokens + elapsed * per / 60000)
local eps = 1e-9
local allowed, remaining, retry = 0, 0, 0
if tokens >= 1 - eps then
  tokens = math.max(0, tokens - 1)
  allowed = 1
  remaining = math.floor(tokens + eps)
else
  retry = math.max(1, math.ceil(((1 - tokens) * 60000 / per) / 1000))
end
-- whole seconds until full again: ceil((per - tokens) / (per / 60 a second)), as in limits.ts
local reset = math.max(0, math.ceil((per - tokens) * 60 / per - eps))
redis.call('HSET', KEYS[1], 'tokens', string.format('%.17g', tokens), 'at', string.format('%.17g', now))
redis.call('PEXPIRE', KEYS[1], math.ceil((per - tokens) * 60000 / per) + 1000)
return {allowed, remaining, retry, reset}
`

const now_ms = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`

const ACQUIRE_SLOT = `${now_ms}
local lease = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[1]) then return 0 end
redis.call('ZADD', KEYS[1], now + lease, ARGV[2])
if redis.call('PTTL', KEYS[1]) < lease then redis.call('PEXPIRE', KEYS[1], lease) end
return 1
`

// KEYS: the slots' sets; ARGV[1]: lease; ARGV[1 + i]: the slot in KEYS[i]. Answers how many were gone.
const RENEW_SLOTS = `${now_ms}
local lease = tonumber(ARGV[1])
local lost = 0
for i, key in ipairs(KEYS) do
  local slot = ARGV[i + 1]
  if redis.call('ZSCORE', key, slot) then
    redis.call('ZADD', key, 'XX', now + lease, slot)
    if redis.call('PTTL', key) < lease then redis.call('PEXPIRE', key, lease) end
  else
    lost = lost + 1
  end
end
return lost
`

const COUNT_SLOTS = `${now_ms}
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
return redis.call('ZCARD', KEYS[1])
`

/**
 * Takes one token from the bucket kept in the hash `bucket`: `perMinute` of
 * capacity, refilled continuously; the hash expires once the bucket would be full again.
 * The seconds until it is full are decided in the same call as the take.
 */
export const takeToken = (store: LimitStore, bucket: string, perMinute: number): Effect.Effect<RateDecision, RedisCallError> =>
  Effect.map(store.script(TOKEN_BUCKET, [bucket], [perMinute]), (reply) => {
    const [allowed, remaining, retry, reset] = reply as [number, number, number, number]
    return { allowed: allowed === 1, limit: perMinute, remaining, retryAfterSeconds: retry, resetSeconds: reset }
  })

/** Adds `slot` to the sorted set `slots` as a lease (the store's leaseMs) if fewer than `max` unexpired leases are there; true when added. */
export const acquireSlot = (store: LimitStore, slots: string, max: number, slot: string): Effect.Effect<boolean, RedisCallError> =>
  Effect.map(store.script(ACQUIRE_SLOT, [slots], [max, slot, store.config.leaseMs]), (reply) => reply === 1)

/** Extends each lease ([slot, its set]) by the store's leaseMs; answers how many were already gone. */
export const renewSlots = (store: LimitStore, leases: readonly (readonly [slot: string, slots: string])[]): Effect.Effect<number, RedisCallError> =>
  Effect.map(
    store.script(RENEW_SLOTS, leases.map(([, slots]) => slots), [store.config.leaseMs, ...leases.map(([slot]) => slot)]),
    (lost) => (typeof lost === "number" ? lost : 0),
  )

/** Unexpired leases in the sorted set `slots`. */
export const countSlots = (store: LimitStore, slots: string): Effect.Effect<number, RedisCallError> =>
  Effect.map(store.script(COUNT_SLOTS, [slots], []), (n) => Number(n))
