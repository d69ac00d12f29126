// Gas of RouteExecutor.execute on a fresh devnet (default scenario), per hop kind:
//  - a single-hop V3 swap, beside the same swap through Uniswap's own SwapRouter
//    (v3-periphery's exactInputSingle): target within 10% of SwapRouter;
//  - a single-hop V2 swap and a single-hop V4 swap (venues 1 and 3);
//  - a single stable-pool hop, beside the same swap through the pool's own exchange() called
//    directly (a StableSwapPool of USDT and EURC deployed and registered here);
//  - a 2-split, 2-hop route mixing V2, V3 and V4;
//  - executeExactOutput beside execute, a single hop per venue kind (V2, V3, V4, stable kind 6),
//    no fees, for the output the exact-input swap gives (maxAmountIn twice its input);
//  - executeExactOutput through the devnet aggregator's router (kind 7: Uniswap's SwapRouter
//    exactOutputSingle on the aggregator's own WETH/USDT pool, 1000 USDT for at most 0.3 WETH, the
//    ceiling pulled and the rest paid back), beside the same call made by the user directly;
//  - permitAndCall(execute) on a single-hop V3 swap of EURC (a permit token), no fees, each with a
//    fresh permit for exactly its input (the allowance goes 0 -> input -> 0), from a second
//    account, beside the same execute with a standing unlimited allowance.
// Every swap goes between two standard test tokens, from an account that holds both, to the
// same recipient, with unlimited allowances, after one warm-up swap each (so the fee collector
// already holds the output token, as it does in steady state). Each figure is the median
// gasUsed of several mined transactions. Hops name the devnet's venues by their executor ids.
import { encodeFunctionData, getAddress, maxUint256, parseAbi, type Abi, type Address, type Hex } from "viem"
import { uniswapArtifact, ownArtifact } from "../src/contracts/artifacts.ts"
import { encodeExecute, type ExecuteParams } from "../src/chain/execute-call.ts"
import { encodeExecuteExactOutput } from "../src/chain/exact-output-call.ts"
import { encodePermitAndCall } from "../src/chain/permit-call.ts"
import { permitTypedData } from "../src/domain/permit.ts"
import { privateKeyToAccount } from "viem/accounts"
import type { Route, RouteHop } from "../src/chain/route-encoding.ts"
import { devnetClient } from "../src/devnet/clients.ts"
import { startDevnet } from "../src/devnet/devnet.ts"
import { testAccounts } from "../src/devnet/accounts.ts"
import { executorVenueIds, isPairPool, manifestVenue } from "../src/devnet/manifest.ts"
import type { Measurement } from "./measurement.ts"

/** A row of the bench table (bench/measurement.ts). */
export type GasMeasurement = Measurement

const ROUNDS = 5
const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const stableAbi = parseAbi([
  "function add_liquidity(uint256[2], uint256) returns (uint256)",
  "function exchange(int128, int128, uint256, uint256) returns (uint256)",
])

export async function run(): Promise<GasMeasurement[]> {
  const devnet = await startDevnet({ port: 0 })
  try {
    const m = devnet.manifest
    const client = devnetClient(devnet.node.rpcUrl)
    const erc20: Abi = ownArtifact("TestToken").abi
    const executorAbi = ownArtifact("RouteExecutor").abi
    const user = getAddress(testAccounts[0]!.address)
    const owner = getAddress(m.owner.address)
    const executor = getAddress(m.executor)
    const token = (symbol: string) => getAddress(m.tokens[symbol]!.address)
    const venue = (name: string) => executorVenueIds(m).get(name)!

    const send = async (from: Address, to: Address, data: Hex) => {
      // an explicit limit (the node's estimate can fall short); gasUsed does not depend on it
      const hash = await client.sendTransaction({ account: from, to, data, gas: 3_000_000n, chain: client.chain })
      const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 20 })
      if (receipt.status !== "success") throw new Error(`transaction to ${to} reverted`)
      return Number(receipt.gasUsed)
    }
    const deploy = async (artifact: { abi: Abi; bytecode: Hex }, args: readonly unknown[]) => {
      const hash = await client.deployContract({ abi: artifact.abi, bytecode: artifact.bytecode, args, account: owner, chain: client.chain })
      return getAddress((await client.waitForTransactionReceipt({ hash, pollingInterval: 20 })).contractAddress!)
    }
    const approve = (from: Address, t: Address, spender: Address) =>
      send(from, t, encodeFunctionData({ abi: erc20, functionName: "approve", args: [spender, maxUint256] }))

    const swapRouterArtifact = uniswapArtifact("SwapRouter")
    const swapRouter = await deploy(swapRouterArtifact, [manifestVenue(m, "uniswap-v3", "uniswap-v3").factory, token("USDC")])

    const cirBTC = token("cirBTC")
    const WBTC = token("WBTC")
    const USDT = token("USDT")
    const WETH = token("WETH")
    const EURC = token("EURC")
    const USDC = token("USDC")

    // a StableSwapPool of USDT and EURC (A 500, 4 bps), 1,000,000 of each from the owner, registered on the executor
    const stablePool = await deploy(ownArtifact("StableSwapPool"), [[USDT, EURC], 500n, 4_000_000n])
    for (const t of [USDT, EURC]) {
      await send(owner, t, encodeFunctionData({ abi: erc20, functionName: "mint", args: [owner, 10n ** 12n] }))
      await approve(owner, t, stablePool)
    }
    await send(owner, stablePool, encodeFunctionData({ abi: stableAbi, functionName: "add_liquidity", args: [[10n ** 12n, 10n ** 12n], 0n] }))
    await send(owner, executor, encodeFunctionData({ abi: executorAbi, functionName: "setStablePool", args: [stablePool, true] }))

    for (const t of [cirBTC, USDT, WETH]) await approve(user, t, executor)
    for (const t of [cirBTC, USDT]) await approve(user, t, swapRouter)
    await approve(user, USDT, stablePool)
    const protocolFeeBps = Number(await client.readContract({ address: executor, abi: executorAbi, functionName: "protocolFeeBps" }))
    const deadline = (await client.getBlock()).timestamp + 86_400n

    const amountIn = 100_000n // 0.001 cirBTC: stays inside one tick range
    const executeCall = (route: Route, tokenIn: Address, tokenOut: Address, amount: bigint, feeBps = protocolFeeBps): Hex => {
      const params: ExecuteParams = { tokenIn, tokenOut, amountIn: amount, minAmountOut: 0n, recipient: user, deadline, feeBps: 0, protocolFeeBps: feeBps, route }
      return encodeExecute(params)
    }
    const v3Hop: RouteHop = { kind: "v3", venue: venue("uniswap-v3"), tokenIn: cirBTC, tokenOut: WBTC, fee: 500 }
    const single = executeCall([{ shareBps: 10_000, hops: [v3Hop] }], cirBTC, WBTC, amountIn)
    const viaSwapRouter = encodeFunctionData({
      abi: swapRouterArtifact.abi,
      functionName: "exactInputSingle",
      args: [{ tokenIn: cirBTC, tokenOut: WBTC, fee: 500, recipient: user, deadline, amountIn, amountOutMinimum: 0n, sqrtPriceLimitX96: 0n }],
    })

    // USDT -> USDC: 60% V2 USDT/WETH then V3 WETH/USDC; 40% V4 USDT/EURC then V3 EURC/USDC
    const eurcUsdt = m.pools.filter(isPairPool).find((p) => p.dex === "uniswap-v4" && p.tokens.includes("USDT") && p.tokens.includes("EURC"))!
    const v4Hop: RouteHop = { kind: "v4", venue: venue("uniswap-v4"), tokenIn: USDT, tokenOut: EURC, fee: eurcUsdt.fee!, tickSpacing: eurcUsdt.tickSpacing!, hooks: getAddress(eurcUsdt.hooks!) }
    const v2Hop: RouteHop = { kind: "v2", venue: venue("uniswap-v2"), tokenIn: USDT, tokenOut: WETH }
    const mixed: Route = [
      { shareBps: 6_000, hops: [v2Hop, { kind: "v3", venue: venue("uniswap-v3"), tokenIn: WETH, tokenOut: USDC, fee: 500 }] },
      { shareBps: 4_000, hops: [v4Hop, { kind: "v3", venue: venue("uniswap-v3"), tokenIn: EURC, tokenOut: USDC, fee: 500 }] },
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

    // the same single-hop swaps with the protocol fee at 0: the routing overhead alone, per kind
    await send(owner, executor, encodeFunctionData({ abi: executorAbi, functionName: "setProtocolFeeBps", args: [0] }))
    const one = (hop: RouteHop, amount: bigint) => executeCall([{ shareBps: 10_000, hops: [hop] }], hop.tokenIn, hop.tokenOut, amount, 0)
    const noFee = one(v3Hop, amountIn)
    const v2NoFee = one(v2Hop, 100_000_000n)
    const v4NoFee = one(v4Hop, 100_000_000n)
    const stableNoFee = one({ kind: "stable", tokenIn: USDT, tokenOut: EURC, pool: stablePool }, 100_000_000n)
    // the pool's own exchange(USDT -> EURC), called by the user
    const direct = encodeFunctionData({ abi: stableAbi, functionName: "exchange", args: [0n, 1n, 100_000_000n, 0n] })
    for (const call of [v2NoFee, v4NoFee, stableNoFee]) await send(user, executor, call)
    await send(user, stablePool, direct)
    // exact output, the same hops: the output each exact-input swap gives now, at most twice its input
    const outputOf = async (call: Hex) => BigInt((await client.call({ account: user, to: executor, data: call })).data!)
    const exactOutput = async (hop: RouteHop, amount: bigint) => {
      const amountOut = await outputOf(one(hop, amount))
      const route: Route = [{ shareBps: 10_000, hops: [hop.kind === "stable" ? { kind: "stableExactOutput", tokenIn: hop.tokenIn, tokenOut: hop.tokenOut, pool: hop.pool, dxHint: amount } : hop] }]
      return encodeExecuteExactOutput({ tokenIn: hop.tokenIn, tokenOut: hop.tokenOut, amountOut, maxAmountIn: 2n * amount, recipient: user, deadline, feeBps: 0, protocolFeeBps: 0, route })
    }
    const stableHop: RouteHop = { kind: "stable", tokenIn: USDT, tokenOut: EURC, pool: stablePool }
    const exactOutputCalls = {
      v2: await exactOutput(v2Hop, 100_000_000n),
      v3: await exactOutput(v3Hop, amountIn),
      v4: await exactOutput(v4Hop, 100_000_000n),
      stable: await exactOutput(stableHop, 100_000_000n),
    }
    for (const call of Object.values(exactOutputCalls)) await send(user, executor, call)

    // exact output through the aggregator's router: 1000 USDT out of its own pool for at most 0.3 WETH
    const aggregatorRouter = getAddress(m.aggregatorDex!.router)
    const aggregatorFee = m.aggregatorDex!.pools.find((p) => p.tokens.includes("WETH") && p.tokens.includes("USDT"))!.fee!
    const buyOut = 1_000_000_000n
    const buyCeiling = 3n * 10n ** 17n
    const buyData = (recipient: Address) =>
      encodeFunctionData({
        abi: swapRouterArtifact.abi,
        functionName: "exactOutputSingle",
        args: [{ tokenIn: WETH, tokenOut: USDT, fee: aggregatorFee, recipient, deadline, amountOut: buyOut, amountInMaximum: buyCeiling, sqrtPriceLimitX96: 0n }],
      })
    const externalExactOutput = encodeExecuteExactOutput({
      tokenIn: WETH,
      tokenOut: USDT,
      amountOut: buyOut,
      maxAmountIn: buyCeiling,
      recipient: user,
      deadline,
      feeBps: 0,
      protocolFeeBps: 0,
      route: [{ shareBps: 10_000, hops: [{ kind: "externalExactOutput", tokenIn: WETH, tokenOut: USDT, router: aggregatorRouter, maxAmountIn: buyCeiling, data: buyData(executor) }] }],
    })
    const directBuy = buyData(user)
    await approve(user, WETH, aggregatorRouter)
    await send(user, executor, externalExactOutput)
    await send(user, aggregatorRouter, directBuy)

    // EURC -> USDC on V3: with a standing allowance (user), and with a fresh permit each time (permitter)
    const permitter = privateKeyToAccount(testAccounts[1]!.privateKey)
    const eurcHop: RouteHop = { kind: "v3", venue: venue("uniswap-v3"), tokenIn: EURC, tokenOut: USDC, fee: 500 }
    const eurcIn = 100_000_000n
    const eurcSwap = (recipient: Address) =>
      encodeExecute({ tokenIn: EURC, tokenOut: USDC, amountIn: eurcIn, minAmountOut: 0n, recipient, deadline, feeBps: 0, protocolFeeBps: 0, route: [{ shareBps: 10_000, hops: [eurcHop] }] })
    const eurcPermit = m.tokens.EURC!.permit!
    const permitSwap = async () => {
      const nonce = (await client.readContract({ address: EURC, abi: ownArtifact("PermitToken").abi, functionName: "nonces", args: [permitter.address] })) as bigint
      const typed = permitTypedData({ token: EURC, name: eurcPermit.name, version: eurcPermit.version, chainId: m.chainId, owner: permitter.address, spender: executor, value: eurcIn, nonce, deadline })
      const signature = await permitter.signTypedData(typed)
      return encodePermitAndCall({ token: EURC, value: eurcIn, deadline, signature }, eurcSwap(permitter.address))
    }
    await approve(user, EURC, executor)
    await send(user, executor, eurcSwap(user))
    await send(permitter.address, executor, await permitSwap())
    const eurcGas: number[] = []
    const permitGas: number[] = []
    const exactOutputGas = { v2: [] as number[], v3: [] as number[], v4: [] as number[], stable: [] as number[] }
    const externalExactOutputGas: number[] = []
    const directBuyGas: number[] = []
    const noFeeGas: number[] = []
    const routerGas2: number[] = []
    const v2Gas: number[] = []
    const v4Gas: number[] = []
    const stableGas: number[] = []
    const directGas: number[] = []
    for (let i = 0; i < ROUNDS; i++) {
      noFeeGas.push(await send(user, executor, noFee))
      routerGas2.push(await send(user, swapRouter, viaSwapRouter))
      v2Gas.push(await send(user, executor, v2NoFee))
      v4Gas.push(await send(user, executor, v4NoFee))
      stableGas.push(await send(user, executor, stableNoFee))
      directGas.push(await send(user, stablePool, direct))
      for (const kind of ["v2", "v3", "v4", "stable"] as const) exactOutputGas[kind].push(await send(user, executor, exactOutputCalls[kind]))
      externalExactOutputGas.push(await send(user, executor, externalExactOutput))
      directBuyGas.push(await send(user, aggregatorRouter, directBuy))
      eurcGas.push(await send(user, executor, eurcSwap(user)))
      permitGas.push(await send(permitter.address, executor, await permitSwap()))
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
      { name: "execute vs SwapRouter, single hop, no fees", value: overheadNoFee, unit: "%", target: "<= 10", met: overheadNoFee <= 10 },
      { name: `execute single-hop V3 gas, ${protocolFeeBps} bps protocol fee`, value: executorSingle, unit: "gas", note: "one more token transfer (to the fee collector)" },
      { name: `execute vs SwapRouter, single hop, ${protocolFeeBps} bps fee`, value: pct(executorSingle, routerSingle), unit: "%" },
      { name: "execute single-hop V2 gas, no fees", value: median(v2Gas), unit: "gas", note: "USDT->WETH, 100 USDT" },
      { name: "execute single-hop V4 gas, no fees", value: median(v4Gas), unit: "gas", note: "USDT->EURC, 100 USDT, one unlock" },
      { name: "StableSwapPool exchange gas (direct)", value: median(directGas), unit: "gas", note: "USDT->EURC, 100 USDT, the user calling the pool" },
      { name: "execute single-hop stable gas, no fees", value: median(stableGas), unit: "gas", note: "the same swap through the executor" },
      { name: "execute vs exchange, stable hop, no fees", value: pct(median(stableGas), median(directGas)), unit: "%" },
      { name: "execute 2-split 2-hop (V2+V3 | V4+V3) gas", value: median(splitGas), unit: "gas", note: `USDT->USDC, ${protocolFeeBps} bps protocol fee` },
      { name: "executeExactOutput single-hop V2 gas, no fees", value: median(exactOutputGas.v2), unit: "gas", note: `exact input: ${median(v2Gas)}` },
      { name: "executeExactOutput single-hop V3 gas, no fees", value: median(exactOutputGas.v3), unit: "gas", note: `exact input: ${executorNoFee}` },
      { name: "executeExactOutput single-hop V4 gas, no fees", value: median(exactOutputGas.v4), unit: "gas", note: `exact input: ${median(v4Gas)}` },
      { name: "executeExactOutput single-hop stable (kind 6) gas, no fees", value: median(exactOutputGas.stable), unit: "gas", note: `exact input: ${median(stableGas)}` },
      {
        name: "executeExactOutput external router (kind 7) gas, no fees",
        value: median(externalExactOutputGas),
        unit: "gas",
        note: `WETH->USDT, 1000 USDT via the devnet aggregator's SwapRouter.exactOutputSingle; the same call by the user directly: ${median(directBuyGas)}`,
      },
      { name: "execute single-hop V3 gas, EURC, no fees", value: median(eurcGas), unit: "gas", note: "EURC->USDC, 100 EURC, standing allowance" },
      {
        name: "permitAndCall + execute single-hop V3 gas, no fees",
        value: median(permitGas),
        unit: "gas",
        note: `the same swap after a fresh permit for its input; +${median(permitGas) - median(eurcGas)} over execute`,
      },
    ]
  } finally {
    await devnet.stop()
  }
}

if (import.meta.main) console.table(await run())
