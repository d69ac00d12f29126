// The build of the history fixture (see index.ts for what it is). startDevnet runs a scenario
// planned here with the venues, the tokens, a few price feeds and one stable pool (a stable venue
// needs one); the executor registers every venue. Then, with automine off, the owner sets up
// (liquidity providers it owns, Multicall3 holding every token and approving the executor) and
// creates the rest of the pools in rounds, each round's transactions mined into one block (or a
// few), every predicted pool address checked against its factory; swaps follow each round, and
// empty blocks fill the history between them up to about `blocks` blocks.
import { encodeAbiParameters, encodeFunctionData, getAddress, getContractAddress, maxUint256, numberToHex, type Address, type Hex } from "viem"
import {
  executorVenueIds,
  parseScenario,
  planScenario,
  startDevnet,
  writeManifest,
  type Manifest,
  type ManifestPool,
  type RunningDevnet,
} from "../../src/devnet/index.ts"
import { appendEmptyBlocks } from "./empty-blocks.ts"
import { HISTORY_BLOCK_GAS_LIMIT, HistoryError, type HistoryDevnet, type HistoryOptions, type HistoryPool } from "./fixture.ts"
import { buildUniverse, STABLE_VENUE, type Universe } from "./plan.ts"
import { poolCreator } from "./pool-creation.ts"
import { pick, prng, type Rng } from "./random.ts"
import { rpcClient, type RpcReceipt } from "./rpc-batch.ts"
import { swapper } from "./swaps.ts"
import { poolToucher } from "./touch-pools.ts"
import {
  contractCall,
  erc20Abi,
  executorAbi,
  fundTransaction,
  multicallAbi,
  owner,
  stableFactoryAbi,
  transactionQueue,
  v3Provider,
  v4Provider,
  type TxSpec,
} from "./transactions.ts"

/** Builds the history fixture; see index.ts for what it is. */
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
  const firstNonce = BigInt(await rpc.call<Hex>("eth_getTransactionCount", [owner, "pending"]))
  const { send, mine } = transactionQueue(rpc, firstNonce)
  const fund = fundTransaction(tokenAddress)

  // setup: liquidity providers the owner holds, Multicall3 holding every token and approving the executor
  const v3ProviderAddress = getContractAddress({ from: owner, nonce: firstNonce })
  const v4ProviderAddress = getContractAddress({ from: owner, nonce: firstNonce + 1n })
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
    contractCall(multicall, multicallAbi, "aggregate3", [
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
  const stablePoolCount = BigInt(
    await rpc.call<Hex>("eth_call", [{ to: stableFactory, data: encodeFunctionData({ abi: stableFactoryAbi, functionName: "pool_count" }) }, "latest"]),
  )
  const { createPool, checks, stablePoolsAdded } = poolCreator({
    tokenAddress, factoryOf, fund, poolManager, stableFactory, executor, v3ProviderAddress, v4ProviderAddress, stablePoolCount,
  })
  const { swapCall, swapBatches } = swapper({ rng, tokenAddress, priceOf, venueIds, executor, multicall, protocolFeeBps })

  const rounds = Math.max(1, options.rounds ?? Math.min(100, Math.max(4, Math.ceil(options.pools / 40))))
  const toCreate = plan.pools.slice(1)
  const perRound = (total: number, r: number) => Math.floor(total / rounds) + (r < total % rounds ? 1 : 0)
  let created = 0
  let swapsMade = 0
  const creationBlocks: bigint[] = []

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

  const { touchPools, sendTouch } = poolToucher({ rpc, rng, pools, multicall, swapCall, readProtocolFee })

  return {
    devnet: { ...devnet, manifest },
    poolCount: { byKind, total: pools.length },
    pools,
    swapsMade,
    fromBlock,
    headBlock,
    creationBlocks: { first: creationBlocks[0]!, last: creationBlocks[creationBlocks.length - 1]! },
    touchPools,
    sendTouch,
    stop: devnet.stop,
  }
}
