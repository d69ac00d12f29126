// Arc's USDC on the devnet: the native currency (18 decimals, pays gas) and the ERC-20 at
// 0x3600… (6 decimals) are one balance. The ERC-20 (ArcUsdc) moves native balance through a
// relay (NativeTransferRelay at 0x471E…) into the node's transfer precompile at 0xfd, which
// anvil enables with --celo.
import { Data } from "effect"
import { type Address, type Client, type Hex, type TestActions, encodeAbiParameters, keccak256, toHex } from "viem"
import { call, getAddresses, getBalance } from "viem/actions"
import { ownArtifact } from "../contracts/index.ts"
import { USDC_ERC20_ADDRESS, USDC_ERC20_DECIMALS, USDC_NATIVE_SCALE } from "../domain/index.ts"

export const USDC_ADDRESS: Address = USDC_ERC20_ADDRESS
/** The address Celo reserves for the transfer precompile's caller; holds NativeTransferRelay. */
export const NATIVE_RELAY_ADDRESS: Address = "0x471EcE3750Da237f93B8E339c536989b8978a438"
export const TRANSFER_PRECOMPILE_ADDRESS: Address = "0x00000000000000000000000000000000000000fd"
/** native (18 decimals) = ERC-20 (6 decimals) × USDC_SCALE */
export const USDC_SCALE = USDC_NATIVE_SCALE
export const USDC_DECIMALS = USDC_ERC20_DECIMALS

/** ArcUsdc storage: slot 0 is mapping(owner => mapping(spender => allowance)). */
export const USDC_ALLOWANCE_SLOT = 0n
/** ArcUsdc storage: slot 1 is the recorded totalSupply (6 decimals). Balances are native balances. */
export const USDC_TOTAL_SUPPLY_SLOT = 1n
/** ArcUsdc storage: slot 2 is mapping(owner => EIP-2612 nonce). */
export const USDC_NONCES_SLOT = 2n
/** The EIP-712 domain version of every devnet token's permits: Arc's USDC's. */
export const PERMIT_VERSION = "2"
/** The EIP-712 domain of the ERC-20 USDC's permits, as on Arc. */
export const USDC_PERMIT_DOMAIN = { name: "USDC", version: PERMIT_VERSION } as const

/** The storage slot of allowance(owner, spender) in ArcUsdc, for state overrides. */
export const usdcAllowanceSlot = (owner: Address, spender: Address): Hex => {
  const inner = keccak256(encodeAbiParameters([{ type: "address" }, { type: "uint256" }], [owner, USDC_ALLOWANCE_SLOT]))
  return keccak256(encodeAbiParameters([{ type: "address" }, { type: "bytes32" }], [spender, inner]))
}

export class UsdcInstallError extends Data.TaggedError("UsdcInstallError")<{ readonly message: string }> {}

/** What installArcUsdc needs: any viem client with anvil's test actions. */
export type UsdcInstallClient = Client & Pick<TestActions, "setCode" | "setStorageAt">

export interface InstallArcUsdcOptions {
  /**
   * The ERC-20 totalSupply to record (6 decimals). Default: the sum of the node's own
   * accounts' native balances at install time (on a fresh node, its genesis allocation).
   */
  readonly totalSupply?: bigint
}

/**
 * Installs ArcUsdc at 0x3600… and NativeTransferRelay at 0x471E… (anvil_setCode) and records
 * the totalSupply. Fails if the node has no transfer precompile (anvil started without --celo),
 * since ERC-20 transfers would then move nothing.
 */
export const installArcUsdc = async (client: UsdcInstallClient, options: InstallArcUsdcOptions = {}): Promise<void> => {
  await assertTransferPrecompile(client)
  await client.setCode({ address: USDC_ADDRESS, bytecode: ownArtifact("ArcUsdc").deployedBytecode })
  await client.setCode({ address: NATIVE_RELAY_ADDRESS, bytecode: ownArtifact("NativeTransferRelay").deployedBytecode })
  const totalSupply = options.totalSupply ?? (await nodeAccountsSupply(client))
  await setUsdcTotalSupply(client, totalSupply)
}

/** Records a new ERC-20 totalSupply (6 decimals); balances are not touched. */
export const setUsdcTotalSupply = (client: Pick<TestActions, "setStorageAt">, totalSupply: bigint): Promise<void> =>
  client.setStorageAt({ address: USDC_ADDRESS, index: toHex(USDC_TOTAL_SUPPLY_SLOT, { size: 32 }), value: toHex(totalSupply, { size: 32 }) })

const nodeAccountsSupply = async (client: Client): Promise<bigint> => {
  const accounts = await getAddresses(client)
  const balances = await Promise.all(accounts.map((address) => getBalance(client, { address })))
  return balances.reduce((sum, balance) => sum + balance, 0n) / USDC_SCALE
}

// The precompile refuses any input that is not exactly 96 bytes; an address without it
// (no --celo) accepts every call.
const assertTransferPrecompile = async (client: Client): Promise<void> => {
  const refused = await call(client, { to: TRANSFER_PRECOMPILE_ADDRESS, data: "0x00" }).then(
    () => false,
    () => true,
  )
  if (!refused) {
    throw new UsdcInstallError({ message: `no transfer precompile at ${TRANSFER_PRECOMPILE_ADDRESS}: start anvil with --celo` })
  }
}
