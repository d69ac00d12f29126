// Builds a scenario on a fresh node: Arc's USDC, the scenario's tokens, price
// feeds, Uniswap V2/V3/V4 from their npm artifacts with the scenario's pools
// and positions, the route executor, and the funded accounts.
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
import { ARC_CHAIN_ID } from "./anvil.ts"
import type { DevnetClient } from "./clients.ts"
import { deployRouteExecutor } from "./executor.ts"
import type { Manifest, ManifestPool } from "./manifest.ts"
import {
  NATIVE_DECIMALS,
  PRICE_FEED_DECIMALS,
  USDC_DECIMALS,
  USDC_SYMBOL,
  type PlannedConcentratedPool,
  type PlannedV2Pool,
  type ScenarioPlan,
} from "./scenario.ts"
import { installArcUsdc, USDC_ADDRESS, USDC_SCALE } from "./usdc.ts"

export const INITIAL_PROTOCOL_FEE_BPS = 25
export const NATIVE_PLACEHOLDER: Address = zeroAddress
/** SwapRouter's WETH9: an address holding no contract and no pool token */
const NO_WETH9: Address = "0x000000000000000000000000000000000000dEaD"

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
  for (const token of plan.tokens) {
    const args = token.behavior === "fee-on-transfer"
      ? [token.symbol, token.symbol, token.decimals, token.feeBps]
      : [token.symbol, token.symbol, token.decimals]
    const address = await deploy(`token ${token.symbol}`, tokenArtifact[token.behavior], args)
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

  const v2Pools = plan.pools.filter((p): p is PlannedV2Pool => p.dex === "uniswap-v2")
  const v3Pools = plan.pools.filter((p): p is PlannedConcentratedPool => p.dex === "uniswap-v3")
  const v4Pools = plan.pools.filter((p): p is PlannedConcentratedPool => p.dex === "uniswap-v4")
  const poolAt = new Map<number, ManifestPool>()

  // Uniswap V2
  const v2Factory = uniswapArtifact("UniswapV2Factory")
  const v2Pair = uniswapArtifact("UniswapV2Pair")
  const v2FactoryAddress = await deploy("UniswapV2Factory", v2Factory, [from])
  for (const pool of v2Pools) {
    const label = `pools[${pool.index}]`
    await write(`${label} createPair`, v2FactoryAddress, v2Factory.abi, "createPair", [addressOf(pool.token0), addressOf(pool.token1)])
    const pair = getAddress((await read(v2FactoryAddress, v2Factory.abi, "getPair", [addressOf(pool.token0), addressOf(pool.token1)])) as Address)
    await fund(pool.token0, pair, pool.reserve0)
    await fund(pool.token1, pair, pool.reserve1)
    await write(`${label} mint`, pair, v2Pair.abi, "mint", [from])
    poolAt.set(pool.index, { dex: "uniswap-v2", pool: pair, tokens: [...pool.tokens] })
  }

  // Uniswap V3
  const v3Factory = uniswapArtifact("UniswapV3Factory")
  const v3Pool = uniswapArtifact("UniswapV3Pool")
  const v3FactoryAddress = await deploy("UniswapV3Factory", v3Factory)
  // the 0.01% tier is not enabled by the factory's constructor
  await write("enable the 0.01% fee tier", v3FactoryAddress, v3Factory.abi, "enableFeeAmount", [100, 1])
  const v3Provider = ownArtifact("V3LiquidityProvider")
  const v3ProviderAddress = await deploy("V3LiquidityProvider", v3Provider)
  const createV3Pool = async (factory: Address, pool: PlannedConcentratedPool, label: string): Promise<ManifestPool> => {
    await write(`${label} createPool`, factory, v3Factory.abi, "createPool", [addressOf(pool.token0), addressOf(pool.token1), pool.fee])
    const address = getAddress((await read(factory, v3Factory.abi, "getPool", [addressOf(pool.token0), addressOf(pool.token1), pool.fee])) as Address)
    await write(`${label} initialize`, address, v3Pool.abi, "initialize", [pool.sqrtPriceX96])
    await fund(pool.token0, v3ProviderAddress, pool.amount0)
    await fund(pool.token1, v3ProviderAddress, pool.amount1)
    for (const [i, position] of pool.positions.entries()) {
      await write(`${label} positions[${i}]`, v3ProviderAddress, v3Provider.abi, "mint", [address, position.tickLower, position.tickUpper, position.liquidity])
    }
    return { dex: "uniswap-v3", pool: address, tokens: [...pool.tokens], fee: pool.fee, tickSpacing: pool.tickSpacing }
  }
  for (const pool of v3Pools) poolAt.set(pool.index, await createV3Pool(v3FactoryAddress, pool, `pools[${pool.index}]`))
  const v3Quoter = await deploy("QuoterV2", uniswapArtifact("QuoterV2"), [v3FactoryAddress, USDC_ADDRESS])

  // Uniswap V4
  const poolManager = uniswapArtifact("PoolManager")
  const poolManagerAddress = await deploy("PoolManager", poolManager, [from])
  const v4Provider = ownArtifact("V4LiquidityProvider")
  const v4ProviderAddress = await deploy("V4LiquidityProvider", v4Provider, [poolManagerAddress])
  for (const pool of v4Pools) {
    const label = `pools[${pool.index}]`
    const key: V4PoolKey = { currency0: addressOf(pool.token0), currency1: addressOf(pool.token1), fee: pool.fee, tickSpacing: pool.tickSpacing, hooks: zeroAddress }
    await write(`${label} initialize`, poolManagerAddress, poolManager.abi, "initialize", [key, pool.sqrtPriceX96])
    await fund(pool.token0, v4ProviderAddress, pool.amount0)
    await fund(pool.token1, v4ProviderAddress, pool.amount1)
    for (const [i, position] of pool.positions.entries()) {
      await write(`${label} positions[${i}]`, v4ProviderAddress, v4Provider.abi, "addLiquidity", [key, position.tickLower, position.tickUpper, position.liquidity, `0x${"0".repeat(64)}`])
    }
    poolAt.set(pool.index, { dex: "uniswap-v4", pool: v4PoolId(key), tokens: [...pool.tokens], fee: pool.fee, tickSpacing: pool.tickSpacing, hooks: zeroAddress })
  }
  const v4Quoter = await deploy("V4Quoter", uniswapArtifact("V4Quoter"), [poolManagerAddress])
  const stateView = await deploy("StateView", uniswapArtifact("StateView"), [poolManagerAddress])

  const executor = await deployRouteExecutor({
    walletClient: client,
    publicClient: client,
    owner: from,
    feeCollector: feeCollector.address,
    protocolFeeBps: INITIAL_PROTOCOL_FEE_BPS,
    v2Factory: v2FactoryAddress,
    v3Factory: v3FactoryAddress,
    poolManager: poolManagerAddress,
  })

  // The devnet aggregator's own liquidity: a second V3 factory that the service's market never
  // reads, a QuoterV2 over it, and Uniswap's SwapRouter over it, allowlisted on the executor.
  const aggregatorFactory = await deploy("aggregator UniswapV3Factory", v3Factory)
  await write("aggregator: enable the 0.01% fee tier", aggregatorFactory, v3Factory.abi, "enableFeeAmount", [100, 1])
  const aggregatorQuoter = await deploy("aggregator QuoterV2", uniswapArtifact("QuoterV2"), [aggregatorFactory, USDC_ADDRESS])
  // no pool token is the router's WETH9, so every swap input is pulled from the caller with transferFrom
  const swapRouter = await deploy("SwapRouter", uniswapArtifact("SwapRouter"), [aggregatorFactory, NO_WETH9])
  const aggregatorPools: ManifestPool[] = []
  for (const [i, pool] of plan.aggregatorPools.entries()) aggregatorPools.push(await createV3Pool(aggregatorFactory, pool, `aggregator.pools[${i}]`))
  await write("allowlist SwapRouter on the executor", executor, ownArtifact("RouteExecutor").abi, "setRouterAllowed", [swapRouter, true])

  // the scenario's accounts; USDC is native, so its balance is set at 18 decimals
  for (const balance of plan.balances) {
    const account = testAccounts[balance.account]!.address
    if (balance.symbol === USDC_SYMBOL) await client.setBalance({ address: account, value: balance.amount * USDC_SCALE })
    else await fund(balance.symbol, account, balance.amount)
  }

  const pools: ManifestPool[] = plan.pools.map((pool) => poolAt.get(pool.index)!)

  const tokens: Manifest["tokens"] = Object.fromEntries([
    [USDC_SYMBOL, { address: USDC_ADDRESS, decimals: USDC_DECIMALS, native: NATIVE_PLACEHOLDER }],
    ...plan.tokens.map((token) => [
      token.symbol,
      {
        address: addressOf(token.symbol),
        decimals: token.decimals,
        ...(token.behavior !== "standard" ? { behavior: token.behavior } : {}),
      },
    ]),
  ])

  return {
    chainId: ARC_CHAIN_ID,
    rpcUrl,
    executor,
    owner: { address: owner.address, privateKey: owner.privateKey },
    feeCollector: feeCollector.address,
    tokens,
    dexes: {
      "uniswap-v2": { factory: v2FactoryAddress },
      "uniswap-v3": { factory: v3FactoryAddress, quoter: v3Quoter },
      "uniswap-v4": { poolManager: poolManagerAddress, quoter: v4Quoter, stateView },
    },
    pools,
    priceFeeds,
    multicall3,
    aggregators: [],
    aggregatorDex: { dex: "uniswap-v3", factory: aggregatorFactory, quoter: aggregatorQuoter, router: swapRouter, pools: aggregatorPools },
    accounts: testAccounts.map((a) => ({ address: a.address, privateKey: a.privateKey })),
  }
}
