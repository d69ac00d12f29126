// bun run devnet [--scenario FILE] [--port N] [--manifest FILE]
// The chain alone: node, contracts, pools and balances; runs until SIGINT/SIGTERM.
// A busy --port is an error naming it, before anything is deployed.
import { Effect, Layer } from "effect"
import { DEFAULT_MANIFEST_PATH, Devnet, describeDevnet } from "../devnet/index.ts"
import { parseFlags, parsePort } from "./args.ts"
import { launch, StartError } from "./lifecycle.ts"

const USAGE = "usage: bun run devnet [--scenario FILE] [--port N] [--manifest FILE]"

const flags = (() => {
  try {
    const { values } = parseFlags(process.argv.slice(2), {
      scenario: { type: "string" },
      port: { type: "string" },
      manifest: { type: "string" },
    })
    return { scenarioPath: values.scenario, port: parsePort(values.port, "--port", 8545), manifestPath: values.manifest ?? DEFAULT_MANIFEST_PATH }
  } catch (e) {
    console.error(`error: ${(e as Error).message}\n${USAGE}`)
    process.exit(2)
  }
})()

const announce = Layer.effectDiscard(
  Effect.flatMap(Devnet, (devnet) => Effect.sync(() => console.log(describeDevnet(devnet, flags.manifestPath)))),
)

launch(
  announce.pipe(
    Layer.provide(Devnet.layer(flags)),
    Layer.mapError((e) => (e._tag === "PortInUseError" ? new StartError({ message: `${e.message} (--port to choose another)` }) : e)),
  ),
)
