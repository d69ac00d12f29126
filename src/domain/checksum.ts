// EIP-55 checksums, memoised: the same few token and account addresses come back
// on every request, and the keccak behind a checksum costs more than the lookup.
import { getAddress, type Address } from "viem"

const MAX_ENTRIES = 50_000
const cache = new Map<string, Address>()

/** The checksummed form of a well-formed 20-byte hex address (any case). */
export const checksum = (address: string): Address => {
  let out = cache.get(address)
  if (out === undefined) {
    out = getAddress(address.toLowerCase())
    if (cache.size >= MAX_ENTRIES) cache.clear()
    cache.set(address, out)
  }
  return out
}
