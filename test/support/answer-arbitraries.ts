// Generated program answers for the tests that hold a directly written answer
// equal to its response Schema's encoding: mostly in range, now and then just
// outside it, so both the written and the refused sides are exercised.
import fc from "fast-check"
import type { QuoteResponse } from "../../src/domain/index.ts"
import type { SwapResponse } from "../../src/swap/index.ts"

const hexDigit = fc.constantFrom(..."0123456789abcdefABCDEF".split(""))
export const address = fc.array(hexDigit, { minLength: 40, maxLength: 40 }).map((d) => `0x${d.join("")}` as `0x${string}`)
export const amount = fc.oneof(fc.bigInt({ min: 0n, max: (1n << 256n) - 1n }), fc.constantFrom(0n, 1n, -1n))
/** mostly in range, now and then just outside it */
export const bps = (min: number, max: number) => fc.oneof({ arbitrary: fc.integer({ min, max }), weight: 9 }, { arbitrary: fc.constantFrom(min - 1, max + 1, min + 0.5), weight: 1 })
/** mostly `good`, now and then one of `bad` */
const mostly = <A>(good: fc.Arbitrary<A>, ...bad: A[]): fc.Arbitrary<A> => fc.oneof({ arbitrary: good, weight: 19 }, { arbitrary: fc.constantFrom(...bad), weight: 1 })

export const quoteAnswer: fc.Arbitrary<QuoteResponse> = fc.record({
  chainId: fc.oneof({ arbitrary: fc.constantFrom(5042, 5042002), weight: 9 }, { arbitrary: fc.constant(1), weight: 1 }),
  tokenIn: address,
  tokenOut: address,
  tradeType: fc.constantFrom("exactInput", "exactOutput"),
  amountIn: amount,
  maxAmountIn: amount,
  amountOut: amount,
  minAmountOut: amount,
  slippageBps: bps(0, 2_000),
  grossAmountOut: amount,
  fees: fc.record({
    token: address,
    protocolBps: bps(0, 10_000),
    protocolAmount: amount,
    partnerBps: bps(0, 100),
    partnerAmount: amount,
    partnerRecipient: fc.option(address, { nil: null }),
  }),
  priceImpactBps: fc.oneof(fc.constant(null), fc.integer({ min: -10_000, max: 10_000 }), fc.constant(1.5)),
  gasEstimate: fc.option(amount, { nil: null }),
  gasCost: fc.option(fc.record({ native: amount, usdc: amount, tokenOut: fc.option(amount, { nil: null }) }), { nil: null }),
  route: fc.array(
    fc.record({
      shareBps: bps(1, 10_000),
      hops: fc.array(fc.record({ dex: fc.string(), pool: fc.option(fc.string(), { nil: null }), tokenIn: address, tokenOut: address }), { maxLength: 3 }),
    }),
    { maxLength: 3 },
  ),
  blockNumber: amount,
}) as fc.Arbitrary<QuoteResponse>

const hexData = mostly(fc.uint8Array({ maxLength: 300 }).map((b) => `0x${Buffer.from(b).toString("hex")}`), "0x1", "0xzz", "ab")
const field = fc.record({ name: fc.string(), type: fc.string() })

const permit = fc.record({
  typedData: fc.record({
    domain: fc.record({ name: fc.string(), version: fc.string(), chainId: mostly(fc.integer({ min: 0, max: 10_000_000 }), 1.5), verifyingContract: address }),
    types: fc.record({ EIP712Domain: fc.array(field, { maxLength: 4 }), Permit: fc.array(field, { maxLength: 5 }) }),
    primaryType: mostly(fc.constant("Permit"), "Other"),
    message: fc.record({ owner: address, spender: address, value: amount, nonce: amount, deadline: amount }),
  }),
})

export const swapAnswer: fc.Arbitrary<SwapResponse> = fc
  .record({
    quote: quoteAnswer,
    sender: address,
    recipient: address,
    deadline: mostly(fc.integer({ min: 0, max: 2 ** 40 }), 1.5),
    tx: fc.record({ to: address, data: hexData, value: amount, gas: fc.option(amount, { nil: null }) }),
    approval: fc.option(fc.record({ token: address, spender: address, amount }), { nil: null }),
    permit: fc.option(permit, { nil: null }),
    simulated: fc.boolean(),
    issues: fc.option(
      fc.record({
        balance: fc.option(fc.record({ token: address, actual: amount, expected: amount }), { nil: null }),
        allowance: fc.option(fc.record({ token: address, spender: address, actual: amount, expected: amount }), { nil: null }),
      }),
      { nil: null },
    ),
  })
  .map(({ quote, ...rest }) => ({ ...quote, ...rest }) as unknown as SwapResponse)

/** a swap answer's priceChangeBps: null without a quoteId, else an integer, now and then not one */
export const priceChange = fc.oneof({ arbitrary: fc.constant(null), weight: 5 }, { arbitrary: fc.integer({ min: -10_000, max: 10_000 }), weight: 14 }, { arbitrary: fc.constant(0.5), weight: 1 })
