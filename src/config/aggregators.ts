// AGGREGATORS: the external sources, a JSON array of
// { name, kind, url, apiKey?, timeoutMs?, failureThreshold?, cooldownMs? },
// each entry decoded and checked here (kinds, names, URLs, ranges), the list as
// a whole against the quote's time budget.
import { Schema } from "effect"
import { OWN_ROUTER } from "../pricer/index.ts"
import type { JsonVariable } from "./json-variable.ts"

/** The API shapes the service has a client for. */
export const AGGREGATOR_KINDS = ["0x-v2", "kyberswap"] as const


/** A source's time budget when its entry gives none. */
export const DEFAULT_AGGREGATOR_TIMEOUT_MS = 1_500

const integer = (min: number, max: number) =>
  Schema.Number.annotations({ message: () => "must be a number" }).pipe(
    Schema.filter((n) => (Number.isInteger(n) && n >= min && n <= max) || `must be an integer from ${min} to ${max}`),
  )

const text = Schema.String.annotations({ message: () => "must be a string" })

const AggregatorEntry = Schema.Struct({
  name: text.pipe(
    Schema.filter((name) => /^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/.test(name) || `"${name}" must be 1-40 letters, digits, . _ -`),
    Schema.filter((name) => name !== OWN_ROUTER || `"${name}" is the own router's`),
  ),
  kind: text.pipe(Schema.filter((kind) => (AGGREGATOR_KINDS as readonly string[]).includes(kind) || `"${kind}" is not one of ${AGGREGATOR_KINDS.join(", ")}`)),
  url: text.pipe(Schema.filter((url) => /^https?:\/\/[^\s]+$/.test(url) || `"${url}" is not an http(s) URL`)),
  apiKey: Schema.optionalWith(text, { exact: true }),
  timeoutMs: Schema.optionalWith(integer(10, 60_000), { exact: true }),
  failureThreshold: Schema.optionalWith(integer(1, 1_000), { exact: true }),
  cooldownMs: Schema.optionalWith(integer(0, 3_600_000), { exact: true }),
}).annotations({ message: () => "must be an object" })

/** One external aggregator as a deployment configures it. */
export type AggregatorSettings = typeof AggregatorEntry.Type

export const AGGREGATORS: JsonVariable<ReadonlyArray<AggregatorSettings>, ReadonlyArray<typeof AggregatorEntry.Encoded>> = {
  name: "AGGREGATORS",
  schema: Schema.Array(AggregatorEntry).annotations({ message: () => "not an array" }),
  shape: "a JSON array of { name, kind, url, apiKey?, timeoutMs?, failureThreshold?, cooldownMs? }",
  entry: (key, value) => {
    const entry = Array.isArray(value) ? (value[Number(key)] as { name?: unknown } | undefined) : undefined
    return typeof entry?.name === "string" ? `aggregator ${entry.name}` : `entry ${String(key)}`
  },
}

/**
 * The problems of the list as a whole: names used twice, a source's time budget
 * not inside the quote's (a /quote never waits on an aggregator to its own end).
 */
export const aggregatorProblems = (aggregators: ReadonlyArray<AggregatorSettings>, quoteBudgetMs: number): string[] => {
  const problems: string[] = []
  const names = new Set<string>()
  for (const aggregator of aggregators) {
    if (names.has(aggregator.name)) problems.push(`AGGREGATORS: the name ${aggregator.name} is used twice`)
    names.add(aggregator.name)
    const timeoutMs = aggregator.timeoutMs ?? DEFAULT_AGGREGATOR_TIMEOUT_MS
    if (timeoutMs >= quoteBudgetMs) problems.push(`AGGREGATORS: ${aggregator.name}'s timeoutMs ${timeoutMs} must be below the quote budget of ${quoteBudgetMs} ms`)
  }
  return problems
}
