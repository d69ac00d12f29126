// Which RPC endpoints the service may read its prices and simulations from:
// https, or plain http only to this machine. Anyone between the service and a
// plain-http node could change both a quote and the simulation that checks it;
// RPC_ALLOW_INSECURE=1 accepts plain http anywhere (a private network the
// operator trusts).

/** 127.0.0.0/8, ::1 (also as ::ffff:127.x.y.z) and localhost, as a parsed URL names them. */
export const isLoopbackHost = (hostname: string): boolean => {
  const host = hostname.toLowerCase().replace(/\.$/, "")
  return host === "localhost" || host === "[::1]" || /^127(\.\d{1,3}){3}$/.test(host) || /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(host)
}

/**
 * Why `url` may not be used as an RPC endpoint, or undefined when it may. The endpoint is named
 * by its origin, so that a key in its path or user part is not printed.
 */
export const rpcUrlProblem = (url: string, allowInsecure: boolean): string | undefined => {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return "is not a URL"
  }
  if (parsed.protocol === "https:" || allowInsecure || isLoopbackHost(parsed.hostname)) return undefined
  return `${parsed.origin} is plain http to a host that is not loopback, so its answers could be changed on the way: use https, or set RPC_ALLOW_INSECURE=1 for a network you trust`
}
