import { Secret, TOTP } from "otpauth"

/** RFC 6238 as every authenticator app reads it: SHA-1, 6 digits, 30-second steps. */
const PERIOD_SECONDS = 30
export const ISSUER = "Khel desk"

const totpOf = (secret: string, username: string) =>
  new TOTP({ issuer: ISSUER, label: username, algorithm: "SHA1", digits: 6, period: PERIOD_SECONDS, secret: Secret.fromBase32(secret) })

/** A new random secret (160 bits, base32). */
export const newSecret = () => new Secret({ size: 20 }).base32

/** The otpauth:// URI an authenticator app scans. */
export const enrolmentUri = (secret: string, username: string) => totpOf(secret, username).toString()

/** The code of the moment `at` (tests, and the demo's README). */
export const codeAt = (secret: string, at: number) => totpOf(secret, "").generate({ timestamp: at })

/**
 * The 30-second step a code belongs to, if it is right at `now` or one step
 * either side (clocks drift); undefined when it is not. The caller accepts
 * it only for a step later than the last one accepted, so a code works once.
 */
export const stepOf = (secret: string, code: string, now: number): number | undefined => {
  const token = code.replace(/\s/g, "")
  if (!/^\d{6}$/.test(token)) return undefined
  const delta = totpOf(secret, "").validate({ token, timestamp: now, window: 1 })
  return delta === null ? undefined : Math.floor(now / 1000 / PERIOD_SECONDS) + delta
}
