// The client's address for the per-IP bad-key limit. Behind a load balancer the
// TCP peer is the balancer, so X-Forwarded-For is read — but only through the
// proxies the operator names (TRUSTED_PROXIES): walking the chain from the
// right, the first address that is not a trusted proxy is the client. Without
// trusted proxies the header is ignored (any client could write it).

/** "::ffff:192.0.2.1" → "192.0.2.1"; IPv6 in lower case; brackets and zone ids dropped. */
export const normalizeAddress = (address: string): string => {
  let a = address.trim().toLowerCase()
  if (a.startsWith("[") && a.includes("]")) a = a.slice(1, a.indexOf("]"))
  const zone = a.indexOf("%")
  if (zone !== -1) a = a.slice(0, zone)
  if (a.startsWith("::ffff:") && a.slice(7).includes(".")) a = a.slice(7)
  return a
}

/** The client address for a request from `peer` with the given X-Forwarded-For header. */
export const clientAddress = (peer: string, forwardedFor: string | null, trusted: ReadonlySet<string>): string => {
  const direct = normalizeAddress(peer)
  if (trusted.size === 0 || forwardedFor === null || !trusted.has(direct)) return direct
  const chain = forwardedFor.split(",").map(normalizeAddress).filter((a) => a !== "")
  for (let i = chain.length - 1; i >= 0; i--) {
    // a bucket key, not an address to trust: long junk is cut
    if (!trusted.has(chain[i]!)) return chain[i]!.slice(0, 64)
  }
  return chain[0]?.slice(0, 64) ?? direct
}
