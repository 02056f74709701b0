import { Effect, Schema } from "effect"
import type { SqlClient, SqlError } from "effect/sql"
import { nearReferences, normalizeReference, PAYMENT_MESSAGES, referenceProblem } from "../../src/domain/payments.ts"
import { type ApiError, refuse } from "../../src/schema/envelope.ts"
import type { AccountKind } from "../../src/schema/payments.ts"
import { decodeRows } from "../db/rows.ts"
import type { Signals } from "../integrity/Signals.ts"

/** The insert lost a race for the reference to another deposit (migration 0121's index). */
export const isReferenceTaken = (error: SqlError.SqlError) => {
  const cause = (error.reason as { cause?: { code?: string; constraint?: string } }).cause
  return cause?.code === "23505" && cause.constraint === "deposit_requests_reference_once"
}

const Holder = Schema.Struct({ id: Schema.String, userId: Schema.String, txnRef: Schema.String })

/**
 * A deposit's payment reference (UTR): one payment, so one pending or
 * approved deposit. The shape is checked (src/domain/payments.ts); a
 * reference another pending or approved deposit has is refused and signalled
 * (migration 0121's unique index decides a race); one a slip away from
 * another's is accepted and signalled for the operator.
 */
export const depositReferences = (sql: SqlClient.SqlClient, signals: Signals["Service"]) => {
  const holders = (refs: ReadonlyArray<string>) =>
    sql`
      SELECT id, user_id, txn_ref FROM deposit_requests
       WHERE txn_ref IN ${sql.in(refs)} AND status IN ('pending', 'approved')
       ORDER BY created_at, id
    `.pipe(decodeRows(Holder))

  /** The reference as kept (normalised), null when none was given, or why it cannot be taken. */
  const admit = (type: AccountKind, given: string | undefined): Effect.Effect<string | null, ApiError> => {
    if (given === undefined || given.trim() === "") return Effect.succeed(null)
    const problem = referenceProblem(type, given)
    return problem ? refuse("InvalidInput", problem) : Effect.succeed(normalizeReference(given))
  }

  /** Refuses a reference another pending or approved deposit has. */
  const refuseUsed = (ref: string): Effect.Effect<void, ApiError | SqlError.SqlError> =>
    Effect.flatMap(holders([ref]), (used) => used.length === 0 ? Effect.void : refuse("ReferenceUsed", PAYMENT_MESSAGES.referenceUsed))

  /**
   * Records who filed a reference that was refused as used. Called once the
   * refused request's transaction has rolled back, so the signal stays.
   */
  const signalReuse = (userId: string, type: AccountKind, given: string) =>
    Effect.gen(function*() {
      if (referenceProblem(type, given)) return
      const ref = normalizeReference(given)
      const used = yield* holders([ref])
      if (used.length === 0) return
      yield* signals.record({
        kind: "duplicate_utr",
        userIds: [userId, ...used.map((row) => row.userId)],
        subject: ref,
        detail: `Reference ${ref} was filed again while on a pending or approved deposit; refused`,
        context: { depositIds: used.map((row) => row.id) }
      })
    })

  /** Signals other deposits whose reference is one slip away from this one's (in the deposit's transaction). */
  const flagNear = (userId: string, depositId: string, ref: string) =>
    Effect.gen(function*() {
      const near = yield* holders(nearReferences(ref))
      if (near.length === 0) return
      yield* signals.record({
        kind: "near_duplicate_utr",
        userIds: [userId, ...near.map((row) => row.userId)],
        subject: ref,
        detail: `Reference ${ref} is one slip away from ${[...new Set(near.map((row) => row.txnRef))].join(", ")} on another pending or approved deposit`,
        context: { depositIds: [depositId, ...near.map((row) => row.id)] }
      })
    })

  return { admit, refuseUsed, signalReuse, flagNear }
}
