// Builds a scenario on a fresh node: Arc's USDC, the scenario's tokens, price
// feeds, every venue as a deployment of its own (a UniswapV2Factory, a
// UniswapV3Factory, a PoolManager with its StateView, from their npm artifacts;
// or the devnet's StableSwapFactory and its StableSwapPools) with the scenario's pools and
// positions, the route executor with every venue and stable pool registered,
// and the funded accounts.
import {
  encodeAbiParameters,
  getAddress,
  getContractAddress,
  keccak256,
  TransactionReceiptNotFoundError,
  zeroAddress,
  type Abi,
  type Address,
  type Hash,
  type Hex,
} from "viem"
import { ownArtifact, uniswapArtifact, type ContractArtifact } from "../contracts/index.ts"
import { FEE_COLLECTOR_INDEX, OWNER_INDEX, testAccounts } from "./accounts.ts"
import type { DevnetClient } from "./clients.ts"
import { deployRouteExecutor, registerVenues, UNISWAP_V2_FEE_BPS, type ExecutorVenue } from "./executor.ts"
import { executorVenueIds, type Manifest, type ManifestPairPool, type ManifestPool, type ManifestVenue, type ManifestVenueOf } from "./manifest.ts"
import {
  NATIVE_DECIMALS,
  PRICE_FEED_DECIMALS,
  USDC_DECIMALS,
  USDC_SYMBOL,
  type PlannedConcentratedPool,
  type PlannedPool,
  type ScenarioPlan,
} from "./scenario.ts"
import { DEFAULT_VENUES as DEFAULT_VENUE_NAMES } from "./scenario-schema.ts"
import { installArcUsdc, PERMIT_VERSION, USDC_ADDRESS, USDC_PERMIT_DOMAIN, USDC_SCALE } from "./usdc.ts"

export const INITIAL_PROTOCOL_FEE_BPS = 25
export const NATIVE_PLACEHOLDER: Address = zeroAddress
/** SwapRouter's WETH9: an address holding no contract and no pool token */
const NO_WETH9: Address = "0x000000000000000000000000000000000000dEaD"

/** StableSwapPool's ABI with the one add_liquidity overload of an n-coin pool (uint256[n]). */
const addLiquidityAbi = (abi: Abi, coins: number): Abi =>
  abi.filter(
    (item) => item.type === "function" && item.name === "add_liquidity" && item.inputs[0]?.type === `uint256[${coins}]`,
  )

export class DeployError extends Error {
  override readonly name = "DeployError"
}

const owner = testAccounts[OWNER_INDEX]!
const feeCollector = testAccounts[FEE_COLLECTOR_INDEX]!

/** The token contracts the scenario's tokens get, in order, from the owner's first nonces. */
export const plannedTokenAddresses = (symbols: readonly string[]): Map<string, Address> =>
  new Map(symbols.map((symbol, nonce) => [symbol, getContractAddress({ from: owner.address, nonce: BigInt(nonce) })]))

export const v4PoolId = (key: V4PoolKey): Hex =>
  keccak256(
    encodeAbiParameters(
      [{ type: "address" }, { type: "address" }, { type: "uint24" }, { type: "int24" }, { type: "address" }],
      [key.currency0, key.currency1, key.fee, key.tickSpacing, key.hooks],
    ),
  )

export interface V4PoolKey {
  readonly currency0: Address
  readonly currency1: Address
  readonly fee: number
  readonly tickSpacing: number
  readonly hooks: Address
}

/** The receipt of a transaction the node mines on arrival; polled briefly, since mining finishes just after the hash returns. */
const receiptOf = async (client: DevnetClient, hash: Hash) => {
  for (let attempt = 0; ; attempt++) {
    try {
      return await client.getTransactionReceipt({ hash })
    } catch (e) {
      if (!(e instanceof TransactionReceiptNotFoundError) || attempt >= 2000) throw e
      await Bun.sleep(1)
    }
  }
}

/** Deploys a plan on a node that has had nothing deployed from the owner account. */
export const deployScenario = async (client: DevnetClient, plan: ScenarioPlan, rpcUrl: string): Promise<Manifest> => {
  const from = owner.address
  const mined = async (label: string, hash: Hash) => {
    const receipt = await receiptOf(client, hash)
    if (receipt.status !== "success") throw new DeployError(`${label}: transaction reverted`)
    return receipt
  }
  const deploy = async (label: string, artifact: ContractArtifact, args: readonly unknown[] = []): Promise<Address> => {
    const hash = await client.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode, args, account: from, chain: client.chain })
    const receipt = await mined(label, hash)
    if (!receipt.contractAddress) throw new DeployError(`${label}: no contract created`)
    return getAddress(receipt.contractAddress)
  }
  // Estimates run against the pending block; a V3 pool writes an oracle observation only in a new
  // second, so a mint mined a second later can need more gas than estimated: give it room.
  const write = async (label: string, address: Address, abi: Abi, functionName: string, args: readonly unknown[]) => {
    const estimate = await client.estimateContractGas({ address, abi, functionName, args, account: from })
    const gas = estimate + estimate / 4n + 50_000n
    return mined(label, await client.writeContract({ address, abi, functionName, args, account: from, chain: client.chain, gas }))
  }
  const read = (address: Address, abi: Abi, functionName: string, args: readonly unknown[] = []) =>
    client.readContract({ address, abi, functionName, args })

  if ((await client.getTransactionCount({ address: from })) !== 0) {
    throw new DeployError(`the owner account ${from} has sent transactions already: deploy on a fresh node`)
  }

  // Arc's USDC; the owner pays for everything in native USDC
  await installArcUsdc(client)
  await client.setBalance({ address: from, value: 10n ** 15n * 10n ** BigInt(NATIVE_DECIMALS) })

  // tokens first, at the addresses the plan already ordered its pools by
  const expected = plannedTokenAddresses(plan.tokens.map((t) => t.symbol))
  const addresses = new Map<string, Address>([[USDC_SYMBOL, USDC_ADDRESS]])
  const tokenArtifact = { standard: ownArtifact("TestToken"), "fee-on-transfer": ownArtifact("FeeOnTransferToken"), rebasing: ownArtifact("RebasingToken") }
  const permitTokenArtifact = ownArtifact("PermitToken")
  for (const token of plan.tokens) {
    const args = token.behavior === "fee-on-transfer"
      ? [token.symbol, token.symbol, token.decimals, token.feeBps]
      : [token.symbol, token.symbol, token.decimals]
    const address = await deploy(`token ${token.symbol}`, token.permit ? permitTokenArtifact : tokenArtifact[token.behavior], args)
    if (address.toLowerCase() !== expected.get(token.symbol)!.toLowerCase()) {
      throw new DeployError(`token ${token.symbol} landed at ${address}, not at its planned address`)
    }
    addresses.set(token.symbol, address)
  }
  const addressOf = (symbol: string) => addresses.get(symbol)!
  const erc20 = ownArtifact("TestToken").abi

  /** Gives `to` exactly `amount` more of a token: minted, or for USDC moved from the owner. */
  const fund = async (symbol: string, to: Address, amount: bigint) => {
    if (amount === 0n) return
    if (symbol === USDC_SYMBOL) await write(`fund ${to} with USDC`, USDC_ADDRESS, erc20, "transfer", [to, amount])
    else await write(`mint ${symbol} to ${to}`, addressOf(symbol), erc20, "mint", [to, amount])
  }

  const multicall3 = await deploy("Multicall3", ownArtifact("Multicall3"))

  const priceFeeds: Record<string, Address> = {}
  for (const feed of plan.priceFeeds) {
    priceFeeds[feed.symbol] = await deploy(`price feed ${feed.symbol}`, ownArtifact("PriceFeed"), [PRICE_FEED_DECIMALS, `${feed.symbol} / USD`, feed.answer])
  }

  const poolAt = new Map<number, ManifestPool>()
  const dexes: Record<string, ManifestVenue> = {}
  const poolsOn = (venue: string): PlannedPool[] => plan.pools.filter((p) => p.dex === venue)
  // a default venue keeps its contracts' plain names in messages; another venue's are prefixed with its name
  const labelOf = (venue: string, what: string) => ((DEFAULT_VENUE_NAMES as readonly string[]).includes(venue) ? what : `${venue}: ${what}`)

  const v2Factory = uniswapArtifact("UniswapV2Factory")
  const v2Pair = uniswapArtifact("UniswapV2Pair")
  const v3Factory = uniswapArtifact("UniswapV3Factory")
  const v3Pool = uniswapArtifact("UniswapV3Pool")
  const poolManager = uniswapArtifact("PoolManager")
  const v3Provider = ownArtifact("V3LiquidityProvider")
  const v4Provider = ownArtifact("V4LiquidityProvider")
  // one provider mints in the pools of every V3 factory
  const v3ProviderAddress = await deploy("V3LiquidityProvider", v3Provider)

  const createV3Pool = async (factory: Address, pool: PlannedConcentratedPool, label: string, dex: string): Promise<ManifestPairPool> => {
    await write(`${label} createPool`, factory, v3Factory.abi, "createPool", [addressOf(pool.token0), addressOf(pool.token1), pool.fee])
    const address = getAddress((await read(factory, v3Factory.abi, "getPool", [addressOf(pool.token0), addressOf(pool.token1), pool.fee])) as Address)
    await write(`${label} initialize`, address, v3Pool.abi, "initialize", [pool.sqrtPriceX96])
    await fund(pool.token0, v3ProviderAddress, pool.amount0)
    await fund(pool.token1, v3ProviderAddress, pool.amount1)
    for (const [i, position] of pool.positions.entries()) {
      await write(`${label} positions[${i}]`, v3ProviderAddress, v3Provider.abi, "mint", [address, position.tickLower, position.tickUpper, position.liquidity])
    }
    return { dex, pool: address, tokens: [...pool.tokens], fee: pool.fee, tickSpacing: pool.tickSpacing }
  }

  /** A UniswapV2Factory of its own and the venue's pairs. */
  const deployV2Venue = async (venue: string): Promise<ManifestVenueOf<"uniswap-v2">> => {
    const factory = await deploy(labelOf(venue, "UniswapV2Factory"), v2Factory, [from])
    for (const pool of poolsOn(venue)) {
      if (pool.kind !== "uniswap-v2") continue
      const label = `pools[${pool.index}]`
      await write(`${label} createPair`, factory, v2Factory.abi, "createPair", [addressOf(pool.token0), addressOf(pool.token1)])
      const pair = getAddress((await read(factory, v2Factory.abi, "getPair", [addressOf(pool.token0), addressOf(pool.token1)])) as Address)
      await fund(pool.token0, pair, pool.reserve0)
      await fund(pool.token1, pair, pool.reserve1)
      await write(`${label} mint`, pair, v2Pair.abi, "mint", [from])
      poolAt.set(pool.index, { dex: venue, pool: pair, tokens: [...pool.tokens] })
    }
    return { kind: "uniswap-v2", factory }
  }

  /** A UniswapV3Factory of its own (0.01% tier enabled) and the venue's pools; QuoterV2 for the uniswap-v3 venue. */
  const deployV3Venue = async (venue: string): Promise<ManifestVenueOf<"uniswap-v3">> => {
    const factory = await deploy(labelOf(venue, "UniswapV3Factory"), v3Factory)
    // the 0.01% tier is not enabled by the factory's constructor
    await write(labelOf(venue, "enable the 0.01% fee tier"), factory, v3Factory.abi, "enableFeeAmount", [100, 1])
    for (const pool of poolsOn(venue)) {
      if (pool.kind === "uniswap-v3") poolAt.set(pool.index, await createV3Pool(factory, pool, `pools[${pool.index}]`, venue))
    }
    if (venue !== "uniswap-v3") return { kind: "uniswap-v3", factory }
    const quoter = await deploy("QuoterV2", uniswapArtifact("QuoterV2"), [factory, USDC_ADDRESS])
    return { kind: "uniswap-v3", factory, quoter }
  }

  /** A PoolManager of its own with its StateView and the venue's pools; V4Quoter for the uniswap-v4 venue. */
  const deployV4Venue = async (venue: string): Promise<ManifestVenueOf<"uniswap-v4">> => {
    const manager = await deploy(labelOf(venue, "PoolManager"), poolManager, [from])
    const provider = await deploy(labelOf(venue, "V4LiquidityProvider"), v4Provider, [manager])
    for (const pool of poolsOn(venue)) {
      if (pool.kind !== "uniswap-v4") continue
      const label = `pools[${pool.index}]`
      const key: V4PoolKey = { currency0: addressOf(pool.token0), currency1: addressOf(pool.token1), fee: pool.fee, tickSpacing: pool.tickSpacing, hooks: zeroAddress }
      await write(`${label} initialize`, manager, poolManager.abi, "initialize", [key, pool.sqrtPriceX96])
      await fund(pool.token0, provider, pool.amount0)
      await fund(pool.token1, provider, pool.amount1)
      for (const [i, position] of pool.positions.entries()) {
        await write(`${label} positions[${i}]`, provider, v4Provider.abi, "addLiquidity", [key, position.tickLower, position.tickUpper, position.liquidity, `0x${"0".repeat(64)}`])
      }
      poolAt.set(pool.index, { dex: venue, pool: v4PoolId(key), tokens: [...pool.tokens], fee: pool.fee, tickSpacing: pool.tickSpacing, hooks: zeroAddress })
    }
    const quoter = venue === "uniswap-v4" ? await deploy("V4Quoter", uniswapArtifact("V4Quoter"), [manager]) : undefined
    const stateView = await deploy(labelOf(venue, "StateView"), uniswapArtifact("StateView"), [manager])
    return quoter !== undefined ? { kind: "uniswap-v4", poolManager: manager, quoter, stateView } : { kind: "uniswap-v4", poolManager: manager, stateView }
  }

  /**
   * A StableSwapFactory of its own; each of the venue's pools a StableSwapPool the owner
   * deploys through it (deploy_plain_pool, then read back from pool_list) and makes the first
   * deposit in.
   */
  const deployStableVenue = async (venue: string): Promise<ManifestVenueOf<"curve-stableswap">> => {
    const stableSwap = ownArtifact("StableSwapPool")
    const stableFactory = ownArtifact("StableSwapFactory")
    const factory = await deploy(labelOf(venue, "StableSwapFactory"), stableFactory)
    const pools: Address[] = []
    for (const pool of poolsOn(venue)) {
      if (pool.kind !== "curve-stableswap") continue
      const label = `pools[${pool.index}]`
      const coins = pool.tokens.map(addressOf)
      // Curve's plain-pool factory takes four coins, the unused ones zero
      const padded = [...coins, ...Array<Address>(4 - coins.length).fill(zeroAddress)]
      const name = `${venue} ${pool.tokens.join("/")}`.slice(0, 32)
      const symbol = pool.tokens.join("").slice(0, 10)
      await write(`${label} deploy_plain_pool`, factory, stableFactory.abi, "deploy_plain_pool", [name, symbol, padded, BigInt(pool.A), BigInt(pool.fee)])
      const address = getAddress((await read(factory, stableFactory.abi, "pool_list", [BigInt(pools.length)])) as Address)
      for (const [k, symbol] of pool.tokens.entries()) {
        // the owner pays: it holds native USDC already, the other coins are minted to it
        if (symbol !== USDC_SYMBOL) await fund(symbol, from, pool.balances[k]!)
        await write(`${label} approve ${symbol}`, coins[k]!, erc20, "approve", [address, pool.balances[k]!])
      }
      await write(`${label} add_liquidity`, address, addLiquidityAbi(stableSwap.abi, pool.tokens.length), "add_liquidity", [pool.balances, 0n])
      poolAt.set(pool.index, { dex: venue, pool: address, tokens: [...pool.tokens], A: pool.A, fee: pool.fee })
      pools.push(address)
    }
    return { kind: "curve-stableswap", pools, factory }
  }

  // every venue its own deployment, in the manifest's order (the default venues first)
  for (const venue of plan.venues) {
    switch (venue.kind) {
      case "uniswap-v2":
        dexes[venue.name] = await deployV2Venue(venue.name)
        break
      case "uniswap-v3":
        dexes[venue.name] = await deployV3Venue(venue.name)
        break
      case "uniswap-v4":
        dexes[venue.name] = await deployV4Venue(venue.name)
        break
      case "curve-stableswap":
        dexes[venue.name] = await deployStableVenue(venue.name)
        break
    }
  }
  // the executor routes only through what its owner registers: every Uniswap venue under its id
  // (uniswap-v2 = 1, uniswap-v3 = 2, uniswap-v4 = 3, then the scenario's own), registered by its
  // constructor (the first three kept in its code), then every stable pool
  const executorVenues = [...executorVenueIds({ dexes })].map(([name, id]): ExecutorVenue => {
    const venue = dexes[name]!
    if (venue.kind === "uniswap-v2") return { id, kind: venue.kind, factory: venue.factory as Address, feeBps: venue.feeBps ?? UNISWAP_V2_FEE_BPS }
    if (venue.kind === "uniswap-v3") return { id, kind: venue.kind, factory: venue.factory as Address }
    if (venue.kind === "uniswap-v4") return { id, kind: venue.kind, factory: venue.poolManager as Address }
    throw new DeployError(`venue ${name}: a ${venue.kind} venue has no executor id`)
  })
  const executor = await deployRouteExecutor({
    walletClient: client,
    publicClient: client,
    owner: from,
    feeCollector: feeCollector.address,
    protocolFeeBps: INITIAL_PROTOCOL_FEE_BPS,
    venues: executorVenues,
  })
  const executorStablePools = Object.values(dexes).flatMap((venue) => (venue.kind === "curve-stableswap" ? (venue.pools as readonly Address[]) : []))
  await registerVenues(client, client, executor, from, [], executorStablePools)

  // The devnet aggregator's own liquidity: a second V3 factory that the service's market never
  // reads, a QuoterV2 over it, and Uniswap's SwapRouter over it, allowlisted on the executor.
  const aggregatorFactory = await deploy("aggregator UniswapV3Factory", v3Factory)
  await write("aggregator: enable the 0.01% fee tier", aggregatorFactory, v3Factory.abi, "enableFeeAmount", [100, 1])
  const aggregatorQuoter = await deploy("aggregator QuoterV2", uniswapArtifact("QuoterV2"), [aggregatorFactory, USDC_ADDRESS])
  // no pool token is the router's WETH9, so every swap input is pulled from the caller with transferFrom
  const swapRouter = await deploy("SwapRouter", uniswapArtifact("SwapRouter"), [aggregatorFactory, NO_WETH9])
  const aggregatorPools: ManifestPairPool[] = []
  for (const [i, pool] of plan.aggregatorPools.entries()) aggregatorPools.push(await createV3Pool(aggregatorFactory, pool, `aggregator.pools[${i}]`, "uniswap-v3"))
  await write("allowlist SwapRouter on the executor", executor, ownArtifact("RouteExecutor").abi, "setRouterAllowed", [swapRouter, true])

  // the scenario's accounts; USDC is native, so its balance is set at 18 decimals
  for (const balance of plan.balances) {
    const account = testAccounts[balance.account]!.address
    if (balance.symbol === USDC_SYMBOL) await client.setBalance({ address: account, value: balance.amount * USDC_SCALE })
    else await fund(balance.symbol, account, balance.amount)
  }

  const pools: ManifestPool[] = plan.pools.map((pool) => poolAt.get(pool.index)!)

  const tokens: Manifest["tokens"] = Object.fromEntries([
    [USDC_SYMBOL, { address: USDC_ADDRESS, decimals: USDC_DECIMALS, native: NATIVE_PLACEHOLDER, permit: USDC_PERMIT_DOMAIN }],
    ...plan.tokens.map((token) => [
      token.symbol,
      {
        address: addressOf(token.symbol),
        decimals: token.decimals,
        ...(token.behavior !== "standard" ? { behavior: token.behavior } : {}),
        ...(token.permit ? { permit: { name: token.symbol, version: PERMIT_VERSION } } : {}),
      },
    ]),
  ])

  return {
    chainId: plan.chainId,
    rpcUrl,
    baseFeeFloorWei: plan.baseFeeFloorWei.toString(),
    executor,
    owner: { address: owner.address, privateKey: owner.privateKey },
    feeCollector: feeCollector.address,
    tokens,
    dexes,
    pools,
    priceFeeds,
    multicall3,
    aggregators: [],
    aggregatorDex: { dex: "uniswap-v3", factory: aggregatorFactory, quoter: aggregatorQuoter, router: swapRouter, pools: aggregatorPools },
    accounts: testAccounts.map((a) => ({ address: a.address, privateKey: a.privateKey })),
  }
}
