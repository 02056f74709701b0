/**
 * Secrets in what gets logged: by the name they travel under (a field, a
 * query parameter), and inside text — a casino launch URL's `?token=…`, a
 * `password=…` or `"otp":"…"` in a message, a `Bearer …` credential. The
 * event log's redactor (src/root/redact.ts) and the server's log lines
 * (server/observability/logger.ts) both use these, each with its own stand-in.
 */

const SECRET = /password|passcode|secret|authorization|apikey|token$|^otp(code)?$|^digits$|^sig(nature)?$/

/** Whether a field or parameter of this name holds a secret (`confirm_password`, `accessToken`, `otp`, `token`). */
export const isSecretName = (name: string) => SECRET.test(name.toLowerCase().replace(/[^a-z]/g, ""))

/**
 * Where secrets sit in text: a name at the start of a word or parameter,
 * joined to its value by `=` or `:` (`?token=…&`, `password=…`, `otp: …`,
 * `"token":"…"`; never a URL's `https://`), and HTTP credentials
 * (`Bearer …`). Only the name and its joint are matched, so the value that
 * follows may itself hold a name (`failed: password=…`).
 */
const NAME = /(?<=^|[\s{,"'(?&;])([A-Za-z_][\w.-]{0,40})("?\s*(?:=|:(?!\/\/))\s*"?)/g
const VALUE = /^(?!(?:Bearer|Basic)\s)[^\s"'&#,;})\]]+/
const CREDENTIAL = /\b(Bearer|Basic)(\s+)([\w.~+/=-]+)/gi

/** `text` with the value of every secret it carries replaced by `replace(value)`; the rest as it was. */
export const replaceSecretsInText = (text: string, replace: (secret: string) => string) => {
  const credentialsOut = text.replace(CREDENTIAL, (_, scheme: string, gap: string, secret: string) => `${scheme}${gap}${replace(secret)}`)
  let out = ""
  let from = 0
  for (const match of credentialsOut.matchAll(NAME)) {
    const valueAt = match.index + match[0].length
    if (valueAt < from || !isSecretName(match[1]!)) continue
    const value = VALUE.exec(credentialsOut.slice(valueAt))?.[0]
    if (value === undefined) continue
    out += credentialsOut.slice(from, valueAt) + replace(value)
    from = valueAt + value.length
  }
  return out + credentialsOut.slice(from)
}
