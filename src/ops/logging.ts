// Log output. LOG_FORMAT=json (the default): one JSON object per line with
// `timestamp` (ISO 8601), `level`, `message`, then every log annotation as its
// own field — `requestId` on every line written while a request runs — and
// `cause` when there is one. LOG_FORMAT=text: logfmt (key=value) lines.
import { Cause, Effect, FiberId, HashMap, Layer, Logger, type LogLevel } from "effect"
import { AppConfig, type LogFormat } from "../config/index.ts"

export type LogSink = (line: string) => void

/** Standard output, one line per entry. */
export const stdoutSink: LogSink = (line) => {
  process.stdout.write(`${line}\n`)
}

const RESERVED = new Set(["timestamp", "level", "message", "cause", "fiber"])

const plain = (value: unknown): unknown => {
  if (typeof value === "bigint") return value.toString()
  if (value instanceof Error) return value.message
  return value
}

const stringify = (value: unknown): string => {
  try {
    return JSON.stringify(value, (_key, v) => plain(v)) ?? String(value)
  } catch {
    return String(value)
  }
}

const messageText = (message: unknown): string => {
  const parts = Array.isArray(message) ? message : [message]
  return parts.map((part) => (typeof part === "string" ? part : stringify(part))).join(" ")
}

/** Effect's level names as lower-case words: debug, info, warn, error, fatal, trace. */
const levelName = (level: LogLevel.LogLevel): string => (level._tag === "Warning" ? "warn" : level.label.toLowerCase())

/** One JSON object per line. */
export const jsonLogger = (write: LogSink = stdoutSink): Logger.Logger<unknown, void> =>
  Logger.make(({ annotations, cause, date, fiberId, logLevel, message }) => {
    const entry: Record<string, unknown> = {
      timestamp: date.toISOString(),
      level: levelName(logLevel),
      message: messageText(message),
    }
    for (const [key, value] of HashMap.toEntries(annotations)) {
      if (!RESERVED.has(key)) entry[key] = plain(value)
    }
    if (!Cause.isEmpty(cause)) entry.cause = Cause.pretty(cause, { renderErrorCause: true })
    entry.fiber = FiberId.threadName(fiberId)
    write(stringify(entry))
  })

/** logfmt lines. */
export const textLogger = (write: LogSink = stdoutSink): Logger.Logger<unknown, void> => Logger.map(Logger.logfmtLogger, write)

/** Replaces the default logger with the one for `format`. */
export const loggerLayer = (format: LogFormat, write: LogSink = stdoutSink): Layer.Layer<never> =>
  Logger.replace(Logger.defaultLogger, format === "json" ? jsonLogger(write) : textLogger(write))

/** The logger and minimum level AppConfig names (LOG_FORMAT, LOG_LEVEL), for everything built under it. */
export const LoggingLive = (write: LogSink = stdoutSink): Layer.Layer<never, never, AppConfig> =>
  Layer.unwrapEffect(Effect.map(AppConfig, (config) => Layer.merge(loggerLayer(config.logFormat, write), Logger.minimumLogLevel(config.logLevel))))
