// The client address behind load balancers: X-Forwarded-For is believed only
// through the proxies named in TRUSTED_PROXIES, read from the right.
import { afterEach, describe, expect, test } from "bun:test"
import { clientAddress, normalizeAddress } from "../../src/api/client-ip.ts"
import { expectError, post, quoteBody, startTestApi, type TestApi } from "./support.ts"

describe("clientAddress", () => {
  const lb = new Set(["10.0.0.5", "10.0.0.6"])
  test("no trusted proxies: the TCP peer, whatever the header says", () => {
    expect(clientAddress("203.0.113.9", "198.51.100.1", new Set())).toBe("203.0.113.9")
  })
  test("a peer that is not a trusted proxy: the peer", () => {
    expect(clientAddress("203.0.113.9", "198.51.100.1", lb)).toBe("203.0.113.9")
  })
  test("through trusted proxies: the rightmost address that is not one of them", () => {
    expect(clientAddress("10.0.0.5", "198.51.100.1", lb)).toBe("198.51.100.1")
    // a client that writes its own header cannot choose its address
    expect(clientAddress("10.0.0.5", "1.2.3.4, 198.51.100.1, 10.0.0.6", lb)).toBe("198.51.100.1")
    expect(clientAddress("10.0.0.5", "10.0.0.6", lb)).toBe("10.0.0.6")
    expect(clientAddress("10.0.0.5", null, lb)).toBe("10.0.0.5")
    expect(clientAddress("::ffff:10.0.0.5", " [2001:DB8::1] ", lb)).toBe("2001:db8::1")
  })
  test("normalizeAddress", () => {
    expect([normalizeAddress("::ffff:127.0.0.1"), normalizeAddress("[FE80::1%eth0]"), normalizeAddress(" 192.0.2.1 ")]).toEqual(["127.0.0.1", "fe80::1", "192.0.2.1"])
  })
})

describe("the per-IP bad-key limit behind a load balancer", () => {
  let api: TestApi | undefined
  afterEach(async () => {
    await api?.close()
    api = undefined
  })
  const bad = (from: string) => post(api!, "/api/v1/quote", quoteBody(), { "x-api-key": "nope", "x-forwarded-for": from })

  test("TRUSTED_PROXIES=127.0.0.1: each client behind it has its own count", async () => {
    api = await startTestApi({ env: { TRUSTED_PROXIES: "127.0.0.1", BAD_KEY_LIMIT_PER_MINUTE: "2" } })
    expectError(await bad("198.51.100.1"), 401, "UNAUTHORIZED")
    expectError(await bad("198.51.100.1"), 401, "UNAUTHORIZED")
    expectError(await bad("198.51.100.1"), 429, "RATE_LIMITED")
    expectError(await bad("198.51.100.2"), 401, "UNAUTHORIZED")
  })

  test("no TRUSTED_PROXIES: the header is ignored, one count for the peer", async () => {
    api = await startTestApi({ env: { BAD_KEY_LIMIT_PER_MINUTE: "2" } })
    expectError(await bad("198.51.100.1"), 401, "UNAUTHORIZED")
    expectError(await bad("198.51.100.2"), 401, "UNAUTHORIZED")
    expectError(await bad("198.51.100.3"), 429, "RATE_LIMITED")
  })
})
