// A relayer as a process of its own, for the test that kills it (SIGKILL):
// bun test/relayer/relayer-process.ts <sqlite file> <rpc url> <private key> <relayer address> [claim lease ms] [planning ms]
import { Effect, Layer } from "effect"
import type { Address, Hex } from "viem"
import { Database } from "../../src/database/index.ts"
import { ARC_CHAIN_ID } from "../../src/domain/index.ts"
import { RelayerLive, RelayerNode } from "../../src/relayer/index.ts"
import { emitterPlanner } from "./relayer-chain.ts"

const [path, rpcUrl, privateKey, address, leaseMs, planningMs] = process.argv.slice(2)
const layer = RelayerLive({ privateKey: privateKey as Hex, pollIntervalMs: 50, ...(leaseMs !== undefined ? { claimLeaseMs: Number(leaseMs) } : {}) }).pipe(
  Layer.provide(
    Layer.mergeAll(
      Database.layer({ kind: "sqlite", path: path! }),
      RelayerNode.layer({ urls: [rpcUrl!], chainId: ARC_CHAIN_ID }),
      emitterPlanner(address as Address, planningMs !== undefined ? { delayMs: Number(planningMs) } : {}),
    ),
  ),
)
process.stdout.write("started\n")
await Effect.runPromise(Layer.launch(layer))
