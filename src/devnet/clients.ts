// viem clients for a devnet node: public reads, anvil cheats and unlocked-account writes.
import { createTestClient, defineChain, http, publicActions, walletActions, type Address } from "viem"
import { ARC_CHAIN_ID } from "./anvil.ts"

export const arcDevnet = (rpcUrl: string, multicall3?: Address) =>
  defineChain({
    id: ARC_CHAIN_ID,
    name: "Arc devnet",
    nativeCurrency: { name: "USDC", symbol: "USDC", decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
    ...(multicall3 ? { contracts: { multicall3: { address: multicall3 } } } : {}),
  })

export const devnetClient = (rpcUrl: string, multicall3?: Address) =>
  createTestClient({
    chain: arcDevnet(rpcUrl, multicall3),
    mode: "anvil",
    transport: http(rpcUrl, { batch: false, retryCount: 0 }),
    pollingInterval: 20,
  })
    .extend(publicActions)
    .extend(walletActions)

export type DevnetClient = ReturnType<typeof devnetClient>
