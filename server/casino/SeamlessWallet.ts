import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { toPaise, toRupees } from "../../src/domain/money.ts"
import {
  type WalletBalancePayload,
  type WalletCreditPayload,
  type WalletDebitPayload,
  WalletResult,
  type WalletRollbackPayload,
  type WalletSession
} from "../../src/schema/casino.ts"
import { type ApiError, refuse } from "../../src/schema/envelope.ts"
import { Role, Roles } from "../../src/schema/user.ts"
import { decodeFirst, decodeRows, Paise } from "../db/rows.ts"
import { Idempotency } from "../ledger/Idempotency.ts"
import { Ledger } from "../ledger/Ledger.ts"
import { Admission } from "../protection/Admission.ts"
import { Casino } from "./Casino.ts"
import { sha256 } from "./signature.ts"

type Failure = ApiError | SqlError.SqlError

const PlayerRow = Schema.Struct({
  id: Schema.String,
  role: Role,
  status: Schema.String,
  creditReference: Paise
})
type PlayerRow = typeof PlayerRow.Type

const RoundRow = Schema.Struct({
  id: Schema.String,
  roundId: Schema.String,
  userId: Schema.String,
  gameId: Schema.String,
  stake: Paise,
  refunded: Paise,
  status: Schema.Literals(["open", "settled", "cancelled"]),
  title: Schema.String
})

const TransactionRow = Schema.Struct({
  id: Schema.String,
  kind: Schema.Literals(["debit", "credit", "rollback"]),
  roundId: Schema.NullOr(Schema.String),
  userId: Schema.String,
  amount: Paise,
  rolledBack: Schema.Boolean
})

/** A game session as the wallet calls name it (by its token): whose it is, of which game, still open or not. */
const SessionRow = Schema.Struct({
  userId: Schema.String,
  gameId: Schema.String,
  gameRowId: Schema.String,
  live: Schema.Boolean,
  enabled: Schema.Boolean,
  title: Schema.String
})

const SESSION_GONE = "The game session has expired or is not valid. Open the game again from the lobby."

/**
 * The seamless wallet: game providers move a player's money with it while
 * the money stays in Khel's ledger. Every call that moves money is one
 * database transaction holding exactly one ledger transaction
 * (casino_debit, casino_credit or casino_rollback), and is idempotent by the
 * provider's transaction id: the same id again is answered with the first
 * response and moves nothing. Calls on one round take the round's lock, so
 * a debit, its credit and its rollback never interleave.
 */
export class SeamlessWallet extends Context.Service<SeamlessWallet, {
  balance(provider: string, payload: WalletBalancePayload): Effect.Effect<WalletSession, Failure>
  debit(provider: string, payload: WalletDebitPayload): Effect.Effect<WalletResult, Failure>
  credit(provider: string, payload: WalletCreditPayload): Effect.Effect<WalletResult, Failure>
  rollback(provider: string, payload: WalletRollbackPayload): Effect.Effect<WalletResult, Failure>
}>()("khel/SeamlessWallet") {
  static readonly layer = Layer.effect(
    SeamlessWallet,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const ledger = yield* Ledger
      const idempotency = yield* Idempotency
      const casino = yield* Casino
      const admission = yield* Admission

      const playerById = (id: string) =>
        sql`SELECT id, role, status, credit_reference FROM users WHERE id = ${id}`.pipe(decodeRows(PlayerRow), Effect.map((rows) => rows[0]))

      /** What the player can stake now: main balance, plus the credit limit of a credit player. */
      const available = Effect.fn("SeamlessWallet.available")(function*(player: PlayerRow) {
        const { main } = yield* ledger.balances(player.id)
        return toRupees(main + (player.role === Roles.CREDIT_PLAYER ? Number(player.creditReference) : 0))
      })

      const result = (player: PlayerRow, transactionId: string | null) =>
        Effect.map(available(player), (balance): WalletResult => ({ playerId: player.id, currency: "INR", balance, transactionId }))

      /** Serializes every call on one round (also a rollback that arrives before its debit). */
      const lockRound = (provider: string, roundId: string) =>
        sql`SELECT pg_advisory_xact_lock(hashtext(${`casino-round:${provider}:${roundId}`}))`

      const roundFor = (provider: string, roundId: string) =>
        sql`
          SELECT r.id, r.round_id, r.user_id, r.game_id, r.stake, r.refunded, r.status, g.title
            FROM casino_rounds r JOIN casino_games g ON g.id = r.game_id
           WHERE r.provider = ${provider} AND r.round_id = ${roundId}
        `.pipe(decodeRows(RoundRow), Effect.map((rows) => rows[0]))

      const amountOf = (rupees: number) =>
        Effect.gen(function*() {
          const paise = toPaise(rupees)
          if (paise === undefined || paise < 0) return yield* refuse("InvalidInput", "amount must be rupees with at most two decimals.")
          return paise
        })

      /** One exactly-once write per provider transaction id (the Idempotency record shares the write's transaction). */
      const once = <A extends WalletResult>(provider: string, kind: string, payload: { readonly transactionId: string }, write: Effect.Effect<A, Failure>) =>
        idempotency.run(
          { owner: `casino:${provider}`, key: payload.transactionId, request: { kind, ...payload }, response: WalletResult },
          write
        ) as Effect.Effect<A, Failure>

      /**
       * A game session is live until it expires and while the site session that launched it lives: logout,
       * a password change or a reset ends the player's games with it.
       */
      const liveSession = sql`(s.expires_at > now() AND EXISTS (
        SELECT 1 FROM sessions p WHERE p.id = s.session_id AND p.revoked_at IS NULL AND p.expires_at > now()))`

      /** The game session a provider's call names by its token, with this provider, or undefined. */
      const sessionOf = (provider: string, token: string) =>
        sql`
          SELECT s.user_id, g.game_id, s.game_id AS game_row_id, ${liveSession} AS live, g.enabled, g.title
            FROM casino_sessions s JOIN casino_games g ON g.id = s.game_id
           WHERE s.token_hash = ${sha256(token)} AND s.provider = ${provider}
        `.pipe(decodeFirst(SessionRow))

      const balance = Effect.fn("SeamlessWallet.balance")(function*(provider: string, payload: WalletBalancePayload) {
        const session = yield* sessionOf(provider, payload.token)
        if (!session || !session.live) return yield* refuse("Forbidden", SESSION_GONE)
        const player = (yield* playerById(session.userId))!
        if (player.status !== "active") return yield* refuse("Forbidden", "This account cannot play at the moment.")
        return { ...(yield* result(player, null)), gameId: session.gameId }
      })

      const debit = Effect.fn("SeamlessWallet.debit")(function*(provider: string, payload: WalletDebitPayload) {
        const amount = yield* amountOf(payload.amount)
        if (amount === 0) return yield* refuse("InvalidInput", "A debit must be more than 0.")
        return yield* once(provider, "debit", payload, Effect.gen(function*() {
          const session = yield* sessionOf(provider, payload.token)
          if (!session || !session.live) return yield* refuse("Forbidden", SESSION_GONE)
          const player = (yield* playerById(session.userId))!
          if (player.status !== "active") return yield* refuse("Forbidden", "This account cannot play at the moment.")
          if (player.role === Roles.CREDIT_PLAYER && !(yield* casino.settings).creditPlayersAllowed) {
            return yield* refuse("Forbidden", "Casino games are not available on credit accounts.")
          }
          if (!session.enabled) return yield* refuse("Forbidden", "This game is currently unavailable.")

          yield* lockRound(provider, payload.roundId)
          const cancelled = yield* sql`
            SELECT 1 FROM casino_transactions WHERE provider = ${provider} AND kind = 'rollback' AND ref_transaction_id = ${payload.transactionId}
          `
          if (cancelled.length > 0) return yield* refuse("Conflict", "This debit was already rolled back; it cannot be taken now.")
          yield* sql`
            INSERT INTO casino_rounds (provider, round_id, user_id, game_id)
            VALUES (${provider}, ${payload.roundId}, ${player.id}, ${session.gameRowId})
            ON CONFLICT (provider, round_id) DO NOTHING
          `
          const round = (yield* roundFor(provider, payload.roundId))!
          if (round.userId !== player.id) return yield* refuse("Conflict", "This round belongs to another player.")
          if (round.gameId !== session.gameRowId) return yield* refuse("Conflict", "This round belongs to another game.")
          if (round.status !== "open") return yield* refuse("Conflict", `The round is already ${round.status}.`)
          // A closed account stakes nothing; a stake must fit the loss limits, and counts as lost until paid back.
          yield* admission.admitCasinoStake(player.id, amount, `casino:${provider}:${payload.roundId}`)

          const ledgerId = yield* ledger.post({
            kind: "casino_debit",
            userId: player.id,
            reference: `casino:${provider}:${payload.roundId}`,
            description: `Casino bet: ${round.title}, round ${payload.roundId}`,
            legs: [
              { account: { user: player.id, kind: "main" }, amount: -amount },
              { account: { operator: "casino" }, amount }
            ]
          }).pipe(Effect.catchTag("InsufficientFunds", () => refuse("InsufficientBalance", "Insufficient balance.")))
          // Cast, not decoded: ids only, used as keys.
          const [row] = yield* sql<{ id: string }>`
            INSERT INTO casino_transactions (provider, transaction_id, kind, round_id, user_id, amount, ledger_transaction_id)
            VALUES (${provider}, ${payload.transactionId}, 'debit', ${round.id}, ${player.id}, ${amount}, ${ledgerId})
            RETURNING id
          `
          yield* sql`UPDATE casino_rounds SET stake = stake + ${amount} WHERE id = ${round.id}`
          return yield* result(player, row!.id)
        }))
      })

      const credit = Effect.fn("SeamlessWallet.credit")(function*(provider: string, payload: WalletCreditPayload) {
        const amount = yield* amountOf(payload.amount)
        return yield* once(provider, "credit", payload, Effect.gen(function*() {
          yield* lockRound(provider, payload.roundId)
          const round = yield* roundFor(provider, payload.roundId)
          if (!round || round.userId !== payload.playerId) return yield* refuse("NotFound", "There is no such round for this player.")
          if (round.status !== "open") return yield* refuse("Conflict", `The round is already ${round.status}.`)
          const player = (yield* playerById(round.userId))!
          // A lost round is closed with a credit of 0: no money moves, so no ledger transaction.
          const ledgerId = amount === 0 ? null : yield* ledger.post({
            kind: "casino_credit",
            userId: player.id,
            reference: `casino:${provider}:${payload.roundId}`,
            description: `Casino win: ${round.title}, round ${payload.roundId}`,
            legs: [
              { account: { operator: "casino" }, amount: -amount },
              { account: { user: player.id, kind: "main" }, amount }
            ]
          }).pipe(Effect.catchTag("InsufficientFunds", (error) => Effect.die(error)))
          yield* admission.recordResult(player.id, "casino", amount, `casino:${provider}:${payload.roundId}`)
          // Cast, not decoded: ids only, used as keys.
          const [row] = yield* sql<{ id: string }>`
            INSERT INTO casino_transactions (provider, transaction_id, kind, round_id, user_id, amount, ledger_transaction_id)
            VALUES (${provider}, ${payload.transactionId}, 'credit', ${round.id}, ${player.id}, ${amount}, ${ledgerId})
            RETURNING id
          `
          yield* sql`UPDATE casino_rounds SET win = ${amount}, status = 'settled', settled_at = now() WHERE id = ${round.id}`
          return yield* result(player, row!.id)
        }))
      })

      const rollback = Effect.fn("SeamlessWallet.rollback")(function*(provider: string, payload: WalletRollbackPayload) {
        return yield* once(provider, "rollback", payload, Effect.gen(function*() {
          yield* lockRound(provider, payload.roundId)
          const [debit] = yield* sql`
            SELECT id, kind, round_id, user_id, amount, rolled_back FROM casino_transactions
             WHERE provider = ${provider} AND transaction_id = ${payload.refTransactionId}
          `.pipe(decodeRows(TransactionRow))
          const record = (roundId: string | null, amount: number, ledgerId: string | null, userId: string) =>
            // Cast, not decoded: ids only, used as keys.
            sql<{ id: string }>`
              INSERT INTO casino_transactions (provider, transaction_id, kind, round_id, user_id, amount, ref_transaction_id, ledger_transaction_id)
              VALUES (${provider}, ${payload.transactionId}, 'rollback', ${roundId}, ${userId}, ${amount}, ${payload.refTransactionId}, ${ledgerId})
              RETURNING id
            `.pipe(Effect.map((rows) => rows[0]!.id))

          if (!debit) {
            // The debit never reached us (or failed): nothing to give back, but remember it so it is refused if it arrives late.
            const player = yield* playerById(payload.playerId)
            if (!player) return yield* refuse("NotFound", "There is no such player.")
            return yield* result(player, yield* record(null, 0, null, player.id))
          }
          if (debit.kind !== "debit") return yield* refuse("Conflict", "Only a debit can be rolled back.")
          if (debit.userId !== payload.playerId) return yield* refuse("Conflict", "That debit belongs to another player.")
          const [round] = yield* sql`
            SELECT r.id, r.round_id, r.user_id, r.game_id, r.stake, r.refunded, r.status, g.title
              FROM casino_rounds r JOIN casino_games g ON g.id = r.game_id WHERE r.id = ${debit.roundId}
          `.pipe(decodeRows(RoundRow))
          if (round!.roundId !== payload.roundId) return yield* refuse("Conflict", "That debit belongs to another round.")
          if (round!.status === "settled") return yield* refuse("Conflict", "The round was already settled by a credit; it cannot be rolled back.")
          const player = (yield* playerById(debit.userId))!
          if (debit.rolledBack) return yield* result(player, yield* record(round!.id, 0, null, player.id))

          const amount = Number(debit.amount)
          const ledgerId = yield* ledger.post({
            kind: "casino_rollback",
            userId: player.id,
            reference: `casino:${provider}:${payload.roundId}`,
            description: `Casino bet cancelled: ${round!.title}, round ${payload.roundId}`,
            legs: [
              { account: { operator: "casino" }, amount: -amount },
              { account: { user: player.id, kind: "main" }, amount }
            ]
          }).pipe(Effect.catchTag("InsufficientFunds", (error) => Effect.die(error)))
          yield* admission.recordResult(player.id, "casino", amount, `casino:${provider}:${payload.roundId}`)
          yield* sql`UPDATE casino_transactions SET rolled_back = true WHERE id = ${debit.id}`
          yield* sql`
            UPDATE casino_rounds
               SET refunded = refunded + ${amount},
                   status = CASE WHEN refunded + ${amount} = stake THEN 'cancelled' ELSE status END,
                   settled_at = CASE WHEN refunded + ${amount} = stake THEN now() ELSE settled_at END
             WHERE id = ${round!.id}
          `
          return yield* result(player, yield* record(round!.id, amount, ledgerId, player.id))
        }))
      })

      return SeamlessWallet.of({ balance, debit, credit, rollback })
    })
  )
}
