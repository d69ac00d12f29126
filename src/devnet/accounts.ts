// The node's well-known test accounts (anvil's default mnemonic): public
// test keys, funded only on the devnet.
import { mnemonicToAccount } from "viem/accounts"
import { toHex, type Address, type Hex } from "viem"

export const TEST_MNEMONIC = "test test test test test test test test test test test junk"
export const ACCOUNT_COUNT = 10

export interface TestAccount {
  readonly address: Address
  readonly privateKey: Hex
}

export const testAccounts: readonly TestAccount[] = Array.from({ length: ACCOUNT_COUNT }, (_, i) => {
  const account = mnemonicToAccount(TEST_MNEMONIC, { addressIndex: i })
  return { address: account.address, privateKey: toHex(account.getHdKey().privateKey!) }
})

/** Deploys everything and owns the executor; not one of the scenario's funded users. */
export const OWNER_INDEX = 9
/** Receives the protocol fee. */
export const FEE_COLLECTOR_INDEX = 8
