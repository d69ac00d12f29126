// The devnet's relayer of gasless swaps: the mnemonic's account 10, apart from
// the ten test accounts the scenarios fund and the examples and tests trade
// with, so that its nonce is the relayer's alone. `bun start` and the tests fund
// it with native USDC (its gas) and send gasless orders from it.
import { mnemonicToAccount } from "viem/accounts"
import { toHex } from "viem"
import { ACCOUNT_COUNT, TEST_MNEMONIC, type TestAccount } from "./accounts.ts"
import { devnetClient } from "./clients.ts"
import { USDC_SCALE } from "./usdc.ts"
import type { Manifest } from "./manifest.ts"

export const RELAYER_INDEX = ACCOUNT_COUNT

export const devnetRelayer: TestAccount = (() => {
  const account = mnemonicToAccount(TEST_MNEMONIC, { addressIndex: RELAYER_INDEX })
  return { address: account.address, privateKey: toHex(account.getHdKey().privateKey!) }
})()

/** What `bun start` gives the relayer: enough USDC for many orders' gas. */
export const DEVNET_RELAYER_USDC = 1_000n

/** Sets the relayer's native USDC balance on the devnet to `usdc` whole USDC. */
export const fundDevnetRelayer = async (manifest: Pick<Manifest, "rpcUrl" | "chainId">, usdc: bigint = DEVNET_RELAYER_USDC): Promise<void> => {
  const client = devnetClient(manifest.rpcUrl, undefined, manifest.chainId)
  await client.setBalance({ address: devnetRelayer.address, value: usdc * 10n ** 6n * USDC_SCALE })
}
