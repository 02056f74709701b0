/**
 * What the event log and the inspector never show: passwords, OTP codes and
 * tokens. By field name: a key that names a secret (`password`,
 * `confirm_password`, `oldPassword`, `otp`, `token`, `authorization`, …, and
 * `digits`, the OTP boxes), or a form event that names one
 * (`{ type: "field.change", field: "password", value }`), has its value
 * replaced, at any depth. Inside any other text, the secrets it carries (a
 * casino launch URL's `?token=…`, `password=…`, a bearer credential:
 * src/domain/secrets.ts) are replaced the same way.
 *
 * The stand-in keeps what the machines' form rules read and nothing else:
 * empty stays empty, and a non-empty secret becomes another string of the same
 * length whose characters are of the same kind (upper case, lower case, digit,
 * other). The same secret gets the same stand-in throughout one redaction (so
 * "passwords do not match" still holds or not), different secrets different
 * ones. A replay therefore takes the same path through the rules of SPEC
 * section 5; the characters themselves are gone. What a reader can still learn
 * is a secret's length and the kind of each character.
 */

import { isSecretName, replaceSecretsInText } from "../domain/secrets.ts"

/** Whether a field of this name holds a secret (`confirm_password`, `accessToken`, `otp`). */
export const isSecretField = isSecretName

const KINDS: ReadonlyArray<readonly [RegExp, string]> = [
  [/[A-Z]/, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"],
  [/[a-z]/, "abcdefghijklmnopqrstuvwxyz"],
  [/[0-9]/, "0123456789"],
  [/[^]/, "!#$%&*+-=?@^_~"]
]

const kindOf = (char: string) => KINDS.findIndex(([pattern]) => pattern.test(char))

export type Redact = <T>(value: T) => T

/**
 * A redactor: a copy of a value as JSON would keep it (`toJSON` honoured,
 * functions and `undefined` left out, an `Error` as `{ name, message }`, a
 * cycle as "[circular]"), with every secret replaced. Stand-ins are numbered
 * per shape in the order secrets are met, so they depend on nothing but that
 * order; use one redactor per log page (or inspector session): within it,
 * equal secrets stay equal.
 */
export const createRedactor = (): Redact => {
  const standIns = new Map<string, string>()
  const counts = new Map<string, number>()

  const standIn = (secret: string): string => {
    const known = standIns.get(secret)
    if (known !== undefined) return known
    const kinds = [...secret].map(kindOf)
    let n = counts.get(kinds.join()) ?? 0
    counts.set(kinds.join(), n + 1)
    // The n-th secret of this shape: n written in the alphabets of its characters, last character first.
    const out = kinds.map(() => "")
    for (let i = kinds.length - 1; i >= 0; i--) {
      const alphabet = KINDS[kinds[i]!]![1]
      out[i] = alphabet[n % alphabet.length]!
      n = Math.floor(n / alphabet.length)
    }
    const result = out.join("")
    standIns.set(secret, result)
    return result
  }

  const copy = (value: unknown, secret: boolean, path: ReadonlyArray<object>): unknown => {
    if (typeof value === "string") return secret ? (value === "" ? value : standIn(value)) : replaceSecretsInText(value, standIn)
    if (typeof value === "number") return secret ? Number(standIn(String(Math.abs(Math.trunc(value))))) : value
    if (typeof value === "bigint") return String(value)
    if (typeof value !== "object" || value === null) return typeof value === "function" ? undefined : value
    if (value instanceof Error) return { name: value.name, message: copy(value.message, secret, path) }
    if ("toJSON" in value && typeof value.toJSON === "function") return copy(value.toJSON(), secret, path)
    if (path.includes(value)) return "[circular]"
    const inner = [...path, value]
    if (Array.isArray(value)) return value.map((item) => copy(item, secret, inner) ?? null)
    // A form event names its field: `{ field: "password", value: "…" }`.
    const namesSecret = "field" in value && typeof value.field === "string" && isSecretField(value.field)
    const out: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value)) {
      const copied = copy(item, secret || isSecretField(key) || (namesSecret && key === "value"), inner)
      if (copied !== undefined) out[key] = copied
    }
    return out
  }

  // The same shape as JSON gives it: only secrets change, each to a value of its own kind.
  return <T>(value: T): T => copy(value, false, []) as T
}
