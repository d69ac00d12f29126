// bun run keys create --name NAME [--rpm N] [--concurrency N]
// bun run keys list [--json]
// bun run keys revoke ID
// The key store at DATABASE_URL (KEY_HASH_SECRET or the secret file beside it);
// a running server sees every change on its next request.
import { Effect, Layer } from "effect"
import { ApiKeys, DEFAULT_CONCURRENCY, DEFAULT_RPM, type KeyRecord } from "../access/index.ts"
import { loadKeyStoreConfig } from "../config/index.ts"
import { parseFlags, UsageError } from "./args.ts"
import { runCommand } from "./lifecycle.ts"

const USAGE = [
  "usage: bun run keys create --name NAME [--rpm N] [--concurrency N]",
  "       bun run keys list [--json]",
  "       bun run keys revoke ID",
].join("\n")

type Command =
  | { readonly kind: "create"; readonly name: string; readonly rpm: number; readonly concurrency: number }
  | { readonly kind: "list"; readonly json: boolean }
  | { readonly kind: "revoke"; readonly id: string }

const positiveInteger = (value: string | undefined, flag: string, fallback: number): number => {
  if (value === undefined) return fallback
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`${flag} must be a positive integer, got "${value}"`)
  return Number(value)
}

const parseCommand = (argv: readonly string[]): Command => {
  const [command, ...rest] = argv
  switch (command) {
    case "create": {
      const { values } = parseFlags(rest, { name: { type: "string" }, rpm: { type: "string" }, concurrency: { type: "string" } })
      if (values.name === undefined) throw new UsageError("create needs --name NAME")
      return {
        kind: "create",
        name: values.name,
        rpm: positiveInteger(values.rpm, "--rpm", DEFAULT_RPM),
        concurrency: positiveInteger(values.concurrency, "--concurrency", DEFAULT_CONCURRENCY),
      }
    }
    case "list": {
      const { values } = parseFlags(rest, { json: { type: "boolean" } })
      return { kind: "list", json: values.json === true }
    }
    case "revoke": {
      const { positionals } = parseFlags(rest, {}, true)
      if (positionals.length !== 1) throw new UsageError("revoke needs exactly one key ID (see bun run keys list)")
      return { kind: "revoke", id: positionals[0]! }
    }
    case undefined:
      throw new UsageError("no command given")
    default:
      throw new UsageError(`unknown command "${command}"`)
  }
}

const table = (records: readonly KeyRecord[]): string => {
  const header = ["id", "name", "rpm", "concurrency", "created", "revoked"]
  const rows = records.map((r) => [r.id, r.name, String(r.rpm), String(r.concurrency), r.createdAt.toISOString(), r.revokedAt?.toISOString() ?? "-"])
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)))
  return [header, ...rows].map((row) => row.map((cell, i) => cell.padEnd(widths[i]!)).join("  ").trimEnd()).join("\n")
}

/** The key store DATABASE_URL and KEY_HASH_SECRET name, open while the command runs. */
const KeyStoreLive = Layer.unwrapEffect(Effect.map(loadKeyStoreConfig(), ApiKeys.layer))

const run = (command: Command) =>
  Effect.gen(function* () {
    const keys = yield* ApiKeys
    switch (command.kind) {
      case "create": {
        const { key, record } = yield* keys.create(command)
        console.log(`created key ${record.id} "${record.name}": ${record.rpm} requests a minute, ${record.concurrency} in flight`)
        console.log("the key is shown once and cannot be recovered; store it now:")
        console.log(key)
        return
      }
      case "list": {
        const records = yield* keys.list
        if (command.json) console.log(JSON.stringify(records, null, 2))
        else console.log(records.length === 0 ? "no keys" : table(records))
        return
      }
      case "revoke": {
        const before = (yield* keys.list).find((r) => r.id === command.id)
        const record = yield* keys.revoke(command.id)
        console.log(before?.revokedAt
          ? `key ${record.id} "${record.name}" was already revoked at ${record.revokedAt?.toISOString()}`
          : `revoked key ${record.id} "${record.name}"`)
        return
      }
    }
  })

let command: Command
try {
  command = parseCommand(process.argv.slice(2))
} catch (e) {
  console.error(`error: ${(e as Error).message}\n${USAGE}`)
  process.exit(2)
}

runCommand(run(command).pipe(Effect.provide(KeyStoreLive)))
