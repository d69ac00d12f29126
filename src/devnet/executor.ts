// Deploys the route executor (contracts/out/RouteExecutor.json, after the OrderEntry its gasless
// orders run in, contracts/out/OrderEntry.json) and registers the venues it may
// route through. The executor knows no DEX of its own: its owner registers each deployment by
// id (setVenue: a Uniswap V2 factory with its pair init code hash and swap fee, a V3 factory or
// pool deployer with its pool init code hash, a V4 PoolManager) and each Curve-style stable
// pool (setStablePool). The init code hashes of Uniswap's own pairs and pools are computed here
// from the same npm artifacts the devnet's factories are deployed from.
import {
  encodeFunctionData,
  getAddress,
  keccak256,
  zeroHash,
  type Account,
  type Address,
  type Chain,
  type Hash,
  type Hex,
  type TransactionReceipt,
} from "viem"
import { ownArtifact, uniswapArtifact } from "../contracts/index.ts"

/** keccak256 of the Uniswap V2 pair's creation bytecode (what the factory CREATE2s). */
export const v2InitCodeHash = (): Hex => keccak256(uniswapArtifact("UniswapV2Pair").bytecode)

/** keccak256 of the Uniswap V3 pool's creation bytecode (POOL_INIT_CODE_HASH). */
export const v3InitCodeHash = (): Hex => keccak256(uniswapArtifact("UniswapV3Pool").bytecode)

/** Uniswap V2's swap fee, in bps. */
export const UNISWAP_V2_FEE_BPS = 30

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

/** The wallet side of the owner's transactions: any viem client that can send one. */
export interface ExecutorOwnerWallet {
  readonly chain?: Chain | undefined
  sendTransaction(args: { account: Account | Address; to: Address; data: Hex; chain: Chain | null | undefined }): Promise<Hash>
}

/** The public side: waits for a transaction's receipt. */
export interface ExecutorReceiptReader {
  waitForTransactionReceipt(args: { hash: Hash; pollingInterval?: number }): Promise<TransactionReceipt>
}

export interface DeployRouteExecutorOptions {
  readonly walletClient: ExecutorDeployer
  readonly publicClient: ExecutorReceiptReader
  /** pauses, sets the protocol fee and the fee collector, allowlists external routers, registers venues */
  readonly owner: Address
  readonly feeCollector: Address
  /** the initial protocol fee, 0..100 bps */
  readonly protocolFeeBps: number
  /** who sends the deployment: default the wallet client's account, else `owner` (an unlocked node account) */
  readonly deployer?: Account | Address
  /**
   * venues the constructor registers (distinct ids; each emits VenueSet as setVenue does); the
   * first three with ids below 64 are also kept in the executor's code, so a hop through one of
   * them reads no venue slot until setVenue changes it. Default none.
   */
  readonly venues?: ReadonlyArray<ExecutorVenue>
}

export class ExecutorDeployError extends Error {
  override readonly name = "ExecutorDeployError"
}

/** The constructor arguments, in order; `orderEntry` is the OrderEntry deployment the executor delegates gasless orders to. */
export const routeExecutorConstructorArgs = (
  o: Pick<DeployRouteExecutorOptions, "owner" | "feeCollector" | "protocolFeeBps" | "venues"> & { readonly orderEntry: Address },
) =>
  [
    o.owner,
    o.feeCollector,
    o.protocolFeeBps,
    o.orderEntry,
    (o.venues ?? []).map((venue) => {
      const [id, kind, factory, initCodeHash, feeBps] = setVenueArgs(venue)
      return { id, kind, factory, initCodeHash, feeBps }
    }),
  ] as const

const deployOwn = async (options: DeployRouteExecutorOptions, name: string, args: readonly unknown[]): Promise<Address> => {
  const artifact = ownArtifact(name)
  const account = options.deployer ?? options.walletClient.account ?? options.owner
  const hash = await options.walletClient.deployContract({
    abi: artifact.abi,
    bytecode: artifact.bytecode,
    args,
    account,
    chain: options.walletClient.chain,
  })
  const receipt = await options.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 })
  if (receipt.status !== "success" || !receipt.contractAddress) {
    throw new ExecutorDeployError(`${name} deployment ${hash} failed (status ${receipt.status})`)
  }
  return getAddress(receipt.contractAddress)
}

/** Deploys OrderEntry (it has no state or arguments of its own), which an executor's constructor takes. */
export const deployOrderEntry = (options: DeployRouteExecutorOptions): Promise<Address> => deployOwn(options, "OrderEntry", [])

/**
 * Deploys OrderEntry, then RouteExecutor with its address, and returns the executor's address
 * once both are mined. It has no venue yet.
 */
export const deployRouteExecutor = async (options: DeployRouteExecutorOptions): Promise<Address> => {
  const orderEntry = await deployOrderEntry(options)
  return deployOwn(options, "RouteExecutor", routeExecutorConstructorArgs({ ...options, orderEntry }))
}

/** The executor's venue kinds (setVenue's `kind`; the route's hop kinds 1, 2, 3). */
export const EXECUTOR_VENUE_KIND = { "uniswap-v2": 1, "uniswap-v3": 2, "uniswap-v4": 3 } as const
export type ExecutorVenueKind = keyof typeof EXECUTOR_VENUE_KIND

/** One venue to register: its id in routes (0..255) and its deployment. */
export interface ExecutorVenue {
  readonly id: number
  readonly kind: ExecutorVenueKind
  /** the pair factory (V2), the address that CREATE2s the pools (V3: factory or pool deployer), the PoolManager (V4) */
  readonly factory: Address
  /** V2 pair / V3 pool init code hash; default Uniswap's own (v2InitCodeHash(), v3InitCodeHash()); none for V4 */
  readonly initCodeHash?: Hex
  /** V2 only: the pairs' swap fee in bps, default 30 */
  readonly feeBps?: number
}

/** setVenue's arguments (id, kind, factory, initCodeHash, feeBps) for a venue, with the defaults filled in. */
export const setVenueArgs = (venue: ExecutorVenue) => {
  // what does not fit the kind goes through as given, for the contract to refuse
  const defaultHash = venue.kind === "uniswap-v2" ? v2InitCodeHash() : venue.kind === "uniswap-v3" ? v3InitCodeHash() : zeroHash
  const defaultFee = venue.kind === "uniswap-v2" ? UNISWAP_V2_FEE_BPS : 0
  return [venue.id, EXECUTOR_VENUE_KIND[venue.kind], getAddress(venue.factory), venue.initCodeHash ?? defaultHash, venue.feeBps ?? defaultFee] as const
}

/**
 * Registers venues (setVenue) and stable pools (setStablePool) on an executor, as its owner,
 * one transaction after the other, each waited for; throws ExecutorDeployError on a revert.
 */
export const registerVenues = async (
  walletClient: ExecutorOwnerWallet,
  publicClient: ExecutorReceiptReader,
  executor: Address,
  owner: Account | Address,
  venues: ReadonlyArray<ExecutorVenue>,
  stablePools: ReadonlyArray<Address>,
): Promise<void> => {
  const abi = ownArtifact("RouteExecutor").abi
  const calls = [
    ...venues.map((venue) => ({ label: `setVenue(${venue.id}, ${venue.kind} ${venue.factory})`, data: encodeFunctionData({ abi, functionName: "setVenue", args: setVenueArgs(venue) }) })),
    ...stablePools.map((pool) => ({ label: `setStablePool(${pool})`, data: encodeFunctionData({ abi, functionName: "setStablePool", args: [getAddress(pool), true] }) })),
  ]
  for (const call of calls) {
    const hash = await walletClient.sendTransaction({ account: owner, to: executor, data: call.data, chain: walletClient.chain })
    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 })
    if (receipt.status !== "success") throw new ExecutorDeployError(`RouteExecutor ${call.label}: transaction ${hash} reverted`)
  }
}
