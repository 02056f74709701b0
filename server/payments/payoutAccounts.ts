import { Data, Effect, Schema } from "effect"
import type { SqlClient, SqlError } from "effect/sql"
import { type ApiError, refuse } from "../../src/schema/envelope.ts"
import type { AccountKind } from "../../src/schema/payments.ts"
import { decodeFirst } from "../db/rows.ts"
import type { Signals } from "../integrity/Signals.ts"

/** The account another player owns: the write that met it rolls back, then the refusal is signalled. */
export class PayoutAccountTaken extends Data.TaggedError("PayoutAccountTaken")<{ readonly key: string; readonly ownerId: string }> {}

const Owner = Schema.Struct({ userId: Schema.String })

export const TAKEN_MESSAGE = {
  upi: "This UPI id is registered to another account. Please add a UPI id in your own name.",
  bank: "This bank account is registered to another account. Please add a bank account in your own name."
} as const satisfies Record<AccountKind, string>

/**
 * A payout account (a UPI id, or a bank account by bank and number: its
 * `payout_key`, migration 0122) belongs to one player: the first who adds it.
 * Another player who adds it is refused and signalled (`shared_payout_account`),
 * and a withdrawal goes only to an account its player owns.
 */
export const payoutOwnership = (sql: SqlClient.SqlClient, signals: Signals["Service"]) => {
  const ownerOf = (key: string) => sql`SELECT user_id FROM payout_account_owners WHERE key = ${key}`.pipe(decodeFirst(Owner))

  /** Claims `key` for the player, in the caller's transaction; fails when another player owns it. */
  const claim = (userId: string, key: string): Effect.Effect<void, PayoutAccountTaken | SqlError.SqlError> =>
    Effect.gen(function*() {
      yield* sql`INSERT INTO payout_account_owners (key, user_id) VALUES (${key}, ${userId}) ON CONFLICT (key) DO NOTHING`
      const owner = yield* ownerOf(key)
      if (owner && owner.userId !== userId) return yield* new PayoutAccountTaken({ key, ownerId: owner.userId })
    })

  /** An account the player no longer holds under `key` (they edited it): free for its real owner to add. */
  const release = (userId: string, key: string) =>
    sql`
      DELETE FROM payout_account_owners o
       WHERE o.key = ${key} AND o.user_id = ${userId}
         AND NOT EXISTS (SELECT 1 FROM payment_accounts p WHERE p.payout_key = ${key} AND p.user_id = ${userId})
    `

  /** After the refused write rolled back: the signal of who tried, then the player's answer. */
  const refuseTaken = (userId: string, type: AccountKind, taken: PayoutAccountTaken): Effect.Effect<never, ApiError | SqlError.SqlError> =>
    Effect.andThen(
      signals.record({
        kind: "shared_payout_account",
        userIds: [userId, taken.ownerId],
        subject: taken.key,
        detail: `A player tried to add the payout account ${taken.key}, which another player holds; refused`
      }),
      refuse("Conflict", TAKEN_MESSAGE[type])
    )

  /** Whether the player owns the account they would withdraw to. */
  const owns = (userId: string, key: string) => Effect.map(ownerOf(key), (owner) => owner?.userId === userId)

  return { claim, release, refuse: refuseTaken, owns }
}
