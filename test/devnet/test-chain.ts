// A fresh devnet node for one test file: anvil (chain id 5042, --celo) plus viem clients for
// the node's well-known test accounts. Call `stop()` in afterAll.
import {
  BaseError,
  ContractFunctionRevertedError,
  type Abi,
  type Account,
  type Address,
  type Chain,
  type Hex,
  type HttpTransport,
  type PublicClient,
  type TestClient,
  type TransactionReceipt,
  type WalletClient,
  createPublicClient,
  createTestClient,
  createWalletClient,
  defineChain,
  getAddress,
  http,
} from "viem"
import { mnemonicToAccount } from "viem/accounts"
import { ARC_CHAIN_ID, type AnvilNode, startAnvil } from "../../src/devnet/anvil.ts"

/** anvil's default mnemonic: its accounts are public test accounts */
const TEST_MNEMONIC = "test test test test test test test test test test test junk"

export type Wallet = WalletClient<HttpTransport, Chain, Account>

export interface TestChain {
  readonly node: AnvilNode
  readonly chain: Chain
  readonly publicClient: PublicClient<HttpTransport, Chain>
  readonly testClient: TestClient<"anvil", HttpTransport, Chain>
  /** wallets[i] signs as the node's i-th test account */
  readonly wallets: ReadonlyArray<Wallet>
  readonly accounts: ReadonlyArray<Address>
  /** deploys and waits for the receipt; returns the new address */
  readonly deploy: (artifact: { abi: Abi; bytecode: Hex }, args?: ReadonlyArray<unknown>, from?: number) => Promise<Address>
  /** sends through writeContract, waits, and returns the receipt (throws if reverted) */
  readonly write: (wallet: Wallet, request: WriteRequest) => Promise<TransactionReceipt>
  readonly stop: () => Promise<void>
}

export interface WriteRequest {
  readonly address: Address
  readonly abi: Abi
  readonly functionName: string
  readonly args?: ReadonlyArray<unknown>
}

const writeAndWait = async (publicClient: PublicClient<HttpTransport, Chain>, wallet: Wallet, request: WriteRequest) => {
  const hash = await wallet.writeContract({ ...request, args: request.args ?? [] } as never)
  const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 })
  if (receipt.status !== "success") throw new Error(`${request.functionName} reverted in ${hash}`)
  return receipt
}

export const startTestChain = async (accountCount = 5): Promise<TestChain> => {
  const node = await startAnvil({ port: 0 })
  const chain = defineChain({
    id: ARC_CHAIN_ID,
    name: "Arc devnet",
    nativeCurrency: { name: "USDC", symbol: "USDC", decimals: 18 },
    rpcUrls: { default: { http: [node.rpcUrl] } },
  })
  // no retries: a failing call should fail at once
  const transport = http(node.rpcUrl, { retryCount: 0 })
  const publicClient = createPublicClient({ chain, transport, pollingInterval: 50 })
  const testClient = createTestClient({ chain, transport, mode: "anvil", pollingInterval: 50 })
  const wallets = Array.from({ length: accountCount }, (_, i) =>
    createWalletClient({ chain, transport, pollingInterval: 50, account: mnemonicToAccount(TEST_MNEMONIC, { addressIndex: i }) }),
  )
  const deploy = async (artifact: { abi: Abi; bytecode: Hex }, args: ReadonlyArray<unknown> = [], from = 0) => {
    const hash = await wallets[from]!.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode, args } as never)
    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 })
    if (receipt.status !== "success" || !receipt.contractAddress) throw new Error(`deployment reverted in ${hash}`)
    return getAddress(receipt.contractAddress)
  }
  return {
    node,
    chain,
    publicClient,
    testClient,
    wallets,
    accounts: wallets.map((w) => w.account.address),
    deploy,
    write: (wallet, request) => writeAndWait(publicClient, wallet, request),
    stop: () => node.stop(),
  }
}

/** The custom error a reverted simulation carries, as { name, args }. */
export const revertOf = async (run: () => Promise<unknown>) => {
  try {
    await run()
  } catch (error) {
    const reverted = error instanceof BaseError ? error.walk((e) => e instanceof ContractFunctionRevertedError) : null
    if (reverted instanceof ContractFunctionRevertedError) return { name: reverted.data?.errorName, args: reverted.data?.args }
    throw error
  }
  throw new Error("expected a revert")
}
