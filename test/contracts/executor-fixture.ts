// Shared set-up for the route executor's devnet tests: the default scenario's devnet, the
// tokens and pools of its manifest as route hops (each Uniswap venue under the id the
// deployment registered it with on the executor), the pools' own quoters, and helpers to send
// execute() or read the error it reverts with.
import { expect } from "bun:test"
import {
  encodeFunctionData,
  getAddress,
  parseAbi,
  zeroAddress,
  type Abi,
  type Address,
  type Hex,
  type TransactionReceipt,
} from "viem"
import { ownArtifact, uniswapArtifact } from "../../src/contracts/artifacts.ts"
import {
  decodeExecutorError,
  encodeExecute,
  executeValue,
  poolToken,
  routeExecutorAbi,
  type ExecuteParams,
  type ExecutorError,
} from "../../src/chain/execute-call.ts"
import { encodeExecuteExactOutput, executeExactOutputValue, type ExactOutputParams } from "../../src/chain/exact-output-call.ts"
import type { Route, RouteHop } from "../../src/chain/route-encoding.ts"
import { testAccounts } from "../../src/devnet/accounts.ts"
import { executorVenueIds, isStablePool, manifestVenue, poolKind, type ManifestPool } from "../../src/devnet/manifest.ts"
import { startTestDevnet, type TestDevnet } from "../support/devnet.ts"

export const USDC: Address = "0x3600000000000000000000000000000000000000"
export const NATIVE: Address = zeroAddress
export const SCALE = 10n ** 12n
export const erc20Abi: Abi = ownArtifact("TestToken").abi
const v2FactoryAbi = parseAbi(["function getPair(address, address) view returns (address)"])
const v2PairAbi = parseAbi(["function getReserves() view returns (uint112, uint112, uint32)", "function token0() view returns (address)"])
export const stablePoolAbi = parseAbi([
  "function coins(uint256) view returns (address)",
  "function get_dy(int128, int128, uint256) view returns (uint256)",
  "function exchange(int128, int128, uint256, uint256) returns (uint256)",
])

export type Client = TestDevnet["client"]

/** Whatever was thrown, the revert data inside it. */
export const revertData = (error: unknown): Hex | undefined => {
  let e: unknown = error
  for (let i = 0; i < 10 && e !== null && typeof e === "object"; i++) {
    const data = (e as { data?: unknown }).data
    if (typeof data === "string" && data.startsWith("0x")) return data as Hex
    if (data !== null && typeof data === "object" && typeof (data as { data?: unknown }).data === "string") {
      return (data as { data: Hex }).data
    }
    e = (e as { cause?: unknown }).cause
  }
  return undefined
}

export interface Fixture {
  readonly devnet: TestDevnet
  readonly client: Client
  readonly executor: Address
  readonly owner: Address
  readonly feeCollector: Address
  readonly token: (symbol: string) => Address
  /** the executor's id of each Uniswap venue of the manifest, by name (uniswap-v2 = 1, uniswap-v3 = 2, uniswap-v4 = 3, …) */
  readonly venueIds: ReadonlyMap<string, number>
  readonly venueId: (name: string) => number
  /** the default venues' contracts */
  readonly dex: { readonly v2Factory: Address; readonly v3Factory: Address; readonly v3Quoter: Address; readonly poolManager: Address; readonly v4Quoter: Address }
  /** a pool of venue `dex` holding tokens a and b (and of that fee) */
  readonly pool: (dex: string, a: string, b: string, fee?: number) => ManifestPool
  readonly hop: (dex: string, tokenIn: string, tokenOut: string, fee?: number) => RouteHop
  /** a hop through `pool` from tokenIn to tokenOut (default: the pool's other token, for a pool of two) */
  readonly hopOf: (pool: ManifestPool, tokenIn: string, tokenOut?: string) => RouteHop
  readonly balance: (token: Address, account: Address) => Promise<bigint>
  readonly native: (account: Address) => Promise<bigint>
  readonly allowance: (token: Address, owner: Address, spender: Address) => Promise<bigint>
  readonly approve: (from: Address, token: Address, amount: bigint, spender?: Address) => Promise<void>
  readonly mint: (symbol: string, to: Address, amount: bigint) => Promise<void>
  readonly send: (from: Address, to: Address, data: Hex, value?: bigint) => Promise<TransactionReceipt>
  readonly execute: (from: Address, params: ExecuteParams, value?: bigint) => Promise<TransactionReceipt>
  /** eth_call of execute from `from`; the executor error it reverts with (fails the test if it succeeds) */
  readonly executeError: (from: Address, params: ExecuteParams, value?: bigint) => Promise<ExecutorError>
  /** eth_call of execute: the amountOut it returns */
  readonly simulate: (from: Address, params: ExecuteParams, value?: bigint) => Promise<bigint>
  readonly executeExactOutput: (from: Address, params: ExactOutputParams, value?: bigint) => Promise<TransactionReceipt>
  /** eth_call of executeExactOutput from `from`; the executor error it reverts with (fails the test if it succeeds) */
  readonly executeExactOutputError: (from: Address, params: ExactOutputParams, value?: bigint) => Promise<ExecutorError>
  /** eth_call of executeExactOutput: the amountIn it returns */
  readonly simulateExactOutput: (from: Address, params: ExactOutputParams, value?: bigint) => Promise<bigint>
  /** eth_call of `data` to the executor from `from`; the executor error it reverts with (fails the test if it succeeds) */
  readonly callError: (from: Address, data: Hex, value?: bigint) => Promise<ExecutorError>
  readonly deploy: (name: string, args?: readonly unknown[]) => Promise<Address>
  readonly ownerWrite: (functionName: string, args: readonly unknown[]) => Promise<TransactionReceipt>
  readonly protocolFeeBps: () => Promise<number>
  readonly deadline: () => Promise<bigint>
  /** what the pool's own quoting says one hop gives for `amount`: V2 reserves with the venue's fee,
   * QuoterV2 / V4Quoter over the venue's factory / PoolManager (deployed on first use), get_dy */
  readonly quoteHop: (hop: RouteHop, amount: bigint) => Promise<bigint>
  /** a route's gross output by quoting each hop in turn (pools must not repeat across the route) */
  readonly quoteRoute: (route: Route, amountIn: bigint) => Promise<bigint>
  readonly stop: () => Promise<void>
}

export const setupFixture = async (): Promise<Fixture> => {
  const devnet = await startTestDevnet()
  const client = devnet.client
  const m = devnet.manifest
  const executor = getAddress(m.executor)
  const owner = getAddress(m.owner.address)

  const token = (symbol: string): Address => {
    const t = m.tokens[symbol]
    if (!t) throw new Error(`no token ${symbol}`)
    return getAddress(t.address)
  }
  const venueIds = executorVenueIds(m)
  const venueId = (name: string): number => {
    const id = venueIds.get(name)
    if (id === undefined) throw new Error(`no executor venue ${name}`)
    return id
  }
  const v3 = manifestVenue(m, "uniswap-v3", "uniswap-v3")
  const v4 = manifestVenue(m, "uniswap-v4", "uniswap-v4")
  const dex = {
    v2Factory: getAddress(manifestVenue(m, "uniswap-v2", "uniswap-v2").factory),
    v3Factory: getAddress(v3.factory),
    v3Quoter: getAddress(v3.quoter!),
    poolManager: getAddress(v4.poolManager),
    v4Quoter: getAddress(v4.quoter!),
  }
  const pool = (name: string, a: string, b: string, fee?: number): ManifestPool => {
    const hit = m.pools.find(
      (p) => p.dex === name && p.tokens.includes(a) && p.tokens.includes(b) && (fee === undefined || p.fee === fee),
    )
    if (!hit) throw new Error(`no ${name} pool ${a}/${b}${fee !== undefined ? ` fee ${fee}` : ""}`)
    return hit
  }
  const hopOf = (p: ManifestPool, tokenIn: string, tokenOut?: string): RouteHop => {
    const out = tokenOut ?? (p.tokens.length === 2 ? (p.tokens[0] === tokenIn ? p.tokens[1]! : p.tokens[0]!) : undefined)
    if (out === undefined) throw new Error(`a hop through ${p.dex}'s ${p.tokens.join("/")} needs its tokenOut`)
    const base = { tokenIn: token(tokenIn), tokenOut: token(out) }
    if (isStablePool(p)) return { kind: "stable", ...base, pool: getAddress(p.pool) }
    const kind = poolKind(m, p)
    if (kind === "uniswap-v2") return { kind: "v2", ...base, venue: venueId(p.dex) }
    if (kind === "uniswap-v3") return { kind: "v3", ...base, venue: venueId(p.dex), fee: p.fee! }
    return { kind: "v4", ...base, venue: venueId(p.dex), fee: p.fee!, tickSpacing: p.tickSpacing!, hooks: getAddress(p.hooks ?? zeroAddress) }
  }
  const hop = (name: string, tokenIn: string, tokenOut: string, fee?: number) =>
    hopOf(pool(name, tokenIn, tokenOut, fee), tokenIn, tokenOut)

  const balance = async (t: Address, account: Address) =>
    (await client.readContract({ address: t, abi: erc20Abi, functionName: "balanceOf", args: [account] })) as bigint
  const native = (account: Address) => client.getBalance({ address: account })
  const allowance = async (t: Address, o: Address, spender: Address) =>
    (await client.readContract({ address: t, abi: erc20Abi, functionName: "allowance", args: [o, spender] })) as bigint

  const send = async (from: Address, to: Address, data: Hex, value = 0n): Promise<TransactionReceipt> => {
    // an explicit limit: the node's estimate can fall short when the mined block's timestamp
    // makes V3 pools write an oracle observation the estimate did not
    const hash = await client.sendTransaction({ account: from, to, data, value, gas: 6_000_000n, chain: client.chain })
    return client.waitForTransactionReceipt({ hash, pollingInterval: 20 })
  }
  const approve = async (from: Address, t: Address, amount: bigint, spender: Address = executor) => {
    const r = await send(from, t, encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [spender, amount] }))
    expect(r.status).toBe("success")
  }
  const mint = async (symbol: string, to: Address, amount: bigint) => {
    const r = await send(owner, token(symbol), encodeFunctionData({ abi: erc20Abi, functionName: "mint", args: [to, amount] }))
    expect(r.status).toBe("success")
  }
  const execute = (from: Address, params: ExecuteParams, value = executeValue(params)) =>
    send(from, executor, encodeExecute(params), value)
  const callError = async (from: Address, calldata: Hex, value = 0n): Promise<ExecutorError> => {
    try {
      await client.call({ account: from, to: executor, data: calldata, value })
    } catch (error) {
      const data = revertData(error)
      const decoded = data !== undefined ? decodeExecutorError(data) : undefined
      if (!decoded) throw new Error(`the call reverted without an executor error: ${data ?? String(error)}`)
      return decoded
    }
    throw new Error("the call did not revert")
  }
  const executeError = (from: Address, params: ExecuteParams, value = executeValue(params)): Promise<ExecutorError> =>
    callError(from, encodeExecute(params), value)
  const executeExactOutput = (from: Address, params: ExactOutputParams, value = executeExactOutputValue(params)) =>
    send(from, executor, encodeExecuteExactOutput(params), value)
  const executeExactOutputError = (from: Address, params: ExactOutputParams, value = executeExactOutputValue(params)) =>
    callError(from, encodeExecuteExactOutput(params), value)
  const simulateExactOutput = async (from: Address, params: ExactOutputParams, value = executeExactOutputValue(params)) => {
    const { data } = await client.call({ account: from, to: executor, data: encodeExecuteExactOutput(params), value })
    return BigInt(data!)
  }
  const simulate = async (from: Address, params: ExecuteParams, value = executeValue(params)) => {
    const { data } = await client.call({ account: from, to: executor, data: encodeExecute(params), value })
    return BigInt(data!)
  }
  const deploy = async (name: string, args: readonly unknown[] = []) => {
    const artifact = ownArtifact(name)
    const hash = await client.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode, args, account: owner, chain: client.chain })
    const r = await client.waitForTransactionReceipt({ hash, pollingInterval: 20 })
    if (r.status !== "success" || !r.contractAddress) throw new Error(`deploying ${name} failed`)
    return getAddress(r.contractAddress)
  }
  const ownerWrite = (functionName: string, args: readonly unknown[]) =>
    send(owner, executor, encodeFunctionData({ abi: routeExecutorAbi, functionName, args }))
  const protocolFeeBps = async () =>
    Number(await client.readContract({ address: executor, abi: routeExecutorAbi, functionName: "protocolFeeBps" }))
  const deadline = async () => (await client.getBlock()).timestamp + 3600n

  const quoterV2 = uniswapArtifact("QuoterV2")
  const v4Quoter = uniswapArtifact("V4Quoter")
  const readVenue = async (id: number) => {
    const [kind, factory, , feeBps] = (await client.readContract({ address: executor, abi: routeExecutorAbi, functionName: "venue", args: [id] })) as readonly [number, Address, Hex, number]
    return { kind, factory, feeBps }
  }
  // a quoter over each factory / PoolManager: the manifest's for the default venues, else deployed on first use
  const quoters = new Map<Address, Promise<Address>>([
    [dex.v3Factory, Promise.resolve(dex.v3Quoter)],
    [dex.poolManager, Promise.resolve(dex.v4Quoter)],
  ])
  const quoterOf = (factory: Address, kind: "v3" | "v4"): Promise<Address> => {
    const known = quoters.get(factory)
    if (known) return known
    const created = kind === "v3" ? deployArtifact(quoterV2, [factory, USDC]) : deployArtifact(v4Quoter, [factory])
    quoters.set(factory, created)
    return created
  }
  const deployArtifact = async (artifact: { abi: Abi; bytecode: Hex }, args: readonly unknown[]) => {
    const hash = await client.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode, args, account: owner, chain: client.chain })
    const r = await client.waitForTransactionReceipt({ hash, pollingInterval: 20 })
    if (r.status !== "success" || !r.contractAddress) throw new Error("deploying a quoter failed")
    return getAddress(r.contractAddress)
  }
  const stableIndex = async (p: Address, t: Address) =>
    Number(await client.readContract({ address: executor, abi: routeExecutorAbi, functionName: "stableCoinIndex", args: [p, t] }))
  const quoteHop = async (h: RouteHop, amount: bigint): Promise<bigint> => {
    const tokenIn = poolToken(h.tokenIn)
    switch (h.kind) {
      case "v2": {
        // UniswapV2Library.getAmountOut over the pair's reserves, with the venue's fee
        const { factory, feeBps } = await readVenue(h.venue)
        const pair = (await client.readContract({ address: factory, abi: v2FactoryAbi, functionName: "getPair", args: [tokenIn, h.tokenOut] })) as Address
        const [r0, r1] = (await client.readContract({ address: pair, abi: v2PairAbi, functionName: "getReserves" })) as readonly [bigint, bigint, number]
        const zeroForOne = tokenIn.toLowerCase() < h.tokenOut.toLowerCase()
        const [reserveIn, reserveOut] = zeroForOne ? [r0, r1] : [r1, r0]
        const withFee = amount * (10_000n - BigInt(feeBps))
        return (withFee * reserveOut) / (reserveIn * 10_000n + withFee)
      }
      case "v3": {
        const { result } = await client.simulateContract({
          address: await quoterOf((await readVenue(h.venue)).factory, "v3"),
          abi: quoterV2.abi,
          functionName: "quoteExactInputSingle",
          args: [{ tokenIn, tokenOut: h.tokenOut, amountIn: amount, fee: h.fee, sqrtPriceLimitX96: 0n }],
        })
        return (result as readonly bigint[])[0]!
      }
      case "v4": {
        const zeroForOne = tokenIn.toLowerCase() < h.tokenOut.toLowerCase()
        const [currency0, currency1] = zeroForOne ? [tokenIn, h.tokenOut] : [h.tokenOut, tokenIn]
        const { result } = await client.simulateContract({
          address: await quoterOf((await readVenue(h.venue)).factory, "v4"),
          abi: v4Quoter.abi,
          functionName: "quoteExactInputSingle",
          args: [{ poolKey: { currency0, currency1, fee: h.fee, tickSpacing: h.tickSpacing, hooks: h.hooks }, zeroForOne, exactAmount: amount, hookData: "0x" }],
        })
        return (result as readonly bigint[])[0]!
      }
      case "stable":
      case "stableExactOutput": {
        // the pool's own get_dy, with the coin indices the executor registered
        const [i, j] = [await stableIndex(h.pool, tokenIn), await stableIndex(h.pool, h.tokenOut)]
        if (i === 0 || j === 0) throw new Error(`the executor does not know ${h.pool} for these tokens`)
        return (await client.readContract({ address: h.pool, abi: stablePoolAbi, functionName: "get_dy", args: [BigInt(i - 1), BigInt(j - 1), amount] })) as bigint
      }
      case "external":
      case "externalExactOutput":
        throw new Error("external hops have no pool quote")
    }
  }
  const quoteRoute = async (route: Route, amountIn: bigint): Promise<bigint> => {
    let gross = 0n
    let left = amountIn
    for (const [i, split] of route.entries()) {
      let amount = i === route.length - 1 ? left : (amountIn * BigInt(split.shareBps)) / 10_000n
      left -= amount
      for (const h of split.hops) amount = await quoteHop(h, amount)
      gross += amount
    }
    return gross
  }

  return {
    devnet,
    client,
    executor,
    owner,
    feeCollector: getAddress(m.feeCollector),
    token,
    venueIds,
    venueId,
    dex,
    pool,
    hop,
    hopOf,
    balance,
    native,
    allowance,
    approve,
    mint,
    send,
    execute,
    executeError,
    simulate,
    executeExactOutput,
    executeExactOutputError,
    simulateExactOutput,
    callError,
    deploy,
    ownerWrite,
    protocolFeeBps,
    deadline,
    quoteHop,
    quoteRoute,
    stop: () => devnet.stop(),
  }
}

/** The scenario's funded users (accounts 0..3). */
export const users = testAccounts.slice(0, 4).map((a) => getAddress(a.address))

/** protocolAmount, partnerAmount and amountOut from a gross output, as the spec's formulas say. */
export const splitFees = (gross: bigint, protocolBps: number, feeBps: number) => {
  const protocolAmount = (gross * BigInt(protocolBps)) / 10_000n
  const partnerAmount = (gross * BigInt(feeBps)) / 10_000n
  return { protocolAmount, partnerAmount, amountOut: gross - protocolAmount - partnerAmount }
}

/** A fresh address that has never held anything. */
export const freshAddress = (seed: number): Address =>
  getAddress(`0x${(0xa11ce000n + BigInt(seed)).toString(16).padStart(40, "0")}`)
