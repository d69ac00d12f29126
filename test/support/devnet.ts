// A devnet per test file: the default scenario (or another), a node on a free
// port, the chain state from the cache when it has been built before.
import { startDevnet, devnetClient, type DevnetOptions, type RunningDevnet, type DevnetClient } from "../../src/devnet/index.ts"

export interface TestDevnet extends RunningDevnet {
  readonly client: DevnetClient
}

export const startTestDevnet = async (options: Omit<DevnetOptions, "port"> = {}): Promise<TestDevnet> => {
  const devnet = await startDevnet({ ...options, port: 0 })
  return { ...devnet, client: devnetClient(devnet.node.rpcUrl, devnet.manifest.multicall3 as `0x${string}`, devnet.manifest.chainId) }
}
