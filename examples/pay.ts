// A payment of an exact amount, through the client typed from the API's OpenAPI
// document: "pay exactly 100 EURC from USDC". The recipient gets exactly the
// amount; the sender pays what the route needs, never more than maxAmountIn.
//   tokens → exact-output quote → swap → approve maxAmountIn if needed → send
//   the transaction exactly as returned → what it moved.
//
// With `bun start` running:   bun examples/pay.ts
// Settings (environment): those of connect.ts (MANIFEST_PATH, or API_URL,
// API_KEY, RPC_URL, PRIVATE_KEY); PAY_WITH, PAY_IN (symbols, default USDC and
// EURC), AMOUNT (whole tokens to pay, default 100), RECIPIENT (default test
// account 1, or the sender).
import { formatUnits, parseUnits, type Address } from "viem"
import { account, api, approveIfShort, balance, env, fail, manifest, sendAsReturned, type ApiError } from "./connect.ts"

const recipient = (env.RECIPIENT ?? manifest?.accounts?.[1]?.address ?? account.address) as Address

// 1. the two tokens, by symbol
const tokens = await api.POST("/api/v1/tokens", { body: {} })
if (tokens.data === undefined) fail("tokens", tokens.error as ApiError)
const bySymbol = (symbol: string) => tokens.data!.tokens.find((t) => t.symbol === symbol) ?? fail(`token ${symbol}`, undefined)
const payWith = bySymbol(env.PAY_WITH ?? "USDC")
const payIn = bySymbol(env.PAY_IN ?? "EURC")
const amountOut = parseUnits(env.AMOUNT ?? "100", payIn.decimals).toString()
const show = (amount: string | bigint, token: { readonly decimals: number; readonly symbol: string }) => `${formatUnits(BigInt(amount), token.decimals)} ${token.symbol}`

// 2. what the payment costs: an exact-output quote
const quote = await api.POST("/api/v1/quote", { body: { tokenIn: payWith.address, tokenOut: payIn.address, amountOut } })
if (quote.data === undefined) fail("quote", quote.error as ApiError)
const q = quote.data!
console.log(`paying ${show(amountOut, payIn)} to ${recipient} costs ${show(q.amountIn, payWith)} (at most ${show(q.maxAmountIn, payWith)}) at block ${q.blockNumber}`)

// 3. the transaction, built right before signing, against the quote the user saw
const swap = await api.POST("/api/v1/swap", { body: { tokenIn: payWith.address, tokenOut: payIn.address, amountOut, sender: account.address, recipient, quoteId: q.quoteId } })
if (swap.data === undefined) fail("swap", swap.error as ApiError)
const s = swap.data!
console.log(`swap: amountIn ${s.amountIn}, maxAmountIn ${s.maxAmountIn} (${s.priceChangeBps ?? 0} bps against the quote), simulated ${s.simulated}`)
if (s.issues?.balance) {
  console.error(`error: the sender holds ${s.issues.balance.actual} of ${s.issues.balance.token}, the payment may take ${s.issues.balance.expected}`)
  process.exit(1)
}

// 4. the approval covers maxAmountIn; the executor pulls only what the route needs
await approveIfShort(s.approval)

// 5. the transaction, exactly as returned
const before = { paid: await balance(payWith.address, account.address), received: await balance(payIn.address, recipient) }
const receipt = await sendAsReturned(s.tx)

// 6. what it moved (gas is paid in USDC: for a USDC payment it is in the sender's change too)
const after = { paid: await balance(payWith.address, account.address), received: await balance(payIn.address, recipient) }
console.log(`sent ${receipt.transactionHash} in block ${receipt.blockNumber}`)
console.log(`${payIn.symbol} of the recipient: ${before.received} -> ${after.received} (+${after.received - before.received})`)
console.log(`${payWith.symbol} of the sender: ${before.paid} -> ${after.paid} (${after.paid - before.paid})`)
console.log(`gas paid: ${receipt.gasUsed * receipt.effectiveGasPrice} wei of native USDC`)
