import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { CLAIM_MINUTES, decidedBy } from "../../src/domain/staff.ts"
import { type ApiError, refuse } from "../../src/schema/envelope.ts"
import type { DepositRequest, WithdrawalRequest } from "../../src/schema/payments.ts"
import { RequestStatus } from "../../src/schema/payments.ts"
import { decodeRows } from "../db/rows.ts"
import { Payments } from "../payments/Payments.ts"
import { Realtime } from "../realtime/Realtime.ts"
import { type Actor, actorId, Audit } from "./Audit.ts"

export type RequestKind = "deposit" | "withdrawal"

const TABLE = { deposit: "deposit_requests", withdrawal: "withdrawal_requests" } as const
const WHAT = { deposit: "deposit request", withdrawal: "withdrawal request" } as const
const TOPIC = { deposit: "deposits", withdrawal: "withdrawals" } as const

/** Where a request stands, locked, with the names of whoever claimed or decided it. */
const StandingRow = Schema.Struct({
  status: RequestStatus,
  claimedBy: Schema.NullOr(Schema.String),
  claimedByName: Schema.NullOr(Schema.String),
  claimLive: Schema.Boolean,
  decidedByName: Schema.NullOr(Schema.String),
  decidedAt: Schema.NullOr(Schema.Date)
})
type Standing = typeof StandingRow.Type

export interface Decision {
  readonly status: "approved" | "rejected"
  readonly remark?: string | undefined
  /** A withdrawal paid: the bank's reference of the payout. */
  readonly payoutReference?: string | undefined
}

/** The claim a staff member holds on a request after claiming it. */
export interface Claim {
  readonly id: string
  readonly claimedBy: string
  readonly claimedAt: string
}

const ClaimRow = Schema.Struct({ id: Schema.String, claimedAt: Schema.Date })

/**
 * Staff deciding deposit and withdrawal requests: one staff member at a time
 * works a request (its claim), and of two decisions at once exactly one wins;
 * the other is told who decided and when. The request is locked while it is
 * judged, the money moves through Payments (the ledger) and the audit line is
 * written in the same transaction; every desk hears of it after commit.
 */
export class Decisions extends Context.Service<Decisions, {
  decideDeposit(actor: Actor, id: string, decision: Decision): Effect.Effect<DepositRequest, ApiError | SqlError.SqlError>
  decideWithdrawal(actor: Actor, id: string, decision: Decision): Effect.Effect<WithdrawalRequest, ApiError | SqlError.SqlError>
  /** Takes (or keeps) the claim on a pending request: refused while someone else's claim is live. */
  claim(actor: Actor & { readonly kind: "staff" }, kind: RequestKind, id: string): Effect.Effect<Claim, ApiError | SqlError.SqlError>
  /** Lets go of one's own claim. */
  release(actor: Actor & { readonly kind: "staff" }, kind: RequestKind, id: string): Effect.Effect<void, ApiError | SqlError.SqlError>
}>()("khel/Decisions") {
  static readonly layer = Layer.effect(
    Decisions,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const payments = yield* Payments
      const audit = yield* Audit
      const realtime = yield* Realtime

      /**
       * Locks the request, then reads where it stands: a statement of its own after the lock, because a locking
       * read that waited re-reads the locked row but not the rows joined to it (who decided it, meanwhile).
       */
      const standing = (kind: RequestKind, id: string) =>
        sql`SELECT id FROM ${sql(TABLE[kind])} WHERE id = ${id} FOR UPDATE`.pipe(Effect.andThen(sql`
          SELECT r.status, r.claimed_by, claimer.username AS claimed_by_name,
                 coalesce(r.claimed_at > now() - ${`${CLAIM_MINUTES} minutes`}::interval, false) AS claim_live,
                 coalesce(decider.username, r.decided_by) AS decided_by_name, r.decided_at
            FROM ${sql(TABLE[kind])} r
            LEFT JOIN users claimer ON claimer.id = r.claimed_by
            LEFT JOIN users decider ON decider.id = r.decided_by
           WHERE r.id = ${id}
        `), decodeRows(StandingRow), Effect.map((rows) => rows[0]))

      /** Refuses a decision or claim on a request that is not pending, or that another staff member is working. */
      const judge = (kind: RequestKind, actor: Actor, row: Standing | undefined) =>
        Effect.gen(function*() {
          if (!row) return yield* refuse("NotFound", `There is no such ${WHAT[kind]}.`)
          if (row.status !== "pending") {
            return yield* refuse("AlreadyDecided", decidedBy(WHAT[kind], row.status === "approved" && kind === "withdrawal" ? "paid" : row.status, row.decidedByName ?? "someone", row.decidedAt))
          }
          // The command line's operator owns the server: claims are the desk's way of sharing work.
          if (actor.kind === "staff" && row.claimedBy !== null && row.claimedBy !== actor.id && row.claimLive) {
            return yield* refuse("ClaimedByOther", `${row.claimedByName ?? "Another staff member"} is working on this ${WHAT[kind]}.`)
          }
          return row
        })

      const decide = <A>(kind: RequestKind, actor: Actor, id: string, decision: Decision, write: Effect.Effect<A, ApiError | SqlError.SqlError>) =>
        sql.withTransaction(Effect.gen(function*() {
          const before = yield* judge(kind, actor, yield* standing(kind, id))
          const result = yield* write
          yield* audit.record(actor, {
            action: `${kind}.${decision.status === "approved" ? (kind === "deposit" ? "approve" : "pay") : "reject"}`,
            subject: { kind, id },
            before: { status: before.status, claimedBy: before.claimedByName },
            after: result
          })
          yield* sql.afterCommit(realtime.notifyDesk(TOPIC[kind], id))
          return result
        }))

      const decideDeposit = Effect.fn("Decisions.decideDeposit")((actor: Actor, id: string, decision: Decision) =>
        decide("deposit", actor, id, decision, decision.status === "approved"
          ? payments.approveDeposit(id, actorId(actor), decision.remark)
          : payments.rejectDeposit(id, actorId(actor), decision.remark))
      )

      const decideWithdrawal = Effect.fn("Decisions.decideWithdrawal")((actor: Actor, id: string, decision: Decision) =>
        decide("withdrawal", actor, id, decision, Effect.gen(function*() {
          const result = decision.status === "approved"
            ? yield* payments.approveWithdrawal(id, actorId(actor), decision.remark)
            : yield* payments.rejectWithdrawal(id, actorId(actor), decision.remark)
          if (decision.payoutReference?.trim()) yield* sql`UPDATE withdrawal_requests SET payout_reference = ${decision.payoutReference.trim()} WHERE id = ${id}`
          return result
        }))
      )

      const claim = Effect.fn("Decisions.claim")(function*(actor: Actor & { readonly kind: "staff" }, kind: RequestKind, id: string) {
        return yield* sql.withTransaction(Effect.gen(function*() {
          const before = yield* judge(kind, actor, yield* standing(kind, id))
          const [row] = yield* sql`
            UPDATE ${sql(TABLE[kind])} SET claimed_by = ${actor.id}, claimed_at = now() WHERE id = ${id} RETURNING id, claimed_at
          `.pipe(decodeRows(ClaimRow))
          // Keeping one's own claim alive is not news; taking one is.
          if (before.claimedBy !== actor.id || !before.claimLive) {
            yield* audit.record(actor, { action: `${kind}.claim`, subject: { kind, id }, before: { claimedBy: before.claimLive ? before.claimedByName : null }, after: { claimedBy: actor.username } })
            yield* sql.afterCommit(realtime.notifyDesk(TOPIC[kind], id))
          }
          return { id, claimedBy: actor.username, claimedAt: row!.claimedAt.toISOString() }
        }))
      })

      const release = Effect.fn("Decisions.release")(function*(actor: Actor & { readonly kind: "staff" }, kind: RequestKind, id: string) {
        yield* sql.withTransaction(Effect.gen(function*() {
          const row = yield* standing(kind, id)
          if (!row) return yield* refuse("NotFound", `There is no such ${WHAT[kind]}.`)
          if (row.claimedBy !== actor.id) return
          yield* sql`UPDATE ${sql(TABLE[kind])} SET claimed_by = NULL, claimed_at = NULL WHERE id = ${id}`
          yield* audit.record(actor, { action: `${kind}.release`, subject: { kind, id } })
          yield* sql.afterCommit(realtime.notifyDesk(TOPIC[kind], id))
        }))
      })

      return Decisions.of({ decideDeposit, decideWithdrawal, claim, release })
    })
  )
}
