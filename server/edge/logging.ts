import { Logger } from "effect"
import { replaceSecretsInText } from "../../src/domain/secrets.ts"

/** What stands for a secret in a log line. */
export const REDACTED = "[redacted]"

/** A log line with the secrets it carries replaced (a launch URL's `?token=`, `"password":"…"`, a bearer credential). */
export const redactLine = (line: string) => replaceSecretsInText(line, () => REDACTED)

/**
 * The server's log: one JSON object a line, as `Logger.consoleJson` writes
 * it, with secrets in messages, annotations and causes redacted
 * (src/domain/secrets.ts). Request lines already carry the path without its
 * query; a failure's cause may carry a whole URL.
 */
export const serverLogger = Logger.formatJson.pipe(Logger.map(redactLine), Logger.withConsoleLog)
