// The devnet setup the differential tests of the AMM math share: more liquidity
// positions in every V3 and V4 pool of the default scenario (so that swaps cross
// initialized ticks) and a quoter for every V3 and V4 venue.
import { Effect, ManagedRuntime } from "effect"
import { parseAbi, toHex, zeroAddress, type Abi, type Address, type Hex } from "viem"
import { Rpc } from "../../src/chain/index.ts"
import { ownArtifact, uniswapArtifact } from "../../src/contracts/artifacts.ts"
import { isStablePool, manifestVenue, poolKind, testAccounts, USDC_ADDRESS, venuesOfKind } from "../../src/devnet/index.ts"
import { MarketState } from "../../src/market/index.ts"
import type { Tokens } from "../../src/tokens/index.ts"
import { startTestDevnet, type TestDevnet } from "../support/devnet.ts"
import { marketConfig, marketLayer, rpcConfig } from "../market/support.ts"
import type { World } from "../../src/domain/index.ts"

/**
 * A fixed gas limit for test transactions: an estimate made in one second can fall short
 * when the transaction is mined in the next (a V3 pool then writes a new oracle observation).
 */
export const GAS = 5_000_000n

const owner = testAccounts[9]!.address

const deploy = async (devnet: TestDevnet, artifact: { abi: Abi; bytecode: Hex }, args: readonly unknown[]): Promise<Address> => {
  const hash = await devnet.client.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode, args, account: owner, chain: devnet.client.chain } as never)
  return (await devnet.client.waitForTransactionReceipt({ hash })).contractAddress!
}

/**
 * More positions in every V3 and V4 pool before the market loads, so that swaps cross
 * several initialized ticks: nested ranges around the price, ranges wholly above and below
 * it, two sharing a bound, one exactly cancelling another's net at a shared tick.
 */
export const addPositions = async (devnet: TestDevnet): Promise<void> => {
  const send = async (address: Address, abi: Abi, functionName: string, args: readonly unknown[]) => {
    const hash = await devnet.client.writeContract({ address, abi, functionName, args, account: owner, chain: devnet.client.chain, gas: GAS } as never)
    const receipt = await devnet.client.waitForTransactionReceipt({ hash })
    if (receipt.status !== "success") throw new Error(`${functionName}(${args.join(", ")}) at ${address} reverted`)
  }
  // one V3 provider mints in the pools of every V3 venue; a V4 provider per PoolManager
  const v3 = await deploy(devnet, ownArtifact("V3LiquidityProvider"), [])
  const v4 = new Map<string, Address>()
  for (const venue of venuesOfKind(devnet.manifest, "uniswap-v4")) v4.set(venue.name, await deploy(devnet, ownArtifact("V4LiquidityProvider"), [venue.poolManager]))
  for (const [symbol, token] of Object.entries(devnet.manifest.tokens)) {
    if (token.behavior !== undefined) continue
    for (const provider of [v3, ...v4.values()]) {
      if (symbol === "USDC") await devnet.client.setBalance({ address: provider, value: 10n ** 40n })
      else await send(token.address as Address, ownArtifact("TestToken").abi, "mint", [provider, 10n ** 36n])
    }
  }
  const slotAbi = parseAbi([
    "function slot0() view returns (uint160, int24, uint16, uint16, uint16, uint8, bool)",
    "function liquidity() view returns (uint128)",
    "function getSlot0(bytes32) view returns (uint160, int24, uint24, uint24)",
    "function getLiquidity(bytes32) view returns (uint128)",
  ])
  for (const pool of devnet.manifest.pools) {
    // stable pools are not this file's subject
    if (isStablePool(pool)) continue
    const kind = poolKind(devnet.manifest, pool)
    if (kind === "uniswap-v2") continue
    const s = pool.tickSpacing!
    // a V4 pool is read through its own venue's StateView
    const stateView = kind === "uniswap-v4" ? (manifestVenue(devnet.manifest, pool.dex, "uniswap-v4").stateView as Address) : undefined
    const [, tick] =
      stateView === undefined
        ? await devnet.client.readContract({ address: pool.pool as Address, abi: slotAbi, functionName: "slot0" })
        : await devnet.client.readContract({ address: stateView, abi: slotAbi, functionName: "getSlot0", args: [pool.pool as Hex] })
    const liquidity =
      stateView === undefined
        ? await devnet.client.readContract({ address: pool.pool as Address, abi: slotAbi, functionName: "liquidity" })
        : await devnet.client.readContract({ address: stateView, abi: slotAbi, functionName: "getLiquidity", args: [pool.pool as Hex] })
    const at = (k: number) => Math.floor(tick / s) * s + k * s
    const ranges: [number, number, bigint][] = [
      [at(-3), at(4), liquidity / 3n],
      [at(-9), at(7), liquidity / 5n],
      [at(-20), at(-3), liquidity / 2n], // shares a bound with the first
      [at(5), at(30), liquidity],
      [at(-60), at(-25), liquidity * 2n],
      [at(-1), at(2), liquidity / 7n],
      [at(2), at(12), liquidity / 7n], // at tick 2 the net of the last two cancels
    ]
    const [token0, token1] = pool.tokens
      .map((symbol) => devnet.manifest.tokens[symbol]!.address as Address)
      .sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1))
    for (const [i, [lower, upper, amount]] of ranges.entries()) {
      if (kind === "uniswap-v3") {
        await send(v3, ownArtifact("V3LiquidityProvider").abi, "mint", [pool.pool, lower, upper, amount])
      } else {
        const key = { currency0: token0, currency1: token1, fee: pool.fee!, tickSpacing: s, hooks: zeroAddress }
        await send(v4.get(pool.dex)!, ownArtifact("V4LiquidityProvider").abi, "addLiquidity", [key, lower, upper, amount, toHex(i + 1, { size: 32 })])
      }
    }
  }
}

/** The quoter of each V3 and V4 venue, by venue name: the manifest's (uniswap-v3, uniswap-v4), else one deployed over the venue's own contracts. */
export const deployQuoters = async (devnet: TestDevnet): Promise<Map<string, Address>> => {
  const quoters = new Map<string, Address>()
  for (const venue of venuesOfKind(devnet.manifest, "uniswap-v3")) {
    quoters.set(venue.name, (venue.quoter as Address | undefined) ?? (await deploy(devnet, uniswapArtifact("QuoterV2"), [venue.factory, USDC_ADDRESS])))
  }
  for (const venue of venuesOfKind(devnet.manifest, "uniswap-v4")) {
    quoters.set(venue.name, (venue.quoter as Address | undefined) ?? (await deploy(devnet, uniswapArtifact("V4Quoter"), [venue.poolManager])))
  }
  return quoters
}

/** The devnet of the differential tests: positions and quoters added, then the market's World at that block. */
export interface DifferentialMarket {
  readonly devnet: TestDevnet
  readonly runtime: ManagedRuntime.ManagedRuntime<MarketState | Tokens | Rpc, unknown>
  /** the World the math is compared on; its block holds the positions and quoters added */
  readonly snap: World
  /** decimals by lower-case token address */
  readonly decimals: ReadonlyMap<string, number>
  /** the quoter of each V3 and V4 venue, by venue name: the manifest's, or one deployed here */
  readonly quoters: Map<string, Address>
  readonly stop: () => Promise<void>
}

export const startDifferentialMarket = async (): Promise<DifferentialMarket> => {
  const devnet = await startTestDevnet()
  await addPositions(devnet)
  const quoters = await deployQuoters(devnet)
  const runtime = ManagedRuntime.make(marketLayer(Rpc.layer(rpcConfig(devnet.manifest)), marketConfig(devnet.manifest)))
  const snap = await runtime.runPromise(Effect.flatMap(MarketState, (m) => m.snapshot))
  const decimals = new Map(Object.values(devnet.manifest.tokens).map((t) => [t.address.toLowerCase(), t.decimals] as const))
  const stop = async () => {
    await runtime.dispose()
    await devnet.stop()
  }
  return { devnet, runtime, snap, decimals, quoters, stop }
}
