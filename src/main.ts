// bun start: the embedded default. A devnet with the default scenario, built,
// seeded and described; Ctrl-C or SIGTERM stops all of it, chain included.
import { BunRuntime } from "@effect/platform-bun"
import { Effect, Layer } from "effect"
import { exitWithParent } from "./cli/lifecycle.ts"
import { DEFAULT_MANIFEST_PATH, Devnet, describeDevnet } from "./devnet/index.ts"

const manifestPath = process.env.MANIFEST_PATH ?? DEFAULT_MANIFEST_PATH

const announce = Layer.effectDiscard(
  Effect.flatMap(Devnet, (devnet) => Effect.sync(() => console.log(`${describeDevnet(devnet, manifestPath)}\nCtrl-C stops everything.`))),
)

exitWithParent()
BunRuntime.runMain(
  Layer.launch(announce.pipe(Layer.provide(Devnet.layer({ manifestPath, port: 8545 })))).pipe(
    Effect.catchTags({
      ScenarioError: (e) => Effect.sync(() => { console.error(`error: ${e.message}`); process.exitCode = 1 }),
      DevnetError: (e) => Effect.sync(() => { console.error(`error: ${e.message}`); process.exitCode = 1 }),
    }),
  ),
  { disablePrettyLogger: true },
)
