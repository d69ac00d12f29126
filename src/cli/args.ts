// Command-line flags, checked strictly: an unknown or malformed flag is an error that names it.
import { parseArgs, type ParseArgsConfig } from "node:util"

export class UsageError extends Error {
  override readonly name = "UsageError"
}

export const parseFlags = <const O extends NonNullable<ParseArgsConfig["options"]>>(argv: readonly string[], options: O, allowPositionals = false) => {
  try {
    return parseArgs({ args: [...argv], options, strict: true, allowPositionals })
  } catch (e) {
    throw new UsageError((e as Error).message)
  }
}

/** A port flag: an integer 0-65535 (0 picks a free port). */
export const parsePort = (value: string | undefined, flag: string, fallback: number): number => {
  if (value === undefined) return fallback
  if (!/^\d+$/.test(value) || Number(value) > 65535) throw new UsageError(`${flag} must be a port number from 0 to 65535, got "${value}"`)
  return Number(value)
}
