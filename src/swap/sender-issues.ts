// What a sender lacks for a /swap transaction, from its real funds at the
// priced block: the balance of tokenIn and the allowance to the route executor,
// each reported only when it falls short. USDC pays the gas from the same
// balance as the input (native and ERC-20 USDC are one balance), so for USDC
// input the balance needed is amountIn plus the gas at the block's base fee.
import type { Address } from "viem"
import type { SenderFunds } from "../chain/index.ts"

export interface BalanceIssue {
  readonly token: Address
  readonly actual: bigint
  readonly expected: bigint
}

export interface AllowanceIssue {
  readonly token: Address
  readonly spender: Address
  readonly actual: bigint
  readonly expected: bigint
}

export interface SenderIssues {
  readonly balance: BalanceIssue | null
  readonly allowance: AllowanceIssue | null
}

/** How tokenIn is paid: native USDC (value), ERC-20 USDC (one balance with the gas), any other ERC-20. */
export type InputKind = "native" | "usdc" | "erc20"

const WEI_PER_USDC_UNIT = 10n ** 12n

/** The sender's shortfalls for this input, by its real funds; `gasWei` is tx.gas at the block's base fee. */
export const senderIssues = (params: {
  readonly token: Address
  readonly kind: InputKind
  readonly spender: Address
  readonly amountIn: bigint
  readonly gasWei: bigint
  readonly funds: SenderFunds
}): SenderIssues => {
  const { token, kind, spender, amountIn, gasWei, funds } = params
  // native input counts in wei; ERC-20 USDC in 6 decimals, the gas rounded up to a whole unit
  const actual = kind === "native" ? funds.native : (funds.balance ?? 0n)
  const expected = kind === "native" ? amountIn + gasWei
    : kind === "usdc" ? amountIn + (gasWei + WEI_PER_USDC_UNIT - 1n) / WEI_PER_USDC_UNIT
    : amountIn
  const allowance = kind === "native" ? undefined : (funds.allowance ?? 0n)
  return {
    balance: actual < expected ? { token, actual, expected } : null,
    allowance: allowance !== undefined && allowance < amountIn ? { token, spender, actual: allowance, expected: amountIn } : null,
  }
}
