// Log output: the least level written (LOG_LEVEL) and the line format (LOG_FORMAT).
import { Config, LogLevel } from "effect"

export type LogFormat = "json" | "text"

const LOGGING_DEFAULTS = { logFormat: "json" } as const

export const logLevelConfig: Config.Config<LogLevel.LogLevel> = Config.literal("debug", "info", "warn", "error")("LOG_LEVEL").pipe(
  Config.map((level) => LogLevel.fromLiteral(level === "warn" ? "Warning" : level === "debug" ? "Debug" : level === "info" ? "Info" : "Error")),
  Config.withDefault(LogLevel.Info),
)

/** json: one JSON object per line (timestamp, level, message, requestId, …); text: logfmt */
export const logFormatConfig: Config.Config<LogFormat> = Config.literal("json", "text")("LOG_FORMAT").pipe(
  Config.withDefault<LogFormat>(LOGGING_DEFAULTS.logFormat),
)
