// bun run serve [--manifest FILE]
// The API alone, configured from the environment, and from a devnet manifest
// for what the environment does not set; with ADMIN_PORT, the admin listener
// (/metrics, /health); logs in LOG_FORMAT (JSON lines by default); the market's
// state kept in MARKET_SNAPSHOT (.data/market.sqlite) across restarts. Runs until
// SIGINT/SIGTERM, then stops gracefully: no new connections, requests in flight
// finish (up to SHUTDOWN_TIMEOUT_MS), shared slots are given back, connections
// to Redis, Postgres and the chain are closed.
import { Effect, Layer } from "effect"
import { ChainConfig, DEFAULT_MARKET_SNAPSHOT, ServiceConfigLive, withManifest } from "../config/index.ts"
import { readManifest, type Manifest } from "../devnet/index.ts"
import { parseFlags } from "./args.ts"
import { launch } from "./lifecycle.ts"
import { apiService, LiveProgramsFromConfig } from "./service.ts"

const USAGE = "usage: bun run serve [--manifest FILE]"

const manifest = ((): Manifest | undefined => {
  let path: string | undefined
  try {
    path = parseFlags(process.argv.slice(2), { manifest: { type: "string" } }).values.manifest
  } catch (e) {
    console.error(`error: ${(e as Error).message}\n${USAGE}`)
    process.exit(2)
  }
  if (path === undefined) return undefined
  try {
    return readManifest(path)
  } catch (e) {
    console.error(`error: cannot read the manifest ${path}: ${(e as Error).message}`)
    process.exit(1)
  }
})()

const announce = apiService(LiveProgramsFromConfig, (api) =>
  Effect.flatMap(ChainConfig, (chain) => Effect.sync(() => console.log(`API ready at ${api.baseUrl} (executor ${chain.executor})`))))

// every setting, the API's and the chain's, read and checked together: the environment first, then the
// manifest; the market's state is kept across restarts unless MARKET_SNAPSHOT says otherwise
const env = { MARKET_SNAPSHOT: DEFAULT_MARKET_SNAPSHOT, ...process.env }
launch(announce.pipe(Layer.provide(ServiceConfigLive(withManifest(env, manifest)))))
