// The edge's own metrics: how long each request took, by endpoint, HTTP status
// and the spec's code ("OK" for 200). Effect metrics: the admin listener
// exposes every metric in the registry as Prometheus text.
import { Metric, MetricBoundaries, MetricLabel } from "effect"

/** Upper bounds of the latency buckets, seconds. */
export const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10] as const

export const requestDuration = Metric.histogram(
  "http_request_duration_seconds",
  MetricBoundaries.fromIterable(LATENCY_BUCKETS),
  "time from a request's arrival to its answer, by endpoint, status and code",
)

/** The API's endpoints, by the last part of their path. */
export type ApiEndpoint = "quote" | "swap" | "sources" | "tokens" | "gasless/quote" | "gasless/submit" | "gasless/status"
/** an endpoint, or "other" (unknown paths: their names are not labels) */
export type EndpointLabel = ApiEndpoint | "other"

// one label array per combination: the metric caches its hook by the array's identity
const labelSets = new Map<string, ReadonlyArray<MetricLabel.MetricLabel>>()

/** Records one answered request. */
export const observeRequest = (endpoint: EndpointLabel, status: number, code: string, seconds: number): void => {
  const id = `${endpoint} ${status} ${code}`
  let labels = labelSets.get(id)
  if (labels === undefined) {
    labels = [MetricLabel.make("endpoint", endpoint), MetricLabel.make("status", String(status)), MetricLabel.make("code", code)]
    labelSets.set(id, labels)
  }
  requestDuration.unsafeUpdate(seconds, labels)
}
