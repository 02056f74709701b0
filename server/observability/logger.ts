import { Logger } from "effect"
import { replaceSecretsInText } from "../../src/domain/secrets.ts"

/** What stands for a secret in a log line. */
export const REDACTED = "[redacted]"

/** A log line with the secrets it carries replaced (a launch URL's `?token=`, `"password":"…"`, a bearer credential). */
export const redactLine = (line: string) => replaceSecretsInText(line, () => REDACTED)

/** What every log line says, besides its own annotations. */
export interface LogRecord {
  readonly time: string
  readonly level: string
  readonly message: unknown
  readonly serverId: string
  /** The area the line comes from: the API group of the request (identity, betting, …) or the service that runs in the background. */
  readonly capability?: unknown
  /** The request's trace (the OTLP trace when exporting), so a complaint's `meta.traceId` finds its lines. */
  readonly traceId?: string
  readonly spanId?: string
  readonly cause?: string
  readonly [annotation: string]: unknown
}

/**
 * The server's log record: Effect's structured one (message, level, annotations, cause) with the time, the trace
 * and span of the fiber that logged, the server's name and the capability (the `capability` annotation).
 * Messages and annotations are what the code logs; nothing here adds a header, a body or a parameter, so a
 * secret reaches the log only if code logs it (a test scans a run's log for tokens, passwords and codes).
 */
const record = (serverId: string) =>
  Logger.make<unknown, LogRecord>((options) => {
    const structured = Logger.formatStructured.log(options)
    const span = options.fiber.cache.span
    const { capability, ...annotations } = structured.annotations
    const [message, ...detail] = Array.isArray(structured.message) ? structured.message : [structured.message]
    return {
      time: structured.timestamp,
      level: structured.level,
      message,
      serverId,
      ...(capability === undefined ? {} : { capability }),
      ...(span ? { traceId: span.traceId, spanId: span.spanId } : {}),
      ...annotations,
      ...(detail.length > 0 ? { detail: detail.length === 1 ? detail[0] : detail } : {}),
      ...(structured.cause === undefined ? {} : { cause: structured.cause })
    }
  })

/** `2026-01-02T03:04:05.678Z INFO [s1 betting 4bf92f35…] bet refused reason="OddsChanged"`: the same record, for people. */
const asText = ({ time, level, serverId, capability, traceId, spanId: _spanId, message, cause, ...rest }: LogRecord) => {
  const context = [serverId, capability, traceId].filter((part) => part !== undefined).join(" ")
  const fields = Object.entries(rest).map(([key, value]) => `${key}=${typeof value === "string" ? JSON.stringify(value) : JSON.stringify(value) ?? String(value)}`)
  return [`${time} ${level} [${context}] ${typeof message === "string" ? message : JSON.stringify(message)}`, ...fields].join(" ") +
    (cause === undefined ? "" : `\n${cause}`)
}

/**
 * One JSON object per line (LOG_FORMAT=json, the default in production) or a line of text, on stdout, with
 * secrets in messages, annotations and causes redacted (src/domain/secrets.ts): a failure's cause may carry a
 * whole URL.
 */
export const serverLogger = (options: { readonly serverId: string; readonly format: "json" | "text" }) => {
  const format = options.format === "json" ? (line: LogRecord) => JSON.stringify(line) : asText
  return Logger.withConsoleLog(Logger.map(record(options.serverId), (line) => redactLine(format(line))))
}
