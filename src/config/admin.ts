// The admin listener (ADMIN_HOST:ADMIN_PORT: /metrics, /health, /docs,
// /openapi.json), started only when ADMIN_PORT is set, its bearer token
// (ADMIN_TOKEN: required off loopback, enforced whenever set), and when
// /health calls the market stale.
import { Config, ConfigError, Either, Option, Redacted } from "effect"
import { integerFrom, integerIn, nonBlank } from "./values.ts"

const ADMIN_DEFAULTS = {
  adminHost: "127.0.0.1",
  marketStaleAfterMs: 10_000,
} as const

export interface AdminListen {
  readonly host: string
  /** 0 picks a free port */
  readonly port: number
  /** when set, every admin request must carry `Authorization: Bearer <token>` */
  readonly token: Option.Option<Redacted.Redacted<string>>
}

/** localhost, 127.0.0.0/8 or ::1: only this machine can reach the listener. */
export const isLoopbackHost = (host: string): boolean => {
  const h = host.trim().toLowerCase().replace(/^\[(.*)\]$/, "$1")
  return h === "localhost" || h === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h)
}

const adminToken: Config.Config<Option.Option<Redacted.Redacted<string>>> = Config.option(
  Config.string("ADMIN_TOKEN").pipe(
    Config.validate({ message: "must not be empty or hold spaces", validation: (s) => s !== "" && !/\s/.test(s) }),
    Config.map(Redacted.make),
  ),
)

export const adminConfig: Config.Config<Option.Option<AdminListen>> = Config.all({
  port: Config.option(integerFrom("ADMIN_PORT", 0, 65_535)),
  host: nonBlank("ADMIN_HOST", ADMIN_DEFAULTS.adminHost),
  token: adminToken,
}).pipe(
  // /health, /metrics and /docs answer anyone who can reach them: off this machine, only with a token
  Config.mapOrFail(({ port, host, token }) =>
    Option.isSome(port) && Option.isNone(token) && !isLoopbackHost(host)
      ? Either.left(ConfigError.InvalidData(["ADMIN_TOKEN"], `required when ADMIN_HOST is not loopback (got "${host}"): admin requests must then carry Authorization: Bearer <ADMIN_TOKEN>`))
      : Either.right(Option.map(port, (p) => ({ host, port: p, token })))),
)

export const marketStaleAfterConfig: Config.Config<number> = integerIn("MARKET_STALE_AFTER_MS", ADMIN_DEFAULTS.marketStaleAfterMs, 1, 86_400_000)
