// Process lifetime for the commands: SIGINT/SIGTERM stop the running program
// (its scopes close: servers stop, connections close, the node stops), a
// failure prints `error: <message>` on stderr and exits 1, and a long-running
// command stops with its parent.
import { BunRuntime } from "@effect/platform-bun"
import { Data, Effect, Layer } from "effect"

/** A start that cannot go on; the message says what is wrong and what to change. */
export class StartError extends Data.TaggedError("StartError")<{ readonly message: string }> {}

/**
 * Stops this process (as SIGTERM would: scopes close, the node stops) when its
 * parent dies. `bun run <script>` forwards SIGINT/SIGTERM to the script but a
 * SIGKILLed runner would otherwise leave the script, and its chain, running.
 */
export const exitWithParent = (intervalMs = 500): void => {
  const parent = process.ppid
  const timer = setInterval(() => {
    if (process.ppid !== parent) {
      clearInterval(timer)
      process.kill(process.pid, "SIGTERM")
    }
  }, intervalMs)
  timer.unref()
}

/** Runs a command to its end, or until SIGINT/SIGTERM; a failure is printed and exits 1. */
export const runCommand = <E extends { readonly message?: string }>(program: Effect.Effect<unknown, E>): void =>
  BunRuntime.runMain(
    program.pipe(
      Effect.catchAll((e) =>
        Effect.sync(() => {
          console.error(`error: ${e.message ?? String(e)}`)
          process.exitCode = 1
        }),
      ),
    ),
    { disablePrettyLogger: true },
  )

/** Builds the layer and keeps it until SIGINT/SIGTERM or its parent's end; a failure to build is printed and exits 1. */
export const launch = <E extends { readonly message?: string }>(layer: Layer.Layer<never, E>): void => {
  exitWithParent()
  runCommand(Layer.launch(layer))
}
