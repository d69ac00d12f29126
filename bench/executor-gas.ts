// Gas of RouteExecutor.execute on a fresh devnet (default scenario):
//  - a single-hop V3 swap, beside the same swap through Uniswap's own SwapRouter
//    (v3-periphery's exactInputSingle): target within 15% of SwapRouter;
//  - a 2-split, 2-hop route mixing V2, V3 and V4.
// Both single-hop swaps go between two standard test tokens, from an account that holds both,
// to the same recipient, with unlimited allowances, after one warm-up swap each (so the fee
// collector already holds the output token, as it does in steady state). Each figure is the
// median gasUsed of several mined transactions.
import { encodeFunctionData, getAddress, maxUint256, type Abi, type Address, type Hex } from "viem"
import { uniswapArtifact, ownArtifact } from "../src/contracts/artifacts.ts"
import { encodeExecute, type ExecuteParams } from "../src/chain/execute-call.ts"
import type { Route, RouteHop } from "../src/chain/route-encoding.ts"
import { devnetClient } from "../src/devnet/clients.ts"
import { startDevnet } from "../src/devnet/devnet.ts"
import { testAccounts } from "../src/devnet/accounts.ts"
import type { Measurement } from "./measurement.ts"

/** A row of the bench table (bench/measurement.ts). */
export type GasMeasurement = Measurement

const ROUNDS = 5
const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

export async function run(): Promise<GasMeasurement[]> {
  const devnet = await startDevnet({ port: 0 })
  try {
    const m = devnet.manifest
    const client = devnetClient(devnet.node.rpcUrl)
    const erc20: Abi = ownArtifact("TestToken").abi
    const user = getAddress(testAccounts[0]!.address)
    const owner = getAddress(m.owner.address)
    const executor = getAddress(m.executor)
    const token = (symbol: string) => getAddress(m.tokens[symbol]!.address)

    const send = async (from: Address, to: Address, data: Hex) => {
      // an explicit limit (the node's estimate can fall short); gasUsed does not depend on it
      const hash = await client.sendTransaction({ account: from, to, data, gas: 3_000_000n, chain: client.chain })
      const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 20 })
      if (receipt.status !== "success") throw new Error(`transaction to ${to} reverted`)
      return Number(receipt.gasUsed)
    }
    const approve = (t: Address, spender: Address) =>
      send(user, t, encodeFunctionData({ abi: erc20, functionName: "approve", args: [spender, maxUint256] }))

    const swapRouterArtifact = uniswapArtifact("SwapRouter")
    const deployHash = await client.deployContract({
      abi: swapRouterArtifact.abi,
      bytecode: swapRouterArtifact.bytecode,
      args: [m.dexes["uniswap-v3"].factory, token("USDC")],
      account: owner,
      chain: client.chain,
    })
    const swapRouter = (await client.waitForTransactionReceipt({ hash: deployHash, pollingInterval: 20 })).contractAddress!

    const cirBTC = token("cirBTC")
    const WBTC = token("WBTC")
    const USDT = token("USDT")
    for (const t of [cirBTC, USDT]) {
      await approve(t, executor)
      await approve(t, swapRouter)
    }
    const protocolFeeBps = Number(await client.readContract({ address: executor, abi: ownArtifact("RouteExecutor").abi, functionName: "protocolFeeBps" }))
    const deadline = (await client.getBlock()).timestamp + 86_400n

    const amountIn = 100_000n // 0.001 cirBTC: stays inside one tick range
    const executeCall = (route: Route, tokenIn: Address, tokenOut: Address, amount: bigint): Hex => {
      const params: ExecuteParams = { tokenIn, tokenOut, amountIn: amount, minAmountOut: 0n, recipient: user, deadline, feeBps: 0, protocolFeeBps, route }
      return encodeExecute(params)
    }
    const v3Hop: RouteHop = { kind: "v3", tokenIn: cirBTC, tokenOut: WBTC, fee: 500 }
    const single = executeCall([{ shareBps: 10_000, hops: [v3Hop] }], cirBTC, WBTC, amountIn)
    const viaSwapRouter = encodeFunctionData({
      abi: swapRouterArtifact.abi,
      functionName: "exactInputSingle",
      args: [{ tokenIn: cirBTC, tokenOut: WBTC, fee: 500, recipient: user, deadline, amountIn, amountOutMinimum: 0n, sqrtPriceLimitX96: 0n }],
    })

    // USDT -> USDC: 60% V2 USDT/WETH then V3 WETH/USDC; 40% V4 USDT/EURC then V3 EURC/USDC
    const WETH = token("WETH")
    const EURC = token("EURC")
    const USDC = token("USDC")
    const eurcUsdt = m.pools.find((p) => p.dex === "uniswap-v4" && p.tokens.includes("USDT") && p.tokens.includes("EURC"))!
    const mixed: Route = [
      { shareBps: 6_000, hops: [{ kind: "v2", tokenIn: USDT, tokenOut: WETH }, { kind: "v3", tokenIn: WETH, tokenOut: USDC, fee: 500 }] },
      {
        shareBps: 4_000,
        hops: [
          { kind: "v4", tokenIn: USDT, tokenOut: EURC, fee: eurcUsdt.fee!, tickSpacing: eurcUsdt.tickSpacing!, hooks: getAddress(eurcUsdt.hooks!) },
          { kind: "v3", tokenIn: EURC, tokenOut: USDC, fee: 500 },
        ],
      },
    ]
    const splitCall = executeCall(mixed, USDT, USDC, 1_000_000_000n)

    // warm-up: the fee collector and the recipient hold the output tokens from here on
    await send(user, executor, single)
    await send(user, swapRouter, viaSwapRouter)
    await send(user, executor, splitCall)

    const executorGas: number[] = []
    const routerGas: number[] = []
    const splitGas: number[] = []
    for (let i = 0; i < ROUNDS; i++) {
      executorGas.push(await send(user, executor, single))
      routerGas.push(await send(user, swapRouter, viaSwapRouter))
      splitGas.push(await send(user, executor, splitCall))
    }

    // the same single-hop swap with the protocol fee at 0: the routing overhead alone
    const executorAbi = ownArtifact("RouteExecutor").abi
    await send(owner, executor, encodeFunctionData({ abi: executorAbi, functionName: "setProtocolFeeBps", args: [0] }))
    const noFee = encodeExecute({ tokenIn: cirBTC, tokenOut: WBTC, amountIn, minAmountOut: 0n, recipient: user, deadline, feeBps: 0, protocolFeeBps: 0, route: [{ shareBps: 10_000, hops: [v3Hop] }] })
    const noFeeGas: number[] = []
    const routerGas2: number[] = []
    for (let i = 0; i < ROUNDS; i++) {
      noFeeGas.push(await send(user, executor, noFee))
      routerGas2.push(await send(user, swapRouter, viaSwapRouter))
    }
    await send(owner, executor, encodeFunctionData({ abi: executorAbi, functionName: "setProtocolFeeBps", args: [protocolFeeBps] }))

    const executorSingle = median(executorGas)
    const routerSingle = median(routerGas)
    const executorNoFee = median(noFeeGas)
    const routerSingle2 = median(routerGas2)
    const pct = (a: number, b: number) => Number((((a - b) / b) * 100).toFixed(1))
    const overheadNoFee = pct(executorNoFee, routerSingle2)
    return [
      { name: "SwapRouter exactInputSingle gas", value: routerSingle, unit: "gas", note: "cirBTC->WBTC V3 0.05%, 0.001 cirBTC" },
      { name: "execute single-hop V3 gas, no fees", value: executorNoFee, unit: "gas", note: "protocol fee set to 0, no partner fee" },
      { name: "execute vs SwapRouter, single hop, no fees", value: overheadNoFee, unit: "%", target: "<= 15", met: overheadNoFee <= 15 },
      { name: `execute single-hop V3 gas, ${protocolFeeBps} bps protocol fee`, value: executorSingle, unit: "gas", note: "one more token transfer (to the fee collector)" },
      { name: `execute vs SwapRouter, single hop, ${protocolFeeBps} bps fee`, value: pct(executorSingle, routerSingle), unit: "%" },
      { name: "execute 2-split 2-hop (V2+V3 | V4+V3) gas", value: median(splitGas), unit: "gas", note: `USDT->USDC, ${protocolFeeBps} bps protocol fee` },
    ]
  } finally {
    await devnet.stop()
  }
}

if (import.meta.main) console.table(await run())
