// Deploys the route executor (contracts/out/RouteExecutor.json) against a chain's Uniswap
// deployments. The executor derives V2 pairs and V3 pools from their factory and the hash of
// the pool's creation code, so those hashes are computed here from the same npm artifacts the
// factories were deployed from.
import { getAddress, keccak256, type Account, type Address, type Chain, type Hash, type Hex, type TransactionReceipt } from "viem"
import { ownArtifact, uniswapArtifact } from "../contracts/index.ts"

/** keccak256 of the Uniswap V2 pair's creation bytecode (what the factory CREATE2s). */
export const v2InitCodeHash = (): Hex => keccak256(uniswapArtifact("UniswapV2Pair").bytecode)

/** keccak256 of the Uniswap V3 pool's creation bytecode (POOL_INIT_CODE_HASH). */
export const v3InitCodeHash = (): Hex => keccak256(uniswapArtifact("UniswapV3Pool").bytecode)

/** The wallet side: any viem client that can deploy a contract (a WalletClient, anvil's test client + walletActions). */
export interface ExecutorDeployer {
  readonly account?: Account | undefined
  readonly chain?: Chain | undefined
  deployContract(args: {
    abi: readonly unknown[]
    bytecode: Hex
    args: readonly unknown[]
    account: Account | Address
    chain: Chain | null | undefined
  }): Promise<Hash>
}

/** The public side: waits for the deployment's receipt. */
export interface ExecutorReceiptReader {
  waitForTransactionReceipt(args: { hash: Hash; pollingInterval?: number }): Promise<TransactionReceipt>
}

export interface DeployRouteExecutorOptions {
  readonly walletClient: ExecutorDeployer
  readonly publicClient: ExecutorReceiptReader
  /** pauses, sets the protocol fee and the fee collector, allowlists external routers */
  readonly owner: Address
  readonly feeCollector: Address
  /** the initial protocol fee, 0..100 bps */
  readonly protocolFeeBps: number
  /** address(0) for a chain without that DEX */
  readonly v2Factory: Address
  readonly v3Factory: Address
  readonly poolManager: Address
  /** who sends the deployment: default the wallet client's account, else `owner` (an unlocked node account) */
  readonly deployer?: Account | Address
}

export class ExecutorDeployError extends Error {
  override readonly name = "ExecutorDeployError"
}

/** The constructor arguments, in order. */
export const routeExecutorConstructorArgs = (o: Omit<DeployRouteExecutorOptions, "walletClient" | "publicClient" | "deployer">) =>
  [o.owner, o.feeCollector, o.protocolFeeBps, o.v2Factory, v2InitCodeHash(), o.v3Factory, v3InitCodeHash(), o.poolManager] as const

/** Deploys RouteExecutor and returns its address once the deployment is mined. */
export const deployRouteExecutor = async (options: DeployRouteExecutorOptions): Promise<Address> => {
  const artifact = ownArtifact("RouteExecutor")
  const account = options.deployer ?? options.walletClient.account ?? options.owner
  const hash = await options.walletClient.deployContract({
    abi: artifact.abi,
    bytecode: artifact.bytecode,
    args: routeExecutorConstructorArgs(options),
    account,
    chain: options.walletClient.chain,
  })
  const receipt = await options.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 })
  if (receipt.status !== "success" || !receipt.contractAddress) {
    throw new ExecutorDeployError(`RouteExecutor deployment ${hash} failed (status ${receipt.status})`)
  }
  return getAddress(receipt.contractAddress)
}
