// The transactions that create one planned pool, and its record. V2 pairs are created, funded
// and minted; V3/V4 positions are minted through the owner's own V3LiquidityProvider /
// V4LiquidityProvider (the scenario's are not in the manifest); stable pools are deployed by the
// venue's StableSwapFactory, seeded, and registered on the executor (setStablePool). Every pool's
// address is predicted, and a check of it against its factory is queued for once it is mined.
import { encodeAbiParameters, encodeFunctionData, encodePacked, getContractAddress, getCreate2Address, keccak256, zeroAddress, type Address, type Hex } from "viem"
import { v2InitCodeHash, v3InitCodeHash } from "../../src/devnet/executor.ts"
import { v4PoolId, type ManifestPool, type PlannedPool } from "../../src/devnet/index.ts"
import { HistoryError, type HistoryPool } from "./fixture.ts"
import type { RpcRequest } from "./rpc-batch.ts"
import {
  addLiquidityAbi,
  contractCall,
  erc20Abi,
  executorAbi,
  owner,
  poolManagerAbi,
  stableFactoryAbi,
  v2FactoryAbi,
  v2PairAbi,
  v3FactoryAbi,
  v3PoolAbi,
  v3Provider,
  v4Provider,
  type TxSpec,
} from "./transactions.ts"

export interface PoolCreationContext {
  readonly tokenAddress: (symbol: string) => Address
  /** a V2 or V3 venue's factory */
  readonly factoryOf: (dex: string) => Address
  readonly fund: (symbol: string, to: Address, amount: bigint, label: string) => TxSpec | undefined
  readonly poolManager: Address
  readonly stableFactory: Address
  readonly executor: Address
  readonly v3ProviderAddress: Address
  readonly v4ProviderAddress: Address
  /** the stable pools the factory holds before the first one created here */
  readonly stablePoolCount: bigint
}

/** a pool's predicted address, to be checked against its factory once mined */
export interface CreationCheck {
  readonly request: RpcRequest
  readonly expected: Hex
  readonly label: string
}

/**
 * `createPool` and what it leaves behind: the creation checks not yet made (the caller makes them
 * after mining, then empties the list) and the stable pools added so far.
 */
export const poolCreator = (context: PoolCreationContext) => {
  const { tokenAddress, factoryOf, fund, poolManager, stableFactory, executor, v3ProviderAddress, v4ProviderAddress } = context
  let stableCount = context.stablePoolCount
  const checks: CreationCheck[] = []
  const stablePoolsAdded: Address[] = []

  /** the transactions that create (and fund) one planned pool, and its record */
  const createPool = (planned: PlannedPool, round: number): { txs: TxSpec[]; pool: HistoryPool; manifestPool: ManifestPool } => {
    const label = `round ${round} ${planned.dex} ${planned.tokens.join("/")}`
    const txs: TxSpec[] = []
    if (planned.kind === "uniswap-v2") {
      const factory = factoryOf(planned.dex)
      const [t0, t1] = [tokenAddress(planned.token0), tokenAddress(planned.token1)]
      const pair = getCreate2Address({ from: factory, salt: keccak256(encodePacked(["address", "address"], [t0, t1])), bytecodeHash: v2InitCodeHash() })
      txs.push(contractCall(factory, v2FactoryAbi, "createPair", [t0, t1], 3_500_000n, `${label} createPair`))
      txs.push(fund(planned.token0, pair, planned.reserve0, `${label} fund`)!, fund(planned.token1, pair, planned.reserve1, `${label} fund`)!)
      txs.push(contractCall(pair, v2PairAbi, "mint", [owner], 300_000n, `${label} mint`))
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
      txs.push(contractCall(factory, v3FactoryAbi, "createPool", [t0, t1, planned.fee], 6_000_000n, `${label} createPool`))
      txs.push(contractCall(address, v3PoolAbi, "initialize", [planned.sqrtPriceX96], 300_000n, `${label} initialize`))
      for (const p of planned.positions) txs.push(contractCall(v3ProviderAddress, v3Provider.abi, "mint", [address, p.tickLower, p.tickUpper, p.liquidity], 1_000_000n, `${label} mint`))
      checks.push({ request: { method: "eth_call", params: [{ to: factory, data: encodeFunctionData({ abi: v3FactoryAbi, functionName: "getPool", args: [t0, t1, planned.fee] }) }, "latest"] }, expected: address, label })
      return {
        txs,
        pool: { kind: planned.kind, dex: planned.dex, pool: address, tokens: [...planned.tokens], fee: planned.fee, tickSpacing: planned.tickSpacing, round },
        manifestPool: { dex: planned.dex, pool: address, tokens: planned.tokens, fee: planned.fee, tickSpacing: planned.tickSpacing },
      }
    }
    if (planned.kind === "uniswap-v4") {
      const key = { currency0: tokenAddress(planned.token0), currency1: tokenAddress(planned.token1), fee: planned.fee, tickSpacing: planned.tickSpacing, hooks: zeroAddress }
      txs.push(contractCall(poolManager, poolManagerAbi, "initialize", [key, planned.sqrtPriceX96], 500_000n, `${label} initialize`))
      for (const p of planned.positions) {
        txs.push(contractCall(v4ProviderAddress, v4Provider.abi, "addLiquidity", [key, p.tickLower, p.tickUpper, p.liquidity, `0x${"0".repeat(64)}`], 1_000_000n, `${label} addLiquidity`))
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
    txs.push(contractCall(stableFactory, stableFactoryAbi, "deploy_plain_pool", [planned.tokens.join("/").slice(0, 32), planned.tokens.join("").slice(0, 10), padded, BigInt(planned.A), BigInt(planned.fee)], 8_000_000n, `${label} deploy_plain_pool`))
    planned.tokens.forEach((symbol, k) => {
      const amount = planned.balances[k]!
      if (symbol !== "USDC") txs.push(fund(symbol, owner, amount, `${label} fund`)!)
      txs.push(contractCall(coins[k]!, erc20Abi, "approve", [address, amount], 100_000n, `${label} approve`))
    })
    txs.push(contractCall(address, addLiquidityAbi(coins.length), "add_liquidity", [planned.balances, 0n], 1_000_000n, `${label} add_liquidity`))
    txs.push(contractCall(executor, executorAbi, "setStablePool", [address, true], 1_000_000n, `${label} setStablePool`))
    stablePoolsAdded.push(address)
    return {
      txs,
      pool: { kind: planned.kind, dex: planned.dex, pool: address, tokens: [...planned.tokens], round },
      manifestPool: { dex: planned.dex, pool: address, tokens: [...planned.tokens], A: planned.A, fee: planned.fee },
    }
  }

  return { createPool, checks, stablePoolsAdded }
}
