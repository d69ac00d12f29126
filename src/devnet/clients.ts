// viem clients for a devnet node: public reads, anvil cheats and unlocked-account writes.
import { createTestClient, defineChain, http, publicActions, walletActions, type Address } from "viem"
import { ARC_CHAIN_ID, arcChainName, type ArcChainId } from "../domain/index.ts"

/** The devnet as a viem chain: Arc's, or Arc testnet's, chain id at the node's URL. */
export const arcDevnet = (rpcUrl: string, multicall3?: Address, chainId: ArcChainId = ARC_CHAIN_ID) =>
  defineChain({
    id: chainId,
    name: `${arcChainName(chainId)} devnet`,
    nativeCurrency: { name: "USDC", symbol: "USDC", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
    ...(multicall3 ? { contracts: { multicall3: { address: multicall3 } } } : {}),
  })

export const devnetClient = (rpcUrl: string, multicall3?: Address, chainId: ArcChainId = ARC_CHAIN_ID) =>
  createTestClient({
    chain: arcDevnet(rpcUrl, multicall3, chainId),
    mode: "anvil",
    transport: http(rpcUrl, { batch: false, retryCount: 0 }),
    pollingInterval: 20,
    // viem caches the block number for the polling interval unless told not to: a devnet's
    // head moves with every transaction, and a head 20 ms old is a block behind
    cacheTime: 0,
  })
    .extend(publicActions)
    .extend(walletActions)

export type DevnetClient = ReturnType<typeof devnetClient>
