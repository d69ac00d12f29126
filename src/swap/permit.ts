// A /swap paid with an EIP-2612 permit instead of an approval: the typed data
// the sender signs (owner = sender, spender = the route executor), and the
// check of a signed permit against the token's current nonce before the
// transaction that applies it is built.
import { compactSignatureToSignature, parseCompactSignature, parseSignature, recoverTypedDataAddress, serializeSignature, type Address, type Hex } from "viem"
import { PERMIT_TYPES, permitTypedData, type PermitTypedData, type PermitTypedDataParams } from "../domain/index.ts"
import type { PermitDomain } from "../tokens/index.ts"

/** A permit as the request sends it: the message's value and deadline as signed, and the signature. */
export interface PermitSignature {
  readonly value: bigint
  readonly deadline: bigint
  /** 65 bytes (r, s, v), or 64 (EIP-2098: r and yParity with s) */
  readonly signature: Hex
}

/** EIP-712's domain type for a domain of name, version, chainId and verifyingContract. */
export const EIP712_DOMAIN = [
  { name: "name", type: "string" },
  { name: "version", type: "string" },
  { name: "chainId", type: "uint256" },
  { name: "verifyingContract", type: "address" },
] as const

/** A permit's typed data with the domain's type listed too, as eth_signTypedData_v4 wants it. */
export type PermitToSign = Omit<PermitTypedData, "types"> & { readonly types: typeof PERMIT_TYPES & { readonly EIP712Domain: typeof EIP712_DOMAIN } }

/** The permit the sender signs instead of sending an approval: the executor may take `value` of the token. */
export const permitToSign = (domain: PermitDomain, params: Omit<PermitTypedDataParams, "token" | "name" | "version" | "chainId">): PermitToSign => {
  const typed = permitTypedData({ ...params, token: domain.verifyingContract, name: domain.name, version: domain.version, chainId: domain.chainId })
  return { ...typed, types: { EIP712Domain: EIP712_DOMAIN, ...typed.types } }
}

/** secp256k1's order halved: a signature with s above it is the malleable twin, which tokens refuse. */
const HALF_ORDER = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n

/**
 * The signature as 65 bytes (r, s, v) with v 27 or 28, as a token's permit(v, r, s) takes it, or
 * why it is not one: wrong length, s in the upper half, or v neither 0/1 nor 27/28.
 */
export const canonicalSignature = (signature: Hex): { readonly signature: Hex } | { readonly problem: string } => {
  const bytes = (signature.length - 2) / 2
  try {
    if (bytes === 64) return { signature: serializeSignature(compactSignatureToSignature(parseCompactSignature(signature))) }
    if (bytes !== 65) return { problem: `must be 65 bytes (r, s, v) or 64 (EIP-2098), got ${bytes}` }
    const parsed = parseSignature(signature)
    if (BigInt(parsed.s) > HALF_ORDER) return { problem: "s is in the upper half of the curve order (a malleable signature, which tokens refuse); sign again" }
    return { signature: serializeSignature(parsed) }
  } catch {
    return { problem: `v must be 27 or 28 (or 0 or 1), got ${Number.parseInt(signature.slice(130, 132), 16)}` }
  }
}

/**
 * Whether the permit recovers to the sender for this token, executor, value, the token's current
 * nonce and deadline; when it does not, what to tell the client (a permit made for the nonce
 * before the current one has been used already).
 */
export const checkPermitSignature = async (params: {
  readonly domain: PermitDomain
  readonly sender: Address
  readonly executor: Address
  readonly permit: PermitSignature
  readonly signature: Hex
  /** nonces(sender) at the priced block */
  readonly nonce: bigint
  /** allowance(sender, executor) at the priced block */
  readonly allowance: bigint
}): Promise<string | undefined> => {
  const { domain, sender, executor, permit, nonce } = params
  const signerAt = (n: bigint) =>
    recoverTypedDataAddress({
      ...permitTypedData({ token: domain.verifyingContract, name: domain.name, version: domain.version, chainId: domain.chainId, owner: sender, spender: executor, value: permit.value, nonce: n, deadline: permit.deadline }),
      signature: params.signature,
    }).catch(() => undefined)
  const signer = await signerAt(nonce)
  if (signer?.toLowerCase() === sender.toLowerCase()) return undefined
  if (nonce > 0n && (await signerAt(nonce - 1n))?.toLowerCase() === sender.toLowerCase()) {
    return `this permit has been used already: it was signed for nonce ${nonce - 1n} and the sender's nonce on ${domain.name} is now ${nonce}` +
      ` (the allowance to the executor is ${params.allowance}); send /swap without permit when that allowance suffices, or sign the permit of a new /swap`
  }
  return `does not recover to the sender ${sender} for a permit of ${domain.name} (${domain.verifyingContract}) to the executor ${executor} of value ${permit.value}, nonce ${nonce} and deadline ${permit.deadline}` +
    `${signer !== undefined ? ` (it recovers to ${signer})` : ""}; sign the typed data of /swap's permit field`
}
