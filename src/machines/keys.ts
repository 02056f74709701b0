/**
 * An Idempotency-Key for one attempt of a money-moving write
 * (`deposit-…`, `bonus-claim-…`): the server runs a write once per key, so a
 * retry that keeps the key can never move money twice.
 */
export const newIdempotencyKey = (what: string) =>
  `${what}-${typeof crypto !== "undefined" && "randomUUID" in crypto ? crypto.randomUUID() : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`}`
