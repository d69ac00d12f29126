// Process lifetime for the long-running commands.

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
