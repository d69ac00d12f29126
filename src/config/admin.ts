// The admin listener (ADMIN_HOST:ADMIN_PORT: /metrics, /health), started only
// when ADMIN_PORT is set, and when /health calls the market stale.
import { Config, Option } from "effect"
import { integerFrom, integerIn, nonBlank } from "./values.ts"

const ADMIN_DEFAULTS = {
  adminHost: "127.0.0.1",
  marketStaleAfterMs: 10_000,
} as const

export interface AdminListen {
  readonly host: string
  /** 0 picks a free port */
  readonly port: number
}

export const adminConfig: Config.Config<Option.Option<AdminListen>> = Config.all({
  port: Config.option(integerFrom("ADMIN_PORT", 0, 65_535)),
  host: nonBlank("ADMIN_HOST", ADMIN_DEFAULTS.adminHost),
}).pipe(Config.map(({ port, host }) => Option.map(port, (p) => ({ host, port: p }))))

export const marketStaleAfterConfig: Config.Config<number> = integerIn("MARKET_STALE_AFTER_MS", ADMIN_DEFAULTS.marketStaleAfterMs, 1, 86_400_000)
