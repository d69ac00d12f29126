// The history fixture from the command line: builds it, prints what it holds and how long each
// phase took, then stops (or keeps the node running until Ctrl-C with --keep).
import { startHistoryDevnet } from "./build.ts"

/** `bun bench/market-history/main.ts [--pools N] [--blocks N] [--swaps N] [--rounds N] [--manifest FILE] [--keep]`: builds, prints timings, stops (or runs until Ctrl-C with --keep). */
if (import.meta.main) {
  const arg = (name: string, fallback: number) => {
    const i = process.argv.indexOf(`--${name}`)
    return i > 0 ? Number(process.argv[i + 1]) : fallback
  }
  const manifestIndex = process.argv.indexOf("--manifest")
  const fixture = await startHistoryDevnet({
    pools: arg("pools", 2000),
    blocks: arg("blocks", 1_000_000),
    swaps: arg("swaps", 50_000),
    ...(process.argv.includes("--rounds") ? { rounds: arg("rounds", 50) } : {}),
    ...(manifestIndex > 0 ? { manifestPath: process.argv[manifestIndex + 1]! } : {}),
    log: (line) => console.error(line),
  })
  console.log(JSON.stringify({
    rpcUrl: fixture.devnet.node.rpcUrl,
    pools: fixture.poolCount,
    swapsMade: fixture.swapsMade,
    fromBlock: fixture.fromBlock.toString(),
    headBlock: fixture.headBlock.toString(),
    creationBlocks: { first: fixture.creationBlocks.first.toString(), last: fixture.creationBlocks.last.toString() },
    timings: fixture.timings,
  }, null, 2))
  if (process.argv.includes("--keep")) {
    const stop = () => void fixture.stop().then(() => process.exit(0))
    process.on("SIGINT", stop)
    process.on("SIGTERM", stop)
  } else {
    await fixture.stop()
  }
}
