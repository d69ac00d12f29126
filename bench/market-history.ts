// The history fixture: a devnet whose chain has a long history, for measuring how fast the
// market becomes ready on it. About `pools` pools on every kind of venue (uniswap-v2 and a V2
// fork, uniswap-v3 and a V3 fork, uniswap-v4, Curve-style stable pools) are created in rounds
// spread over about `blocks` blocks, with `swaps` real swaps (through the route executor, so
// every pool emits its own Swap / TokenExchange events) spread over the same history.
//
// How it is built, fast:
//  - startDevnet with a scenario generated here: the venues, the tokens, a few price feeds and
//    one stable pool (a stable venue needs one); the executor registers every venue.
//  - The rest of the pools are planned by the scenario planner itself (planScenario over a
//    scenario that lists them all: exact sqrt prices, ticks, liquidity and amounts) and created
//    by the owner in rounds, with automine off: every transaction of a round is sent in one
//    JSON-RPC batch with explicit nonces and gas, then mined into one block (or a few, when a
//    block is full). V2 pairs are funded and minted; V3/V4 positions are minted through new
//    instances of the devnet's V3LiquidityProvider / V4LiquidityProvider, owned by the owner
//    (the scenario's own are not in the manifest); stable pools are deployed by the venue's
//    StableSwapFactory, seeded, and registered on the executor (setStablePool). Every predicted
//    pool address is checked against its factory once mined, and every receipt must succeed.
//  - Swaps go through Multicall3, which holds every token and has approved the executor:
//    one aggregate3 transaction carries 100 execute() calls, each a one-hop route on one pool,
//    so each swap emits the pool's own events (V2 Swap + Sync, V3 Swap, V4 Swap, TokenExchange).
//  - The empty blocks between rounds are not mined with anvil_mine: anvil's cost per mined block
//    grows with the chain (the prague history contracts' storage, a state snapshot and a full
//    state-root computation per block: measured ~1.5 ms a block on a fresh node, ~11 ms once
//    8,000 blocks exist), so a million blocks would take hours. They are appended with
//    anvil_loadState instead: empty headers chained by parent hash exactly as anvil hashes them
//    (the hashes computed by a small EVM program in one eth_call per run of 25,000, its code
//    given as a state override), with the base fee decaying as it does over empty blocks, and
//    the timestamp of the block before them (Arc's blocks are sub-second, so many blocks share a
//    second; the chain's clock stays at the wall clock, so swap deadlines keep working). The node
//    serves them like mined blocks (eth_getBlockByNumber/ByHash, eth_getLogs scans them) and the
//    next mined block is their child. What they lack is state: eth_call at one of them fails.
import { gzipSync } from "node:zlib"
import {
  bytesToHex,
  encodeAbiParameters,
  encodeFunctionData,
  encodePacked,
  getAddress,
  getContractAddress,
  getCreate2Address,
  hexToBytes,
  keccak256,
  maxUint256,
  numberToHex,
  toRlp,
  zeroAddress,
  type Abi,
  type Address,
  type Hex,
} from "viem"
import { encodeExecute } from "../src/chain/execute-call.ts"
import type { Route, RouteHop } from "../src/chain/route-encoding.ts"
import { ownArtifact, uniswapArtifact } from "../src/contracts/index.ts"
import { v2InitCodeHash, v3InitCodeHash } from "../src/devnet/executor.ts"
import {
  executorVenueIds,
  OWNER_INDEX,
  parseScenario,
  planScenario,
  startDevnet,
  testAccounts,
  USDC_ADDRESS,
  v4PoolId,
  writeManifest,
  type Manifest,
  type ManifestPool,
  type PlannedPool,
  type RunningDevnet,
} from "../src/devnet/index.ts"

export interface HistoryOptions {
  /** about how many pools, split across venues of every kind (stable pools: 2%, at least 2) */
  readonly pools: number
  /** about how many blocks the history spans, from `fromBlock` to the head once built */
  readonly blocks: number
  /** swaps spread over the history, on pools of every kind */
  readonly swaps: number
  /** creation rounds (default: about 40 pools a round, 4 to 100 rounds) */
  readonly rounds?: number
  /** seed of every random choice (tokens' prices, pools, swaps); default 1 */
  readonly seed?: number
  /** node port; 0 (the default) picks a free one */
  readonly port?: number
  /** where to write the final manifest (every pool listed); none written when absent */
  readonly manifestPath?: string
  /** progress lines (default: none) */
  readonly log?: (line: string) => void
}

export type HistoryPoolKind = "uniswap-v2" | "uniswap-v3" | "uniswap-v4" | "curve-stableswap"

/** A pool of the fixture, as swaps address it. */
export interface HistoryPool {
  readonly kind: HistoryPoolKind
  /** the venue's name */
  readonly dex: string
  /** pair / pool address; the 32-byte pool id on uniswap-v4 */
  readonly pool: Hex
  /** token symbols: a pair's in the scenario's order; a stable pool's coins in pool order */
  readonly tokens: readonly string[]
  readonly fee?: number
  readonly tickSpacing?: number
  /** the round it was created in (0: by the scenario) */
  readonly round: number
}

export interface HistoryDevnet {
  /** the node, the manifest (venues in manifest.dexes, every pool in manifest.pools, executor registered for every venue and stable pool) */
  readonly devnet: RunningDevnet
  readonly poolCount: { readonly byKind: Record<string, number>; readonly total: number }
  /** every pool, in creation order */
  readonly pools: readonly HistoryPool[]
  readonly swapsMade: number
  /** the block before the first factory deployment (what MARKET_FROM_BLOCK would be) */
  readonly fromBlock: bigint
  /** the head once built */
  readonly headBlock: bigint
  /** the blocks holding pool creations, first and last */
  readonly creationBlocks: { readonly first: bigint; readonly last: bigint }
  /** milliseconds per phase of the build, and `total` */
  readonly timings: Record<string, number>
  /** one transaction (mined in one block) that swaps on `count` distinct existing pools (of mixed kinds); returns the block number */
  readonly touchPools: (count: number) => Promise<bigint>
  readonly stop: () => Promise<void>
}

export class HistoryError extends Error {
  override readonly name = "HistoryError"
}

// ---------------------------------------------------------------------------- constants

/** the block gas limit while and after building: a round's creations fit in one block, touchPools(200) in one transaction */
export const HISTORY_BLOCK_GAS_LIMIT = 1_000_000_000n
const MAX_FEE_PER_GAS = 100_000_000_000n
const SWAPS_PER_TX = 100
/** gas limit per execute() inside an aggregate3 batch (a one-hop swap uses 100-250k) */
const GAS_PER_SWAP = 600_000n
/** filler blocks per anvil_loadState */
const FILLER_CHUNK = 25_000
/** filler blocks hashed per eth_call of the hasher */
const HASH_CHUNK = 25_000
const EMPTY_ROOT: Hex = "0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421"
const ZERO_BLOOM: Hex = `0x${"00".repeat(256)}`
/** where the hasher's code is put, by state override, for its eth_call only */
const HASHER_ADDRESS: Address = "0x00000000000000000000000000000000000Bd5e1"

const owner = testAccounts[OWNER_INDEX]!.address

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
const STABLE_VENUE = "xylonet"

// ---------------------------------------------------------------------------- random

/** mulberry32: a small deterministic PRNG in [0, 1) */
const prng = (seed: number) => {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
type Rng = ReturnType<typeof prng>
const shuffle = <T>(rng: Rng, xs: readonly T[]): T[] => {
  const out = [...xs]
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1))
    ;[out[i], out[j]] = [out[j]!, out[i]!]
  }
  return out
}
const pick = <T>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)]!

// ---------------------------------------------------------------------------- the scenario

interface FixtureToken {
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

interface Universe {
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

const buildUniverse = (options: HistoryOptions, rng: Rng): Universe => {
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

// ---------------------------------------------------------------------------- JSON-RPC

type RpcRequest = { readonly method: string; readonly params: readonly unknown[] }

const rpcClient = (url: string) => {
  let id = 0
  const post = async (body: unknown): Promise<unknown> => {
    const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
    if (!res.ok) throw new HistoryError(`node answered HTTP ${res.status}`)
    return res.json()
  }
  const call = async <T = unknown>(method: string, params: readonly unknown[] = []): Promise<T> => {
    const answer = (await post({ jsonrpc: "2.0", id: ++id, method, params })) as { result?: T; error?: { message: string } }
    if (answer.error) throw new HistoryError(`${method}: ${answer.error.message}`)
    return answer.result as T
  }
  /** many requests in JSON-RPC batches, answers in order; throws on the first error */
  const batch = async <T = unknown>(requests: readonly RpcRequest[], size = 500): Promise<T[]> => {
    const out: T[] = []
    for (let start = 0; start < requests.length; start += size) {
      const slice = requests.slice(start, start + size)
      const first = id + 1
      id += slice.length
      const body = slice.map((r, i) => ({ jsonrpc: "2.0", id: first + i, method: r.method, params: r.params }))
      const answers = (await post(body)) as Array<{ id: number; result?: T; error?: { message: string } }>
      const byId = new Map(answers.map((a) => [a.id, a]))
      slice.forEach((r, i) => {
        const a = byId.get(first + i)
        if (a === undefined) throw new HistoryError(`${r.method}: no answer in the batch`)
        if (a.error) throw new HistoryError(`${r.method}: ${a.error.message}`)
        out.push(a.result as T)
      })
    }
    return out
  }
  return { call, batch }
}
type Rpc = ReturnType<typeof rpcClient>

interface RpcBlock {
  readonly number: Hex
  readonly hash: Hex
  readonly parentHash: Hex
  readonly sha3Uncles: Hex
  readonly miner: Hex
  readonly stateRoot: Hex
  readonly transactionsRoot: Hex
  readonly receiptsRoot: Hex
  readonly logsBloom: Hex
  readonly difficulty: Hex
  readonly gasLimit: Hex
  readonly gasUsed: Hex
  readonly timestamp: Hex
  readonly extraData: Hex
  readonly mixHash: Hex
  readonly nonce: Hex
  readonly baseFeePerGas: Hex
  readonly withdrawalsRoot: Hex
  readonly blobGasUsed: Hex
  readonly excessBlobGas: Hex
  readonly parentBeaconBlockRoot: Hex
  readonly requestsHash: Hex
  readonly transactions: readonly Hex[]
}

interface RpcReceipt {
  readonly transactionHash: Hex
  readonly status: Hex
  readonly contractAddress: Hex | null
  readonly blockNumber: Hex
}

// ---------------------------------------------------------------------------- filler blocks

/** EIP-1559's next base fee (alloy's calc_next_block_base_fee: elasticity 2, denominator 8) */
const nextBaseFee = (gasUsed: bigint, gasLimit: bigint, baseFee: bigint): bigint => {
  const target = gasLimit / 2n
  if (gasUsed === target) return baseFee
  if (gasUsed > target) {
    const delta = (baseFee * (gasUsed - target)) / (target * 8n)
    return baseFee + (delta > 1n ? delta : 1n)
  }
  const delta = (baseFee * (target - gasUsed)) / (target * 8n)
  return baseFee > delta ? baseFee - delta : 0n
}

/** minimal big-endian bytes of an integer as RLP wants it (0 is empty) */
const intHex = (n: bigint): Hex => {
  if (n === 0n) return "0x"
  const digits = n.toString(16)
  return `0x${digits.length % 2 === 0 ? digits : `0${digits}`}`
}

/** The fields of a Prague header in RLP order. */
interface HeaderFields {
  readonly parentHash: Hex
  readonly number: bigint
  readonly baseFee: bigint
}
const headerRlpFields = (t: RpcBlock, f: HeaderFields): Hex[] => [
  f.parentHash,
  t.sha3Uncles,
  t.miner,
  t.stateRoot,
  EMPTY_ROOT,
  EMPTY_ROOT,
  ZERO_BLOOM,
  "0x",
  intHex(f.number),
  intHex(BigInt(t.gasLimit)),
  "0x",
  intHex(BigInt(t.timestamp)),
  t.extraData,
  t.mixHash,
  t.nonce,
  intHex(f.baseFee),
  EMPTY_ROOT,
  intHex(BigInt(t.blobGasUsed)),
  intHex(BigInt(t.excessBlobGas)),
  t.parentBeaconBlockRoot,
  t.requestsHash,
]

/** The block hash anvil computes for a filler header (checked against real blocks in the test). */
export const fillerHeaderHash = (template: RpcBlock, fields: HeaderFields): Hex => keccak256(toRlp(headerRlpFields(template, fields)))

/** The RPC header fields of a real block hash the same way (a sanity check of the encoding). */
export const realHeaderHash = (b: RpcBlock): Hex =>
  keccak256(
    toRlp([
      b.parentHash, b.sha3Uncles, b.miner, b.stateRoot, b.transactionsRoot, b.receiptsRoot, b.logsBloom,
      intHex(BigInt(b.difficulty)), intHex(BigInt(b.number)), intHex(BigInt(b.gasLimit)), intHex(BigInt(b.gasUsed)),
      intHex(BigInt(b.timestamp)), b.extraData, b.mixHash, b.nonce, intHex(BigInt(b.baseFeePerGas)), b.withdrawalsRoot,
      intHex(BigInt(b.blobGasUsed)), intHex(BigInt(b.excessBlobGas)), b.parentBeaconBlockRoot, b.requestsHash,
    ]),
  )

// The hasher: an EVM program run by eth_call (its code given as a state override) that hashes a
// run of headers differing only in parentHash (each the hash of the one before) and number (+1
// each, same byte length). Calldata words: count, first parent, first number, the offset of the
// 32-byte word that ends with the number's bytes, that word with the number's bytes zeroed, the
// offset of parentHash, the RLP's length; then the RLP template. Returns count hashes.
const OPCODES = {
  ADD: 0x01, EQ: 0x14, OR: 0x17, SHL: 0x1b, SHA3: 0x20, CALLDATALOAD: 0x35, CALLDATACOPY: 0x37, POP: 0x50, MSTORE: 0x52,
  JUMP: 0x56, JUMPI: 0x57, JUMPDEST: 0x5b, DUP1: 0x80, DUP2: 0x81, DUP3: 0x82, DUP5: 0x84, SWAP2: 0x91, RETURN: 0xf3,
} as const
type Instruction = keyof typeof OPCODES | readonly ["PUSH", number] | readonly ["LABEL", string] | readonly ["PUSHLABEL", string]
const assemble = (program: readonly Instruction[]): Hex => {
  const size = (ins: Instruction) => (typeof ins === "string" ? 1 : ins[0] === "PUSH" ? (ins[1] < 256 ? 2 : 3) : ins[0] === "LABEL" ? 1 : 3)
  const labels = new Map<string, number>()
  let at = 0
  for (const ins of program) {
    if (typeof ins !== "string" && ins[0] === "LABEL") labels.set(ins[1], at)
    at += size(ins)
  }
  const bytes: number[] = []
  for (const ins of program) {
    if (typeof ins === "string") bytes.push(OPCODES[ins])
    else if (ins[0] === "LABEL") bytes.push(OPCODES.JUMPDEST)
    else {
      const value = ins[0] === "PUSH" ? ins[1] : labels.get(ins[1])!
      if (ins[0] === "PUSH" && value < 256) bytes.push(0x60, value)
      else bytes.push(0x61, value >> 8, value & 0xff)
    }
  }
  return bytesToHex(Uint8Array.from(bytes))
}
const HASH_OUT = 0x400
const HASHER_CODE = assemble([
  ["PUSH", 0xc0], "CALLDATALOAD", ["PUSH", 0xe0], ["PUSH", 0], "CALLDATACOPY", // memory[0, L) = template
  ["PUSH", 0], ["PUSH", 0x20], "CALLDATALOAD", ["PUSH", 0x40], "CALLDATALOAD", // stack: number parent i
  ["LABEL", "loop"],
  "DUP3", ["PUSH", 0], "CALLDATALOAD", "EQ", ["PUSHLABEL", "end"], "JUMPI", // i == count: done
  "DUP2", ["PUSH", 0xa0], "CALLDATALOAD", "MSTORE", // parentHash
  "DUP1", ["PUSH", 0x80], "CALLDATALOAD", "OR", ["PUSH", 0x60], "CALLDATALOAD", "MSTORE", // number
  ["PUSH", 0xc0], "CALLDATALOAD", ["PUSH", 0], "SHA3", // h number parent i
  "DUP1", "DUP5", ["PUSH", 5], "SHL", ["PUSH", HASH_OUT], "ADD", "MSTORE", // out[i] = h
  "SWAP2", "POP", ["PUSH", 1], "ADD", "SWAP2", ["PUSH", 1], "ADD", "SWAP2", // number+1 h i+1
  ["PUSHLABEL", "loop"], "JUMP",
  ["LABEL", "end"],
  ["PUSH", 0], "CALLDATALOAD", ["PUSH", 5], "SHL", ["PUSH", HASH_OUT], "RETURN",
])

/** RLP of one header with the offsets of parentHash's and number's bytes. */
const rlpWithOffsets = (fields: readonly Hex[], numberIndex: number) => {
  const bytes = hexToBytes(toRlp(fields))
  // the list's prefix, then each item; a 32-byte item is 0xa0 + 32 bytes
  const listPrefix = bytes[0]! >= 0xf8 ? 1 + (bytes[0]! - 0xf7) : 1
  let at = listPrefix
  const dataOffsets: number[] = []
  for (const field of fields) {
    const item = hexToBytes(toRlp(field))
    const length = (field.length - 2) / 2
    dataOffsets.push(at + item.length - length)
    at += item.length
  }
  return { bytes, parentOffset: dataOffsets[0]!, numberOffset: dataOffsets[numberIndex]! }
}

/**
 * Appends `count` empty blocks after the head, each the child of the one before, through
 * anvil_loadState, their base fee never below the devnet's floor. Returns the new head number.
 */
const appendEmptyBlocks = async (rpc: Rpc, count: number, floorWei: bigint): Promise<bigint> => {
  if (count <= 0) return BigInt(await rpc.call<Hex>("eth_blockNumber"))
  const head = await rpc.call<RpcBlock>("eth_getBlockByNumber", ["latest", false])
  let parent = head.hash
  let number = BigInt(head.number) + 1n
  const floored = (fee: bigint) => (fee < floorWei ? floorWei : fee)
  let baseFee = floored(nextBaseFee(BigInt(head.gasUsed), BigInt(head.gasLimit), BigInt(head.baseFeePerGas)))
  const last = BigInt(head.number) + BigInt(count)
  // runs of headers with the same base fee and number length: the hasher hashes a run at once
  let pending: Array<{ parent: Hex; number: bigint; baseFee: bigint }> = []
  const staticJson = (fee: bigint) =>
    `","sha3Uncles":"${head.sha3Uncles}","miner":"${head.miner}","stateRoot":"${head.stateRoot}","transactionsRoot":"${EMPTY_ROOT}",` +
    `"receiptsRoot":"${EMPTY_ROOT}","logsBloom":"${ZERO_BLOOM}","difficulty":"0x0","gasLimit":"${head.gasLimit}","gasUsed":"0x0",` +
    `"timestamp":"${head.timestamp}","extraData":"${head.extraData}","mixHash":"${head.mixHash}","nonce":"${head.nonce}",` +
    `"baseFeePerGas":"${numberToHex(fee)}","withdrawalsRoot":"${EMPTY_ROOT}","blobGasUsed":"${head.blobGasUsed}",` +
    `"excessBlobGas":"${head.excessBlobGas}","parentBeaconBlockRoot":"${head.parentBeaconBlockRoot}","requestsHash":"${head.requestsHash}","number":"`
  const flush = async () => {
    if (pending.length === 0) return
    const lastBlock = pending[pending.length - 1]!
    const parts: string[] = []
    let json = ""
    let fee = -1n
    for (const b of pending) {
      if (b.baseFee !== fee) {
        fee = b.baseFee
        json = staticJson(fee)
      }
      parts.push(`{"header":{"parentHash":"${b.parent}${json}${numberToHex(b.number)}"},"transactions":[],"ommers":[],"withdrawals":[]}`)
    }
    const env =
      `{"number":"${numberToHex(lastBlock.number)}","beneficiary":"${head.miner}","timestamp":"${head.timestamp}",` +
      `"gas_limit":${BigInt(head.gasLimit)},"basefee":${lastBlock.baseFee},"difficulty":"0x0","prevrandao":"${head.mixHash}",` +
      `"blob_excess_gas_and_price":{"excess_blob_gas":${BigInt(head.excessBlobGas)},"blob_gasprice":1},"slot_num":0}`
    const state = `{"block":${env},"accounts":{},"best_block_number":${lastBlock.number},"blocks":[${parts.join(",")}],"transactions":[],"historical_states":null}`
    const zipped = gzipSync(Buffer.from(state), { level: 1 })
    const loaded = await rpc.call<boolean>("anvil_loadState", [`0x${zipped.toString("hex")}`])
    if (loaded !== true) throw new HistoryError("anvil_loadState refused the filler blocks")
    pending = []
  }

  while (number <= last) {
    // the longest run from here with one base fee and one number length
    const length = (number.toString(16).length + 1) >> 1
    const lengthEnd = (1n << BigInt(8 * length)) - 1n
    const settled = floored(nextBaseFee(0n, BigInt(head.gasLimit), baseFee)) === baseFee
    const runEnd = settled ? (last < lengthEnd ? last : lengthEnd) : number
    const runCount = Number(runEnd - number + 1n)
    if (runCount < 16 || number < 0x80n) {
      for (let i = 0; i < runCount; i++) {
        const hash = fillerHeaderHash(head, { parentHash: parent, number, baseFee })
        pending.push({ parent, number, baseFee })
        parent = hash
        number++
        baseFee = floored(nextBaseFee(0n, BigInt(head.gasLimit), baseFee))
        if (pending.length >= FILLER_CHUNK) await flush()
      }
      continue
    }
    for (let done = 0; done < runCount; ) {
      const n = Math.min(HASH_CHUNK, runCount - done, FILLER_CHUNK - pending.length)
      const fields = headerRlpFields(head, { parentHash: `0x${"11".repeat(32)}`, number, baseFee })
      const { bytes, parentOffset, numberOffset } = rlpWithOffsets(fields, 8)
      const wordOffset = numberOffset + length - 32
      const word = bytes.slice(wordOffset, wordOffset + 32)
      word.fill(0, 32 - length)
      const data = encodeAbiParameters(
        [{ type: "uint256" }, { type: "bytes32" }, { type: "uint256" }, { type: "uint256" }, { type: "bytes32" }, { type: "uint256" }, { type: "uint256" }],
        [BigInt(n), parent, number, BigInt(wordOffset), bytesToHex(word), BigInt(parentOffset), BigInt(bytes.length)],
      )
      const out = await rpc.call<Hex>("eth_call", [
        { to: HASHER_ADDRESS, data: `${data}${bytesToHex(bytes).slice(2)}`, gas: numberToHex(HISTORY_BLOCK_GAS_LIMIT) },
        "latest",
        { [HASHER_ADDRESS]: { code: HASHER_CODE } },
      ])
      if (out.length !== 2 + n * 64) throw new HistoryError(`the header hasher returned ${(out.length - 2) / 2} bytes for ${n} headers`)
      for (let i = 0; i < n; i++) {
        pending.push({ parent, number, baseFee })
        parent = `0x${out.slice(2 + i * 64, 2 + (i + 1) * 64)}`
        number++
      }
      done += n
      if (pending.length >= FILLER_CHUNK) await flush()
    }
  }
  await flush()
  const after = await rpc.call<RpcBlock>("eth_getBlockByNumber", ["latest", false])
  if (BigInt(after.number) !== last || after.hash !== parent) {
    throw new HistoryError(`the filler blocks did not land as computed: head ${BigInt(after.number)} ${after.hash}, expected ${last} ${parent}`)
  }
  return last
}

// ---------------------------------------------------------------------------- the build

interface TxSpec {
  readonly to?: Address
  readonly data: Hex
  readonly gas: bigint
  readonly label: string
}

const erc20Abi: Abi = ownArtifact("TestToken").abi
const multicallAbi: Abi = ownArtifact("Multicall3").abi
const executorAbi: Abi = ownArtifact("RouteExecutor").abi
const stableFactoryAbi: Abi = ownArtifact("StableSwapFactory").abi
const stablePoolAbi: Abi = ownArtifact("StableSwapPool").abi
const v2FactoryAbi: Abi = uniswapArtifact("UniswapV2Factory").abi
const v2PairAbi: Abi = uniswapArtifact("UniswapV2Pair").abi
const v3FactoryAbi: Abi = uniswapArtifact("UniswapV3Factory").abi
const v3PoolAbi: Abi = uniswapArtifact("UniswapV3Pool").abi
const poolManagerAbi: Abi = uniswapArtifact("PoolManager").abi
const v3Provider = ownArtifact("V3LiquidityProvider")
const v4Provider = ownArtifact("V4LiquidityProvider")

/** StableSwapPool's add_liquidity for n coins (the overload of uint256[n]) */
const addLiquidityAbi = (coins: number): Abi =>
  stablePoolAbi.filter((item) => item.type === "function" && item.name === "add_liquidity" && item.inputs[0]?.type === `uint256[${coins}]`)

const call = (to: Address, abi: Abi, functionName: string, args: readonly unknown[], gas: bigint, label: string): TxSpec => ({
  to,
  data: encodeFunctionData({ abi, functionName, args }),
  gas,
  label,
})

/** Builds the history fixture; see the file's head. */
export const startHistoryDevnet = async (options: HistoryOptions): Promise<HistoryDevnet> => {
  if (!(options.pools >= 10)) throw new HistoryError(`pools: at least 10, got ${options.pools}`)
  if (!(options.swaps >= 0)) throw new HistoryError(`swaps: not negative, got ${options.swaps}`)
  const log = options.log ?? (() => undefined)
  const timings: Record<string, number> = {}
  const started = performance.now()
  let phaseStart = started
  const phase = (name: string) => {
    const now = performance.now()
    timings[name] = Math.round((timings[name] ?? 0) + now - phaseStart)
    phaseStart = now
  }

  const rng = prng(options.seed ?? 1)
  const universe = buildUniverse(options, rng)
  // the scenario creates the first stable pool (a stable venue needs one); the rest are created here
  const initialText = JSON.stringify({ ...universe.scenario, pools: universe.entries.slice(0, 1) })
  const devnet = await startDevnet({ port: options.port ?? 0, scenarioText: initialText, useCache: false })
  phase("startDevnet")
  try {
    const built = await build(devnet, universe, options, rng, log, phase)
    timings.total = Math.round(performance.now() - started)
    log(`history fixture ready in ${timings.total} ms: ${JSON.stringify(timings)}`)
    return { ...built, timings }
  } catch (error) {
    await devnet.stop()
    throw error
  }
}

const build = async (
  devnet: RunningDevnet,
  universe: Universe,
  options: HistoryOptions,
  rng: Rng,
  log: (line: string) => void,
  phase: (name: string) => void,
): Promise<Omit<HistoryDevnet, "timings">> => {
  const rpc = rpcClient(devnet.node.rpcUrl)
  let manifest = devnet.manifest
  const m0 = manifest
  const tokenAddress = (symbol: string): Address => getAddress(m0.tokens[symbol]!.address)
  const plan = planScenario(parseScenario(JSON.stringify(universe.scenario), "history scenario"), tokenAddress)
  const venueIds = executorVenueIds(m0)
  const multicall = getAddress(m0.multicall3)
  const executor = getAddress(m0.executor)
  const factoryOf = (dex: string) => getAddress((m0.dexes[dex] as { factory: string }).factory)
  const poolManager = getAddress((m0.dexes["uniswap-v4"] as { poolManager: string }).poolManager)
  const stableFactory = getAddress((m0.dexes[STABLE_VENUE] as { factory?: string }).factory!)
  const priceOf = new Map(universe.tokens.map((t) => [t.symbol, t]))

  // the block before the first venue contract was deployed
  const venueContracts = new Set(
    Object.values(m0.dexes).flatMap((v) => ("factory" in v && v.factory ? [v.factory.toLowerCase()] : "poolManager" in v ? [v.poolManager.toLowerCase()] : [])),
  )
  const headAtStart = BigInt(await rpc.call<Hex>("eth_blockNumber"))
  const blockNumbers = Array.from({ length: Number(headAtStart) }, (_, i) => numberToHex(i + 1))
  const receipts = await rpc.batch<RpcReceipt[]>(blockNumbers.map((n) => ({ method: "eth_getBlockReceipts", params: [n] })), 200)
  const firstVenueBlock = receipts.flat().find((r) => r.contractAddress !== null && venueContracts.has(r.contractAddress.toLowerCase()))
  if (firstVenueBlock === undefined) throw new HistoryError("no venue contract deployment found in the devnet's blocks")
  const fromBlock = BigInt(firstVenueBlock.blockNumber) - 1n
  const targetHead = fromBlock + BigInt(options.blocks)

  // sending: every transaction from the owner, explicit nonces and gas, mined when asked
  await rpc.call("anvil_setBlockGasLimit", [numberToHex(HISTORY_BLOCK_GAS_LIMIT)])
  await rpc.call("evm_setAutomine", [false])
  let nonce = BigInt(await rpc.call<Hex>("eth_getTransactionCount", [owner, "pending"]))
  const labels = new Map<string, string>()
  let queued = 0
  const send = async (txs: readonly TxSpec[]) => {
    const hashes = await rpc.batch<Hex>(
      txs.map((tx) => ({
        method: "eth_sendTransaction",
        params: [{
          from: owner,
          ...(tx.to !== undefined ? { to: tx.to } : {}),
          data: tx.data,
          gas: numberToHex(tx.gas),
          nonce: numberToHex(nonce++),
          maxFeePerGas: numberToHex(MAX_FEE_PER_GAS),
          maxPriorityFeePerGas: "0x1",
        }],
      })),
    )
    hashes.forEach((h, i) => labels.set(h, txs[i]!.label))
    queued += txs.length
  }
  /** mines every queued transaction (one block, or more when one is full); each must succeed. Returns the blocks. */
  const mine = async (): Promise<bigint[]> => {
    const blocks: bigint[] = []
    while (queued > 0) {
      await rpc.call("evm_mine")
      const block = await rpc.call<RpcBlock>("eth_getBlockByNumber", ["latest", false])
      if (block.transactions.length === 0) {
        const status = await rpc.call("txpool_status")
        throw new HistoryError(`a mined block took none of the ${queued} queued transactions (txpool ${JSON.stringify(status)})`)
      }
      const blockReceipts = await rpc.call<RpcReceipt[]>("eth_getBlockReceipts", [block.number])
      const failed = blockReceipts.filter((r) => r.status !== "0x1")
      if (failed.length > 0) {
        throw new HistoryError(`${failed.length} transaction(s) reverted, the first: ${labels.get(failed[0]!.transactionHash) ?? failed[0]!.transactionHash}`)
      }
      for (const r of blockReceipts) labels.delete(r.transactionHash)
      queued -= block.transactions.length
      blocks.push(BigInt(block.number))
    }
    return blocks
  }
  const fund = (symbol: string, to: Address, amount: bigint, label: string): TxSpec | undefined =>
    amount === 0n
      ? undefined
      : symbol === "USDC"
        ? call(USDC_ADDRESS, erc20Abi, "transfer", [to, amount], 200_000n, label)
        : call(tokenAddress(symbol), erc20Abi, "mint", [to, amount], 200_000n, label)

  // setup: liquidity providers the owner holds, Multicall3 holding every token and approving the executor
  const v3ProviderAddress = getContractAddress({ from: owner, nonce })
  const v4ProviderAddress = getContractAddress({ from: owner, nonce: nonce + 1n })
  const setup: TxSpec[] = [
    { data: v3Provider.bytecode, gas: 5_000_000n, label: "deploy V3LiquidityProvider" },
    { data: `${v4Provider.bytecode}${encodeAbiParameters([{ type: "address" }], [poolManager]).slice(2)}`, gas: 5_000_000n, label: "deploy V4LiquidityProvider" },
  ]
  for (const t of universe.tokens) {
    // a trillion dollars' worth: swaps never run dry
    const amount = (10n ** 18n * 10n ** BigInt(t.decimals)) / t.micros
    setup.push(fund(t.symbol, multicall, t.symbol === "USDC" ? 10n ** 18n : amount, `fund Multicall3 with ${t.symbol}`)!)
  }
  setup.push(
    call(multicall, multicallAbi, "aggregate3", [
      universe.tokens.map((t) => ({
        target: tokenAddress(t.symbol),
        allowFailure: false,
        callData: encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [executor, maxUint256] }),
      })),
    ], 100_000n * BigInt(universe.tokens.length) + 1_000_000n, "Multicall3 approves the executor"),
  )
  await send(setup)
  await mine()
  const readProtocolFee = async () =>
    Number(await rpc.call<Hex>("eth_call", [{ to: executor, data: encodeFunctionData({ abi: executorAbi, functionName: "protocolFeeBps" }) }, "latest"]))
  const protocolFeeBps = await readProtocolFee()
  phase("setup")

  // the pools: plan.pools[i] is universe.entries[i]; entry 0 was created by the scenario
  const pools: HistoryPool[] = []
  const newManifestPools: ManifestPool[] = []
  const initialStable = m0.pools[0]!
  pools.push({ kind: "curve-stableswap", dex: STABLE_VENUE, pool: getAddress(initialStable.pool), tokens: [...initialStable.tokens], round: 0 })
  let stableCount = BigInt(
    await rpc.call<Hex>("eth_call", [{ to: stableFactory, data: encodeFunctionData({ abi: stableFactoryAbi, functionName: "pool_count" }) }, "latest"]),
  )
  const stablePoolsAdded: Address[] = []

  const rounds = Math.max(1, options.rounds ?? Math.min(100, Math.max(4, Math.ceil(options.pools / 40))))
  const toCreate = plan.pools.slice(1)
  const perRound = (total: number, r: number) => Math.floor(total / rounds) + (r < total % rounds ? 1 : 0)
  let created = 0
  let swapsMade = 0
  const creationBlocks: bigint[] = []
  const checks: Array<{ request: RpcRequest; expected: Hex; label: string }> = []

  /** the transactions that create (and fund) one planned pool, and its record */
  const createPool = (planned: PlannedPool, round: number): { txs: TxSpec[]; pool: HistoryPool; manifestPool: ManifestPool } => {
    const label = `round ${round} ${planned.dex} ${planned.tokens.join("/")}`
    const txs: TxSpec[] = []
    if (planned.kind === "uniswap-v2") {
      const factory = factoryOf(planned.dex)
      const [t0, t1] = [tokenAddress(planned.token0), tokenAddress(planned.token1)]
      const pair = getCreate2Address({ from: factory, salt: keccak256(encodePacked(["address", "address"], [t0, t1])), bytecodeHash: v2InitCodeHash() })
      txs.push(call(factory, v2FactoryAbi, "createPair", [t0, t1], 3_500_000n, `${label} createPair`))
      txs.push(fund(planned.token0, pair, planned.reserve0, `${label} fund`)!, fund(planned.token1, pair, planned.reserve1, `${label} fund`)!)
      txs.push(call(pair, v2PairAbi, "mint", [owner], 300_000n, `${label} mint`))
      checks.push({ request: { method: "eth_call", params: [{ to: factory, data: encodeFunctionData({ abi: v2FactoryAbi, functionName: "getPair", args: [t0, t1] }) }, "latest"] }, expected: pair, label })
      return { txs, pool: { kind: planned.kind, dex: planned.dex, pool: pair, tokens: [...planned.tokens], round }, manifestPool: { dex: planned.dex, pool: pair, tokens: planned.tokens } }
    }
    if (planned.kind === "uniswap-v3") {
      const factory = factoryOf(planned.dex)
      const [t0, t1] = [tokenAddress(planned.token0), tokenAddress(planned.token1)]
      const address = getCreate2Address({
        from: factory,
        salt: keccak256(encodeAbiParameters([{ type: "address" }, { type: "address" }, { type: "uint24" }], [t0, t1, planned.fee])),
        bytecodeHash: v3InitCodeHash(),
      })
      txs.push(call(factory, v3FactoryAbi, "createPool", [t0, t1, planned.fee], 6_000_000n, `${label} createPool`))
      txs.push(call(address, v3PoolAbi, "initialize", [planned.sqrtPriceX96], 300_000n, `${label} initialize`))
      for (const p of planned.positions) txs.push(call(v3ProviderAddress, v3Provider.abi, "mint", [address, p.tickLower, p.tickUpper, p.liquidity], 1_000_000n, `${label} mint`))
      checks.push({ request: { method: "eth_call", params: [{ to: factory, data: encodeFunctionData({ abi: v3FactoryAbi, functionName: "getPool", args: [t0, t1, planned.fee] }) }, "latest"] }, expected: address, label })
      return {
        txs,
        pool: { kind: planned.kind, dex: planned.dex, pool: address, tokens: [...planned.tokens], fee: planned.fee, tickSpacing: planned.tickSpacing, round },
        manifestPool: { dex: planned.dex, pool: address, tokens: planned.tokens, fee: planned.fee, tickSpacing: planned.tickSpacing },
      }
    }
    if (planned.kind === "uniswap-v4") {
      const key = { currency0: tokenAddress(planned.token0), currency1: tokenAddress(planned.token1), fee: planned.fee, tickSpacing: planned.tickSpacing, hooks: zeroAddress }
      txs.push(call(poolManager, poolManagerAbi, "initialize", [key, planned.sqrtPriceX96], 500_000n, `${label} initialize`))
      for (const p of planned.positions) {
        txs.push(call(v4ProviderAddress, v4Provider.abi, "addLiquidity", [key, p.tickLower, p.tickUpper, p.liquidity, `0x${"0".repeat(64)}`], 1_000_000n, `${label} addLiquidity`))
      }
      const id = v4PoolId(key)
      return {
        txs,
        pool: { kind: planned.kind, dex: planned.dex, pool: id, tokens: [...planned.tokens], fee: planned.fee, tickSpacing: planned.tickSpacing, round },
        manifestPool: { dex: planned.dex, pool: id, tokens: planned.tokens, fee: planned.fee, tickSpacing: planned.tickSpacing, hooks: zeroAddress },
      }
    }
    // a stable pool: the factory's next CREATE, seeded by the owner, registered on the executor
    if (planned.kind !== "curve-stableswap") throw new HistoryError(`${label}: unexpected pool kind ${planned.kind}`)
    const coins = planned.tokens.map(tokenAddress)
    const address = getContractAddress({ from: stableFactory, nonce: stableCount + 1n })
    checks.push({ request: { method: "eth_call", params: [{ to: stableFactory, data: encodeFunctionData({ abi: stableFactoryAbi, functionName: "pool_list", args: [stableCount] }) }, "latest"] }, expected: address, label })
    stableCount++
    const padded = [...coins, ...Array<Address>(4 - coins.length).fill(zeroAddress)]
    txs.push(call(stableFactory, stableFactoryAbi, "deploy_plain_pool", [planned.tokens.join("/").slice(0, 32), planned.tokens.join("").slice(0, 10), padded, BigInt(planned.A), BigInt(planned.fee)], 8_000_000n, `${label} deploy_plain_pool`))
    planned.tokens.forEach((symbol, k) => {
      const amount = planned.balances[k]!
      if (symbol !== "USDC") txs.push(fund(symbol, owner, amount, `${label} fund`)!)
      txs.push(call(coins[k]!, erc20Abi, "approve", [address, amount], 100_000n, `${label} approve`))
    })
    txs.push(call(address, addLiquidityAbi(coins.length), "add_liquidity", [planned.balances, 0n], 1_000_000n, `${label} add_liquidity`))
    txs.push(call(executor, executorAbi, "setStablePool", [address, true], 1_000_000n, `${label} setStablePool`))
    stablePoolsAdded.push(address)
    return {
      txs,
      pool: { kind: planned.kind, dex: planned.dex, pool: address, tokens: [...planned.tokens], round },
      manifestPool: { dex: planned.dex, pool: address, tokens: [...planned.tokens], A: planned.A, fee: planned.fee },
    }
  }

  /** execute() of one small one-hop swap on a pool, from Multicall3 to itself */
  const swapCall = (pool: HistoryPool, feeBps = protocolFeeBps) => {
    const [inIndex, outIndex] = shuffle(rng, pool.tokens.map((_, i) => i)).slice(0, 2) as [number, number]
    const symbolIn = pool.tokens[inIndex]!
    const tokenIn = tokenAddress(symbolIn)
    const tokenOut = tokenAddress(pool.tokens[outIndex]!)
    const t = priceOf.get(symbolIn)!
    const usd = BigInt(20 + Math.floor(rng() * 480))
    const amountIn = (usd * 1_000_000n * 10n ** BigInt(t.decimals)) / t.micros
    const hop: RouteHop =
      pool.kind === "uniswap-v2"
        ? { kind: "v2", tokenIn, tokenOut, venue: venueIds.get(pool.dex)! }
        : pool.kind === "uniswap-v3"
          ? { kind: "v3", tokenIn, tokenOut, venue: venueIds.get(pool.dex)!, fee: pool.fee! }
          : pool.kind === "uniswap-v4"
            ? { kind: "v4", tokenIn, tokenOut, venue: venueIds.get(pool.dex)!, fee: pool.fee!, tickSpacing: pool.tickSpacing!, hooks: zeroAddress }
            : { kind: "stable", tokenIn, tokenOut, pool: getAddress(pool.pool) }
    const route: Route = [{ shareBps: 10_000, hops: [hop] }]
    return {
      target: executor,
      allowFailure: false,
      callData: encodeExecute({ tokenIn, tokenOut, amountIn: amountIn > 0n ? amountIn : 1n, minAmountOut: 1n, recipient: multicall, deadline: maxUint256, feeBps: 0, protocolFeeBps: feeBps, route }),
    }
  }
  const swapBatches = (chosen: readonly HistoryPool[], label: string): TxSpec[] => {
    const txs: TxSpec[] = []
    for (let i = 0; i < chosen.length; i += SWAPS_PER_TX) {
      const calls = chosen.slice(i, i + SWAPS_PER_TX).map((pool) => swapCall(pool))
      txs.push(call(multicall, multicallAbi, "aggregate3", [calls], 100_000n + GAS_PER_SWAP * BigInt(calls.length), `${label} swaps ${i}-${i + calls.length - 1}`))
    }
    return txs
  }

  const currentHead = async () => BigInt(await rpc.call<Hex>("eth_blockNumber"))
  /** fills up to an even share of what is left of the history; `gapsLeft` counts this one */
  const gap = async (gapsLeft: number, realBlocksLeft: number) => {
    const head = await currentHead()
    const room = targetHead - head - BigInt(realBlocksLeft)
    const count = room > 0n ? Number(room / BigInt(gapsLeft)) : 0
    const t = performance.now()
    await appendEmptyBlocks(rpc, count, BigInt(m0.baseFeeFloorWei ?? "1"))
    log(`  ${count} empty blocks in ${Math.round(performance.now() - t)} ms`)
    phase("empty blocks")
  }

  for (let round = 1; round <= rounds; round++) {
    // creations: the providers and the owner funded with what this round's positions and deposits take
    const batch = toCreate.slice(created, created + perRound(toCreate.length, round - 1))
    created += batch.length
    const v3Needs = new Map<string, bigint>()
    const v4Needs = new Map<string, bigint>()
    for (const p of batch) {
      if (p.kind !== "uniswap-v3" && p.kind !== "uniswap-v4") continue
      const needs = p.kind === "uniswap-v3" ? v3Needs : v4Needs
      needs.set(p.token0, (needs.get(p.token0) ?? 0n) + p.amount0)
      needs.set(p.token1, (needs.get(p.token1) ?? 0n) + p.amount1)
    }
    const txs: TxSpec[] = []
    for (const [symbol, amount] of v3Needs) txs.push(fund(symbol, v3ProviderAddress, amount, `round ${round} fund V3LiquidityProvider`)!)
    for (const [symbol, amount] of v4Needs) txs.push(fund(symbol, v4ProviderAddress, amount, `round ${round} fund V4LiquidityProvider`)!)
    const records = batch.map((p) => createPool(p, round))
    for (const r of records) txs.push(...r.txs.filter((tx): tx is TxSpec => tx !== undefined))
    await send(txs)
    const blocks = await mine()
    creationBlocks.push(...blocks)
    for (const r of records) {
      pools.push(r.pool)
      newManifestPools.push(r.manifestPool)
    }
    const answers = await rpc.batch<Hex>(checks.map((c) => c.request))
    answers.forEach((answer, i) => {
      const check = checks[i]!
      if (`0x${answer.slice(-40)}`.toLowerCase() !== check.expected.toLowerCase()) throw new HistoryError(`${check.label}: created at 0x${answer.slice(-40)}, not at ${check.expected}`)
    })
    checks.length = 0
    phase("pools")
    log(`round ${round}/${rounds}: ${batch.length} pools (${pools.length} in all) in block ${blocks.join(", ")}`)
    await gap(2 * (rounds - round) + 2, 2 * (rounds - round) + 1)

    // swaps on the pools created so far
    const swapCount = perRound(options.swaps, round - 1)
    if (swapCount > 0) {
      const chosen = Array.from({ length: swapCount }, () => pick(rng, pools))
      await send(swapBatches(chosen, `round ${round}`))
      await mine()
      swapsMade += swapCount
      phase("swaps")
      log(`round ${round}/${rounds}: ${swapCount} swaps (${swapsMade} in all)`)
    }
    if (round < rounds) await gap(2 * (rounds - round) + 1, 2 * (rounds - round))
  }
  // the head at about fromBlock + blocks
  await gap(1, 0)
  await rpc.call("evm_setAutomine", [true])

  // the manifest with every pool
  const stableVenue = m0.dexes[STABLE_VENUE] as { kind: "curve-stableswap"; pools: readonly string[]; factory?: string }
  manifest = {
    ...m0,
    dexes: { ...m0.dexes, [STABLE_VENUE]: { ...stableVenue, pools: [...stableVenue.pools, ...stablePoolsAdded] } },
    pools: [...m0.pools, ...newManifestPools],
  } satisfies Manifest
  if (options.manifestPath !== undefined) writeManifest(options.manifestPath, manifest)

  const byKind: Record<string, number> = {}
  for (const p of pools) byKind[p.kind] = (byKind[p.kind] ?? 0) + 1
  const headBlock = await currentHead()

  const touchPools = async (count: number): Promise<bigint> => {
    if (!Number.isInteger(count) || count < 1 || count > pools.length) throw new HistoryError(`touchPools: 1 to ${pools.length} pools, got ${count}`)
    // distinct pools at random, so kinds come in the market's own proportions, with at least one of every kind
    const shuffled = shuffle(rng, pools)
    const chosen = shuffled.slice(0, count)
    for (const kind of new Set(pools.map((p) => p.kind))) {
      if (chosen.some((p) => p.kind === kind)) continue
      const candidate = shuffled.slice(count).find((p) => p.kind === kind)
      const perKind = new Map<string, number>()
      for (const p of chosen) perKind.set(p.kind, (perKind.get(p.kind) ?? 0) + 1)
      const replaced = chosen.findIndex((p) => perKind.get(p.kind)! > 1)
      if (candidate !== undefined && replaced >= 0) chosen[replaced] = candidate
    }
    // the executor's fee now: a benchmark may have changed it since the build
    const fee = await readProtocolFee()
    const calls = chosen.map((pool) => swapCall(pool, fee))
    const hash = await rpc.call<Hex>("eth_sendTransaction", [{
      from: owner,
      to: multicall,
      data: encodeFunctionData({ abi: multicallAbi, functionName: "aggregate3", args: [calls] }),
      gas: numberToHex(100_000n + GAS_PER_SWAP * BigInt(calls.length)),
      maxFeePerGas: numberToHex(MAX_FEE_PER_GAS),
      maxPriorityFeePerGas: "0x1",
    }])
    for (let attempt = 0; ; attempt++) {
      const receipt = await rpc.call<RpcReceipt | null>("eth_getTransactionReceipt", [hash])
      if (receipt !== null) {
        if (receipt.status !== "0x1") throw new HistoryError(`touchPools: the swap transaction ${hash} reverted`)
        return BigInt(receipt.blockNumber)
      }
      if (attempt > 500) throw new HistoryError(`touchPools: transaction ${hash} was not mined (is automine off?)`)
      await Bun.sleep(10)
    }
  }

  return {
    devnet: { ...devnet, manifest },
    poolCount: { byKind, total: pools.length },
    pools,
    swapsMade,
    fromBlock,
    headBlock,
    creationBlocks: { first: creationBlocks[0]!, last: creationBlocks[creationBlocks.length - 1]! },
    touchPools,
    stop: devnet.stop,
  }
}

// ---------------------------------------------------------------------------- command line

/** `bun bench/market-history.ts [--pools N] [--blocks N] [--swaps N] [--rounds N] [--manifest FILE] [--keep]`: builds, prints timings, stops (or runs until Ctrl-C with --keep). */
if (import.meta.main) {
  const arg = (name: string, fallback: number) => {
    const i = process.argv.indexOf(`--${name}`)
    return i > 0 ? Number(process.argv[i + 1]) : fallback
  }
  const manifestIndex = process.argv.indexOf("--manifest")
  const fixture = await startHistoryDevnet({
    pools: arg("pools", 2000),
    blocks: arg("blocks", 1_000_000),
    swaps: arg("swaps", 50_000),
    ...(process.argv.includes("--rounds") ? { rounds: arg("rounds", 50) } : {}),
    ...(manifestIndex > 0 ? { manifestPath: process.argv[manifestIndex + 1]! } : {}),
    log: (line) => console.error(line),
  })
  console.log(JSON.stringify({
    rpcUrl: fixture.devnet.node.rpcUrl,
    pools: fixture.poolCount,
    swapsMade: fixture.swapsMade,
    fromBlock: fixture.fromBlock.toString(),
    headBlock: fixture.headBlock.toString(),
    creationBlocks: { first: fixture.creationBlocks.first.toString(), last: fixture.creationBlocks.last.toString() },
    timings: fixture.timings,
  }, null, 2))
  if (process.argv.includes("--keep")) {
    const stop = () => void fixture.stop().then(() => process.exit(0))
    process.on("SIGINT", stop)
    process.on("SIGTERM", stop)
  } else {
    await fixture.stop()
  }
}
