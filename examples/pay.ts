// A payment of an exact amount, through the client typed from the API's OpenAPI
// document: "pay exactly 100 EURC from USDC". The recipient gets exactly the
// amount; the sender pays what the route needs, never more than maxAmountIn.
//   tokens → exact-output quote → swap → approve maxAmountIn if needed → send
//   the transaction exactly as returned → what it moved.
//
// With `bun start` running:   bun examples/pay.ts
// Settings (environment): MANIFEST_PATH (default .devnet/manifest.json), or
// API_URL, API_KEY, RPC_URL, PRIVATE_KEY to override it; PAY_WITH, PAY_IN
// (symbols, default USDC and EURC), AMOUNT (whole tokens to pay, default 100),
// RECIPIENT (default test account 1, or the sender).
import createClient from "openapi-fetch"
import { readFileSync } from "node:fs"
import { createPublicClient, createWalletClient, defineChain, erc20Abi, formatUnits, http, parseUnits, type Address, type Hex } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import type { components, paths } from "./api.d.ts"

type ApiError = components["schemas"]["Error400"]

// --- settings: the devnet's manifest, or the environment ---------------------
const env = process.env
const manifest = (() => {
  try {
    return JSON.parse(readFileSync(env.MANIFEST_PATH ?? ".devnet/manifest.json", "utf8"))
  } catch {
    return undefined
  }
})()
const apiUrl: string = env.API_URL ?? manifest?.api?.baseUrl
const apiKey: string = env.API_KEY ?? manifest?.api?.apiKey
const rpcUrl: string = env.RPC_URL ?? manifest?.rpcUrl
const privateKey = (env.PRIVATE_KEY ?? manifest?.accounts?.[0]?.privateKey) as Hex | undefined
if (!apiUrl || !apiKey || !rpcUrl || !privateKey) {
  console.error("error: start the devnet with `bun start` (it writes .devnet/manifest.json), or set API_URL, API_KEY, RPC_URL and PRIVATE_KEY")
  process.exit(1)
}

const api = createClient<paths>({ baseUrl: new URL(apiUrl).origin, headers: { "x-api-key": apiKey } })
const chainId = await createPublicClient({ transport: http(rpcUrl) }).getChainId()
const arc = defineChain({ id: chainId, name: chainId === 5042002 ? "Arc testnet" : "Arc", nativeCurrency: { name: "USDC", symbol: "USDC", decimals: 18 }, rpcUrls: { default: { http: [rpcUrl] } } })
const account = privateKeyToAccount(privateKey)
const recipient = (env.RECIPIENT ?? manifest?.accounts?.[1]?.address ?? account.address) as Address
const chain = createPublicClient({ chain: arc, transport: http(rpcUrl) })
const wallet = createWalletClient({ account, chain: arc, transport: http(rpcUrl) })

const fail = (what: string, error: ApiError | undefined): never => {
  console.error(`error: ${what}: ${error?.error.code ?? "no answer"}: ${error?.error.message ?? ""}`)
  process.exit(1)
}

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
if (s.approval !== null) {
  const { token, spender, amount } = s.approval
  const allowance = await chain.readContract({ address: token as Address, abi: erc20Abi, functionName: "allowance", args: [account.address, spender as Address] })
  if (allowance < BigInt(amount)) {
    const hash = await wallet.writeContract({ address: token as Address, abi: erc20Abi, functionName: "approve", args: [spender as Address, BigInt(amount)] })
    await chain.waitForTransactionReceipt({ hash })
    console.log(`approved ${amount} to ${spender}`)
  }
}

// 5. the transaction, exactly as returned
const balance = (token: string, holder: Address) => chain.readContract({ address: token as Address, abi: erc20Abi, functionName: "balanceOf", args: [holder] })
const before = { paid: await balance(payWith.address, account.address), received: await balance(payIn.address, recipient) }
const hash = await wallet.sendTransaction({
  to: s.tx.to as Address,
  data: s.tx.data as Hex,
  value: BigInt(s.tx.value),
  ...(s.tx.gas !== null ? { gas: BigInt(s.tx.gas) } : {}),
})
const receipt = await chain.waitForTransactionReceipt({ hash })
if (receipt.status !== "success") {
  console.error(`error: the transaction ${hash} reverted`)
  process.exit(1)
}

// 6. what it moved (gas is paid in USDC: for a USDC payment it is in the sender's change too)
const after = { paid: await balance(payWith.address, account.address), received: await balance(payIn.address, recipient) }
console.log(`sent ${hash} in block ${receipt.blockNumber}`)
console.log(`${payIn.symbol} of the recipient: ${before.received} -> ${after.received} (+${after.received - before.received})`)
console.log(`${payWith.symbol} of the sender: ${before.paid} -> ${after.paid} (${after.paid - before.paid})`)
console.log(`gas paid: ${receipt.gasUsed * receipt.effectiveGasPrice} wei of native USDC`)
