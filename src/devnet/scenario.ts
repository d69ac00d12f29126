// A scenario file checked whole and turned into a deployment plan of exact
// integers, before anything is deployed: a scenario that is malformed or
// cannot be built is refused with a message naming the entry.
import { Data, Either, ParseResult, Schema } from "effect"
import { getAddress, type Address } from "viem"
import { ARC_CHAIN_ID, ARC_CHAINS_TEXT, isArcChainId, type ArcChainId } from "../domain/index.ts"
import {
  getAmount0Delta,
  getAmount1Delta,
  getLiquidityForAmount0,
  getLiquidityForAmount1,
  getSqrtRatioAtTick,
  getTickAtSqrtRatio,
  MAX_SQRT_RATIO,
  MAX_TICK,
  MIN_SQRT_RATIO,
  MIN_TICK,
} from "../amm/index.ts"
import { isqrt, parseRational, parseUnitsExact, type Rational } from "./decimal.ts"
import {
  DEFAULT_VENUES,
  decodeScenarioShape,
  DexEntry,
  POOL_ENTRY_BY_KIND,
  strict,
  type PoolEntry,
  type PositionEntry,
  type ScenarioFile,
  type VenueKind,
  VENUE_KINDS,
} from "./scenario-schema.ts"

export class ScenarioError extends Data.TaggedError("ScenarioError")<{ readonly message: string }> {}

export const USDC_SYMBOL = "USDC"
export const USDC_DECIMALS = 6
/** Native USDC has 18 decimals: one ERC-20 unit is 10^12 native units. */
export const NATIVE_DECIMALS = 18
export const PRICE_FEED_DECIMALS = 8
/** Arc's minimum base fee, the scenario's default floor */
export const DEFAULT_BASE_FEE_GWEI = "20"
const GWEI_DECIMALS = 9
/** Arc's ceiling: 1e-3 USDC per gas */
const MAX_BASE_FEE_WEI = 10n ** 15n
const MAX_UINT128 = (1n << 128n) - 1n
const V3_TICK_SPACING: Record<number, number> = { 100: 1, 500: 10, 3000: 60, 10000: 200 }

export type TokenBehavior = "standard" | "fee-on-transfer" | "rebasing"

export interface PlannedToken {
  readonly symbol: string
  readonly decimals: number
  readonly behavior: TokenBehavior
  readonly feeBps: number
  /** implements EIP-2612 (domain name = symbol, version "2"); the ERC-20 USDC always does */
  readonly permit: boolean
}

export interface PlannedPosition {
  readonly tickLower: number
  readonly tickUpper: number
  readonly liquidity: bigint
}

/** The executor's venue ids are uint8, from 1 */
const MAX_EXECUTOR_VENUES = 255
/** Curve's fee unit: fee() is a fraction in units of 1e-10 */
export const STABLE_FEE_DECIMALS = 10
/** Curve's MAX_FEE is 5e9 (50%); the scenario keeps fees below it */
const STABLE_FEE_LIMIT = 5_000_000_000n
/** Curve's rate multipliers 10 ** (36 - decimals) take coins of at most 18 decimals */
const STABLE_MAX_DECIMALS = 18

interface PoolBase {
  /** index in the scenario's pools, for messages */
  readonly index: number
  /** the venue's name */
  readonly dex: string
}

interface PairPoolBase extends PoolBase {
  /** symbols as the entry gave them */
  readonly tokens: readonly [string, string]
  /** symbols in pool order (token0 has the lower address) */
  readonly token0: string
  readonly token1: string
}

export interface PlannedV2Pool extends PairPoolBase {
  readonly kind: "uniswap-v2"
  readonly reserve0: bigint
  readonly reserve1: bigint
}

export interface PlannedConcentratedPool extends PairPoolBase {
  readonly kind: "uniswap-v3" | "uniswap-v4"
  readonly fee: number
  readonly tickSpacing: number
  readonly sqrtPriceX96: bigint
  readonly positions: readonly PlannedPosition[]
  /** what the positions take from the provider, rounded up as the pool rounds */
  readonly amount0: bigint
  readonly amount1: bigint
}

/** A Curve plain pool: its coins in pool order (as the entry gave them). */
export interface PlannedStablePool extends PoolBase {
  readonly kind: "curve-stableswap"
  readonly tokens: readonly string[]
  /** the amplification coefficient (A, not A_precise) */
  readonly A: number
  /** the swap fee in units of 1e-10 */
  readonly fee: number
  /** the first deposit, per coin in its smallest unit */
  readonly balances: readonly bigint[]
}

export type PlannedPool = PlannedV2Pool | PlannedConcentratedPool | PlannedStablePool

export interface PlannedVenue {
  readonly name: string
  readonly kind: VenueKind
}

export interface ScenarioPlan {
  /** the chain id the node reports */
  readonly chainId: ArcChainId
  /** every venue in the manifest's order: uniswap-v2, uniswap-v3, uniswap-v4, then the scenario's `dexes` */
  readonly venues: readonly PlannedVenue[]
  readonly tokens: readonly PlannedToken[]
  /** USD price per whole token, with PRICE_FEED_DECIMALS decimals */
  readonly priceFeeds: ReadonlyArray<{ readonly symbol: string; readonly answer: bigint }>
  readonly pools: readonly PlannedPool[]
  /** Uniswap V3 pools on the devnet aggregator's own factory (scenario `aggregator.pools`) */
  readonly aggregatorPools: readonly PlannedConcentratedPool[]
  /** amounts in the token's smallest unit; USDC in its 6-decimal ERC-20 units */
  readonly balances: ReadonlyArray<{ readonly account: number; readonly symbol: string; readonly amount: bigint }>
  /** no block prices gas below it (native USDC wei) */
  readonly baseFeeFloorWei: bigint
}

const fail = (message: string): never => {
  throw new ScenarioError({ message })
}

/** How messages name a pool entry: its place, venue and tokens. */
const poolLabel = (pool: { readonly dex: unknown; readonly tokens?: unknown }, index: number) => {
  const tokens = Array.isArray(pool.tokens) && pool.tokens.every((t) => typeof t === "string") ? ` ${pool.tokens.join("/")}` : ""
  return `pools[${index}] (${String(pool.dex)}${tokens})`
}

const formatIssue = (error: ParseResult.ParseError) => ParseResult.TreeFormatter.formatErrorSync(error)

/** An entry's problems, one `field: message` each (the entry is named by the caller). */
const formatEntryIssues = (error: ParseResult.ParseError) =>
  ParseResult.ArrayFormatter.formatErrorSync(error)
    .map(({ path, message }) => (path.length > 0 ? `${path.map((k) => (typeof k === "number" ? `[${k}]` : String(k))).join(".").replace(/\.\[/g, "[")}: ${message}` : message))
    .join("; ")

/**
 * Parses and checks a scenario's JSON text without any token address
 * (structure, venues, each pool's shape for its venue's kind); references and
 * amounts are checked by planScenario.
 */
export const parseScenario = (text: string, source = "scenario"): ScenarioFile => {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (e) {
    return fail(`${source}: not valid JSON (${(e as Error).message})`)
  }
  const decoded = decodeScenarioShape(json)
  if (Either.isLeft(decoded)) return fail(`${source}: ${formatIssue(decoded.left)}`)
  const shape = decoded.right
  if (shape.chainId !== undefined && !isArcChainId(shape.chainId)) fail(`${source}: chainId: expected ${ARC_CHAINS_TEXT}, got ${JSON.stringify(shape.chainId)}`)
  const chainId: ArcChainId = isArcChainId(shape.chainId) ? shape.chainId : ARC_CHAIN_ID

  // the default venues first, then the file's own, in order: the manifest's order
  const venues = new Map<string, VenueKind>(DEFAULT_VENUES.map((name) => [name, name]))
  const dexes: DexEntry[] = DEFAULT_VENUES.map((name) => ({ name, kind: name }))
  ;(shape.dexes ?? []).forEach((head, i) => {
    if (!(VENUE_KINDS as readonly string[]).includes(head.kind)) {
      fail(`${source}: dexes[${i}] (${head.name}): kind "${head.kind}" is not one of ${VENUE_KINDS.join(", ")}`)
    }
    const checked = Schema.decodeUnknownEither(DexEntry, strict)(head)
    if (Either.isLeft(checked)) return fail(`${source}: dexes[${i}] (${head.name}): ${formatEntryIssues(checked.left)}`)
    const entry = checked.right
    if (venues.has(entry.name)) {
      const why = (DEFAULT_VENUES as readonly string[]).includes(entry.name) ? "the venue always exists" : "the name is used twice"
      fail(`${source}: dexes[${i}] (${entry.name}): ${why}; venue names are unique (uniswap-v2, uniswap-v3 and uniswap-v4 always exist)`)
    }
    venues.set(entry.name, entry.kind)
    dexes.push(entry)
  })

  // the executor names each Uniswap venue by a uint8 id from 1
  const uniswapVenues = dexes.filter((d) => d.kind !== "curve-stableswap").length
  if (uniswapVenues > MAX_EXECUTOR_VENUES) {
    fail(`${source}: dexes: ${uniswapVenues} Uniswap venues; the executor registers at most ${MAX_EXECUTOR_VENUES} (ids 1-255)`)
  }

  const pools = shape.pools.map((head, index): PoolEntry => {
    const where = `${source}: ${poolLabel(head, index)}`
    const kind = venues.get(head.dex) ?? fail(`${where}: unknown venue ${head.dex} (the venues are ${[...venues.keys()].join(", ")})`)
    const schema = POOL_ENTRY_BY_KIND[kind] as unknown as Schema.Schema<Omit<PoolEntry, "kind">>
    const entry = Schema.decodeUnknownEither(schema, strict)(head)
    if (Either.isLeft(entry)) return fail(`${where}: not a ${kind} pool: ${formatEntryIssues(entry.left)}`)
    return { ...entry.right, kind } as PoolEntry
  })

  // a stable venue is its pools: without one it would be a venue with nothing to read
  dexes.forEach((venue, i) => {
    if (venue.kind === "curve-stableswap" && !pools.some((p) => p.dex === venue.name)) {
      fail(`${source}: dexes[${i - DEFAULT_VENUES.length}] (${venue.name}): a curve-stableswap venue needs at least one pool`)
    }
  })

  return {
    chainId,
    dexes,
    tokens: shape.tokens,
    ...(shape.priceFeeds !== undefined ? { priceFeeds: shape.priceFeeds } : {}),
    pools,
    ...(shape.aggregator !== undefined ? { aggregator: shape.aggregator } : {}),
    ...(shape.balances !== undefined ? { balances: shape.balances } : {}),
    ...(shape.baseFeeGwei !== undefined ? { baseFeeGwei: shape.baseFeeGwei } : {}),
  }
}

/** The base fee floor in wei: at least 1 wei, at most Arc's ceiling. */
const planBaseFee = (gwei: number | string): bigint => {
  const text = String(gwei)
  const where = "baseFeeGwei"
  if (!/^\d+(\.\d+)?$/.test(text)) return fail(`${where}: ${text} is not a plain decimal; write it as a string such as "0.000000008" (8 wei)`)
  const wei = parseUnitsExact(text, GWEI_DECIMALS) ?? fail(`${where}: ${text} is finer than 1 wei: at most ${GWEI_DECIMALS} decimal places`)
  if (wei === 0n) fail(`${where}: the floor must be at least 1 wei ("0.000000001")`)
  if (wei > MAX_BASE_FEE_WEI) fail(`${where}: ${text} gwei is above Arc's ceiling of 1000000 gwei (1e-3 USDC per gas)`)
  return wei
}

/**
 * Plans a checked scenario. `addressOf` gives each token's address (known
 * before deployment: USDC is fixed, the others follow the deployer's nonce),
 * which fixes each pool's token order.
 */
export const planScenario = (scenario: ScenarioFile, addressOf: (symbol: string) => Address): ScenarioPlan => {
  const tokens = new Map<string, PlannedToken>()
  tokens.set(USDC_SYMBOL, { symbol: USDC_SYMBOL, decimals: USDC_DECIMALS, behavior: "standard", feeBps: 0, permit: true })
  scenario.tokens.forEach((entry, i) => {
    const where = `tokens[${i}] (${entry.symbol})`
    if (tokens.has(entry.symbol)) fail(`${where}: symbol ${entry.symbol} is defined twice (USDC always exists)`)
    const behavior = entry.behavior ?? "standard"
    if (behavior === "fee-on-transfer" && entry.feeBps === undefined) fail(`${where}: a fee-on-transfer token needs feeBps`)
    if (behavior !== "fee-on-transfer" && entry.feeBps !== undefined) fail(`${where}: feeBps applies only to a fee-on-transfer token`)
    if (entry.permit !== undefined && typeof entry.permit !== "boolean") fail(`${where}: permit must be true or false, not ${JSON.stringify(entry.permit)}`)
    const permit = entry.permit === true
    if (permit && behavior !== "standard") fail(`${where}: permit applies only to a standard token, not to a ${behavior} one`)
    tokens.set(entry.symbol, { symbol: entry.symbol, decimals: entry.decimals, behavior, feeBps: entry.feeBps ?? 0, permit })
  })
  const token = (symbol: string, where: string): PlannedToken =>
    tokens.get(symbol) ?? fail(`${where}: unknown token ${symbol}`)
  const units = (text: string, symbol: string, where: string): bigint =>
    parseUnitsExact(text, token(symbol, where).decimals) ??
    fail(`${where}: ${text} ${symbol} has more decimal places than ${symbol}'s ${token(symbol, where).decimals}`)

  const priceFeeds = Object.entries(scenario.priceFeeds ?? {}).map(([symbol, price]) => {
    const where = `priceFeeds.${symbol}`
    token(symbol, where)
    const answer = parseUnitsExact(price, PRICE_FEED_DECIMALS) ?? fail(`${where}: ${price} has more than ${PRICE_FEED_DECIMALS} decimal places`)
    if (answer === 0n) fail(`${where}: a price must be above zero`)
    return { symbol, answer }
  })

  const planStablePool = (entry: Extract<PoolEntry, { kind: "curve-stableswap" }>, index: number, where: string): PlannedStablePool => {
    entry.tokens.forEach((symbol, k) => {
      const coin = token(symbol, where)
      if (entry.tokens.indexOf(symbol) !== k) fail(`${where}: ${symbol} is listed twice; a pool's coins are different tokens`)
      if (coin.behavior !== "standard") fail(`${where}: ${symbol} is a ${coin.behavior} token; a curve-stableswap pool takes standard tokens only`)
      if (coin.decimals > STABLE_MAX_DECIMALS) fail(`${where}: ${symbol} has ${coin.decimals} decimals; a curve-stableswap coin has at most ${STABLE_MAX_DECIMALS}`)
    })
    if (entry.balances.length !== entry.tokens.length) {
      fail(`${where}: ${entry.balances.length} balances for ${entry.tokens.length} coins; give one per coin, in the order of tokens`)
    }
    const balances = entry.balances.map((text, k) => {
      const amount = units(text, entry.tokens[k]!, `${where}: balances[${k}]`)
      if (amount === 0n) fail(`${where}: balances[${k}]: the first deposit needs some of every coin`)
      return amount
    })
    const fee = parseUnitsExact(entry.fee, STABLE_FEE_DECIMALS) ??
      fail(`${where}: fee ${entry.fee} is finer than Curve's fee unit (1e-10): at most ${STABLE_FEE_DECIMALS} decimal places`)
    if (fee >= STABLE_FEE_LIMIT) fail(`${where}: fee ${entry.fee} is too high: a curve-stableswap fee is below 0.5`)
    return { index, dex: entry.dex, kind: entry.kind, tokens: [...entry.tokens], A: entry.A, fee: Number(fee), balances }
  }

  const planPool = (entry: PoolEntry, index: number, where: string, seenPools: Set<string>): PlannedPool => {
    if (entry.kind === "curve-stableswap") return planStablePool(entry, index, where)
    const [a, b] = entry.tokens
    token(a, where)
    token(b, where)
    if (a === b) fail(`${where}: a pool needs two different tokens`)
    const addressA = getAddress(addressOf(a)).toLowerCase()
    const addressB = getAddress(addressOf(b)).toLowerCase()
    const aIsToken0 = addressA < addressB
    const [token0, token1] = aIsToken0 ? [a, b] : [b, a]
    const base = { index, dex: entry.dex, tokens: entry.tokens, token0, token1 } as const
    // a pool is one per venue: the same pair on two venues is two pools
    const identity = entry.kind === "uniswap-v2"
      ? `${entry.dex}:${token0}:${token1}`
      : entry.kind === "uniswap-v3"
        ? `${entry.dex}:${token0}:${token1}:${entry.fee}`
        : `${entry.dex}:${token0}:${token1}:${entry.fee}:${entry.tickSpacing}`
    if (seenPools.has(identity)) fail(`${where}: the same pool is listed twice`)
    seenPools.add(identity)

    if (entry.kind === "uniswap-v2") {
      const reserveA = units(entry.reserves[0], a, `${where}: reserves[0]`)
      const reserveB = units(entry.reserves[1], b, `${where}: reserves[1]`)
      // UniswapV2Pair locks 1000 units of liquidity on the first mint
      if (reserveA * reserveB <= 1000n * 1000n) fail(`${where}: reserves too small for a first mint (sqrt(r0*r1) must exceed 1000)`)
      if (reserveA > (1n << 112n) - 1n || reserveB > (1n << 112n) - 1n) fail(`${where}: a reserve exceeds uint112`)
      return { ...base, kind: "uniswap-v2", reserve0: aIsToken0 ? reserveA : reserveB, reserve1: aIsToken0 ? reserveB : reserveA }
    }

    const tickSpacing = entry.kind === "uniswap-v3" ? V3_TICK_SPACING[entry.fee]! : entry.tickSpacing
    const decimalsA = token(a, where).decimals
    const decimalsB = token(b, where).decimals
    const sqrtOf = (text: string, what: string): bigint => {
      const price = parseRational(text)
      if (price.num === 0n) fail(`${where}: ${what} must be above zero`)
      const sqrt = sqrtPriceX96(price, decimalsA, decimalsB, aIsToken0)
      if (sqrt < MIN_SQRT_RATIO || sqrt >= MAX_SQRT_RATIO) fail(`${where}: ${what} ${text} is outside the range a pool can price`)
      return sqrt
    }
    const sqrtPrice = sqrtOf(entry.price, "price")
    const minUsable = Math.ceil(MIN_TICK / tickSpacing) * tickSpacing
    const maxUsable = Math.floor(MAX_TICK / tickSpacing) * tickSpacing
    const usableTick = (sqrt: bigint) => {
      const rounded = Math.round(getTickAtSqrtRatio(sqrt) / tickSpacing) * tickSpacing
      return Math.min(maxUsable, Math.max(minUsable, rounded))
    }
    let amount0 = 0n
    let amount1 = 0n
    const positions = entry.positions.map((position, p): PlannedPosition => {
      const at = `${where}: positions[${p}]`
      const planned = planPosition(position, at, {
        sqrtPrice,
        tick: (text) => usableTick(sqrtOf(text, `bound ${text}`)),
        tickSpacing,
        aIsToken0,
        units: (text, symbol) => units(text, symbol, at),
        symbols: [a, b],
      })
      const sqrtLower = getSqrtRatioAtTick(planned.tickLower)
      const sqrtUpper = getSqrtRatioAtTick(planned.tickUpper)
      if (sqrtPrice < sqrtUpper) amount0 += getAmount0Delta(sqrtPrice > sqrtLower ? sqrtPrice : sqrtLower, sqrtUpper, planned.liquidity, true)
      if (sqrtPrice > sqrtLower) amount1 += getAmount1Delta(sqrtLower, sqrtPrice < sqrtUpper ? sqrtPrice : sqrtUpper, planned.liquidity, true)
      return planned
    })
    return { ...base, kind: entry.kind, fee: entry.fee, tickSpacing, sqrtPriceX96: sqrtPrice, positions, amount0, amount1 }
  }

  const seenPools = new Set<string>()
  const pools = scenario.pools.map((entry, index) => planPool(entry, index, poolLabel(entry, index), seenPools))
  // the aggregator's pools live on a factory of their own: the same pair and fee as a public pool is allowed
  const seenAggregatorPools = new Set<string>()
  const aggregatorPools = (scenario.aggregator?.pools ?? []).map(
    (entry, index) =>
      planPool({ ...entry, kind: "uniswap-v3" }, index, `aggregator.${poolLabel(entry, index)}`, seenAggregatorPools) as PlannedConcentratedPool,
  )

  const balances = (scenario.balances ?? []).flatMap((entry, i) =>
    Object.entries(entry.amounts).map(([symbol, amount]) => ({
      account: entry.account,
      symbol,
      amount: units(amount, symbol, `balances[${i}].amounts.${symbol}`),
    })),
  )

  const venues = scenario.dexes.map(({ name, kind }) => ({ name, kind }))
  const baseFeeFloorWei = planBaseFee(scenario.baseFeeGwei ?? DEFAULT_BASE_FEE_GWEI)
  return { chainId: scenario.chainId, venues, tokens: [...tokens.values()].filter((t) => t.symbol !== USDC_SYMBOL), priceFeeds, pools, aggregatorPools, balances, baseFeeFloorWei }
}

/**
 * sqrt(price) in Q64.96 for a price of tokens[0] in whole tokens[1], in the
 * pool's orientation (token1 raw units per token0 raw unit), rounded down.
 */
export const sqrtPriceX96 = (price: Rational, decimalsA: number, decimalsB: number, aIsToken0: boolean): bigint => {
  // raw price of A in B: price × 10^decimalsB / 10^decimalsA
  let num = price.num * 10n ** BigInt(decimalsB)
  let den = price.den * 10n ** BigInt(decimalsA)
  if (!aIsToken0) [num, den] = [den, num]
  return isqrt((num << 192n) / den)
}

interface PositionContext {
  readonly sqrtPrice: bigint
  readonly tick: (bound: string) => number
  readonly tickSpacing: number
  readonly aIsToken0: boolean
  readonly units: (text: string, symbol: string) => bigint
  readonly symbols: readonly [string, string]
}

const planPosition = (position: PositionEntry, at: string, ctx: PositionContext): PlannedPosition => {
  const given = [position.liquidity, position.amount0, position.amount1].filter((v) => v !== undefined).length
  if (given !== 1) fail(`${at}: give exactly one of liquidity, amount0 or amount1`)
  const tickA = ctx.tick(position.lower)
  const tickB = ctx.tick(position.upper)
  // a price bound of tokens[0] maps to the opposite tick when tokens[0] is the pool's token1
  const tickLower = Math.min(tickA, tickB)
  const tickUpper = Math.max(tickA, tickB)
  if (parseRational(position.lower).num * parseRational(position.upper).den >= parseRational(position.upper).num * parseRational(position.lower).den) {
    fail(`${at}: lower ${position.lower} must be below upper ${position.upper}`)
  }
  if (tickLower === tickUpper) fail(`${at}: range ${position.lower}..${position.upper} rounds to nothing at tick spacing ${ctx.tickSpacing}`)
  const sqrtLower = getSqrtRatioAtTick(tickLower)
  const sqrtUpper = getSqrtRatioAtTick(tickUpper)
  let liquidity: bigint
  if (position.liquidity !== undefined) {
    liquidity = BigInt(position.liquidity)
  } else {
    // amount0 is always tokens[0] of the entry, amount1 its tokens[1]
    const isEntryToken0 = position.amount0 !== undefined
    const amount = ctx.units((position.amount0 ?? position.amount1)!, ctx.symbols[isEntryToken0 ? 0 : 1])
    const isPoolToken0 = isEntryToken0 === ctx.aIsToken0
    if (isPoolToken0) {
      if (ctx.sqrtPrice >= sqrtUpper) fail(`${at}: at this price the range holds no ${ctx.symbols[isEntryToken0 ? 0 : 1]}; give the other amount`)
      liquidity = getLiquidityForAmount0(ctx.sqrtPrice > sqrtLower ? ctx.sqrtPrice : sqrtLower, sqrtUpper, amount)
    } else {
      if (ctx.sqrtPrice <= sqrtLower) fail(`${at}: at this price the range holds no ${ctx.symbols[isEntryToken0 ? 0 : 1]}; give the other amount`)
      liquidity = getLiquidityForAmount1(sqrtLower, ctx.sqrtPrice < sqrtUpper ? ctx.sqrtPrice : sqrtUpper, amount)
    }
  }
  if (liquidity === 0n) fail(`${at}: the position's liquidity rounds to zero`)
  if (liquidity > MAX_UINT128) fail(`${at}: liquidity exceeds uint128`)
  return { tickLower, tickUpper, liquidity }
}
