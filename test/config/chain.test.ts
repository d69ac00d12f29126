// The chain settings as a deployment sets them: each variable checked at start
// with a message naming it (and, for the JSON ones, the entry); a devnet
// manifest gives what the environment does not set, and a variable always wins.
import { describe, expect, test } from "bun:test"
import { Effect, Either } from "effect"
import {
  AppConfig,
  ChainConfig,
  chainSettings,
  loadChainSettings,
  ServiceConfigLive,
  withManifest,
  type ChainSettings,
  type ManifestSource,
  type ServedVenue,
} from "../../src/config/index.ts"

const base = {
  RPC_URL: "http://127.0.0.1:8545",
  EXECUTOR_ADDRESS: "0x13f6928e5b43913b358cfb40c3ab111dc1ac213c",
  MULTICALL3_ADDRESS: "0xca11bde05977b3631167028862be2a173976ca11",
}
const settings = (aggregators: unknown, extra: Record<string, string> = {}) =>
  chainSettings({ ...base, AGGREGATORS: typeof aggregators === "string" ? aggregators : JSON.stringify(aggregators), ...extra })
const problem = (aggregators: unknown, extra: Record<string, string> = {}) => {
  const result = settings(aggregators, extra)
  if (Either.isRight(result)) throw new Error("accepted")
  return result.left
}

describe("AGGREGATORS", () => {
  test("entries of both kinds, with the optional fields", () => {
    const result = settings([
      { name: "zeroex", kind: "0x-v2", url: "https://api.0x.org", apiKey: "k", timeoutMs: 800, failureThreshold: 4, cooldownMs: 10_000 },
      { name: "kyber", kind: "kyberswap", url: "https://aggregator-api.kyberswap.com/arc" },
    ])
    expect(Either.getOrThrow(result).aggregators).toEqual([
      { name: "zeroex", kind: "0x-v2", url: "https://api.0x.org", apiKey: "k", timeoutMs: 800, failureThreshold: 4, cooldownMs: 10_000 },
      { name: "kyber", kind: "kyberswap", url: "https://aggregator-api.kyberswap.com/arc" },
    ])
  })

  test("unset: none", () => {
    expect(Either.getOrThrow(chainSettings(base)).aggregators).toEqual([])
  })

  test("refusals name the entry and the field", () => {
    expect(problem("[{")).toContain("AGGREGATORS must be a JSON array")
    expect(problem({ name: "x" })).toContain("not an array")
    expect(problem([{ name: "a", kind: "paraswap", url: "https://x" }])).toContain('kind "paraswap" is not one of 0x-v2, kyberswap')
    expect(problem([{ name: "a", kind: "0x-v2", url: "ftp://x" }])).toContain('url "ftp://x" is not an http(s) URL')
    expect(problem([{ name: "router", kind: "0x-v2", url: "https://x" }])).toContain("the own router's")
    expect(problem([{ name: "a", kind: "0x-v2", url: "https://x" }, { name: "a", kind: "kyberswap", url: "https://y" }])).toContain("the name a is used twice")
    expect(problem([{ name: "a", kind: "0x-v2", url: "https://x", timeoutMs: "fast" }])).toContain("timeoutMs must be a number")
    expect(problem([{ name: "a", kind: "0x-v2", url: "https://x", failureThreshold: 0 }])).toContain("failureThreshold must be an integer from 1")
  })

  test("one line per problem, naming the aggregator and the field", () => {
    expect(problem([{ name: "a b", kind: "paraswap", url: "ftp://x", cooldownMs: -1 }, { name: "z", kind: "kyberswap", url: "https://z", apiKey: 7 }]).split("\n")).toEqual([
      'AGGREGATORS: aggregator a b: name "a b" must be 1-40 letters, digits, . _ -',
      'AGGREGATORS: aggregator a b: kind "paraswap" is not one of 0x-v2, kyberswap',
      'AGGREGATORS: aggregator a b: url "ftp://x" is not an http(s) URL',
      "AGGREGATORS: aggregator a b: cooldownMs must be an integer from 0 to 3600000",
      "AGGREGATORS: aggregator z: apiKey must be a string",
    ])
  })

  test("a source's budget must sit inside the quote's", () => {
    expect(problem([{ name: "a", kind: "0x-v2", url: "https://x", timeoutMs: 5_000 }])).toContain("timeoutMs 5000 must be below the quote budget of 5000 ms")
    expect(problem([{ name: "a", kind: "0x-v2", url: "https://x" }], { QUOTE_TIMEOUT_MS: "1000" })).toContain("timeoutMs 1500 must be below the quote budget of 1000 ms")
    expect(Either.isRight(settings([{ name: "a", kind: "0x-v2", url: "https://x", timeoutMs: 900 }], { QUOTE_TIMEOUT_MS: "1000" }))).toBe(true)
  })
})

const A = {
  executor: "0x1111111111111111111111111111111111111111",
  multicall3: "0xca11bde05977b3631167028862be2a173976ca11",
  v2: "0x2222222222222222222222222222222222222222",
  v3: "0x3333333333333333333333333333333333333333",
  poolManager: "0x4444444444444444444444444444444444444444",
  stateView: "0x5555555555555555555555555555555555555555",
  eurc: "0x6666666666666666666666666666666666666666",
  feed: "0x7777777777777777777777777777777777777777",
  other: "0x8888888888888888888888888888888888888888",
  // the scenario's own venues
  arcade: "0x2020202020202020202020202020202020202020",
  synthra: "0x3030303030303030303030303030303030303030",
  synthraDeployer: "0x3131313131313131313131313131313131313131",
  poolManager2: "0x4040404040404040404040404040404040404040",
  stateView2: "0x5050505050505050505050505050505050505050",
  stable1: "0x9191919191919191919191919191919191919191",
  stable2: "0x9292929292929292929292929292929292929292",
  stableFactory: "0x9393939393939393939393939393939393939393",
} as const

/** A manifest as `bun run devnet` writes one (the fields the settings read): several venues of a kind, stable pools and their factory. */
const manifest = (dexes: ManifestSource["dexes"] = {
  "uniswap-v2": { kind: "uniswap-v2", factory: A.v2 },
  "uniswap-v3": { kind: "uniswap-v3", factory: A.v3, quoter: A.other },
  "uniswap-v4": { kind: "uniswap-v4", poolManager: A.poolManager, quoter: A.other, stateView: A.stateView },
  "arcade-v2": { kind: "uniswap-v2", factory: A.arcade, feeBps: 25 },
  "synthra-v3": { kind: "uniswap-v3", factory: A.synthra },
  xylonet: { kind: "curve-stableswap", pools: [A.stable1, A.stable2], factory: A.stableFactory },
}): ManifestSource => ({
  chainId: 5042,
  rpcUrl: "http://127.0.0.1:8545",
  executor: A.executor,
  multicall3: A.multicall3,
  tokens: { USDC: { address: "0x3600000000000000000000000000000000000000" }, EURC: { address: A.eurc } },
  dexes,
  priceFeeds: { EURC: A.feed, NOPE: A.other },
  aggregators: [{ name: "devnet-aggregator", kind: "0x-v2", url: "http://127.0.0.1:9999", apiKey: "k" }],
})

/** The served venues of the default manifest, in its order. */
const MANIFEST_VENUES: ServedVenue[] = [
  { name: "uniswap-v2", kind: "uniswap-v2", factory: A.v2, feeBps: 30 },
  { name: "uniswap-v3", kind: "uniswap-v3", factory: A.v3, deployer: A.v3 },
  { name: "uniswap-v4", kind: "uniswap-v4", poolManager: A.poolManager, stateView: A.stateView },
  { name: "arcade-v2", kind: "uniswap-v2", factory: A.arcade, feeBps: 25 },
  { name: "synthra-v3", kind: "uniswap-v3", factory: A.synthra, deployer: A.synthra },
  { name: "xylonet", kind: "curve-stableswap", pools: [A.stable1, A.stable2], factory: A.stableFactory },
]

const refusal = (env: Record<string, string>, m?: ManifestSource) => {
  const result = chainSettings(env, m)
  if (Either.isRight(result)) throw new Error("accepted")
  return result.left.split("\n")
}

/** The served venue named `name`, or undefined. */
const venue = (settings: ChainSettings, name: string) => settings.venues.find((v) => v.name === name)
const byName = (venues: readonly ServedVenue[]) => [...venues].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))

describe("the manifest as the fallback", () => {
  test("gives what the environment does not set: every venue of the manifest, several of a kind and the stable pools", () => {
    expect(Either.getOrThrow(chainSettings({}, manifest()))).toEqual({
      rpcUrls: ["http://127.0.0.1:8545"],
      chainId: 5042,
      executor: A.executor,
      multicall3: "0xcA11bde05977b3631167028862bE2a173976CA11",
      venues: MANIFEST_VENUES,
      // a feed whose symbol the manifest lists no token for has nothing to price
      priceFeeds: [{ token: A.eurc, feed: A.feed }],
      aggregators: [{ name: "devnet-aggregator", kind: "0x-v2", url: "http://127.0.0.1:9999", apiKey: "k" }],
      fromBlock: 0n,
      marketSnapshot: undefined,
      maxPriceImpactBps: 3000,
      rpcBatchSize: 10,
      relayer: undefined,
    })
  })

  test("RPC_BATCH_SIZE: the most node requests of one turn in one batch, 1 to 1000; 1 sends each alone", () => {
    expect(Either.getOrThrow(chainSettings({ RPC_BATCH_SIZE: "1" }, manifest())).rpcBatchSize).toBe(1)
    expect(Either.getOrThrow(chainSettings({ RPC_BATCH_SIZE: "50" }, manifest())).rpcBatchSize).toBe(50)
    for (const bad of ["0", "1001", "2.5", "many"]) expect(refusal({ RPC_BATCH_SIZE: bad }, manifest()).join("\n")).toContain("RPC_BATCH_SIZE")
  })

  test("MARKET_SNAPSHOT: a path keeps the market's state there (every 5 minutes unless MARKET_SNAPSHOT_INTERVAL_MS says), off or unset keeps none", () => {
    expect(Either.getOrThrow(chainSettings({ MARKET_SNAPSHOT: "/var/lib/arc/market.sqlite" }, manifest())).marketSnapshot).toEqual({ path: "/var/lib/arc/market.sqlite", intervalMs: 300_000 })
    expect(Either.getOrThrow(chainSettings({ MARKET_SNAPSHOT: "m.sqlite", MARKET_SNAPSHOT_INTERVAL_MS: "60000" }, manifest())).marketSnapshot).toEqual({ path: "m.sqlite", intervalMs: 60_000 })
    expect(Either.getOrThrow(chainSettings({ MARKET_SNAPSHOT: "off" }, manifest())).marketSnapshot).toBeUndefined()
    expect(refusal({ MARKET_SNAPSHOT: "m.sqlite", MARKET_SNAPSHOT_INTERVAL_MS: "soon" }, manifest()).join("\n")).toContain("MARKET_SNAPSHOT_INTERVAL_MS")
  })

  test("a manifest venue without kind takes its name's", () => {
    const settings = Either.getOrThrow(chainSettings({}, manifest({ "uniswap-v2": { factory: A.v2 }, "uniswap-v4": { poolManager: A.poolManager, stateView: A.stateView } })))
    expect(settings.venues).toEqual([MANIFEST_VENUES[0]!, MANIFEST_VENUES[2]!])
  })

  test("a variable always wins; a blank one counts as unset", () => {
    const settings = Either.getOrThrow(
      chainSettings(
        {
          RPC_URL: "https://rpc-1.example, https://rpc-2.example",
          EXECUTOR_ADDRESS: A.other,
          MULTICALL3_ADDRESS: "  ",
          V3_FACTORY: A.other,
          PRICE_FEEDS: "{}",
          AGGREGATORS: "[]",
          MARKET_FROM_BLOCK: "1200",
        },
        manifest(),
      ),
    )
    expect(settings.rpcUrls).toEqual(["https://rpc-1.example", "https://rpc-2.example"])
    expect(settings.executor).toBe(A.other)
    expect(settings.multicall3).toBe("0xcA11bde05977b3631167028862bE2a173976CA11")
    // V3_FACTORY stands for the venue uniswap-v3 alone: synthra-v3 and the others stay as the manifest says
    expect(byName(settings.venues)).toEqual(
      byName(MANIFEST_VENUES.map((v) => (v.name === "uniswap-v3" ? { name: "uniswap-v3", kind: "uniswap-v3", factory: A.other, deployer: A.other } : v))),
    )
    expect([settings.priceFeeds, settings.aggregators, settings.fromBlock]).toEqual([[], [], 1200n])
  })

  test("a wrong variable is refused even when the manifest gives a good value", () => {
    expect(refusal({ EXECUTOR_ADDRESS: "0x12" }, manifest())).toEqual(["EXECUTOR_ADDRESS: is not an address (all-lowercase or correctly checksummed): 0x12"])
  })

  test("through ConfigProvider.orElse, for any Config reading it", async () => {
    const settings = await Effect.runPromise(loadChainSettings(withManifest({ V2_FACTORY: A.other }, manifest())))
    expect([settings.rpcUrls[0], venue(settings, "uniswap-v2")]).toEqual(["http://127.0.0.1:8545", { name: "uniswap-v2", kind: "uniswap-v2", factory: A.other, feeBps: 30 }])
    expect(venue(settings, "arcade-v2")).toEqual(MANIFEST_VENUES[3]!)
  })
})

describe("DEXES", () => {
  const venues = (dexes: unknown, extra: Record<string, string> = {}) => chainSettings({ ...base, DEXES: JSON.stringify(dexes), ...extra })

  test("several venues of each kind are served, in order; kind defaults to the name; V2 fee 30 and V3 deployer = factory unless given", () => {
    const settings = Either.getOrThrow(venues([
      { name: "uniswap-v2", factory: A.v2 },
      { name: "arcade-v2", kind: "uniswap-v2", factory: A.arcade, feeBps: 25 },
      { name: "uniswap-v3", factory: A.v3, quoter: A.other },
      { name: "synthra-v3", kind: "uniswap-v3", factory: A.synthra, deployer: A.synthraDeployer },
      { name: "uniswap-v4", poolManager: A.poolManager, stateView: A.stateView },
      { name: "other-v4", kind: "uniswap-v4", poolManager: A.poolManager2, stateView: A.stateView2 },
      { name: "xylonet", kind: "curve-stableswap", pools: [A.stable1] },
      { name: "curve", kind: "curve-stableswap", pools: [A.stable2], factory: A.other },
    ]))
    expect(settings.venues).toEqual([
      { name: "uniswap-v2", kind: "uniswap-v2", factory: A.v2, feeBps: 30 },
      { name: "arcade-v2", kind: "uniswap-v2", factory: A.arcade, feeBps: 25 },
      { name: "uniswap-v3", kind: "uniswap-v3", factory: A.v3, deployer: A.v3 },
      { name: "synthra-v3", kind: "uniswap-v3", factory: A.synthra, deployer: A.synthraDeployer },
      { name: "uniswap-v4", kind: "uniswap-v4", poolManager: A.poolManager, stateView: A.stateView },
      { name: "other-v4", kind: "uniswap-v4", poolManager: A.poolManager2, stateView: A.stateView2 },
      { name: "xylonet", kind: "curve-stableswap", pools: [A.stable1] },
      { name: "curve", kind: "curve-stableswap", pools: [A.stable2], factory: A.other },
    ])
  })

  test("V2_FACTORY, V3_FACTORY, V4_POOL_MANAGER and V4_STATE_VIEW stand for uniswap-v2/-v3/-v4 and win over those venues only", () => {
    const settings = Either.getOrThrow(venues(
      [
        { name: "uniswap-v2", factory: A.v2 },
        { name: "arcade-v2", kind: "uniswap-v2", factory: A.arcade },
        { name: "synthra-v3", kind: "uniswap-v3", factory: A.synthra },
      ],
      { V2_FACTORY: A.other, V3_FACTORY: A.v3, V4_POOL_MANAGER: A.poolManager2, V4_STATE_VIEW: A.stateView2 },
    ))
    expect(byName(settings.venues)).toEqual(byName([
      { name: "uniswap-v2", kind: "uniswap-v2", factory: A.other, feeBps: 30 },
      { name: "uniswap-v3", kind: "uniswap-v3", factory: A.v3, deployer: A.v3 },
      { name: "uniswap-v4", kind: "uniswap-v4", poolManager: A.poolManager2, stateView: A.stateView2 },
      { name: "arcade-v2", kind: "uniswap-v2", factory: A.arcade, feeBps: 30 },
      { name: "synthra-v3", kind: "uniswap-v3", factory: A.synthra, deployer: A.synthra },
    ]))
    // alone, without DEXES: exactly the venues they stand for
    expect(Either.getOrThrow(chainSettings({ ...base, V2_FACTORY: A.v2, V3_FACTORY: A.v3 })).venues).toEqual([MANIFEST_VENUES[0]!, MANIFEST_VENUES[1]!])
    expect(Either.getOrThrow(chainSettings({ ...base, V4_POOL_MANAGER: A.poolManager, V4_STATE_VIEW: A.stateView })).venues).toEqual([MANIFEST_VENUES[2]!])
    expect(Either.getOrThrow(chainSettings(base)).venues).toEqual([])
  })

  test("set, it replaces the manifest's venues whole", () => {
    const settings = Either.getOrThrow(chainSettings({ DEXES: JSON.stringify([{ name: "uniswap-v3", factory: A.other }]) }, manifest()))
    expect(settings.venues).toEqual([{ name: "uniswap-v3", kind: "uniswap-v3", factory: A.other, deployer: A.other }])
    expect(Either.getOrThrow(chainSettings({ DEXES: "[]" }, manifest())).venues).toEqual([])
  })

  test("a name used twice is refused", () => {
    expect(refusal({ ...base, DEXES: JSON.stringify([{ name: "uniswap-v3", factory: A.v3 }, { name: "uniswap-v3", factory: A.other }]) })).toEqual([
      "DEXES: the name uniswap-v3 is used twice",
    ])
    expect(refusal({ ...base, DEXES: JSON.stringify([{ name: "xylonet", kind: "curve-stableswap", pools: [A.stable1] }, { name: "xylonet", kind: "uniswap-v2", factory: A.v2 }]) })).toEqual([
      "DEXES: the name xylonet is used twice",
    ])
  })

  test("two venues sharing a contract are refused, naming both: a factory, a V3 pool deployer, a PoolManager, across kinds", () => {
    const shared = (contract: string, owner: string, name: string, kind: string) =>
      `DEXES: venue ${name} (${kind}) cannot be served: its contract ${contract} is venue ${owner}'s too`
    expect(refusal({ ...base, DEXES: JSON.stringify([{ name: "uniswap-v2", factory: A.v2 }, { name: "arcade-v2", kind: "uniswap-v2", factory: A.v2, feeBps: 25 }]) })).toEqual([
      shared(A.v2, "uniswap-v2", "arcade-v2", "uniswap-v2"),
    ])
    // a V3 venue is known by the contract that deploys its pools
    expect(refusal({ ...base, DEXES: JSON.stringify([{ name: "uniswap-v3", factory: A.v3 }, { name: "synthra-v3", kind: "uniswap-v3", factory: A.synthra, deployer: A.v3 }]) })).toEqual([
      shared(A.v3, "uniswap-v3", "synthra-v3", "uniswap-v3"),
    ])
    expect(Either.isRight(venues([{ name: "uniswap-v3", factory: A.v3, deployer: A.synthraDeployer }, { name: "synthra-v3", kind: "uniswap-v3", factory: A.synthra, deployer: A.v3 }]))).toBe(true)
    expect(refusal({ ...base, DEXES: JSON.stringify([{ name: "uniswap-v4", poolManager: A.poolManager, stateView: A.stateView }, { name: "other-v4", kind: "uniswap-v4", poolManager: A.poolManager, stateView: A.stateView2 }]) })).toEqual([
      shared(A.poolManager, "uniswap-v4", "other-v4", "uniswap-v4"),
    ])
    expect(refusal({ ...base, DEXES: JSON.stringify([{ name: "uniswap-v2", factory: A.other }, { name: "uniswap-v3", factory: A.other }]) })).toEqual([
      shared(A.other, "uniswap-v2", "uniswap-v3", "uniswap-v3"),
    ])
  })

  test("a curve-stableswap venue is served with its factory alone (no pools), or with both; one with neither does not decode", () => {
    expect(Either.getOrThrow(venues([{ name: "uniswap-v2", factory: A.v2 }, { name: "xylonet", kind: "curve-stableswap", factory: A.stableFactory }])).venues).toEqual([
      MANIFEST_VENUES[0]!,
      { name: "xylonet", kind: "curve-stableswap", pools: [], factory: A.stableFactory },
    ])
    expect(Either.getOrThrow(venues([{ name: "xylonet", kind: "curve-stableswap", pools: [], factory: A.stableFactory }])).venues).toEqual([
      { name: "xylonet", kind: "curve-stableswap", pools: [], factory: A.stableFactory },
    ])
    expect(Either.getOrThrow(venues([{ name: "xylonet", kind: "curve-stableswap", pools: [A.stable1], factory: A.stableFactory }])).venues).toEqual([
      { name: "xylonet", kind: "curve-stableswap", pools: [A.stable1], factory: A.stableFactory },
    ])
    expect(refusal({ ...base, DEXES: JSON.stringify([{ name: "xylonet", kind: "curve-stableswap", pools: [] }]) })).toEqual(["DEXES: venue xylonet: needs its pools or a factory"])
  })

  test("a stable factory belongs to one venue: shared with another venue's factory or stable pools, or listed as its own pool, it is refused", () => {
    const stable = (name: string, fields: object) => ({ name, kind: "curve-stableswap", ...fields })
    expect(refusal({ ...base, DEXES: JSON.stringify([stable("xylonet", { factory: A.stableFactory }), stable("curve", { factory: A.stableFactory })]) })).toEqual([
      `DEXES: venue curve (curve-stableswap) cannot be served: its contract ${A.stableFactory} is venue xylonet's too`,
    ])
    expect(refusal({ ...base, DEXES: JSON.stringify([stable("xylonet", { pools: [A.stable1] }), stable("curve", { factory: A.stable1 })]) })).toEqual([
      `DEXES: venue curve (curve-stableswap) cannot be served: its contract ${A.stable1} is venue xylonet's too`,
    ])
    expect(refusal({ ...base, DEXES: JSON.stringify([{ name: "uniswap-v2", factory: A.v2 }, stable("xylonet", { factory: A.v2 })]) })).toEqual([
      `DEXES: venue xylonet (curve-stableswap) cannot be served: its contract ${A.v2} is venue uniswap-v2's too`,
    ])
    expect(refusal({ ...base, DEXES: JSON.stringify([stable("xylonet", { pools: [A.stable1], factory: A.stable1 })]) })).toEqual([
      `DEXES: venue xylonet (curve-stableswap) cannot be served: it lists ${A.stable1} twice`,
    ])
  })

  test("every problem is reported, one line each", () => {
    expect(refusal({ ...base, DEXES: JSON.stringify([
      { name: "uniswap-v2", factory: A.v2 },
      { name: "arcade-v2", kind: "uniswap-v2", factory: A.v2 },
      { name: "xylonet", kind: "curve-stableswap", factory: A.v2 },
      { name: "uniswap-v2", kind: "uniswap-v2", factory: A.arcade },
    ]) })).toEqual([
      `DEXES: venue arcade-v2 (uniswap-v2) cannot be served: its contract ${A.v2} is venue uniswap-v2's too`,
      `DEXES: venue xylonet (curve-stableswap) cannot be served: its contract ${A.v2} is venue uniswap-v2's too`,
      "DEXES: the name uniswap-v2 is used twice",
    ])
  })

  test("the manifest's dexes are read the same way", () => {
    const lines = refusal({}, manifest({
      "uniswap-v2": { factory: A.v2 },
      "arcade-v2": { kind: "uniswap-v2", factory: A.v2 },
      xylonet: { kind: "curve-stableswap", pools: [], factory: A.v2 },
    }))
    expect(lines).toEqual([
      `DEXES: venue arcade-v2 (uniswap-v2) cannot be served: its contract ${A.v2} is venue uniswap-v2's too`,
      `DEXES: venue xylonet (curve-stableswap) cannot be served: its contract ${A.v2} is venue uniswap-v2's too`,
    ])
  })

  test("entries that do not decode: one line each, naming the venue and the field", () => {
    expect(refusal({ ...base, DEXES: JSON.stringify([
      { name: "uniswap-v2", factory: "0x12" },
      { name: "uniswap-v4", poolManager: A.poolManager },
      { name: "balancer" },
      { name: "x", kind: "balancer" },
      { name: "xylonet", kind: "curve-stableswap" },
      { factory: A.v2 },
      7,
      { name: "arcade-v2", kind: "uniswap-v2", factory: A.arcade, feeBps: 0 },
    ]) })).toEqual([
      "DEXES: venue uniswap-v2: factory is not an address (all-lowercase or correctly checksummed): 0x12",
      "DEXES: venue uniswap-v4: stateView is missing",
      "DEXES: venue balancer: has no kind, and its name is not one of uniswap-v2, uniswap-v3, uniswap-v4, curve-stableswap",
      'DEXES: venue x: kind "balancer" is not one of uniswap-v2, uniswap-v3, uniswap-v4, curve-stableswap',
      "DEXES: venue xylonet: needs its pools or a factory",
      "DEXES: entry 5: name is missing",
      "DEXES: entry 6: must be an object",
      "DEXES: venue arcade-v2: feeBps must be an integer from 1 to 9999",
    ])
    expect(refusal({ ...base, DEXES: "[{" })[0]).toStartWith('DEXES must be a JSON array of venues { "name", "kind", … } (')
    expect(refusal({ ...base, DEXES: '{"uniswap-v2":{}}' })).toEqual(['DEXES must be a JSON array of venues { "name", "kind", … } (not an array)'])
  })
})

describe("PRICE_FEEDS", () => {
  test("token address → feed address, checksummed", () => {
    const settings = Either.getOrThrow(chainSettings({ ...base, PRICE_FEEDS: JSON.stringify({ [A.eurc]: A.feed, "0x3600000000000000000000000000000000000000": A.other }) }))
    expect(settings.priceFeeds).toEqual([{ token: A.eurc, feed: A.feed }, { token: "0x3600000000000000000000000000000000000000", feed: A.other }])
  })

  test("refusals name the entry", () => {
    expect(refusal({ ...base, PRICE_FEEDS: JSON.stringify({ "0x12": A.feed, [A.eurc]: "nope", [A.other]: 5 }) })).toEqual([
      "PRICE_FEEDS: entry 0x12: token is not an address (all-lowercase or correctly checksummed): 0x12",
      `PRICE_FEEDS: entry ${A.eurc}: feed is not an address (all-lowercase or correctly checksummed): nope`,
      `PRICE_FEEDS: entry ${A.other}: feed must be an address string`,
    ])
    expect(refusal({ ...base, PRICE_FEEDS: "[]" })).toEqual(["PRICE_FEEDS must be a JSON object of token address → feed address (not an object)"])
  })
})

describe("the other variables", () => {
  test("missing ones are named", () => {
    expect(refusal({})).toEqual([
      "RPC_URL: is not set (and no manifest gives it)",
      "EXECUTOR_ADDRESS: is not set (and no manifest gives it)",
      "MULTICALL3_ADDRESS: is not set (and no manifest gives it)",
    ])
  })

  test("wrong ones are named", () => {
    expect(refusal({ ...base, RPC_URL: "http://ok, ws://node", CHAIN_ID: "arc", V2_FACTORY: "factory", MARKET_FROM_BLOCK: "-1" })).toEqual([
      "RPC_URL: not an http(s) URL: ws://node",
      "CHAIN_ID: is not a chain id: arc",
      "V2_FACTORY: is not an address (all-lowercase or correctly checksummed): factory",
      "MARKET_FROM_BLOCK: is not a block number: -1",
    ])
    expect(refusal({ ...base, V4_POOL_MANAGER: A.poolManager })).toEqual(["V4_STATE_VIEW: is needed with V4_POOL_MANAGER"])
    expect(refusal({ ...base, V4_STATE_VIEW: A.stateView })).toEqual(["V4_POOL_MANAGER: is needed with V4_STATE_VIEW"])
  })

  test("CHAIN_ID defaults to Arc's and may be Arc testnet's; no other chain is served", () => {
    expect(Either.getOrThrow(chainSettings(base)).chainId).toBe(5042)
    expect(Either.getOrThrow(chainSettings({ ...base, CHAIN_ID: "5042" })).chainId).toBe(5042)
    expect(Either.getOrThrow(chainSettings({ ...base, CHAIN_ID: "5042002" })).chainId).toBe(5042002)
    expect(refusal({ ...base, CHAIN_ID: "31337" })).toEqual(["CHAIN_ID: must be 5042 (Arc) or 5042002 (Arc testnet), got 31337"])
    expect(refusal({ ...base, CHAIN_ID: "1" })).toEqual(["CHAIN_ID: must be 5042 (Arc) or 5042002 (Arc testnet), got 1"])
  })

  test("CHAIN_ID: the manifest's (the node's) when not set; a variable wins", () => {
    expect(Either.getOrThrow(chainSettings({}, { ...manifest(), chainId: 5042002 })).chainId).toBe(5042002)
    expect(Either.getOrThrow(chainSettings({ CHAIN_ID: " " }, { ...manifest(), chainId: 5042002 })).chainId).toBe(5042002)
    expect(Either.getOrThrow(chainSettings({ CHAIN_ID: "5042" }, { ...manifest(), chainId: 5042002 })).chainId).toBe(5042)
  })
})

describe("as layers", () => {
  test("ChainConfig from a ConfigProvider; a failure names every bad variable", async () => {
    const settings = await Effect.runPromise(Effect.provide(ChainConfig, ChainConfig.layerFrom(withManifest({}, manifest()))))
    expect(settings.executor).toBe(A.executor)
    const error = await Effect.runPromise(Effect.flip(Effect.provide(ChainConfig, ChainConfig.layerFrom({ RPC_URL: "ws://x" }))))
    expect(error.message.split("\n")).toEqual([
      "invalid configuration:",
      "RPC_URL: not an http(s) URL: ws://x",
      "EXECUTOR_ADDRESS: is not set (and no manifest gives it)",
      "MULTICALL3_ADDRESS: is not set (and no manifest gives it)",
    ])
  })

  test("serve's settings, the API's and the chain's, are checked together: one message names them all", async () => {
    const both = Effect.all([AppConfig, ChainConfig])
    const [app, chain] = await Effect.runPromise(Effect.provide(both, ServiceConfigLive(withManifest({ PORT: "0" }, manifest()))))
    expect([app.port, chain.venues]).toEqual([0, MANIFEST_VENUES])
    const error = await Effect.runPromise(Effect.flip(Effect.provide(both, ServiceConfigLive(withManifest({ PORT: "x", DEXES: "[1]" }, manifest())))))
    expect(error.message.split("\n")).toEqual([
      "invalid configuration:",
      'PORT: must be an integer from 0 to 65535, got "x"',
      "DEXES: entry 0: must be an object",
    ])
  })
})
