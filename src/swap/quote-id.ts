// A quote id: the terms of a /quote answer (the chain, the request's tokens,
// amount and fee, its amountOut and block, when it was issued) in a compact binary form,
// signed with HMAC-SHA256 under a key every instance derives alike. Nothing is
// stored: a /swap that sends it back is told how its price moved since.
//
// Layout (then base64url, no padding):
//   version 3 | chainId 4 | tradeType 1 | tokenIn 20 | tokenOut 20 | feeBps 1 |
//   slippageBps 2 | feeRecipient flag 1 [+ 20] | issuedAt 5 | amountIn len+bytes |
//   amountOut len+bytes | blockNumber len+bytes | tag 16
// tradeType is 0 for exact input, 1 for exact output. Version 2, issued before exact
// output, is the same without tradeType (exact input); version 1, issued before ids
// named their chain, is version 2 without chainId: only Arc (5042) was served then.
import { createHmac, timingSafeEqual } from "node:crypto"
import type { Address } from "viem"
import { ARC_CHAIN_ID, checksum } from "../domain/index.ts"
import type { TradeAmount, TradeType } from "../domain/index.ts"

export interface QuotedTerms {
  /** the chain the quote was issued on */
  readonly chainId: number
  /** exact input: amountIn was requested and amountOut quoted; exact output: the other way round */
  readonly tradeType: TradeType
  readonly tokenIn: Address
  readonly tokenOut: Address
  readonly amountIn: bigint
  readonly feeBps: number
  readonly feeRecipient: Address | null
  readonly slippageBps: number
  readonly amountOut: bigint
  readonly blockNumber: bigint
  readonly issuedAtSeconds: number
}

/** How long a quote id is accepted after it was issued. */
export const QUOTE_ID_TTL_SECONDS = 300
/** How far in the future an id's issue time may lie (clocks of instances differ a little). */
const CLOCK_SKEW_SECONDS = 30
const VERSION = 3
/** ids without a trade type: exact input */
const VERSION_WITHOUT_TRADE_TYPE = 2
/** ids without a chain: Arc's, exact input */
const VERSION_WITHOUT_CHAIN = 1
const TAG_BYTES = 16
/** the longest id an encoding can give (190 bytes: three 32-byte integers, a recipient): anything longer is refused unread */
const MAX_ID_LENGTH = 256
const BASE64URL = /^[A-Za-z0-9_-]+$/

/** The signing key for quote ids, derived from a secret the instances share. */
export const quoteIdKey = (secret: string): Uint8Array => new Uint8Array(createHmac("sha256", secret).update("arc-swap quoteId v1").digest())

/** Writes `n` big-endian into `out` at `at`, `size` bytes. */
const writeFixed = (out: Uint8Array, at: number, n: number, size: number): number => {
  for (let i = size - 1; i >= 0; i--) {
    out[at + i] = n % 256
    n = Math.floor(n / 256)
  }
  return at + size
}

/** a hex digit's value (either case); the caller's text is a checksummed or plain address */
const nibble = (c: number): number => (c <= 57 ? c - 48 : (c | 32) - 87)

/** Writes `bytes` bytes of hex digits from `hex`'s character `from` into `out` at `at`. */
const writeHex = (out: Uint8Array, at: number, hex: string, from: number, bytes: number): number => {
  for (let i = 0; i < bytes; i++) out[at + i] = (nibble(hex.charCodeAt(from + 2 * i)) << 4) | nibble(hex.charCodeAt(from + 2 * i + 1))
  return at + bytes
}

/** Writes an address's 20 bytes (its text is 0x and 40 hex digits: the request's, checked). */
const writeAddress = (out: Uint8Array, at: number, address: string): number => writeHex(out, at, address, 2, 20)

const SAFE = BigInt(Number.MAX_SAFE_INTEGER)

/** Writes an integer as its length byte and its big-endian bytes. */
const writeInteger = (out: Uint8Array, at: number, n: bigint): number => {
  if (n < 0n || n >= 1n << 256n) throw new RangeError(`a quote id holds integers from 0 to 2^256 - 1, got ${n}`)
  if (n <= SAFE) {
    // through a double when it holds the value exactly: no bigint or string per byte
    let v = Number(n)
    let length = 0
    for (let rest = v; rest > 0; rest = Math.floor(rest / 256)) length++
    out[at] = length
    for (let i = length; i >= 1; i--) {
      out[at + i] = v % 256
      v = Math.floor(v / 256)
    }
    return at + 1 + length
  }
  const hex = n.toString(16)
  const even = hex.length % 2 === 1 ? `0${hex}` : hex
  out[at] = even.length >> 1
  return writeHex(out, at + 1, even, 0, even.length >> 1)
}

/** The longest body: the fixed fields, a recipient, three 32-byte integers. */
const MAX_BODY_BYTES = 1 + 4 + 1 + 20 + 20 + 1 + 2 + 21 + 5 + 3 * 33

const BLOCK = 64
const IPAD = 0x36
const OPAD = 0x5c

/**
 * HMAC-SHA256 under one key, written out over one-shot hashes into buffers made once: an id
 * is written and signed with no object made for it but its text (a keyed hasher per id, and
 * its digest's buffer, cost several µs per /quote under load).
 */
interface Signer {
  /** (key ⊕ ipad) then the body, the tag written after it once signed */
  readonly inner: Buffer
  /** (key ⊕ opad) then the inner hash */
  readonly outer: Uint8Array
  readonly innerHash: Uint8Array
  readonly tag: Uint8Array
  /** inner's first 64 + n bytes, by n, made once each */
  readonly views: Uint8Array[]
}

const signers = new WeakMap<Uint8Array, Signer>()

const signerOf = (key: Uint8Array): Signer => {
  let signer = signers.get(key)
  if (signer !== undefined) return signer
  // a key longer than a block is hashed first (RFC 2104)
  const k = key.length > BLOCK ? new Uint8Array(Bun.SHA256.hash(key) as Uint8Array) : key
  const inner = Buffer.alloc(BLOCK + MAX_BODY_BYTES + TAG_BYTES)
  const outer = new Uint8Array(BLOCK + 32)
  for (let i = 0; i < BLOCK; i++) {
    inner[i] = (k[i] ?? 0) ^ IPAD
    outer[i] = (k[i] ?? 0) ^ OPAD
  }
  signer = { inner, outer, innerHash: outer.subarray(BLOCK), tag: new Uint8Array(32), views: [] }
  signers.set(key, signer)
  return signer
}

/**
 * HMAC-SHA256 of the `length` body bytes written at the signer's inner[BLOCK]:
 * H((key ⊕ opad) ‖ H((key ⊕ ipad) ‖ body)), into the signer's tag (valid until its next use).
 */
const sign = (s: Signer, length: number): Uint8Array => {
  const view = (s.views[length] ??= s.inner.subarray(0, BLOCK + length))
  Bun.SHA256.hash(view, s.innerHash)
  Bun.SHA256.hash(s.outer, s.tag)
  return s.tag
}

/** The id of a quote with these terms. */
export const encodeQuoteId = (key: Uint8Array, terms: QuotedTerms): string => {
  // an encoding runs start to end without yielding: the signer's buffers serve every call
  const s = signerOf(key)
  const out = s.inner
  let at = BLOCK
  out[at++] = VERSION
  at = writeFixed(out, at, terms.chainId, 4)
  out[at++] = terms.tradeType === "exactOutput" ? 1 : 0
  at = writeAddress(out, at, terms.tokenIn)
  at = writeAddress(out, at, terms.tokenOut)
  at = writeFixed(out, at, terms.feeBps, 1)
  at = writeFixed(out, at, terms.slippageBps, 2)
  if (terms.feeRecipient === null) out[at++] = 0
  else {
    out[at++] = 1
    at = writeAddress(out, at, terms.feeRecipient)
  }
  at = writeFixed(out, at, terms.issuedAtSeconds, 5)
  at = writeInteger(out, at, terms.amountIn)
  at = writeInteger(out, at, terms.amountOut)
  at = writeInteger(out, at, terms.blockNumber)
  // the tag's first TAG_BYTES written after the body
  const tag = sign(s, at - BLOCK)
  for (let i = 0; i < TAG_BYTES; i++) out[at + i] = tag[i]!
  return out.toString("base64url", BLOCK, at + TAG_BYTES)
}

type Decoded = { readonly ok: true; readonly terms: QuotedTerms } | { readonly ok: false; readonly problem: string }

const refused = (problem: string): Decoded => ({ ok: false, problem })

/** A reader over the id's bytes: each read answers undefined past the end. */
const reader = (bytes: Uint8Array) => {
  let at = 0
  const take = (n: number): Uint8Array | undefined => {
    if (at + n > bytes.length) return undefined
    const out = bytes.subarray(at, at + n)
    at += n
    return out
  }
  const hex = (b: Uint8Array) => Buffer.from(b).toString("hex")
  return {
    address: (): Address | undefined => {
      const b = take(20)
      return b === undefined ? undefined : checksum(`0x${hex(b)}`)
    },
    byte: (): number | undefined => take(1)?.[0],
    integer: (): bigint | undefined => {
      const length = take(1)?.[0]
      if (length === undefined || length > 32) return undefined
      const b = take(length)
      return b === undefined ? undefined : length === 0 ? 0n : BigInt(`0x${hex(b)}`)
    },
    fixed: (n: number): bigint | undefined => {
      const b = take(n)
      return b === undefined ? undefined : BigInt(`0x${hex(b)}`)
    },
    rest: () => bytes.length - at,
  }
}

/**
 * The terms a quote id carries, or why it is refused (a phrase to follow "quoteId: "): malformed,
 * not issued by this service (or altered), expired, or issued in the future.
 */
export const decodeQuoteId = (key: Uint8Array, id: string, nowSeconds: number, ttlSeconds: number = QUOTE_ID_TTL_SECONDS): Decoded => {
  if (id.length === 0 || id.length > MAX_ID_LENGTH || !BASE64URL.test(id)) return refused(`is malformed (not a quote id: base64url of at most ${MAX_ID_LENGTH} characters)`)
  const all = new Uint8Array(Buffer.from(id, "base64url"))
  if (all.length <= TAG_BYTES + 1) return refused("is malformed (too short to be a quote id)")
  const body = all.subarray(0, all.length - TAG_BYTES)
  if (body[0] !== VERSION && body[0] !== VERSION_WITHOUT_TRADE_TYPE && body[0] !== VERSION_WITHOUT_CHAIN) return refused(`is malformed (unknown version ${body[0]})`)
  // a body longer than any encoding writes was not signed here
  if (body.length > MAX_BODY_BYTES) return refused("was not issued by this service or was altered")
  // signed as encodeQuoteId signs: the body in the key's buffer, after its padded key
  const s = signerOf(key)
  s.inner.set(body, BLOCK)
  if (!timingSafeEqual(sign(s, body.length).subarray(0, TAG_BYTES), all.subarray(all.length - TAG_BYTES))) return refused("was not issued by this service or was altered")
  // signed by us: what follows is well formed unless the layout itself is broken
  const r = reader(body.subarray(1))
  const chainId = body[0] === VERSION_WITHOUT_CHAIN ? BigInt(ARC_CHAIN_ID) : r.fixed(4)
  const trade = body[0] === VERSION ? r.byte() : 0
  const tokenIn = r.address()
  const tokenOut = r.address()
  const feeBps = r.byte()
  const slippage = r.fixed(2)
  const flag = r.byte()
  const feeRecipient = flag === 1 ? r.address() : null
  const issued = r.fixed(5)
  const amountIn = r.integer()
  const amountOut = r.integer()
  const blockNumber = r.integer()
  if (chainId === undefined || (trade !== 0 && trade !== 1) || tokenIn === undefined || tokenOut === undefined || feeBps === undefined || slippage === undefined || (flag !== 0 && flag !== 1) || feeRecipient === undefined || issued === undefined || amountIn === undefined || amountOut === undefined || blockNumber === undefined || r.rest() !== 0) {
    return refused("is malformed (its fields do not read)")
  }
  const issuedAtSeconds = Number(issued)
  if (issuedAtSeconds > nowSeconds + CLOCK_SKEW_SECONDS) return refused(`was issued in the future (at ${issuedAtSeconds}, now is ${nowSeconds})`)
  const age = nowSeconds - issuedAtSeconds
  if (age > ttlSeconds) return refused(`expired ${age - ttlSeconds} s ago (a quote id is valid for ${ttlSeconds} s; ask /quote again)`)
  return { ok: true, terms: { chainId: Number(chainId), tradeType: trade === 1 ? "exactOutput" : "exactInput", tokenIn, tokenOut, amountIn, feeBps, feeRecipient, slippageBps: Number(slippage), amountOut, blockNumber, issuedAtSeconds } }
}

/**
 * The first field in which a request differs from the quoted terms (chainId, tokenIn, tokenOut,
 * amountIn or amountOut, feeBps, feeRecipient), or undefined: a quote id is for the same trade on
 * the same chain only.
 */
export const sameRequest = (
  terms: QuotedTerms,
  request: { readonly chainId: number; readonly tokenIn: string; readonly tokenOut: string; readonly feeBps: number; readonly feeRecipient: string | null } & TradeAmount,
): string | undefined => {
  const same = (a: string | null, b: string | null) => (a === null || b === null ? a === b : a.toLowerCase() === b.toLowerCase())
  if (terms.chainId !== request.chainId) return "chainId"
  if (!same(terms.tokenIn, request.tokenIn)) return "tokenIn"
  if (!same(terms.tokenOut, request.tokenOut)) return "tokenOut"
  if (request.tradeType === "exactInput" && (terms.tradeType !== "exactInput" || terms.amountIn !== request.amountIn)) return "amountIn"
  if (request.tradeType === "exactOutput" && (terms.tradeType !== "exactOutput" || terms.amountOut !== request.amountOut)) return "amountOut"
  if (terms.feeBps !== request.feeBps) return "feeBps"
  if (!same(terms.feeRecipient, request.feeRecipient)) return "feeRecipient"
  return undefined
}

const MAX_BPS = BigInt(Number.MAX_SAFE_INTEGER)

/**
 * (amountOut − quoted) × 10000 / quoted, rounded toward zero: negative when the swap gives less
 * (never below −10000). A rise beyond 2^53 − 1 basis points is reported as that.
 */
export const priceChangeBps = (quotedAmountOut: bigint, amountOut: bigint): number => {
  if (quotedAmountOut === 0n) return 0
  const bps = ((amountOut - quotedAmountOut) * 10_000n) / quotedAmountOut
  return Number(bps > MAX_BPS ? MAX_BPS : bps)
}

/**
 * The price change of an answer against its quoted terms: for exact input the output's change
 * (priceChangeBps), for exact output the input's, signed the same way: (quoted amountIn −
 * amountIn) × 10000 / quoted amountIn, rounded toward zero, negative when the swap costs more.
 */
export const priceChangeOf = (terms: QuotedTerms, answer: { readonly amountIn: bigint; readonly amountOut: bigint }): number => {
  if (terms.tradeType === "exactInput") return priceChangeBps(terms.amountOut, answer.amountOut)
  if (terms.amountIn === 0n) return 0
  const bps = ((terms.amountIn - answer.amountIn) * 10_000n) / terms.amountIn
  return Number(bps > MAX_BPS ? MAX_BPS : bps < -MAX_BPS ? -MAX_BPS : bps)
}
