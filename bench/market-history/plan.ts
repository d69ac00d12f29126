// The plan of the fixture's market, before any chain: its venues, its tokens and their prices,
// the pools of every venue (distinct pairs, fee tiers, reserves worth a few hundred thousand to
// two million dollars, positions around the price), and the devnet scenario that lists them.
import { HistoryError, type HistoryOptions, type HistoryPoolKind } from "./fixture.ts"
import { pick, shuffle, type Rng } from "./random.ts"

const V3_FEES = [100, 500, 3000, 10000] as const
const V4_KEYS = [
  { fee: 100, tickSpacing: 1 },
  { fee: 500, tickSpacing: 10 },
  { fee: 3000, tickSpacing: 60 },
  { fee: 10000, tickSpacing: 200 },
] as const

/** the venues of the fixture: the three default ones and a fork of each family but V4, and a stable venue */
const VENUES: ReadonlyArray<{ readonly name: string; readonly kind: HistoryPoolKind }> = [
  { name: "uniswap-v2", kind: "uniswap-v2" },
  { name: "arcade-v2", kind: "uniswap-v2" },
  { name: "uniswap-v3", kind: "uniswap-v3" },
  { name: "synthra-v3", kind: "uniswap-v3" },
  { name: "uniswap-v4", kind: "uniswap-v4" },
]
export const STABLE_VENUE = "xylonet"

export interface FixtureToken {
  readonly symbol: string
  readonly decimals: number
  /** USD price in micro-dollars */
  readonly micros: bigint
  readonly stable: boolean
}

/** num/den as a decimal string with at most `digits` fractional digits (rounded down) */
const decimal = (num: bigint, den: bigint, digits: number): string => {
  const whole = num / den
  const fraction = (((num % den) * 10n ** BigInt(digits)) / den).toString().padStart(digits, "0").replace(/0+$/, "")
  return fraction === "" ? whole.toString() : `${whole}.${fraction}`
}

export interface Universe {
  readonly tokens: readonly FixtureToken[]
  /** scenario pool entries; entry 0 is the stable pool the scenario itself creates */
  readonly entries: ReadonlyArray<Record<string, unknown>>
  readonly scenario: Record<string, unknown>
}

/** How many pools of each venue: 2% stable pools (at least 2), the rest evenly over the five Uniswap venues. */
export const poolSplit = (pools: number): { readonly stable: number; readonly perVenue: readonly number[] } => {
  const stable = Math.max(2, Math.round(pools * 0.02))
  const rest = Math.max(VENUES.length, pools - stable)
  const perVenue = VENUES.map((_, i) => Math.floor(rest / VENUES.length) + (i < rest % VENUES.length ? 1 : 0))
  return { stable, perVenue }
}

export const buildUniverse = (options: HistoryOptions, rng: Rng): Universe => {
  const { stable: stableCount, perVenue } = poolSplit(options.pools)
  // enough tokens that every venue finds its pools among distinct pairs (and stable pools among distinct coin sets)
  const volatileCount = Math.max(8, Math.ceil(Math.sqrt(options.pools) * 1.1), options.pools > 2_500 ? Math.ceil(Math.sqrt(options.pools * 0.45)) : 0)
  const stableTokenCount = Math.min(16, Math.max(3, Math.ceil(stableCount / 5)))
  const tokens: FixtureToken[] = [{ symbol: "USDC", decimals: 6, micros: 1_000_000n, stable: true }]
  for (let i = 0; i < stableTokenCount; i++) tokens.push({ symbol: `USD${i}`, decimals: i % 2 === 0 ? 6 : 18, micros: 1_000_000n, stable: true })
  for (let i = 0; i < volatileCount; i++) {
    // prices from 0.01 to 100,000 USD, four significant digits
    const price = 10 ** (rng() * 7 - 2)
    const magnitude = 10 ** (Math.floor(Math.log10(price)) - 3)
    const micros = BigInt(Math.max(1, Math.round((Math.round(price / magnitude) * magnitude) * 1e6)))
    tokens.push({ symbol: `TK${String(i).padStart(2, "0")}`, decimals: [18, 6, 8][i % 3]!, micros, stable: false })
  }
  const bySymbol = new Map(tokens.map((t) => [t.symbol, t]))
  const pairs: Array<readonly [string, string]> = []
  for (let i = 0; i < tokens.length; i++) for (let j = i + 1; j < tokens.length; j++) pairs.push([tokens[i]!.symbol, tokens[j]!.symbol])
  /** whole tokens of `symbol` worth `usd` dollars */
  const worth = (symbol: string, usd: bigint) => {
    const t = bySymbol.get(symbol)!
    return decimal(usd * 1_000_000n, t.micros, Math.min(t.decimals, 6))
  }
  const ordered = (pair: readonly [string, string]): [string, string] => (rng() < 0.5 ? [pair[0], pair[1]] : [pair[1], pair[0]])
  const tvl = () => BigInt(200_000 + Math.floor(rng() * 1_800_000))
  const concentrated = (a: string, b: string) => {
    const pa = bySymbol.get(a)!.micros
    const pb = bySymbol.get(b)!.micros
    return {
      price: decimal(pa, pb, 24),
      positions: [{ lower: decimal(pa, pb * 2n, 24), upper: decimal(pa * 2n, pb, 24), amount0: worth(a, tvl()) }],
    }
  }

  // stable pools: distinct sets of 2 or 3 stable coins
  const stableSymbols = tokens.filter((t) => t.stable).map((t) => t.symbol)
  const stableEntries: Array<Record<string, unknown>> = []
  const seenSets = new Set<string>()
  for (let attempt = 0; stableEntries.length < stableCount; attempt++) {
    if (attempt > 100_000) throw new HistoryError(`cannot find ${stableCount} distinct stable pools over ${stableSymbols.length} coins`)
    const size = rng() < 0.7 ? 2 : 3
    const coins = shuffle(rng, stableSymbols).slice(0, size)
    const key = [...coins].sort().join("/")
    if (seenSets.has(key)) continue
    seenSets.add(key)
    const balance = (BigInt(300_000 + Math.floor(rng() * 1_700_000))).toString()
    stableEntries.push({ dex: STABLE_VENUE, tokens: coins, A: pick(rng, [100, 200, 400, 1000]), fee: pick(rng, ["0.0001", "0.0004"]), balances: coins.map(() => balance) })
  }

  const uniswapEntries: Array<Record<string, unknown>> = []
  VENUES.forEach((venue, v) => {
    const want = perVenue[v]!
    const taken = new Set<string>()
    const venuePairs = shuffle(rng, pairs)
    let cursor = 0
    for (let attempt = 0; taken.size < want; attempt++) {
      if (attempt > want * 50 + 10_000) throw new HistoryError(`venue ${venue.name}: cannot place ${want} distinct pools over ${tokens.length} tokens`)
      const pair = venuePairs[cursor++ % venuePairs.length]!
      const [a, b] = ordered(pair)
      if (venue.kind === "uniswap-v2") {
        const key = [...pair].join("/")
        if (taken.has(key)) continue
        taken.add(key)
        const usd = tvl()
        uniswapEntries.push({ dex: venue.name, tokens: [a, b], reserves: [worth(a, usd), worth(b, usd)] })
      } else if (venue.kind === "uniswap-v3") {
        const fee = pick(rng, V3_FEES)
        const key = `${[...pair].join("/")}:${fee}`
        if (taken.has(key)) continue
        taken.add(key)
        uniswapEntries.push({ dex: venue.name, tokens: [a, b], fee, ...concentrated(a, b) })
      } else {
        const k = pick(rng, V4_KEYS)
        const key = `${[...pair].join("/")}:${k.fee}:${k.tickSpacing}`
        if (taken.has(key)) continue
        taken.add(key)
        uniswapEntries.push({ dex: venue.name, tokens: [a, b], fee: k.fee, tickSpacing: k.tickSpacing, ...concentrated(a, b) })
      }
    }
  })

  const entries = [...stableEntries.slice(0, 1), ...shuffle(rng, [...stableEntries.slice(1), ...uniswapEntries])]
  const feeds = Object.fromEntries(
    tokens.filter((_, i) => i < 8 || i % 6 === 0).map((t) => [t.symbol, decimal(t.micros, 1_000_000n, 6)]),
  )
  const scenario = {
    dexes: [
      { name: "arcade-v2", kind: "uniswap-v2" },
      { name: "synthra-v3", kind: "uniswap-v3" },
      { name: STABLE_VENUE, kind: "curve-stableswap" },
    ],
    tokens: tokens.filter((t) => t.symbol !== "USDC").map((t) => ({ symbol: t.symbol, decimals: t.decimals })),
    priceFeeds: feeds,
    pools: entries,
  }
  return { tokens, entries, scenario }
}
