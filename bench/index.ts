// bun bench: runs every subject, prints one table, writes bench/results/latest.json.
import { mkdirSync, renameSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { cpus, totalmem } from "node:os"
import type { Measurement } from "./measurement.ts"

interface Subject {
  readonly name: string
  readonly run: () => Promise<Measurement[]>
}

const subjects: Subject[] = [
  { name: "devnet", run: async () => (await import("./devnet.ts")).run() },
  { name: "routing", run: async () => (await import("./routing.ts")).run() },
  { name: "executor-gas", run: async () => (await import("./executor-gas.ts")).run() },
  { name: "api-edge", run: async () => (await import("./api-edge.ts")).run() },
  { name: "api", run: async () => (await import("./api.ts")).run() },
  { name: "gasless", run: async () => (await import("./gasless.ts")).run() },
  { name: "key-lookup", run: async () => (await import("./key-lookup.ts")).run() },
  { name: "market", run: async () => (await import("./market.ts")).run() },
  { name: "sources", run: async () => (await import("./sources.ts")).run() },
]

const only = process.argv.slice(2)
const results: Array<Measurement & { subject: string }> = []
for (const subject of subjects) {
  if (only.length > 0 && !only.includes(subject.name)) continue
  process.stderr.write(`bench ${subject.name}…\n`)
  try {
    for (const m of await subject.run()) results.push({ subject: subject.name, ...m })
  } catch (e) {
    results.push({ subject: subject.name, name: "error", value: Number.NaN, unit: "", note: String(e) })
  }
}

const pad = (s: string, n: number) => s.padEnd(n)
const rows = results.map((r) => [r.subject, r.name, Number.isNaN(r.value) ? "—" : formatValue(r.value), r.unit, r.target ?? "", r.target ? (r.met ? "yes" : "NO") : "", r.note ?? ""])
const header = ["subject", "measure", "value", "unit", "target", "met", "note"]
const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
console.log([header, widths.map((w) => "-".repeat(w)), ...rows].map((r) => r.map((c, i) => pad(c, widths[i]!)).join("  ")).join("\n"))

function formatValue(v: number): string {
  return Number.isInteger(v) ? String(v) : v.toFixed(v < 10 ? 3 : 1)
}

const dir = join(import.meta.dir, "results")
mkdirSync(dir, { recursive: true })
const file = join(dir, "latest.json")
const tmp = `${file}.tmp`
writeFileSync(tmp, `${JSON.stringify({ date: new Date().toISOString(), machine: { cpus: cpus().length, memoryBytes: totalmem() }, results }, null, 2)}\n`)
renameSync(tmp, file)
console.log(`\nwritten ${file}`)
