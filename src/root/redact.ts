/**
 * What the event log and the inspector never show: passwords, OTP codes and
 * tokens. One rule, by field name: a key that names a secret (`password`,
 * `confirm_password`, `oldPassword`, `otp`, `token`, `authorization`, …, and
 * `digits`, the OTP boxes), or a form event that names one
 * (`{ type: "field.change", field: "password", value }`), has its value
 * replaced, at any depth.
 *
 * The stand-in keeps what the machines' form rules read and nothing else:
 * empty stays empty, and a non-empty secret becomes another string of the same
 * length whose characters are of the same kind (upper case, lower case, digit,
 * other). The same secret gets the same stand-in throughout one redaction (so
 * "passwords do not match" still holds or not), different secrets different
 * ones. A replay therefore takes the same path through the rules of SPEC
 * section 5; the characters themselves are gone. What a reader can still learn
 * is a secret's length and the kind of each character.
 *
 * An `Error` becomes `{ name, message }` (JSON would make it `{}`).
 */

const SECRET = /password|passcode|secret|authorization|apikey|token$|^otp(code)?$|^digits$/

/** Whether a field of this name holds a secret (`confirm_password`, `accessToken`, `otp`). */
export const isSecretField = (name: string) => SECRET.test(name.toLowerCase().replace(/[^a-z]/g, ""))

const KINDS: ReadonlyArray<readonly [RegExp, string]> = [
  [/[A-Z]/, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"],
  [/[a-z]/, "abcdefghijklmnopqrstuvwxyz"],
  [/[0-9]/, "0123456789"],
  [/[^]/, "!#$%&*+-=?@^_~"]
]

const kindOf = (char: string) => KINDS.findIndex(([pattern]) => pattern.test(char))

export type Redact = <T>(value: T) => T

/**
 * A redactor: stand-ins are numbered per shape in the order secrets are met,
 * so they depend on nothing but that order. Use one per log (or per page of a
 * log): within it, equal secrets stay equal.
 */
export const createRedactor = (): Redact => {
  const standIns = new Map<string, string>()
  const counts = new Map<string, number>()

  const standIn = (secret: string): string => {
    const known = standIns.get(secret)
    if (known !== undefined) return known
    const chars = [...secret]
    const kinds = chars.map(kindOf)
    const shape = kinds.join("")
    let n = counts.get(shape) ?? 0
    counts.set(shape, n + 1)
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

  const secret = (value: unknown): unknown => {
    if (typeof value === "string") return value === "" ? value : standIn(value)
    if (typeof value === "number") return Number(standIn(String(Math.abs(Math.trunc(value)))))
    if (Array.isArray(value)) return value.map(secret)
    if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, secret(v)]))
    return value
  }

  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(walk)
    // JSON would turn an Error into `{}`.
    if (value instanceof Error) return { name: value.name, message: value.message }
    if (!isPlainObject(value)) return value
    // A form event names its field: `{ field: "password", value: "…" }`.
    const namesSecret = typeof value.field === "string" && isSecretField(value.field)
    return Object.fromEntries(
      Object.entries(value).map(([key, v]) => [key, isSecretField(key) || (namesSecret && key === "value") ? secret(v) : walk(v)])
    )
  }

  // The same shape: only secrets change, each to a value of its own type (and an Error to its name and message).
  return <T>(value: T): T => walk(value) as T
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && (Object.getPrototypeOf(value) === Object.prototype || Object.getPrototypeOf(value) === null)
