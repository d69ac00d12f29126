// Operations: the admin listener (Prometheus metrics, health), log output.
export { AdminServeError, checkHealth, MarketMetrics, recordStaleness, serveAdmin, type AdminServer, type HealthInputs, type HealthReport } from "./admin.ts"
export { AdminListener, AdminLive } from "./admin-live.ts"
export { jsonLogger, LoggingLive, loggerLayer, stdoutSink, textLogger, type LogSink } from "./logging.ts"
export { formatValue, PROMETHEUS_CONTENT_TYPE, prometheusSnapshot, renderPrometheus } from "./prometheus.ts"
