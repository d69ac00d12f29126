// Effect metrics as Prometheus text: each kind rendered as the exposition
// format 0.0.4 spells it, checked against hand-written text.
import { describe, expect, test } from "bun:test"
import { Effect, Metric, MetricBoundaries } from "effect"
import { formatValue, renderPrometheus } from "../../src/ops/index.ts"

const only = (prefix: string) => renderPrometheus(Metric.unsafeSnapshot().filter((p) => p.metricKey.name.startsWith(prefix)))

describe("Prometheus text", () => {
  test("counters, gauges, histograms, frequencies: HELP, TYPE, series sorted, labels escaped", async () => {
    const requests = Metric.counter("tp1_requests_total", { description: "requests seen", incremental: true })
    const temperature = Metric.gauge("tp1_temperature", { description: "line one\nline two \\ end" })
    const latency = Metric.histogram("tp1_latency_seconds", MetricBoundaries.fromIterable([0.1, 1]), "latency")
    const colors = Metric.frequency("tp1_colors")
    await Effect.runPromise(
      Effect.all([
        Metric.incrementBy(Metric.tagged(requests, "path", 'a"b\\c\nd'), 3),
        Metric.increment(Metric.tagged(Metric.tagged(requests, "path", "plain"), "method", "GET")),
        Metric.set(temperature, -2.5),
        Metric.update(latency, 0.05),
        Metric.update(latency, 0.5),
        Metric.update(latency, 5),
        Metric.update(colors, "red"),
        Metric.update(colors, "red"),
        Metric.update(colors, "blue"),
      ]),
    )
    expect(only("tp1_")).toBe(
      [
        "# TYPE tp1_colors counter",
        'tp1_colors{key="blue"} 1',
        'tp1_colors{key="red"} 2',
        "# HELP tp1_latency_seconds latency",
        "# TYPE tp1_latency_seconds histogram",
        'tp1_latency_seconds_bucket{le="0.1"} 1',
        'tp1_latency_seconds_bucket{le="1"} 2',
        'tp1_latency_seconds_bucket{le="+Inf"} 3',
        "tp1_latency_seconds_sum 5.55",
        "tp1_latency_seconds_count 3",
        "# HELP tp1_requests_total requests seen",
        "# TYPE tp1_requests_total counter",
        'tp1_requests_total{method="GET",path="plain"} 1',
        'tp1_requests_total{path="a\\"b\\\\c\\nd"} 3',
        "# HELP tp1_temperature line one\\nline two \\\\ end",
        "# TYPE tp1_temperature gauge",
        "tp1_temperature -2.5",
        "",
      ].join("\n"),
    )
  })

  test("names and label names are made legal; nothing registered gives empty text", () => {
    Effect.runSync(Metric.increment(Metric.tagged(Metric.counter("tp2-odd.name"), "9-label", "v")))
    expect(only("tp2")).toBe(['# TYPE tp2_odd_name counter', 'tp2_odd_name{_9_label="v"} 1', ""].join("\n"))
    expect(only("tp3_nothing")).toBe("")
  })

  test("values: integers exact, infinities and NaN spelled out", () => {
    expect([formatValue(3), formatValue(2n ** 70n), formatValue(0.25), formatValue(Infinity), formatValue(-Infinity), formatValue(NaN)]).toEqual([
      "3",
      "1180591620717411303424",
      "0.25",
      "+Inf",
      "-Inf",
      "NaN",
    ])
  })
})
