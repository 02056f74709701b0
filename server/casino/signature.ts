import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto"

/**
 * Seamless-wallet request signing (docs/casino.md): the hex HMAC-SHA256 of
 * "{timestamp}.{raw body}" under the provider's secret, with the timestamp in
 * Unix seconds. Requests more than five minutes off the server's clock are
 * refused, so a captured request cannot be replayed later; within the window a
 * replay is answered from the idempotency record and moves nothing.
 */
export const SIGNATURE_WINDOW_SECONDS = 300

export const sign = (secret: string, timestamp: string, body: string) =>
  createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")

export const signatureMatches = (secret: string, timestamp: string, body: string, signature: string) => {
  const expected = Buffer.from(sign(secret, timestamp, body), "hex")
  const given = /^[0-9a-f]{64}$/i.test(signature) ? Buffer.from(signature, "hex") : Buffer.alloc(0)
  return given.length === expected.length && timingSafeEqual(given, expected)
}

export const timestampFresh = (timestamp: string, nowMs = Date.now()) =>
  /^\d{1,12}$/.test(timestamp) && Math.abs(nowMs / 1000 - Number(timestamp)) <= SIGNATURE_WINDOW_SECONDS

/** 32 random bytes as hex: wallet secrets, launch tokens' entropy, server seeds. */
export const randomHex = (bytes = 32) => randomBytes(bytes).toString("hex")

export const sha256 = (text: string) => createHash("sha256").update(text).digest("hex")
