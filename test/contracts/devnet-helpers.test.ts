// The devnet's helper contracts on a real node: test tokens, price feed, Multicall3 and the
// Uniswap V3 / V4 liquidity providers against Uniswap's own compiled contracts.
import { afterAll, beforeAll, describe, expect, test } from "bun:test"
import {
  type Abi,
  type Address,
  type Hex,
  BaseError,
  decodeErrorResult,
  decodeEventLog,
  decodeFunctionResult,
  encodeAbiParameters,
  encodeFunctionData,
  getAddress,
  keccak256,
  parseEther,
  parseEventLogs,
  toHex,
  zeroAddress,
} from "viem"
import { ownArtifact, uniswapArtifact } from "../../src/contracts/artifacts.ts"
import { USDC_ADDRESS, USDC_SCALE, installArcUsdc } from "../../src/devnet/usdc.ts"
import { revertOf, type TestChain, type Wallet, startTestChain } from "../devnet/test-chain.ts"

const TestToken = ownArtifact("TestToken")
const FeeOnTransferToken = ownArtifact("FeeOnTransferToken")
const RebasingToken = ownArtifact("RebasingToken")
const PriceFeed = ownArtifact("PriceFeed")
const Multicall3 = ownArtifact("Multicall3")
const Probe = ownArtifact("TokenTransferProbe")
const V3Provider = ownArtifact("V3LiquidityProvider")
const V4Provider = ownArtifact("V4LiquidityProvider")
const erc20 = TestToken.abi

let t: TestChain
let owner: Wallet
let alice: Address
let bob: Address

const read = <T>(address: Address, abi: Abi, functionName: string, args: ReadonlyArray<unknown> = []) =>
  t.publicClient.readContract({ address, abi, functionName, args } as never) as Promise<T>
const balanceOf = (token: Address, account: Address) => read<bigint>(token, erc20, "balanceOf", [account])
const write = (wallet: Wallet, address: Address, abi: Abi, functionName: string, args: ReadonlyArray<unknown> = []) =>
  t.write(wallet, { address, abi, functionName, args })
/** Simulates a call and returns its result (the state is not changed). */
const simulate = async <T>(wallet: Wallet, address: Address, abi: Abi, functionName: string, args: ReadonlyArray<unknown> = []) =>
  (await t.publicClient.simulateContract({ account: wallet.account, address, abi, functionName, args } as never)).result as T

const revertOfCall = (wallet: Wallet, address: Address, abi: Abi, functionName: string, args: ReadonlyArray<unknown> = []) =>
  revertOf(() => simulate(wallet, address, abi, functionName, args))

/** Runs TokenTransferProbe.probe as if `holder` sent `amount` of `token` to `to` (eth_call, code override). */
const probeTransfer = async (token: Address, holder: Address, to: Address, amount: bigint, time?: bigint) => {
  const { data } = await t.publicClient.call({
    to: holder,
    data: encodeFunctionData({ abi: Probe.abi, functionName: "probe", args: [token, to, amount] }),
    stateOverride: [{ address: holder, code: Probe.deployedBytecode }],
    ...(time !== undefined ? { blockOverrides: { time } } : {}),
  })
  const [sent, received] = decodeFunctionResult({ abi: Probe.abi, functionName: "probe", data: data! }) as readonly [bigint, bigint]
  return { sent, received }
}

/** balanceOf in an eth_call whose block timestamp is overridden. */
const balanceAt = async (token: Address, account: Address, time: bigint) => {
  const { data } = await t.publicClient.call({
    to: token,
    data: encodeFunctionData({ abi: erc20, functionName: "balanceOf", args: [account] }),
    blockOverrides: { time },
  })
  return decodeFunctionResult({ abi: erc20, functionName: "balanceOf", data: data! }) as bigint
}

const latestTimestamp = async () => (await t.publicClient.getBlock()).timestamp

beforeAll(async () => {
  t = await startTestChain()
  owner = t.wallets[0]!
  ;[, alice, bob] = t.accounts as [Address, Address, Address]
  await installArcUsdc(t.testClient)
})

afterAll(async () => {
  await t?.stop()
})

describe("TestToken", () => {
  let token: Address
  beforeAll(async () => {
    token = await t.deploy(TestToken, ["Euro Coin", "EURC", 6])
  })

  test("metadata and deployer-only mint", async () => {
    expect(await read(token, erc20, "name")).toBe("Euro Coin")
    expect(await read(token, erc20, "symbol")).toBe("EURC")
    expect(await read(token, erc20, "decimals")).toBe(6)
    expect(await read(token, erc20, "owner")).toBe(owner.account.address)
    const receipt = await write(owner, token, erc20, "mint", [alice, 5_000_000n])
    expect(decodeEventLog({ abi: erc20, ...receipt.logs[0]! }).args as unknown).toEqual({ from: zeroAddress, to: alice, value: 5_000_000n })
    expect(await balanceOf(token, alice)).toBe(5_000_000n)
    expect(await read(token, erc20, "totalSupply")).toBe(5_000_000n)
    expect(await revertOfCall(t.wallets[1]!, token, erc20, "mint", [alice, 1n])).toEqual({ name: "Unauthorized", args: [alice] })
  })

  test("transfer, approve, transferFrom with exact amounts", async () => {
    await write(t.wallets[1]!, token, erc20, "transfer", [bob, 1_000_000n])
    expect(await balanceOf(token, alice)).toBe(4_000_000n)
    expect(await balanceOf(token, bob)).toBe(1_000_000n)
    await write(t.wallets[1]!, token, erc20, "approve", [bob, 1_500_000n])
    await write(t.wallets[2]!, token, erc20, "transferFrom", [alice, bob, 1_000_000n])
    expect(await read(token, erc20, "allowance", [alice, bob])).toBe(500_000n)
    expect(await balanceOf(token, bob)).toBe(2_000_000n)
    expect(await revertOfCall(t.wallets[2]!, token, erc20, "transferFrom", [alice, bob, 500_001n])).toEqual({
      name: "ERC20InsufficientAllowance",
      args: [bob, 500_000n, 500_001n],
    })
    expect(await revertOfCall(t.wallets[1]!, token, erc20, "transfer", [bob, 3_000_001n])).toEqual({
      name: "ERC20InsufficientBalance",
      args: [alice, 3_000_000n, 3_000_001n],
    })
    // an infinite allowance stays infinite
    const max = 2n ** 256n - 1n
    await write(t.wallets[1]!, token, erc20, "approve", [bob, max])
    await write(t.wallets[2]!, token, erc20, "transferFrom", [alice, bob, 1n])
    expect(await read(token, erc20, "allowance", [alice, bob])).toBe(max)
  })

  test("balances live in slot 0 as documented (state override)", async () => {
    const someone = getAddress("0x000000000000000000000000000000000000beef")
    const slot = keccak256(encodeAbiParameters([{ type: "address" }, { type: "uint256" }], [someone, 0n]))
    const { data } = await t.publicClient.call({
      to: token,
      data: encodeFunctionData({ abi: erc20, functionName: "balanceOf", args: [someone] }),
      stateOverride: [{ address: token, stateDiff: [{ slot, value: toHex(424_242n, { size: 32 }) }] }],
    })
    expect(decodeFunctionResult({ abi: erc20, functionName: "balanceOf", data: data! })).toBe(424_242n)
  })

  test("the transfer probe sees a standard token deliver exactly", async () => {
    expect(await probeTransfer(token, alice, getAddress("0x000000000000000000000000000000000000c0de"), 123_457n)).toEqual({
      sent: 123_457n,
      received: 123_457n,
    })
  })

  test("a standard token's balance does not move with time", async () => {
    const now = await latestTimestamp()
    expect(await balanceAt(token, alice, now + 365n * 86_400n)).toBe(await balanceAt(token, alice, now))
  })
})

describe("FeeOnTransferToken", () => {
  let tax: Address
  const abi = FeeOnTransferToken.abi
  beforeAll(async () => {
    tax = await t.deploy(FeeOnTransferToken, ["Taxed", "TAX", 18, 100])
    await write(owner, tax, abi, "mint", [alice, parseEther("1000")])
  })

  test("minting takes no fee", async () => {
    expect(await balanceOf(tax, alice)).toBe(parseEther("1000"))
    expect(await read(tax, abi, "feeBps")).toBe(100)
  })

  test("transfer delivers amount − amount × 1% and burns the fee", async () => {
    const receipt = await write(t.wallets[1]!, tax, abi, "transfer", [bob, parseEther("100")])
    expect(await balanceOf(tax, alice)).toBe(parseEther("900"))
    expect(await balanceOf(tax, bob)).toBe(parseEther("99"))
    expect(await read(tax, abi, "totalSupply")).toBe(parseEther("999"))
    expect(parseEventLogs({ abi, logs: receipt.logs }).map((l) => l.args)).toEqual([
      { from: alice, to: bob, value: parseEther("99") },
      { from: alice, to: zeroAddress, value: parseEther("1") },
    ])
  })

  test("transferFrom takes the same fee; the fee rounds down", async () => {
    await write(t.wallets[1]!, tax, abi, "approve", [bob, parseEther("10")])
    const to = getAddress("0x000000000000000000000000000000000000f00d")
    await write(t.wallets[2]!, tax, abi, "transferFrom", [alice, to, 12_345n])
    // fee = floor(12345 × 100 / 10000) = 123
    expect(await balanceOf(tax, to)).toBe(12_222n)
    expect(await read(tax, abi, "allowance", [alice, bob])).toBe(parseEther("10") - 12_345n)
    // below 100 units the fee rounds to zero
    await write(t.wallets[1]!, tax, abi, "transfer", [to, 99n])
    expect(await balanceOf(tax, to)).toBe(12_321n)
  })

  test("detected by the transfer probe: sent x, received x − fee", async () => {
    const x = parseEther("3")
    expect(await probeTransfer(tax, alice, getAddress("0x000000000000000000000000000000000000fee5"), x)).toEqual({
      sent: x,
      received: parseEther("2.97"),
    })
  })

  test("a fee above 100% is refused at deployment", async () => {
    await expect(t.deploy(FeeOnTransferToken, ["Bad", "BAD", 18, 10_001])).rejects.toThrow()
  })
})

describe("RebasingToken", () => {
  const abi = RebasingToken.abi
  const ONE = 10n ** 18n
  // 10% a year, linear: floor(1e17 / 31,536,000 s)
  const RATE = 3_170_979_198n
  const YEAR = 365n * 86_400n
  let reb: Address
  let t0: bigint
  const index = (time: bigint) => ONE + (time - t0) * RATE

  beforeAll(async () => {
    t0 = (await latestTimestamp()) + 1_000n
    await t.testClient.setNextBlockTimestamp({ timestamp: t0 })
    reb = await t.deploy(RebasingToken, ["Rebasing", "REB", 18])
    await t.testClient.setNextBlockTimestamp({ timestamp: t0 + 100n })
    await write(owner, reb, abi, "mint", [alice, parseEther("1000")])
  })

  test("the rate and the index follow the documented formula", async () => {
    expect(await read(reb, abi, "RATE")).toBe(RATE)
    expect(await read(reb, abi, "startTime")).toBe(t0)
    expect(await read(reb, abi, "index")).toBe(index(t0 + 100n))
  })

  test("mint converts to shares, rounding down", async () => {
    // shares = floor(1000e18 × 1e18 / index(t0 + 100))
    const shares = (parseEther("1000") * ONE) / index(t0 + 100n)
    expect(shares).toBe(999_999_682_902_180_751_058n)
    expect(await read(reb, abi, "sharesOf", [alice])).toBe(shares)
    expect(await balanceAt(reb, alice, t0 + 100n)).toBe(parseEther("1000") - 1n)
  })

  test("detected by time: the balance grows between two simulated timestamps", async () => {
    const shares = 999_999_682_902_180_751_058n
    const now = await balanceAt(reb, alice, t0 + 100n)
    const later = await balanceAt(reb, alice, t0 + 100n + YEAR)
    expect(later).toBe((shares * index(t0 + 100n + YEAR)) / ONE)
    expect(later - now).toBeGreaterThan(parseEther("99"))
    expect(await read(reb, abi, "totalSupply")).toBe((shares * index(await latestTimestamp())) / ONE)
  })

  test("detected by transfer: what arrives is not exactly what was sent", async () => {
    const time = t0 + 200n
    const x = ONE
    const shares = (x * ONE) / index(time)
    const delivered = (shares * index(time)) / ONE
    expect(delivered).toBe(x - 1n)
    expect((await probeTransfer(reb, alice, getAddress("0x000000000000000000000000000000000000dead"), x, time)).received).toBe(delivered)
    // and on chain
    await t.testClient.setNextBlockTimestamp({ timestamp: time })
    await write(t.wallets[1]!, reb, abi, "transfer", [bob, x])
    expect(await read(reb, abi, "sharesOf", [bob])).toBe(shares)
    expect(await balanceAt(reb, bob, time)).toBe(x - 1n)
  })

  test("cannot send more than the balance shows", async () => {
    const time = (await latestTimestamp()) + 1n
    const balance = await balanceAt(reb, bob, time)
    await t.testClient.setNextBlockTimestamp({ timestamp: time })
    await t.testClient.mine({ blocks: 1 })
    expect(await revertOfCall(t.wallets[2]!, reb, abi, "transfer", [alice, balance + 1n])).toEqual({
      name: "ERC20InsufficientBalance",
      args: [bob, balance, balance + 1n],
    })
  })
})

describe("PriceFeed", () => {
  const abi = PriceFeed.abi
  let feed: Address
  let deployedAt: bigint

  beforeAll(async () => {
    feed = await t.deploy(PriceFeed, [8, "EURC / USD", 116_000_000n])
    deployedAt = await latestTimestamp()
  })

  test("AggregatorV3Interface metadata", async () => {
    expect(await read(feed, abi, "decimals")).toBe(8)
    expect(await read(feed, abi, "description")).toBe("EURC / USD")
    expect(await read(feed, abi, "version")).toBe(4n)
  })

  test("the constructor's answer is round 1", async () => {
    expect(await read(feed, abi, "latestRoundData")).toEqual([1n, 116_000_000n, deployedAt, deployedAt, 1n])
    expect(await read(feed, abi, "getRoundData", [1n])).toEqual([1n, 116_000_000n, deployedAt, deployedAt, 1n])
  })

  test("setAnswer opens the next round at the block timestamp; old rounds stay", async () => {
    const time = (await latestTimestamp()) + 60n
    await t.testClient.setNextBlockTimestamp({ timestamp: time })
    await write(owner, feed, abi, "setAnswer", [-5n])
    expect(await read(feed, abi, "latestRoundData")).toEqual([2n, -5n, time, time, 2n])
    expect(await read(feed, abi, "getRoundData", [1n])).toEqual([1n, 116_000_000n, deployedAt, deployedAt, 1n])
    expect(await read(feed, abi, "latestAnswer")).toBe(-5n)
    expect(await revertOfCall(owner, feed, abi, "getRoundData", [3n])).toEqual({ name: "NoDataPresent", args: [3n] })
    expect(await revertOfCall(owner, feed, abi, "getRoundData", [0n])).toEqual({ name: "NoDataPresent", args: [0n] })
  })

  test("only the deployer sets answers", async () => {
    expect(await revertOfCall(t.wallets[1]!, feed, abi, "setAnswer", [1n])).toEqual({ name: "Unauthorized", args: [alice] })
  })
})

describe("Multicall3", () => {
  const abi = Multicall3.abi
  let multicall: Address
  let token: Address

  beforeAll(async () => {
    multicall = await t.deploy(Multicall3)
    token = await t.deploy(TestToken, ["Tether", "USDT", 6])
    await write(owner, token, erc20, "mint", [alice, 777n])
  })

  test("aggregate3 returns each call's result; failures are reported when allowed", async () => {
    const transfer = encodeFunctionData({ abi: erc20, functionName: "transfer", args: [bob, 1n] })
    const results = await simulate<ReadonlyArray<{ success: boolean; returnData: Hex }>>(owner, multicall, abi, "aggregate3", [
      [
        { target: token, allowFailure: false, callData: encodeFunctionData({ abi: erc20, functionName: "balanceOf", args: [alice] }) },
        { target: token, allowFailure: true, callData: transfer },
        { target: multicall, allowFailure: false, callData: encodeFunctionData({ abi, functionName: "getEthBalance", args: [bob] }) },
      ],
    ])
    expect(results).toHaveLength(3)
    expect(results[0]).toEqual({ success: true, returnData: toHex(777n, { size: 32 }) })
    // the multicall itself holds no tokens
    expect(results[1]!.success).toBe(false)
    expect(decodeErrorResult({ abi: erc20, data: results[1]!.returnData })).toMatchObject({
      errorName: "ERC20InsufficientBalance",
      args: [multicall, 0n, 1n],
    })
    expect(results[2]).toEqual({ success: true, returnData: toHex(await t.publicClient.getBalance({ address: bob }), { size: 32 }) })
  })

  test("a failure that is not allowed reverts the batch with the call's own error", async () => {
    const transfer = encodeFunctionData({ abi: erc20, functionName: "transfer", args: [bob, 1n] })
    const error = await revertOfCall(owner, multicall, [...abi, ...erc20.filter((x) => x.type === "error")], "aggregate3", [
      [{ target: token, allowFailure: false, callData: transfer }],
    ])
    expect(error).toEqual({ name: "ERC20InsufficientBalance", args: [multicall, 0n, 1n] })
  })

  test("viem's multicall works through it, and the block getters answer", async () => {
    const block = await t.publicClient.getBlock()
    const results = await t.publicClient.multicall({
      multicallAddress: multicall,
      allowFailure: false,
      contracts: [
        { address: token, abi: erc20, functionName: "balanceOf", args: [alice] },
        { address: USDC_ADDRESS, abi: erc20, functionName: "balanceOf", args: [bob] },
        { address: multicall, abi, functionName: "getBlockNumber" },
        { address: multicall, abi, functionName: "getCurrentBlockTimestamp" },
        { address: multicall, abi, functionName: "getEthBalance", args: [bob] },
        { address: multicall, abi, functionName: "getChainId" },
      ],
      blockNumber: block.number,
    })
    const bobNative = await t.publicClient.getBalance({ address: bob, blockNumber: block.number })
    expect(results).toEqual([777n, bobNative / USDC_SCALE, block.number, block.timestamp, bobNative, 5042n])
  })
})

// ---------------------------------------------------------------------------------------------
// Uniswap liquidity, with USDC (the ERC-20 at 0x3600…) on one side of every pool

const Q96 = 2n ** 96n
const TICK_LOWER = -600
const TICK_UPPER = 600
const LIQUIDITY = 10n ** 11n

describe("V3LiquidityProvider and V4LiquidityProvider", () => {
  const factoryArtifact = uniswapArtifact("UniswapV3Factory")
  const poolArtifact = uniswapArtifact("UniswapV3Pool")
  const managerArtifact = uniswapArtifact("PoolManager")
  let eurc: Address
  let currency0: Address
  let currency1: Address
  let v3Pool: Address
  let v3Provider: Address
  let manager: Address
  let v4Provider: Address
  let v3Paid: readonly [bigint, bigint]

  beforeAll(async () => {
    eurc = await t.deploy(TestToken, ["Euro Coin", "EURC", 6])
    ;[currency0, currency1] = BigInt(USDC_ADDRESS) < BigInt(eurc) ? [USDC_ADDRESS, eurc] : [eurc, USDC_ADDRESS]
    const factory = await t.deploy(factoryArtifact)
    await write(owner, factory, factoryArtifact.abi, "createPool", [USDC_ADDRESS, eurc, 3000])
    v3Pool = await read<Address>(factory, factoryArtifact.abi, "getPool", [USDC_ADDRESS, eurc, 3000])
    await write(owner, v3Pool, poolArtifact.abi, "initialize", [Q96])
    v3Provider = await t.deploy(V3Provider)
    manager = await t.deploy(managerArtifact, [owner.account.address])
    v4Provider = await t.deploy(V4Provider, [manager])
    await t.testClient.setBalance({ address: owner.account.address, value: parseEther("1000000") })
    // fund both providers: 20,000 USDC (an ERC-20 transfer: the providers accept no native sends) and 20,000 EURC
    for (const provider of [v3Provider, v4Provider]) {
      await write(owner, USDC_ADDRESS, erc20, "transfer", [provider, 20_000_000_000n])
      await write(owner, eurc, erc20, "mint", [provider, 20_000_000_000n])
    }
  })

  const fundsOf = async (account: Address) => [await balanceOf(currency0, account), await balanceOf(currency1, account)] as const

  test("V3: mints the position; amounts paid are what the pool reports and holds", async () => {
    const args = [v3Pool, TICK_LOWER, TICK_UPPER, LIQUIDITY] as const
    const expected = await simulate<readonly [bigint, bigint]>(owner, v3Provider, V3Provider.abi, "mint", args)
    const before = await fundsOf(v3Provider)
    const receipt = await write(owner, v3Provider, V3Provider.abi, "mint", args)
    const [mint] = parseEventLogs({ abi: poolArtifact.abi, logs: receipt.logs, eventName: "Mint" }) as unknown as [
      { args: { owner: Address; tickLower: number; tickUpper: number; amount: bigint; amount0: bigint; amount1: bigint } },
    ]
    expect(mint.args).toMatchObject({ owner: v3Provider, tickLower: TICK_LOWER, tickUpper: TICK_UPPER, amount: LIQUIDITY })
    expect([mint.args.amount0, mint.args.amount1]).toEqual([...expected])
    // By hand: at price 1 and ticks ±600, sqrt(1.0001^-600) = (10000/10001)^300 exactly, so each
    // side needs L × (1 − (10000/10001)^300) (the pool rounds up; TickMath is off by far less than a unit).
    const floor = (LIQUIDITY * (10_001n ** 300n - 10_000n ** 300n)) / 10_001n ** 300n
    expect(floor).toBe(2_955_301_087n)
    for (const amount of expected) expect(amount - floor).toBeOneOf([0n, 1n, 2n])
    expect(await read(v3Pool, poolArtifact.abi, "liquidity")).toBe(LIQUIDITY)
    expect(await fundsOf(v3Pool)).toEqual(expected)
    const after = await fundsOf(v3Provider)
    expect([before[0] - after[0], before[1] - after[1]]).toEqual([...expected])
    // USDC went as native balance: the pool holds exactly amount × 10^12
    const usdcPaid = currency0 === USDC_ADDRESS ? expected[0] : expected[1]
    expect(await t.publicClient.getBalance({ address: v3Pool })).toBe(usdcPaid * USDC_SCALE)
    v3Paid = expected
  })

  test("V3: only the owner mints; the callback only pays the pool of the current mint", async () => {
    expect(await revertOfCall(t.wallets[1]!, v3Provider, V3Provider.abi, "mint", [v3Pool, TICK_LOWER, TICK_UPPER, 1n])).toEqual({
      name: "Unauthorized",
      args: [alice],
    })
    expect(await revertOfCall(t.wallets[1]!, v3Provider, V3Provider.abi, "uniswapV3MintCallback", [1n, 1n, "0x"])).toEqual({
      name: "UnexpectedCallback",
      args: [alice],
    })
    // even the pool itself, outside a mint of ours
    const { data } = await t.publicClient
      .call({
        account: v3Pool,
        to: v3Provider,
        data: encodeFunctionData({ abi: V3Provider.abi, functionName: "uniswapV3MintCallback", args: [1n, 1n, "0x"] }),
      })
      .then(
        () => ({ data: undefined }),
        (e: BaseError) => e.walk((x) => typeof (x as { data?: unknown }).data === "string") as { data?: Hex },
      )
    expect(decodeErrorResult({ abi: V3Provider.abi, data: data! })).toMatchObject({ errorName: "UnexpectedCallback", args: [v3Pool] })
  })

  test("V4: adds liquidity through unlock; pays what the pool manager accounts, same as V3 for the same position", async () => {
    const key = { currency0, currency1, fee: 3000, tickSpacing: 60, hooks: zeroAddress }
    await write(owner, manager, managerArtifact.abi, "initialize", [key, Q96])
    const salt = toHex(0n, { size: 32 })
    const args = [key, TICK_LOWER, TICK_UPPER, LIQUIDITY, salt] as const
    const paid = await simulate<readonly [bigint, bigint]>(owner, v4Provider, V4Provider.abi, "addLiquidity", args)
    const before = await fundsOf(v4Provider)
    const receipt = await write(owner, v4Provider, V4Provider.abi, "addLiquidity", args)

    // identical math to V3 (same price, range and liquidity)
    expect(paid).toEqual(v3Paid)
    expect(await fundsOf(manager)).toEqual(paid)
    const after = await fundsOf(v4Provider)
    expect([before[0] - after[0], before[1] - after[1]]).toEqual([...paid])

    const poolId = keccak256(
      encodeAbiParameters(
        [{ type: "address" }, { type: "address" }, { type: "uint24" }, { type: "int24" }, { type: "address" }],
        [key.currency0, key.currency1, key.fee, key.tickSpacing, key.hooks],
      ),
    )
    const [event] = parseEventLogs({ abi: managerArtifact.abi, logs: receipt.logs, eventName: "ModifyLiquidity" }) as unknown as [
      { args: { id: Hex; sender: Address; tickLower: number; tickUpper: number; liquidityDelta: bigint; salt: Hex } },
    ]
    expect(event.args).toEqual({ id: poolId, sender: v4Provider, tickLower: TICK_LOWER, tickUpper: TICK_UPPER, liquidityDelta: LIQUIDITY, salt })

    const stateView = await t.deploy(uniswapArtifact("StateView"), [manager])
    const stateViewAbi = uniswapArtifact("StateView").abi
    expect(await read(stateView, stateViewAbi, "getLiquidity", [poolId])).toBe(LIQUIDITY)
    const [positionLiquidity] = await read<readonly [bigint, bigint, bigint]>(stateView, stateViewAbi, "getPositionInfo", [
      poolId,
      v4Provider,
      TICK_LOWER,
      TICK_UPPER,
      salt,
    ])
    expect(positionLiquidity).toBe(LIQUIDITY)

    // a second position under another salt adds to the pool's liquidity
    await write(owner, v4Provider, V4Provider.abi, "addLiquidity", [key, TICK_LOWER, TICK_UPPER, LIQUIDITY, toHex(1n, { size: 32 })])
    expect(await read(stateView, stateViewAbi, "getLiquidity", [poolId])).toBe(2n * LIQUIDITY)
  })

  test("V4: only the owner adds; only the pool manager, during our own call, may call back; no native currency", async () => {
    const key = { currency0, currency1, fee: 3000, tickSpacing: 60, hooks: zeroAddress }
    const args = [key, TICK_LOWER, TICK_UPPER, 1n, toHex(0n, { size: 32 })] as const
    expect(await revertOfCall(t.wallets[1]!, v4Provider, V4Provider.abi, "addLiquidity", args)).toEqual({ name: "Unauthorized", args: [alice] })
    expect(await revertOfCall(t.wallets[1]!, v4Provider, V4Provider.abi, "unlockCallback", ["0x"])).toEqual({
      name: "UnexpectedCallback",
      args: [alice],
    })
    const native = { ...key, currency0: zeroAddress }
    expect((await revertOfCall(owner, v4Provider, V4Provider.abi, "addLiquidity", [native, TICK_LOWER, TICK_UPPER, 1n, toHex(0n, { size: 32 })])).name).toBe(
      "NativeCurrencyUnsupported",
    )
    expect(
      await revertOfCall(owner, v4Provider, V4Provider.abi, "addLiquidity", [key, TICK_LOWER, TICK_UPPER, 2n ** 127n, toHex(0n, { size: 32 })]),
    ).toEqual({ name: "LiquidityTooLarge", args: [2n ** 127n] })
  })

  test("withdraw returns what the providers hold, owner only", async () => {
    const [usdcHeld] = currency0 === USDC_ADDRESS ? await fundsOf(v4Provider) : (await fundsOf(v4Provider)).toReversed()
    const before = await balanceOf(USDC_ADDRESS, bob)
    await write(owner, v4Provider, V4Provider.abi, "withdraw", [USDC_ADDRESS, bob, usdcHeld])
    expect(await balanceOf(USDC_ADDRESS, bob)).toBe(before + usdcHeld!)
    expect(await balanceOf(USDC_ADDRESS, v4Provider)).toBe(0n)
    expect(await revertOfCall(t.wallets[1]!, v3Provider, V3Provider.abi, "withdraw", [eurc, alice, 1n])).toEqual({
      name: "Unauthorized",
      args: [alice],
    })
  })
})
