// The market snapshot's document: an exact round trip of every pool kind, and a
// refusal (never a half-load) of a document of another chain, another market
// configuration, another format, or one truncated or edited.
import { describe, expect, test } from "bun:test"
import { Either } from "effect"
import { getAddress, type Address, type Hex } from "viem"
import type { ConcentratedPoolState, PoolState, StablePoolState, V2PoolState } from "../../src/amm/index.ts"
import type { Exclusion } from "../../src/market/classification.ts"
import type { MarketConfig } from "../../src/market/market-config.ts"
import { v4Key, type Meta } from "../../src/market/pool-meta.ts"
import {
  decodeSnapshot,
  encodeSnapshot,
  FORMAT_VERSION,
  snapshotFingerprint,
  type MarketSnapshot,
  type SnapshotIdentity,
  type SnapshotRefusal,
} from "../../src/market/snapshot-codec.ts"

const addr = (n: number): Address => getAddress(`0x${n.toString(16).padStart(40, "0")}`)
const lowerAddr = (n: number): Address => `0x${n.toString(16).padStart(40, "0")}`

const USDC = getAddress("0x3600000000000000000000000000000000000000")
const WETH = addr(0xe7e7)
const DAI = addr(0xda1)
const USDT = addr(0x7e7)
const V2_FACTORY = addr(0xf2)
const V3_FACTORY = addr(0xf3)
const POOL_MANAGER = addr(0xf4)
const STATE_VIEW = addr(0xf5)
const STABLE_FACTORY = addr(0xf6)
const EXECUTOR = addr(0xe0)

const config: MarketConfig = {
  venues: [
    { name: "uniswap-v2", kind: "uniswap-v2", factory: V2_FACTORY, feeBps: 30 },
    { name: "arcade-v2", kind: "uniswap-v2", factory: addr(0xf22), feeBps: 25 },
    { name: "synthra-v3", kind: "uniswap-v3", factory: V3_FACTORY, deployer: addr(0xf33) },
    { name: "uniswap-v4", kind: "uniswap-v4", poolManager: POOL_MANAGER, stateView: STATE_VIEW },
    { name: "xylonet", kind: "curve-stableswap", pools: [addr(0x5701), addr(0x5702)], factory: STABLE_FACTORY },
  ],
  multicall3: getAddress("0xcA11bde05977b3631167028862bE2a173976CA11"),
  executor: EXECUTOR,
  priceFeeds: [
    { token: WETH, feed: addr(0xfeed1) },
    { token: USDC, feed: addr(0xfeed2) },
  ],
  fromBlock: 0n,
}
const identity: SnapshotIdentity = { chainId: 5042, fingerprint: snapshotFingerprint(config, 32768) }

// ---------------------------------------------------------------------------
// a realistic state: one pool of each kind, and pools excluded for each reason

const v2Pair = addr(0xa2)
const v3Pool = addr(0xa3)
const v4Id: Hex = `0x${"ab".repeat(32)}`
const v4Key_ = v4Key(v4Id, POOL_MANAGER)
const hookedId: Hex = `0x${"cd".repeat(32)}`
const hookedKey = v4Key(hookedId, POOL_MANAGER)
const stablePool = addr(0x5701)
const unverifiedPair = addr(0xa22)

const metas: Meta[] = [
  { key: v2Pair.toLowerCase(), venue: "arcade-v2", kind: "uniswap-v2", id: v2Pair, token0: USDC, token1: WETH, feeBps: 25 },
  { key: v3Pool.toLowerCase(), venue: "synthra-v3", kind: "uniswap-v3", id: v3Pool, token0: USDC, token1: WETH, fee: 3000, tickSpacing: 60 },
  {
    key: v4Key_,
    venue: "uniswap-v4",
    kind: "uniswap-v4",
    id: v4Id,
    token0: DAI,
    token1: USDC,
    fee: 500,
    tickSpacing: 10,
    hooks: "0x0000000000000000000000000000000000000000",
    poolManager: POOL_MANAGER,
    stateView: STATE_VIEW,
  },
  {
    key: hookedKey,
    venue: "uniswap-v4",
    kind: "uniswap-v4",
    id: hookedId,
    token0: DAI,
    token1: USDC,
    fee: 0x800000,
    tickSpacing: 1,
    hooks: addr(0x4040),
    poolManager: POOL_MANAGER,
    stateView: STATE_VIEW,
  },
  {
    key: stablePool.toLowerCase(),
    venue: "xylonet",
    kind: "curve-stableswap",
    id: stablePool,
    coins: [USDC, DAI, USDT],
    rates: [10n ** 30n, 10n ** 18n, 10n ** 30n],
  },
  { key: unverifiedPair.toLowerCase(), venue: "uniswap-v2", kind: "uniswap-v2", id: unverifiedPair, token0: USDT, token1: WETH, feeBps: 30 },
]

const v2State: V2PoolState = {
  kind: "uniswap-v2",
  venue: "arcade-v2",
  id: v2Pair,
  token0: USDC,
  token1: WETH,
  reserve0: 1_234_567_890_123n,
  reserve1: 987_654_321_000_000_000_000n,
  feeBps: 25,
}
const v3State: ConcentratedPoolState = {
  kind: "uniswap-v3",
  venue: "synthra-v3",
  id: v3Pool,
  token0: USDC,
  token1: WETH,
  fee: 3000,
  tickSpacing: 60,
  sqrtPriceX96: 1_461_446_703_485_210_103_287_273_052_203_988_822_378_723_970_341n,
  tick: -201_240,
  liquidity: 12_345_678_901_234_567n,
  ticks: [
    { tick: -887_220, liquidityNet: 5_000_000n },
    { tick: -201_300, liquidityNet: 12_340_678_901_234_567n },
    { tick: -201_180, liquidityNet: 0n },
    { tick: 887_220, liquidityNet: -12_345_678_901_234_567n },
  ],
  tickLower: -215_040,
  tickUpper: -184_321,
}
const v4State: ConcentratedPoolState = {
  kind: "uniswap-v4",
  venue: "uniswap-v4",
  id: v4Id,
  token0: DAI,
  token1: USDC,
  fee: 500,
  tickSpacing: 10,
  sqrtPriceX96: 79_228_162_514_264_337_593_543n,
  tick: -276_324,
  liquidity: 0n,
  ticks: [],
  tickLower: -307_200,
  tickUpper: -245_761,
  hooks: "0x0000000000000000000000000000000000000000",
}
const stableState: StablePoolState = {
  kind: "curve-stableswap",
  venue: "xylonet",
  id: stablePool,
  coins: [USDC, DAI, USDT],
  balances: [1_000_000_000_000n, 999_999_000_000_000_000_000_000n, 0n],
  rates: [10n ** 30n, 10n ** 18n, 10n ** 30n],
  amp: 200_000n,
  fee: 4_000_000n,
}

const state: MarketSnapshot = {
  block: 12_345_678n,
  blockHash: "0x6f1d2a4c8e0b3a5d7f9e1c3b5a7d9f0e2c4b6a8d0f1e3c5b7a9d1f3e5c7b9a0d",
  metas: new Map(metas.map((m) => [m.key, m])),
  excluded: new Map<string, Exclusion>([
    [hookedKey, { reason: `hooked V4 pool (hooks ${addr(0x4040)})`, recheck: false }],
    [unverifiedPair.toLowerCase(), { reason: `${USDT} is not routable: unverified (no holder)`, recheck: true }],
    [lowerAddr(0x5799), { reason: "not a stable pool of 2 to 8 coins with decimals", recheck: false }],
  ]),
  states: new Map<string, PoolState>([
    [v2Pair.toLowerCase(), v2State],
    [v3Pool.toLowerCase(), v3State],
    [v4Key_, v4State],
    [stablePool.toLowerCase(), stableState],
  ]),
  hidden: new Set([v4Key_]),
  ramping: new Set([stablePool.toLowerCase()]),
  registry: {
    allowedRouters: new Set([lowerAddr(0x1001), lowerAddr(0x1002)]),
    venues: new Map([
      [1, { kind: 1, factory: V2_FACTORY.toLowerCase(), feeBps: 30 }],
      [2, { kind: 1, factory: addr(0xf22).toLowerCase(), feeBps: 25 }],
      [7, { kind: 2, factory: addr(0xf33).toLowerCase(), feeBps: 0 }],
      [9, { kind: 3, factory: POOL_MANAGER.toLowerCase(), feeBps: 0 }],
    ]),
    stablePools: new Set([stablePool.toLowerCase()]),
  },
  factoryCounts: new Map([[STABLE_FACTORY.toLowerCase(), 3n]]),
}

const refusal = (result: Either.Either<MarketSnapshot, SnapshotRefusal>): SnapshotRefusal => {
  if (Either.isRight(result)) throw new Error("the document was accepted")
  return result.left
}

/** The document as JSON, edited by `edit`, then decoded. */
const edited = (edit: (doc: any) => void): Either.Either<MarketSnapshot, SnapshotRefusal> => {
  const doc = JSON.parse(encodeSnapshot(identity, state))
  edit(doc)
  return decodeSnapshot(JSON.stringify(doc), identity)
}

const stateEntry = (doc: any, key: string): any => doc.states.find(([k]: [string]) => k === key)[1]

describe("round trip", () => {
  test("decode(encode(state)) equals the state: every pool kind, metas, exclusions, hidden, ramping, registry, factory counts", () => {
    const decoded = decodeSnapshot(encodeSnapshot(identity, state), identity)
    expect(Either.isRight(decoded)).toBe(true)
    const back = Either.getOrThrow(decoded)
    expect(back).toStrictEqual(state)
    // the comparison above sees Maps and Sets by content; check the kinds survived as such
    expect(back.metas).toBeInstanceOf(Map)
    expect(back.hidden).toBeInstanceOf(Set)
    expect(back.registry.venues.get(7)).toEqual({ kind: 2, factory: addr(0xf33).toLowerCase(), feeBps: 0 })
    expect(back.states.get(v3Pool.toLowerCase())).toStrictEqual(v3State)
    expect("hooks" in back.states.get(v3Pool.toLowerCase())!).toBe(false)
    expect((back.states.get(v4Key_) as ConcentratedPoolState).hooks).toBe("0x0000000000000000000000000000000000000000")
    expect(back.excluded.get(unverifiedPair.toLowerCase())).toEqual({ reason: `${USDT} is not routable: unverified (no holder)`, recheck: true })
    expect(typeof back.block).toBe("bigint")
  })

  test("an empty state round-trips", () => {
    const empty: MarketSnapshot = {
      block: 0n,
      blockHash: "0x0000000000000000000000000000000000000000000000000000000000000000",
      metas: new Map(),
      excluded: new Map(),
      states: new Map(),
      hidden: new Set(),
      ramping: new Set(),
      registry: { allowedRouters: new Set(), venues: new Map(), stablePools: new Set() },
      factoryCounts: new Map(),
    }
    expect(Either.getOrThrow(decodeSnapshot(encodeSnapshot(identity, empty), identity))).toStrictEqual(empty)
  })

  test("the document: identity and format inside, bigints as decimal strings, ticks as parallel arrays", () => {
    const doc = JSON.parse(encodeSnapshot(identity, state))
    expect(doc.format).toBe(FORMAT_VERSION)
    expect(doc.chainId).toBe(5042)
    expect(doc.fingerprint).toBe(identity.fingerprint)
    expect(doc.block).toBe("12345678")
    expect(stateEntry(doc, v3Pool.toLowerCase()).ticks).toEqual({
      tick: [-887220, -201300, -201180, 887220],
      liquidityNet: ["5000000", "12340678901234567", "0", "-12345678901234567"],
    })
    expect(stateEntry(doc, stablePool.toLowerCase()).balances).toEqual(["1000000000000", "999999000000000000000000", "0"])
    expect(doc.factoryCounts).toEqual([[STABLE_FACTORY.toLowerCase(), "3"]])
    expect(doc.registry.venues[0]).toEqual([1, { kind: 1, factory: V2_FACTORY.toLowerCase(), feeBps: 30 }])
  })
})

describe("refusals", () => {
  test("a snapshot of another chain", () => {
    const r = refusal(decodeSnapshot(encodeSnapshot({ ...identity, chainId: 1 }, state), identity))
    expect(r._tag).toBe("SnapshotRefusal")
    expect(r.reason).toBe("other-chain")
    expect(r.message).toBe("snapshot of chain 1, this node serves 5042")
  })

  test("a snapshot of another venue set: a venue's address changed", () => {
    const moved: MarketConfig = { ...config, venues: config.venues.map((v) => (v.kind === "uniswap-v2" && v.name === "uniswap-v2" ? { ...v, factory: addr(0xbad) } : v)) }
    const fingerprint = snapshotFingerprint(moved, 32768)
    expect(fingerprint).not.toBe(identity.fingerprint)
    const r = refusal(decodeSnapshot(encodeSnapshot(identity, state), { chainId: 5042, fingerprint }))
    expect(r.reason).toBe("other-venues")
    expect(r.message).toContain(identity.fingerprint.slice(0, 12))
  })

  test("a snapshot of another executor", () => {
    const fingerprint = snapshotFingerprint({ ...config, executor: addr(0xe1) }, 32768)
    expect(refusal(decodeSnapshot(encodeSnapshot({ chainId: 5042, fingerprint }, state), identity)).reason).toBe("other-venues")
  })

  test("a future format", () => {
    const r = refusal(edited((doc) => (doc.format = FORMAT_VERSION + 1)))
    expect(r.reason).toBe("format")
    expect(r.message).toBe(`snapshot format ${FORMAT_VERSION + 1}, this node reads format ${FORMAT_VERSION}`)
  })

  test("a truncated document, at any of several lengths", () => {
    const text = encodeSnapshot(identity, state)
    for (const length of [0, 1, 20, Math.floor(text.length / 2), text.length - 1]) {
      const r = refusal(decodeSnapshot(text.slice(0, length), identity))
      expect(r.reason).toBe("corrupt")
    }
  })

  test("a balance with a digit turned into a letter", () => {
    const text = encodeSnapshot(identity, state)
    const tampered = text.replace('"999999000000000000000000"', '"99999900000000000000000O"')
    expect(tampered).not.toBe(text)
    const r = refusal(decodeSnapshot(tampered, identity))
    expect(r.reason).toBe("corrupt")
    expect(r.message).toContain("balances")
  })

  test("a missing field", () => {
    const r = refusal(edited((doc) => delete stateEntry(doc, v2Pair.toLowerCase()).reserve1))
    expect(r.reason).toBe("corrupt")
    expect(r.message).toContain("reserve1")
    expect(refusal(edited((doc) => delete doc.registry)).reason).toBe("corrupt")
    expect(refusal(edited((doc) => delete doc.chainId)).reason).toBe("corrupt")
  })

  test("a field of the wrong type", () => {
    expect(refusal(edited((doc) => (stateEntry(doc, v3Pool.toLowerCase()).tick = "-201240"))).reason).toBe("corrupt")
    expect(refusal(edited((doc) => (stateEntry(doc, v2Pair.toLowerCase()).reserve0 = 1234))).reason).toBe("corrupt")
    expect(refusal(edited((doc) => (doc.hidden = {}))).reason).toBe("corrupt")
    expect(refusal(edited((doc) => (doc.excluded[0][1].recheck = "no"))).reason).toBe("corrupt")
    expect(refusal(edited((doc) => (doc.block = "12.5"))).reason).toBe("corrupt")
    expect(refusal(edited((doc) => (stateEntry(doc, v3Pool.toLowerCase()).fee = 3000.5))).reason).toBe("corrupt")
    expect(refusal(decodeSnapshot("[]", identity)).reason).toBe("corrupt")
    expect(refusal(decodeSnapshot("null", identity)).reason).toBe("corrupt")
  })

  test("addresses, pool ids and keys of the wrong shape", () => {
    expect(refusal(edited((doc) => (stateEntry(doc, v2Pair.toLowerCase()).token0 = "0x1234"))).reason).toBe("corrupt")
    expect(refusal(edited((doc) => (stateEntry(doc, v4Key_).id = v3Pool))).reason).toBe("corrupt")
    expect(refusal(edited((doc) => (doc.registry.allowedRouters = [`0x${"AB".repeat(20)}`]))).reason).toBe("corrupt") // not lower-case
    expect(refusal(edited((doc) => (doc.hidden = ["pool"]))).reason).toBe("corrupt")
  })

  test("ticks: lengths that differ, out of order, not integers", () => {
    const ticksOf = (doc: any) => stateEntry(doc, v3Pool.toLowerCase()).ticks
    expect(refusal(edited((doc) => ticksOf(doc).liquidityNet.pop())).reason).toBe("corrupt")
    expect(refusal(edited((doc) => ticksOf(doc).tick.reverse())).reason).toBe("corrupt")
    expect(refusal(edited((doc) => (ticksOf(doc).tick[1] = -201300.5))).reason).toBe("corrupt")
    expect(refusal(edited((doc) => (ticksOf(doc).liquidityNet[2] = "0x10"))).reason).toBe("corrupt")
    expect(refusal(edited((doc) => (ticksOf(doc).liquidityNet[2] = 0))).reason).toBe("corrupt")
  })

  test("a stable pool whose coins and balances differ in length", () => {
    expect(refusal(edited((doc) => stateEntry(doc, stablePool.toLowerCase()).balances.pop())).reason).toBe("corrupt")
  })

  test("an edit that breaks the state's own structure: a key twice, a state without meta, a meta under another key, a kind changed", () => {
    expect(refusal(edited((doc) => doc.states.push(doc.states[0]))).reason).toBe("corrupt")
    expect(refusal(edited((doc) => doc.hidden.push(doc.hidden[0]))).reason).toBe("corrupt")
    expect(refusal(edited((doc) => (doc.metas = doc.metas.filter(([k]: [string]) => k !== v2Pair.toLowerCase())))).reason).toBe("corrupt")
    expect(refusal(edited((doc) => (doc.metas[0][1].key = lowerAddr(0x999)))).reason).toBe("corrupt")
    expect(refusal(edited((doc) => (stateEntry(doc, v2Pair.toLowerCase()).kind = "uniswap-v3"))).reason).toBe("corrupt")
  })

  test("a property the format does not know is dropped, never loaded", () => {
    const decoded = edited((doc) => {
      doc.extra = 1
      stateEntry(doc, v2Pair.toLowerCase()).hooks = addr(1)
      doc.excluded[0][1].until = "never"
    })
    const back = Either.getOrThrow(decoded)
    expect(back).toStrictEqual(state)
    expect("hooks" in back.states.get(v2Pair.toLowerCase())!).toBe(false)
  })

  test("the unedited document passes the same path (the edits above are what is refused)", () => {
    expect(Either.isRight(edited(() => {}))).toBe(true)
  })
})

describe("fingerprint", () => {
  const base = snapshotFingerprint(config, 32768)

  test("a sha256 in hex, the same for the same configuration", () => {
    expect(base).toMatch(/^[0-9a-f]{64}$/)
    expect(snapshotFingerprint(structuredClone(config), 32768)).toBe(base)
  })

  test("independent of the order of a stable venue's pools, of the price feeds and of address case", () => {
    const reordered: MarketConfig = {
      ...config,
      venues: config.venues.map((v) =>
        v.kind === "curve-stableswap" ? { ...v, pools: [...v.pools].reverse().map((p) => p.toLowerCase() as Address) } : v,
      ),
      priceFeeds: [...config.priceFeeds!].reverse(),
      executor: EXECUTOR.toLowerCase() as Address,
    }
    expect(snapshotFingerprint(reordered, 32768)).toBe(base)
  })

  test("dependent on the order of the venues", () => {
    expect(snapshotFingerprint({ ...config, venues: [...config.venues].reverse() }, 32768)).not.toBe(base)
  })

  test("dependent on every part of the configuration a state belongs to", () => {
    const variants: MarketConfig[] = [
      { ...config, executor: undefined },
      { ...config, executor: addr(0xe1) },
      { ...config, multicall3: addr(0xca) },
      { ...config, fromBlock: 1n },
      { ...config, priceFeeds: [] },
      { ...config, priceFeeds: [{ token: WETH, feed: addr(0xfeed3) }, config.priceFeeds![1]!] },
      { ...config, venues: config.venues.slice(1) },
      { ...config, venues: config.venues.map((v) => (v.kind === "uniswap-v2" ? { ...v, feeBps: v.feeBps + 1 } : v)) },
      { ...config, venues: config.venues.map((v) => (v.kind === "uniswap-v3" ? { ...v, deployer: addr(0xd3) } : v)) },
      { ...config, venues: config.venues.map((v) => (v.kind === "uniswap-v4" ? { ...v, stateView: addr(0xd4) } : v)) },
      { ...config, venues: config.venues.map((v) => (v.kind === "curve-stableswap" ? { ...v, factory: undefined } : v)) },
      { ...config, venues: config.venues.map((v) => (v.kind === "curve-stableswap" ? { ...v, pools: v.pools.slice(1) } : v)) },
      { ...config, venues: config.venues.map((v) => (v.name === "xylonet" ? { ...v, name: "xylonet-2" } : v)) },
    ]
    const prints = variants.map((c) => snapshotFingerprint(c, 32768))
    for (const print of prints) expect(print).not.toBe(base)
    expect(new Set(prints).size).toBe(prints.length)
    expect(snapshotFingerprint(config, 16384)).not.toBe(base)
  })

  test("settings that do not change what a state holds leave it alone", () => {
    expect(snapshotFingerprint({ ...config, pollInterval: "1 second", retryBase: "1 second", startAttempts: 9 }, 32768)).toBe(base)
  })
})

describe("speed", () => {
  test("20,000 pools, a third V3 with 100 ticks each, encode and decode", () => {
    const big = {
      ...state,
      metas: new Map<string, Meta>(),
      states: new Map<string, PoolState>(),
    }
    const metas = big.metas
    const states = big.states
    const a = lowerAddr(0xaaaa)
    const b = lowerAddr(0xbbbb)
    for (let i = 0; i < 20_000; i++) {
      const id = lowerAddr(0x100000 + i)
      if (i % 3 === 0) {
        const ticks = Array.from({ length: 100 }, (_, j) => ({ tick: -30_000 + j * 600, liquidityNet: BigInt(j % 2 === 0 ? 1 : -1) * (10n ** 18n + BigInt(i * 1000 + j)) }))
        metas.set(id, { key: id, venue: "synthra-v3", kind: "uniswap-v3", id, token0: a, token1: b, fee: 3000, tickSpacing: 60 })
        states.set(id, {
          kind: "uniswap-v3",
          venue: "synthra-v3",
          id,
          token0: a,
          token1: b,
          fee: 3000,
          tickSpacing: 60,
          sqrtPriceX96: 79_228_162_514_264_337_593_543_950_336n + BigInt(i),
          tick: i % 600,
          liquidity: 10n ** 21n + BigInt(i),
          ticks,
          tickLower: -32_768,
          tickUpper: 32_767,
        })
      } else if (i % 3 === 1) {
        metas.set(id, { key: id, venue: "uniswap-v2", kind: "uniswap-v2", id, token0: a, token1: b, feeBps: 30 })
        states.set(id, { kind: "uniswap-v2", venue: "uniswap-v2", id, token0: a, token1: b, reserve0: 10n ** 24n + BigInt(i), reserve1: 10n ** 12n + BigInt(i), feeBps: 30 })
      } else {
        metas.set(id, { key: id, venue: "xylonet", kind: "curve-stableswap", id, coins: [a, b], rates: [10n ** 30n, 10n ** 18n] })
        states.set(id, { kind: "curve-stableswap", venue: "xylonet", id, coins: [a, b], balances: [10n ** 12n + BigInt(i), 10n ** 24n], rates: [10n ** 30n, 10n ** 18n], amp: 20_000n, fee: 4_000_000n })
      }
    }
    const cpu0 = process.cpuUsage()
    const t0 = performance.now()
    const text = encodeSnapshot(identity, big)
    const t1 = performance.now()
    const cpu1 = process.cpuUsage()
    const decoded = decodeSnapshot(text, identity)
    const t2 = performance.now()
    const cpu2 = process.cpuUsage()
    const cpuMs = (from: NodeJS.CpuUsage, to: NodeJS.CpuUsage) => ((to.user - from.user + to.system - from.system) / 1000).toFixed(0)
    console.log(
      `snapshot of 20,000 pools (6,667 V3 x 100 ticks): ${(text.length / 1e6).toFixed(1)} MB, ` +
        `encode ${(t1 - t0).toFixed(0)} ms (cpu ${cpuMs(cpu0, cpu1)} ms), decode ${(t2 - t1).toFixed(0)} ms (cpu ${cpuMs(cpu1, cpu2)} ms)`,
    )
    expect(Either.isRight(decoded)).toBe(true)
    const back = Either.getOrThrow(decoded)
    expect(back.states.size).toBe(20_000)
    expect(back.states.get(lowerAddr(0x100000 + 3))).toStrictEqual(big.states.get(lowerAddr(0x100000 + 3)))
    expect(t2 - t1).toBeLessThan(3_000)
  })
})
