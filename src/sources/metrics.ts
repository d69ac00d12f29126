// Counters per route source (tag `source`): how often each was asked, won,
// timed out, failed, was skipped by its circuit breaker, or had its route
// rejected by the sender's simulation. Effect metrics: any exporter reads them.
import { Effect, Metric, type MetricLabel } from "effect"

const counter = (name: string, description: string) => Metric.counter(name, { description, incremental: true })

export const SourceMetrics = {
  requests: counter("route_source_requests_total", "quotes asked of a route source"),
  wins: counter("route_source_wins_total", "responses whose route came from the source"),
  timeouts: counter("route_source_timeouts_total", "calls cut off at the source's time budget"),
  errors: counter("route_source_errors_total", "calls that failed (unreachable, error status, invalid answer)"),
  circuitOpen: counter("route_source_circuit_open_total", "calls skipped because the source's circuit breaker was open"),
  rejected: counter("route_source_rejected_total", "routes dropped at /swap because the simulation refused them"),
} as const

export type SourceMetricName = keyof typeof SourceMetrics

// a counter tagged with a source, built once per (counter, source): tagging builds a new metric key
const tagged = new Map<string, Metric.Metric.Counter<number>>()
const taggedCounter = (metric: SourceMetricName, source: string): Metric.Metric.Counter<number> => {
  const key = `${metric}\u0000${source}`
  let counter = tagged.get(key)
  if (counter === undefined) {
    counter = Metric.tagged(SourceMetrics[metric], "source", source)
    tagged.set(key, counter)
  }
  return counter
}

const NO_EXTRA_TAGS: ReadonlyArray<MetricLabel.MetricLabel> = []

/** Adds one to a counter for a source (once per quote: the counter's own update, without the fiber's metric labels). */
export const countSource = (metric: SourceMetricName, source: string): Effect.Effect<void> => {
  const counter = taggedCounter(metric, source)
  return Effect.sync(() => counter.unsafeUpdate(1, NO_EXTRA_TAGS))
}

export type SourceCounts = { readonly [K in SourceMetricName]: number }

/** Every counter's current value for a source. */
export const sourceCounts = (source: string): Effect.Effect<SourceCounts> =>
  Effect.all(
    Object.fromEntries(
      (Object.keys(SourceMetrics) as SourceMetricName[]).map((name) => [
        name,
        Effect.map(Metric.value(Metric.tagged(SourceMetrics[name], "source", source)), (state) => Number(state.count)),
      ]),
    ) as { [K in SourceMetricName]: Effect.Effect<number> },
  )
