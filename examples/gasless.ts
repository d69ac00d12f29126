// A gasless swap, through the client typed from the API's OpenAPI document: the
// sender only signs; the service's relayer sends the transaction, pays its gas in
// USDC and takes it back, with a margin, in the token bought. The sender here is
// a new account that holds EURC and no USDC at all, so it could not send a
// transaction of its own.
//   fund the new account with EURC → gasless quote → sign the permit and the
//   order as a wallet would (eth_signTypedData_v4) → submit → follow the order's
//   status to its end → what it moved.
//
// With `bun start` running:   bun examples/gasless.ts
// Settings (environment): those of connect.ts (the account of PRIVATE_KEY funds
// the new one); SELL, BUY (symbols, default EURC and WETH), AMOUNT (whole tokens
// to sell, default 50); SENDER_KEY (the signer, instead of a new account that is
// funded first).
import { formatUnits, parseUnits, type Address, type Hex } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { api, balance, chain, env, fail, wallet, type ApiError } from "./connect.ts"
import { erc20Abi } from "viem"

// 1. the two tokens, by symbol
const tokens = await api.POST("/api/v1/tokens", { body: {} })
if (tokens.data === undefined) fail("tokens", tokens.error as ApiError)
const bySymbol = (symbol: string) => tokens.data!.tokens.find((t) => t.symbol === symbol) ?? fail(`token ${symbol}`, undefined)
const sell = bySymbol(env.SELL ?? "EURC")
const buy = bySymbol(env.BUY ?? "WETH")
const amountIn = parseUnits(env.AMOUNT ?? "50", sell.decimals)
const show = (amount: string | bigint, token: { readonly decimals: number; readonly symbol: string }) => `${formatUnits(BigInt(amount), token.decimals)} ${token.symbol}`

// 2. the signer: a new account holding only what it sells (funded by the PRIVATE_KEY account)
const signer = privateKeyToAccount((env.SENDER_KEY as Hex | undefined) ?? generatePrivateKey())
if (env.SENDER_KEY === undefined) {
  const hash = await wallet.writeContract({ address: sell.address as Address, abi: erc20Abi, functionName: "transfer", args: [signer.address, amountIn] })
  await chain.waitForTransactionReceipt({ hash })
  console.log(`funded ${signer.address} with ${show(amountIn, sell)}; it holds ${await chain.getBalance({ address: signer.address })} wei of USDC`)
}

// 3. the quote: what the order pays after the relayer's fee, and the typed data to sign
const quote = await api.POST("/api/v1/gasless/quote", {
  body: { tokenIn: sell.address, tokenOut: buy.address, amountIn: amountIn.toString(), sender: signer.address },
})
if (quote.data === undefined) fail("gasless quote", quote.error as ApiError)
const q = quote.data!
console.log(`selling ${show(amountIn, sell)} buys ${show(q.amountOut, buy)} (at least ${show(q.minAmountOut, buy)}), the relayer taking at most ${show(q.relayerFee.amount, buy)}`)
if (q.approval !== null && q.permit === null) {
  console.error(`error: ${sell.symbol} has no permit and the allowance is short: approve ${q.approval.spender} once first`)
  process.exit(1)
}

// 4. the signatures, as a wallet makes them: the permit (instead of an approval) and the order
// (the answer's integers are decimal strings, as JSON carries them; a local viem account wants
// its uint fields as bigint, which eth_signTypedData_v4 in a browser wallet does for itself)
const typed = (t: { types: Record<string, { name: string; type: string }[]>; primaryType: string; message: Record<string, unknown> } & Record<string, unknown>) => {
  const fields = t.types[t.primaryType] ?? []
  const isUint = (name: string) => fields.some((f) => f.name === name && f.type.startsWith("uint"))
  return { ...t, message: Object.fromEntries(Object.entries(t.message).map(([k, v]) => [k, isUint(k) && typeof v === "string" ? BigInt(v) : v])) } as any
}
const permitSignature = q.permit === null ? undefined : await signer.signTypedData(typed(q.permit.typedData))
const signature = await signer.signTypedData(typed(q.order.typedData))

// 5. submit, then follow the order to its end
const before = { sold: await balance(sell.address, signer.address), bought: await balance(buy.address, signer.address), usdc: await chain.getBalance({ address: signer.address }) }
const submitted = await api.POST("/api/v1/gasless/submit", {
  body: { order: q.order.typedData.message, signature, ...(permitSignature !== undefined ? { permit: { signature: permitSignature } } : {}) },
})
if (submitted.data === undefined) fail("gasless submit", submitted.error as ApiError)
const { tradeHash } = submitted.data!
console.log(`order ${tradeHash}: ${submitted.data!.status}`)
let status = submitted.data!.status
let last: any
for (let i = 0; i < 600 && !["confirmed", "failed", "expired"].includes(status); i++) {
  await Bun.sleep(200)
  const answer = await api.POST("/api/v1/gasless/status", { body: { tradeHash } })
  if (answer.data === undefined) fail("gasless status", answer.error as ApiError)
  last = answer.data!
  if (last.status !== status) console.log(`order ${tradeHash}: ${last.status}`)
  status = last.status
}
if (status !== "confirmed") {
  console.error(`error: the order ended ${status}${last?.reason ? `: ${last.reason}` : ""}`)
  process.exit(1)
}

// 6. what it moved: the sender's USDC did not change, it paid no gas
const after = { sold: await balance(sell.address, signer.address), bought: await balance(buy.address, signer.address), usdc: await chain.getBalance({ address: signer.address }) }
console.log(`sent ${last.transactions.map((t: { hash: string }) => t.hash).join(", ")} by the relayer`)
console.log(`${sell.symbol} of the sender: ${before.sold} -> ${after.sold} (${after.sold - before.sold})`)
console.log(`${buy.symbol} of the sender: ${before.bought} -> ${after.bought} (+${after.bought - before.bought})`)
console.log(`USDC of the sender: ${before.usdc} -> ${after.usdc} wei; relayer fee ${last.relayerFee} of ${buy.symbol}`)
