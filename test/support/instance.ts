// One API instance as `bun run serve` runs it (same start, logging, admin
// listener and graceful stop), over the synthetic programs, for the tests that
// run several instances as separate processes. Configured by the environment
// like serve; TEST_SWAP_DELAY_MS makes every /swap take that long (default 0).
// Prints `READY {"port":…,"adminPort":…,"pid":…}` once listening.
import { Effect } from "effect"
import { syntheticPrograms, syntheticSwap } from "../../src/api/index.ts"
import { exitWithParent } from "../../src/cli/lifecycle.ts"
import { runService } from "../../src/cli/service.ts"

const delay = Number(process.env.TEST_SWAP_DELAY_MS ?? "0")

exitWithParent()
runService(
  syntheticPrograms({ swap: (request) => Effect.as(Effect.sleep(delay), syntheticSwap(request)) }),
  (api) => console.log(`READY ${JSON.stringify({ port: api.port, adminPort: api.admin?.port ?? null, pid: process.pid })}`),
)
