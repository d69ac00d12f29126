// The history fixture: a devnet whose chain has a long history, for measuring how fast the
// market becomes ready on it. About `pools` pools on every kind of venue (uniswap-v2 and a V2
// fork, uniswap-v3 and a V3 fork, uniswap-v4, Curve-style stable pools) are created in rounds
// spread over about `blocks` blocks, with `swaps` real swaps (through the route executor, so
// every pool emits its own Swap / TokenExchange events) spread over the same history.
//
// Where each part lives:
//  - fixture.ts: the options, the pools, the running fixture and its error
//  - plan.ts: the market planned before any chain (venues, tokens, pools, the scenario); random.ts its seeded chance
//  - build.ts: the build, round by round; transactions.ts the owner's transactions sent in batches
//    and mined; pool-creation.ts the transactions that create a pool; swaps.ts the swaps;
//    touch-pools.ts the swaps that make a later block
//  - empty-blocks.ts: the empty blocks between rounds, appended through anvil_loadState;
//    headers.ts the headers as anvil hashes them; header-hasher.ts the EVM program that hashes a
//    run of them in one eth_call, written with assembler.ts
//  - rpc-batch.ts: the JSON-RPC client that batches
//  - main.ts: the command line
export { startHistoryDevnet } from "./build.ts"
export { HISTORY_BLOCK_GAS_LIMIT, HistoryError, type HistoryDevnet, type HistoryOptions, type HistoryPool, type HistoryPoolKind } from "./fixture.ts"
export { fillerHeaderHash, realHeaderHash } from "./headers.ts"
export { poolSplit } from "./plan.ts"
