// bun run serve [--manifest FILE]
// The API alone, configured from the environment, and from a devnet manifest
// for what the environment does not set; with ADMIN_PORT, the admin listener
// (/metrics, /health); logs in LOG_FORMAT (JSON lines by default). Runs until
// SIGINT/SIGTERM, then stops gracefully: no new connections, requests in flight
// finish (up to SHUTDOWN_TIMEOUT_MS), shared slots are given back, connections
// to Redis, Postgres and the chain are closed.
import { Either } from "effect"
import { readManifest, type Manifest } from "../devnet/index.ts"
import { chainSettings } from "../swap/chain-settings.ts"
import { liveServices } from "../swap/live.ts"
import { parseFlags } from "./args.ts"
import { exitWithParent } from "./lifecycle.ts"
import { runService } from "./service.ts"

const USAGE = "usage: bun run serve [--manifest FILE]"

const fail = (message: string): never => {
  console.error(`error: ${message}`)
  process.exit(message.startsWith("usage") ? 2 : 1)
}

let manifest: Manifest | undefined
try {
  const { values } = parseFlags(process.argv.slice(2), { manifest: { type: "string" } })
  if (values.manifest !== undefined) {
    try {
      manifest = readManifest(values.manifest)
    } catch (e) {
      fail(`cannot read the manifest ${values.manifest}: ${(e as Error).message}`)
    }
  }
} catch (e) {
  console.error(`error: ${(e as Error).message}\n${USAGE}`)
  process.exit(2)
}

const settings = Either.getOrElse(chainSettings(process.env, manifest), (message) => fail(message))

exitWithParent()
runService(liveServices(settings), (api) => console.log(`API ready at ${api.baseUrl} (executor ${settings.executor})`))
