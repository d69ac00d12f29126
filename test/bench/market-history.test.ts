// The history fixture of the market-readiness benchmark (bench/market-history/), built small:
// 60 pools over 20,000 blocks with 300 swaps. Everything is checked with chain reads: the
// factories' own counts, the creation and swap logs eth_getLogs finds over the history, the
// empty blocks between the rounds (chained by parent hash), and touchPools' one block.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import { getAddress, keccak256, toHex, type Abi, type Address, type Hex } from "viem"
import { uniswapArtifact, ownArtifact } from "../../src/contracts/index.ts"
import { devnetClient, executorVenueIds, type DevnetClient } from "../../src/devnet/index.ts"
import { poolSplit, realHeaderHash, startHistoryDevnet, type HistoryDevnet } from "../../bench/market-history/index.ts"

const POOLS = 60
const BLOCKS = 20_000
const SWAPS = 300

const topic = (signature: string): Hex => keccak256(toHex(signature))
const PAIR_CREATED = topic("PairCreated(address,address,address,uint256)")
const POOL_CREATED = topic("PoolCreated(address,address,uint24,int24,address)")
const V4_INITIALIZE = topic("Initialize(bytes32,address,address,uint24,int24,address,uint160,int24)")
const PLAIN_POOL_DEPLOYED = topic("PlainPoolDeployed(address[4],uint256,uint256,address)")
const STABLE_POOL_SET = topic("StablePoolSet(address,bool)")
const V2_SWAP = topic("Swap(address,uint256,uint256,uint256,uint256,address)")
const V2_SYNC = topic("Sync(uint112,uint112)")
const V3_SWAP = topic("Swap(address,address,int256,int256,uint160,uint128,int24)")
const V4_SWAP = topic("Swap(bytes32,address,int128,int128,uint160,uint128,int24,uint24)")
const TOKEN_EXCHANGE = topic("TokenExchange(address,int128,uint256,int128,uint256)")
const POOL_SWAPS = [V2_SWAP, V3_SWAP, V4_SWAP, TOKEN_EXCHANGE]

interface Log {
  readonly address: Address
  readonly topics: readonly Hex[]
  readonly data: Hex
  readonly blockNumber: Hex
  readonly transactionHash: Hex
}
interface Block {
  readonly number: Hex
  readonly hash: Hex
  readonly parentHash: Hex
  readonly timestamp: Hex
  readonly transactions: readonly Hex[]
}

let fixture: HistoryDevnet
let client: DevnetClient
let buildMs = 0

const rpc = <T>(method: string, params: unknown[]): Promise<T> => client.request({ method: method as never, params: params as never }) as Promise<T>
const logs = (filter: { address?: Address | Address[]; topics: Array<Hex | Hex[] | null> }, from = fixture.fromBlock, to = fixture.headBlock) =>
  rpc<Log[]>("eth_getLogs", [{ ...filter, fromBlock: toHex(from), toBlock: toHex(to) }])
const block = (n: bigint) => rpc<Block | null>("eth_getBlockByNumber", [toHex(n), false])
const read = async (address: Address, abi: Abi, functionName: string, args: readonly unknown[] = []) =>
  client.readContract({ address, abi, functionName, args })
const venuesOf = (kind: string) => Object.entries(fixture.devnet.manifest.dexes).filter(([, v]) => v.kind === kind)
const poolsOf = (dex: string) => fixture.pools.filter((p) => p.dex === dex)

beforeAll(async () => {
  const started = performance.now()
  fixture = await startHistoryDevnet({ pools: POOLS, blocks: BLOCKS, swaps: SWAPS })
  buildMs = performance.now() - started
  client = devnetClient(fixture.devnet.node.rpcUrl)
}, 180_000)

afterAll(async () => {
  const pid = fixture?.devnet.node.pid
  await fixture?.stop()
  // the node is gone with the fixture
  if (pid) expect(() => process.kill(pid, 0)).toThrow()
})

describe("the fixture", () => {
  test("has the pools asked for, on every kind of venue, and every swap", () => {
    const split = poolSplit(POOLS)
    expect(fixture.poolCount.total).toBe(POOLS)
    expect(fixture.pools.length).toBe(POOLS)
    expect(fixture.poolCount.byKind["curve-stableswap"]).toBe(split.stable)
    for (const kind of ["uniswap-v2", "uniswap-v3", "uniswap-v4", "curve-stableswap"]) expect(fixture.poolCount.byKind[kind]).toBeGreaterThan(0)
    // two venues of V2 and of V3, each with pools
    for (const kind of ["uniswap-v2", "uniswap-v3"]) {
      expect(venuesOf(kind).length).toBe(2)
      for (const [name] of venuesOf(kind)) expect(poolsOf(name).length).toBeGreaterThan(0)
    }
    expect(fixture.swapsMade).toBe(SWAPS)
    expect(fixture.devnet.manifest.pools.length).toBe(POOLS)
    console.log(`small history fixture built in ${Math.round(buildMs)} ms: ${JSON.stringify(fixture.timings)}`)
  })

  test("spans about `blocks` blocks from fromBlock, the head near the wall clock", async () => {
    const head = BigInt(await client.getBlockNumber())
    expect(head).toBe(fixture.headBlock)
    const span = Number(head - fixture.fromBlock)
    expect(span).toBeGreaterThan(BLOCKS * 0.99)
    expect(span).toBeLessThan(BLOCKS * 1.01)
    const latest = (await block(head))!
    expect(Number(BigInt(latest.timestamp))).toBeLessThan(Date.now() / 1000 + 60)
  })

  test("fromBlock is the block before the first venue contract", async () => {
    const venueContracts = new Set(
      Object.values(fixture.devnet.manifest.dexes).map((v) => ("poolManager" in v ? v.poolManager : v.factory!).toLowerCase()),
    )
    const deployed = async (n: bigint) => {
      const receipts = await rpc<Array<{ contractAddress: Hex | null }>>("eth_getBlockReceipts", [toHex(n)])
      return receipts.some((r) => r.contractAddress !== null && venueContracts.has(r.contractAddress.toLowerCase()))
    }
    expect(await deployed(fixture.fromBlock + 1n)).toBe(true)
    for (let n = 1n; n <= fixture.fromBlock; n++) expect(await deployed(n)).toBe(false)
  })
})

describe("pools, read from the chain", () => {
  test("each V2 factory's allPairsLength is the pools created on that venue", async () => {
    const abi = uniswapArtifact("UniswapV2Factory").abi
    for (const [name, venue] of venuesOf("uniswap-v2")) {
      const factory = getAddress((venue as { factory: string }).factory)
      expect(await read(factory, abi, "allPairsLength")).toBe(BigInt(poolsOf(name).length))
      const created = await logs({ address: factory, topics: [PAIR_CREATED] })
      expect(created.length).toBe(poolsOf(name).length)
      // each pair holds reserves
      const pairAbi = uniswapArtifact("UniswapV2Pair").abi
      for (const pool of poolsOf(name).slice(0, 5)) {
        const [r0, r1] = (await read(getAddress(pool.pool), pairAbi, "getReserves")) as [bigint, bigint, number]
        expect(r0 > 0n && r1 > 0n).toBe(true)
      }
    }
  })

  test("eth_getLogs over the history finds one PoolCreated per V3 pool and one Initialize per V4 pool", async () => {
    for (const [name, venue] of venuesOf("uniswap-v3")) {
      const created = await logs({ address: getAddress((venue as { factory: string }).factory), topics: [POOL_CREATED] })
      expect(created.length).toBe(poolsOf(name).length)
      // PoolCreated's data: tickSpacing, then the pool
      expect(new Set(created.map((l) => getAddress(`0x${l.data.slice(-40)}`)))).toEqual(
        new Set(poolsOf(name).map((p) => getAddress(p.pool))),
      )
    }
    const [[, v4]] = venuesOf("uniswap-v4") as unknown as [[string, { poolManager: string }]]
    const initialized = await logs({ address: getAddress(v4.poolManager), topics: [V4_INITIALIZE] })
    expect(initialized.length).toBe(poolsOf("uniswap-v4").length)
    expect(new Set(initialized.map((l) => l.topics[1]))).toEqual(new Set(poolsOf("uniswap-v4").map((p) => p.pool)))
    // every position holds liquidity
    const v3PoolAbi = uniswapArtifact("UniswapV3Pool").abi
    for (const pool of fixture.pools.filter((p) => p.kind === "uniswap-v3").slice(0, 5)) {
      expect((await read(getAddress(pool.pool), v3PoolAbi, "liquidity")) as bigint).toBeGreaterThan(0n)
    }
  })

  test("every stable pool is deployed by the venue's factory and registered on the executor", async () => {
    const stable = fixture.pools.filter((p) => p.kind === "curve-stableswap")
    const [[name, venue]] = venuesOf("curve-stableswap") as unknown as [[string, { factory: string; pools: readonly string[] }]]
    const factory = getAddress(venue.factory)
    expect(await read(factory, ownArtifact("StableSwapFactory").abi, "pool_count")).toBe(BigInt(stable.length))
    expect((await logs({ address: factory, topics: [PLAIN_POOL_DEPLOYED] })).length).toBe(stable.length)
    expect(new Set(venue.pools.map((p) => getAddress(p)))).toEqual(new Set(stable.map((p) => getAddress(p.pool))))
    expect(stable.every((p) => p.dex === name)).toBe(true)
    const registered = await logs({ address: getAddress(fixture.devnet.manifest.executor), topics: [STABLE_POOL_SET] }, 0n)
    expect(new Set(registered.map((l) => getAddress(`0x${l.topics[1]!.slice(-40)}`)))).toEqual(new Set(stable.map((p) => getAddress(p.pool))))
    // the executor knows every Uniswap venue
    expect([...executorVenueIds(fixture.devnet.manifest).keys()].sort()).toEqual(["arcade-v2", "synthra-v3", "uniswap-v2", "uniswap-v3", "uniswap-v4"])
  })

  test("creations are spread over the history, from its first rounds to its last", async () => {
    const emitters = Object.values(fixture.devnet.manifest.dexes).map((v) => getAddress("poolManager" in v ? v.poolManager : v.factory!))
    const created = await logs({ address: emitters, topics: [[PAIR_CREATED, POOL_CREATED, V4_INITIALIZE, PLAIN_POOL_DEPLOYED]] })
    expect(created.length).toBe(POOLS)
    const blocks = created.map((l) => BigInt(l.blockNumber))
    const first = blocks.reduce((a, b) => (a < b ? a : b))
    const last = blocks.reduce((a, b) => (a > b ? a : b))
    expect(Number(last - first)).toBeGreaterThan(BLOCKS * 0.7)
    expect(new Set(blocks).size).toBeGreaterThanOrEqual(4)
    expect(fixture.creationBlocks.last).toBe(last)
    // nothing is created before fromBlock
    expect(first).toBeGreaterThan(fixture.fromBlock)
  })
})

describe("swaps, read from the chain", () => {
  test("the pools' Swap and TokenExchange events over the history are exactly swapsMade, on every kind, spread over the history", async () => {
    const swaps = await logs({ topics: [POOL_SWAPS] })
    expect(swaps.length).toBe(fixture.swapsMade)
    const byTopic = new Map<Hex, number>()
    for (const l of swaps) byTopic.set(l.topics[0]!, (byTopic.get(l.topics[0]!) ?? 0) + 1)
    for (const t of [V2_SWAP, V3_SWAP, V4_SWAP]) expect(byTopic.get(t) ?? 0).toBeGreaterThan(0)
    const blocks = [...new Set(swaps.map((l) => BigInt(l.blockNumber)))].sort((a, b) => (a < b ? -1 : 1))
    expect(blocks.length).toBeGreaterThanOrEqual(4)
    expect(Number(blocks[blocks.length - 1]! - blocks[0]!)).toBeGreaterThan(BLOCKS * 0.6)
    // the executor's own Swap event, one per execute(), agrees
    const executorSwaps = await logs({
      address: getAddress(fixture.devnet.manifest.executor),
      topics: [topic("Swap(address,address,address,address,uint256,uint256,uint256,uint256)")],
    })
    expect(executorSwaps.length).toBe(fixture.swapsMade)
  })
})

describe("the empty blocks between rounds", () => {
  test("exist, are empty, carry no logs, and chain by parent hash into the mined blocks", async () => {
    const { first, last } = fixture.creationBlocks
    // around the first round's block and in the middle of the history
    const samples = [first - 1n, first, first + 1n, first + 2n, (first + last) / 2n, (first + last) / 2n + 1n, last, last + 1n, fixture.headBlock]
    for (const n of samples) {
      const [b, parent] = await Promise.all([block(n), block(n - 1n)])
      expect(b).not.toBeNull()
      expect(b!.parentHash).toBe(parent!.hash)
      expect(BigInt(b!.timestamp) >= BigInt(parent!.timestamp)).toBe(true)
    }
    // the stretch after the first round's creations, before its swaps: no transaction, no log
    for (const n of [first + 1n, first + 50n, first + 100n]) expect((await block(n))!.transactions.length).toBe(0)
    expect(await logs({ topics: [] }, first + 1n, first + 100n)).toEqual([])
    // a whole stretch of the history, walked back by parent hash
    let hash: Hex = (await block(first + 200n))!.hash
    for (let n = first + 200n; n > first + 100n; n--) {
      const b = (await rpc<Block>("eth_getBlockByHash", [hash, false]))!
      expect(BigInt(b.number)).toBe(n)
      hash = b.parentHash
    }
  })

  test("a mined block's header hashes as the fixture hashes filler headers", async () => {
    const b = await rpc<Parameters<typeof realHeaderHash>[0]>("eth_getBlockByNumber", [toHex(fixture.creationBlocks.first), false])
    expect(realHeaderHash(b)).toBe(b.hash)
  })
})

describe("touchPools", () => {
  test("swaps on n distinct pools of mixed kinds in one transaction, in one block", async () => {
    const n = 24
    const poolManager = getAddress((venuesOf("uniswap-v4")[0]![1] as { poolManager: string }).poolManager)
    const blockNumber = await fixture.touchPools(n)
    expect(blockNumber).toBe(BigInt(await client.getBlockNumber()))
    const b = (await block(blockNumber))!
    expect(b.transactions.length).toBe(1)
    const touched = await logs({ topics: [[...POOL_SWAPS, V2_SYNC]] }, blockNumber, blockNumber)
    // V4 pools are named by their id, the PoolManager emitting for all of them
    const poolOf = (l: Log) => (getAddress(l.address) === poolManager ? l.topics[1]! : getAddress(l.address))
    const swapped = new Set(touched.filter((l) => POOL_SWAPS.includes(l.topics[0]!)).map(poolOf))
    expect(swapped.size).toBe(n)
    const known = new Set(fixture.pools.map((p) => (p.kind === "uniswap-v4" ? p.pool : getAddress(p.pool))))
    for (const pool of swapped) expect(known.has(pool)).toBe(true)
    const kinds = new Set(fixture.pools.filter((p) => swapped.has(p.kind === "uniswap-v4" ? p.pool : getAddress(p.pool))).map((p) => p.kind))
    expect(kinds.size).toBe(4)
    // every V2 pair touched also synced
    const v2Swapped = new Set(touched.filter((l) => l.topics[0] === V2_SWAP).map(poolOf))
    const v2Synced = new Set(touched.filter((l) => l.topics[0] === V2_SYNC).map(poolOf))
    expect(v2Synced).toEqual(v2Swapped)
    // and again, on other random pools
    const again = await fixture.touchPools(n)
    expect(again).toBe(blockNumber + 1n)
  })

  test("sendTouch: the block as soon as the transaction is mined, and the receipt's check afterwards", async () => {
    const { block: blockNumber, confirmed } = await fixture.sendTouch(8)
    expect(blockNumber).toBe(BigInt(await client.getBlockNumber()))
    const b = (await block(blockNumber))!
    expect(b.transactions.length).toBe(1)
    await confirmed()
    const receipt = await client.getTransactionReceipt({ hash: b.transactions[0] as Hex })
    expect(receipt.status).toBe("success")
    expect(receipt.blockNumber).toBe(blockNumber)
  })

  test("refuses more pools than there are", async () => {
    await expect(fixture.touchPools(POOLS + 1)).rejects.toThrow(/touchPools/)
    await expect(fixture.touchPools(0)).rejects.toThrow(/touchPools/)
  })
})
