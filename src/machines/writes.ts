import type { ErrorTag, Failure } from "../schema/errors.ts"
import { failedWith } from "./calls.ts"

/**
 * What a machine that moves money keeps about its writes: an Idempotency-Key
 * per attempt (`deposit-…`, `bonus-claim-…`: the server runs a write once per
 * key, so a retry that keeps the key can never move money twice), and why the
 * server refused the last one.
 */
export const newIdempotencyKey = (what: string) =>
  `${what}-${typeof crypto !== "undefined" && "randomUUID" in crypto ? crypto.randomUUID() : `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`}`

/** Why the server refused a write: the reason machines guard on, the message views show. */
export interface Refusal {
  readonly reason: ErrorTag
  readonly message: string
}

/**
 * A write's answer as a machine receives it: its data and the server's
 * message for the player (the envelope's `meta.message`), which the machine
 * shows as a success toast (SPEC section 7).
 */
export interface Written<A = unknown> {
  readonly data: A
  readonly message: string
}

export const refusalOf = ({ reason, message }: Failure): Refusal => ({ reason, message })

/**
 * A guard: nothing came back (the network, not the server), so the write may
 * have landed and a retry keeps its key (the server then answers what it did).
 */
export const unanswered = failedWith("Unreachable")
