// Every Effect metric in the process as Prometheus text (exposition format 0.0.4):
// counters and gauges as they are, histograms as cumulative `_bucket{le}` series
// with `_sum` and `_count`, summaries as quantiles, frequencies as one counter
// series per occurrence. Pure: metric pairs in, text out.
import { Metric, MetricState, Option, type MetricPair } from "effect"

export const PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

const sanitizeName = (name: string): string => {
  const cleaned = name.replace(/[^a-zA-Z0-9_:]/g, "_")
  return /^[a-zA-Z_:]/.test(cleaned) ? cleaned : `_${cleaned}`
}
const sanitizeLabel = (name: string): string => {
  const cleaned = name.replace(/[^a-zA-Z0-9_]/g, "_")
  return /^[a-zA-Z_]/.test(cleaned) ? cleaned : `_${cleaned}`
}
const escapeValue = (value: string): string => value.replace(/\\/g, "\\\\").replace(/"/g, '\\"').replace(/\n/g, "\\n")
const escapeHelp = (text: string): string => text.replace(/\\/g, "\\\\").replace(/\n/g, "\\n")

/** A sample value: integers exactly, +Inf/-Inf/NaN as Prometheus spells them. */
export const formatValue = (value: number | bigint): string => {
  if (typeof value === "bigint") return value.toString()
  if (Number.isNaN(value)) return "NaN"
  if (value === Number.POSITIVE_INFINITY) return "+Inf"
  if (value === Number.NEGATIVE_INFINITY) return "-Inf"
  return String(value)
}

const labelText = (labels: ReadonlyArray<readonly [string, string]>): string =>
  labels.length === 0 ? "" : `{${labels.map(([k, v]) => `${sanitizeLabel(k)}="${escapeValue(v)}"`).join(",")}}`

type Kind = "counter" | "gauge" | "histogram" | "summary"

const kindOf = (state: unknown): Kind | undefined => {
  if (MetricState.isCounterState(state) || MetricState.isFrequencyState(state)) return "counter"
  if (MetricState.isGaugeState(state)) return "gauge"
  if (MetricState.isHistogramState(state)) return "histogram"
  if (MetricState.isSummaryState(state)) return "summary"
  return undefined
}

const samples = (name: string, labels: ReadonlyArray<readonly [string, string]>, state: unknown): string[] => {
  if (MetricState.isCounterState(state)) return [`${name}${labelText(labels)} ${formatValue(state.count)}`]
  if (MetricState.isGaugeState(state)) return [`${name}${labelText(labels)} ${formatValue(state.value)}`]
  if (MetricState.isFrequencyState(state)) {
    return [...state.occurrences.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([occurrence, n]) => `${name}${labelText([...labels, ["key", occurrence]])} ${formatValue(n)}`)
  }
  if (MetricState.isHistogramState(state)) {
    const lines = state.buckets
      .filter(([bound]) => bound !== Number.POSITIVE_INFINITY)
      .map(([bound, count]) => `${name}_bucket${labelText([...labels, ["le", formatValue(bound)]])} ${formatValue(count)}`)
    lines.push(`${name}_bucket${labelText([...labels, ["le", "+Inf"]])} ${formatValue(state.count)}`)
    lines.push(`${name}_sum${labelText(labels)} ${formatValue(state.sum)}`)
    lines.push(`${name}_count${labelText(labels)} ${formatValue(state.count)}`)
    return lines
  }
  if (MetricState.isSummaryState(state)) {
    const lines = state.quantiles.flatMap(([q, value]) =>
      Option.isSome(value) ? [`${name}${labelText([...labels, ["quantile", formatValue(q)]])} ${formatValue(value.value)}`] : [])
    lines.push(`${name}_sum${labelText(labels)} ${formatValue(state.sum)}`)
    lines.push(`${name}_count${labelText(labels)} ${formatValue(state.count)}`)
    return lines
  }
  return []
}

/** The text for the given metric pairs: one HELP/TYPE block per name, series sorted by labels. */
export const renderPrometheus = (pairs: ReadonlyArray<MetricPair.MetricPair.Untyped>): string => {
  const families = new Map<string, { kind: Kind; help: string; series: Array<{ key: string; lines: string[] }> }>()
  for (const pair of pairs) {
    const state: unknown = pair.metricState
    const kind = kindOf(state)
    if (kind === undefined) continue
    const name = sanitizeName(pair.metricKey.name)
    let family = families.get(name)
    if (family === undefined) {
      family = { kind, help: Option.getOrElse(pair.metricKey.description, () => ""), series: [] }
      families.set(name, family)
    }
    // one name, one type: a metric of another type under a taken name is left out
    if (family.kind !== kind) continue
    const labels = pair.metricKey.tags.map((t) => [t.key, t.value] as const).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    family.series.push({ key: labelText(labels), lines: samples(name, labels, state) })
  }
  const out: string[] = []
  for (const name of [...families.keys()].sort()) {
    const family = families.get(name)!
    if (family.help !== "") out.push(`# HELP ${name} ${escapeHelp(family.help)}`)
    out.push(`# TYPE ${name} ${family.kind}`)
    for (const series of family.series.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))) out.push(...series.lines)
  }
  return out.length === 0 ? "" : `${out.join("\n")}\n`
}

/** Every metric of this process, now. */
export const prometheusSnapshot = (): string => renderPrometheus(Metric.unsafeSnapshot())
