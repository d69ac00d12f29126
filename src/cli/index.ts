// The commands' shared pieces, for the entry points: strict flags, the process's
// lifetime (signals, errors, a parent's end), the API service over any programs.
export { parseFlags, parsePort, UsageError } from "./args.ts"
export { exitWithParent, launch, runCommand, StartError } from "./lifecycle.ts"
export { apiService, LiveProgramsFromConfig, runService } from "./service.ts"
