// Operations: the admin listener (Prometheus metrics, health, the API's documentation), log output.
export { AdminServeError, checkHealth, MarketMetrics, recordStaleness, serveAdmin, type AdminDocs, type AdminServer, type HealthInputs, type HealthReport, type RelayerHealthShape } from "./admin.ts"
export { docsPage } from "./docs-page.ts"
export { OPENAPI_FILE, readOpenApiFile } from "./openapi-file.ts"
export { AdminListener, AdminLive, RelayerHealth } from "./admin-live.ts"
export { jsonLogger, LoggingLive, loggerLayer, stdoutSink, textLogger, type LogSink } from "./logging.ts"
export { formatValue, PROMETHEUS_CONTENT_TYPE, prometheusSnapshot, renderPrometheus } from "./prometheus.ts"
