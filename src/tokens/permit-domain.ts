// Whether a token takes EIP-2612 permits, and the EIP-712 domain to sign them
// in: the token's DOMAIN_SEPARATOR() must be the domain hash of a name and
// version it states (eip712Domain() of EIP-5267 first, else name() and
// version(), "1" when it has none) on this chain and at its own address, and
// it must answer nonces(address). Anything else is a token without permits.
import { Effect } from "effect"
import { domainSeparator, getAddress, parseAbi, type Address, type Hex } from "viem"
import { read, type Read, type RpcError, type RpcService } from "../chain/index.ts"

/** The EIP-712 domain a token's permits are signed in. */
export interface PermitDomain {
  readonly name: string
  readonly version: string
  readonly chainId: number
  readonly verifyingContract: Address
}

const EIP2612_ABI = parseAbi([
  "function DOMAIN_SEPARATOR() view returns (bytes32)",
  "function name() view returns (string)",
  "function version() view returns (string)",
  "function nonces(address owner) view returns (uint256)",
  "function eip712Domain() view returns (bytes1 fields, string name, string version, uint256 chainId, address verifyingContract, bytes32 salt, uint256[] extensions)",
])

/** version() when a token has none: what OpenZeppelin's and most permit tokens sign with. */
const DEFAULT_VERSION = "1"
/** eip712Domain()'s fields bitmap for name, version, chainId and verifyingContract, nothing else */
const NAME_VERSION_CHAIN_CONTRACT = 0x0f

const ZERO_ADDRESS: Address = "0x0000000000000000000000000000000000000000"

/** The token's permit domain on chain `chainId`, or null when it does not take EIP-2612 permits. */
export const readPermitDomain = (rpc: RpcService, token: Address): Effect.Effect<PermitDomain | null, RpcError> =>
  Effect.map(
    rpc.multicall([
      read({ address: token, abi: EIP2612_ABI, functionName: "DOMAIN_SEPARATOR", args: [] }) as Read<unknown>,
      read({ address: token, abi: EIP2612_ABI, functionName: "name", args: [] }) as Read<unknown>,
      read({ address: token, abi: EIP2612_ABI, functionName: "version", args: [] }) as Read<unknown>,
      read({ address: token, abi: EIP2612_ABI, functionName: "nonces", args: [ZERO_ADDRESS] }) as Read<unknown>,
      read({ address: token, abi: EIP2612_ABI, functionName: "eip712Domain", args: [] }) as Read<unknown>,
    ]),
    ([separator, name, version, nonces, eip5267]): PermitDomain | null => {
      if (!separator!.success || !nonces!.success) return null
      const verifyingContract = getAddress(token)
      const candidates: Array<{ name: string; version: string }> = []
      if (eip5267!.success) {
        const [fields, n, v, chainId, contract] = eip5267!.value as readonly [Hex, string, string, bigint, Address]
        if (Number(fields) === NAME_VERSION_CHAIN_CONTRACT && chainId === BigInt(rpc.chainId) && contract.toLowerCase() === token.toLowerCase()) {
          candidates.push({ name: n, version: v })
        }
      }
      if (name!.success) candidates.push({ name: String(name!.value), version: version!.success ? String(version!.value) : DEFAULT_VERSION })
      const found = candidates.find((c) => {
        try {
          return domainSeparator({ domain: { name: c.name, version: c.version, chainId: rpc.chainId, verifyingContract } }).toLowerCase() === String(separator!.value).toLowerCase()
        } catch {
          return false
        }
      })
      return found === undefined ? null : { ...found, chainId: rpc.chainId, verifyingContract }
    },
  )
