import { Context, Duration, Effect, Layer, Ref, Schedule, Schema } from "effect"
import { FetchHttpClient } from "effect/http"
import { SqlClient, type SqlError } from "effect/sql"
import { randomUUID } from "node:crypto"
import { toPaise, toRupees } from "../../../src/domain/money.ts"
import { type ApiError, refuse } from "../../../src/schema/envelope.ts"
import { randomHex, sha256 } from "../signature.ts"
import { decodeFirst, decodeRows } from "../../db/rows.ts"
import { commitOf, draw, GAMES, type GameCode, payout } from "./fair.js"
import { RoundRow, roundColumns, type RoundView, TableRow, view } from "./records.ts"
import { type WalletRefused, walletClient, type WalletUnreachable } from "./walletClient.ts"

/**
 * Khel Originals, the built-in game provider. It stands where a real
 * provider would: it knows players only through the seamless wallet, which it
 * calls over HTTP with signed requests exactly as a partner does
 * (walletClient.ts), and keeps its own records of rounds and seeds
 * (records.ts).
 *
 * A round: the bet is checked and the session's committed server seed is
 * taken (a fresh one is committed for the next round); the stake is debited;
 * the outcome is drawn from the seeds; the return is credited (0 closes a lost
 * round). A debit whose answer never came is rolled back; a credit that did
 * not go through is retried until it does, here and by a sweep every minute.
 */

export const PROVIDER = "khel"

/** Table limits per bet spot, in rupees. */
export const LIMITS = { min: 100, max: 100_000, total: 200_000 } as const

export const isGameCode = (value: string): value is GameCode => Object.hasOwn(GAMES, value)

const ClientSeed = Schema.String.check(Schema.isPattern(/^[A-Za-z0-9_-]{1,64}$/))
const Hex64 = Schema.String.check(Schema.isPattern(/^[0-9a-f]{64}$/))

export const TablePayload = Schema.Struct({ token: Schema.String.check(Schema.isMaxLength(200)), game: Schema.String.check(Schema.isMaxLength(40)) })
export type TablePayload = typeof TablePayload.Type

export const PlayPayload = Schema.Struct({
  ...TablePayload.fields,
  /** Rupees per bet spot. */
  bets: Schema.Record(Schema.String.check(Schema.isMaxLength(20)), Schema.Finite),
  clientSeed: ClientSeed,
  /** The commitment the player saw before betting. */
  commit: Hex64
})
export type PlayPayload = typeof PlayPayload.Type

export interface TableView {
  readonly game: GameCode
  readonly title: string
  readonly balance: number
  readonly commit: string
  readonly nonce: number
  readonly limits: typeof LIMITS
  readonly history: ReadonlyArray<RoundView>
}

export interface PlayResult {
  readonly round: RoundView
  readonly balance: number
  readonly next: { readonly commit: string; readonly nonce: number }
  /** False when the win is still on its way to the wallet (it is retried). */
  readonly settled: boolean
}

const newSeed = () => Effect.promise(async () => {
  const seed = randomHex(32)
  return { seed, commit: await commitOf(seed) }
})

const SESSION_GONE = "Your game session has ended. Go back to the lobby and open the game again."

export class Khel extends Context.Service<Khel, {
  /** Opens (or reopens) the table of a game session: balance, the next round's commitment, recent rounds. */
  table(origin: string, payload: TablePayload): Effect.Effect<TableView, ApiError | SqlError.SqlError>
  play(origin: string, payload: PlayPayload): Effect.Effect<PlayResult, ApiError | SqlError.SqlError>
  /** Finishes rounds left half-way (a win not yet credited, a debit never answered). */
  sweep(origin: string): Effect.Effect<number, SqlError.SqlError>
  /**
   * At start-up, once the server listens: remembers where the wallet is and
   * sweeps at once, so rounds a crash left half-way are refunded or paid
   * without waiting for a player to open a table; the minute sweep goes on.
   */
  recover(origin: string): Effect.Effect<void>
}>()("khel/KhelOriginals") {
  static readonly layer = Layer.effect(
    Khel,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const lastOrigin = yield* Ref.make<string | undefined>(undefined)
      const scope = yield* Effect.scope

      const { wallet, walletSession } = yield* walletClient(PROVIDER)

      const tableRow = (tokenHash: string) =>
        sql`SELECT token_hash, player_id, game, server_seed, commit_hash, nonce FROM khel_tables WHERE token_hash = ${tokenHash}`.pipe(
          decodeFirst(TableRow)
        )

      const rounds = (tokenHash: string) =>
        sql`
          SELECT ${roundColumns(sql)} FROM khel_rounds WHERE token_hash = ${tokenHash} AND status = 'settled' ORDER BY created_at DESC LIMIT 10
        `.pipe(decodeRows(RoundRow), Effect.map((rows) => rows.map(view)))

      const roundOf = (id: string) => sql`SELECT ${roundColumns(sql)} FROM khel_rounds WHERE id = ${id}`.pipe(decodeFirst(RoundRow))

      const setStatus = (id: string, status: RoundRow["status"], error: string | null) =>
        sql`UPDATE khel_rounds SET status = ${status}, error = ${error},
              settled_at = CASE WHEN ${status} IN ('settled', 'rejected', 'cancelled') THEN now() ELSE settled_at END
            WHERE id = ${id}`

      const credit = (origin: string, round: RoundRow) =>
        wallet(origin, "credit", {
          playerId: round.playerId,
          transactionId: `${round.id}-win`,
          roundId: round.id,
          amount: toRupees(round.win ?? 0)
        })

      const rollback = (origin: string, round: RoundRow) =>
        wallet(origin, "rollback", {
          playerId: round.playerId,
          transactionId: `${round.id}-rollback`,
          refTransactionId: `${round.id}-bet`,
          roundId: round.id
        })

      /** Brings one unfinished round to its end; true when it got there. */
      const finish = (origin: string, round: RoundRow) =>
        Effect.gen(function*() {
          if (round.status === "settling") {
            return yield* credit(origin, round).pipe(
              Effect.flatMap(() => setStatus(round.id, "settled", null)),
              Effect.as(true),
              // Refused for good (the round was closed another way): record why, stop retrying.
              Effect.catchTag("WalletRefused", (error) => Effect.as(setStatus(round.id, "cancelled", error.message), true)),
              Effect.catchTag("WalletUnreachable", () => Effect.succeed(false))
            )
          }
          return yield* rollback(origin, round).pipe(
            Effect.flatMap(() => setStatus(round.id, "cancelled", "The bet was not confirmed and has been returned.")),
            Effect.as(true),
            Effect.catchTag("WalletRefused", (error) => Effect.as(setStatus(round.id, "cancelled", error.message), true)),
            Effect.catchTag("WalletUnreachable", () => Effect.succeed(false))
          )
        })

      const unfinished = (tokenHash: string | null) =>
        sql`
          SELECT ${roundColumns(sql)} FROM khel_rounds
           WHERE (status = 'settling' OR (status = 'pending' AND created_at < now() - interval '1 minute'))
             AND (${tokenHash}::text IS NULL OR token_hash = ${tokenHash})
           ORDER BY created_at LIMIT 100
        `.pipe(decodeRows(RoundRow))

      const sweep = Effect.fn("Khel.sweep")(function*(origin: string) {
        let done = 0
        for (const round of yield* unfinished(null)) if (yield* finish(origin, round)) done++
        return done
      })

      const refusal = (error: WalletRefused | WalletUnreachable) =>
        error._tag === "WalletRefused"
          ? error.reason === "SessionEnded" ? refuse("Forbidden", SESSION_GONE) : refuse(error.reason, error.message)
          : refuse("Unavailable", "The table cannot reach your wallet right now. Please try again in a moment.")

      const table = Effect.fn("Khel.table")(function*(origin: string, payload: TablePayload) {
        yield* Ref.set(lastOrigin, origin)
        if (!isGameCode(payload.game)) return yield* refuse("NotFound", "There is no such game.")
        const tokenHash = sha256(payload.token)
        const session = yield* walletSession(origin, payload.token).pipe(Effect.mapError(refusal))
        if (session.gameId !== payload.game) return yield* refuse("Forbidden", "This game session was opened for another game.")
        for (const round of yield* unfinished(tokenHash)) yield* finish(origin, round)
        let row = yield* tableRow(tokenHash)
        if (!row) {
          const { seed, commit } = yield* newSeed()
          yield* sql`
            INSERT INTO khel_tables (token_hash, player_id, game, server_seed, commit_hash)
            VALUES (${tokenHash}, ${session.playerId}, ${payload.game}, ${seed}, ${commit})
            ON CONFLICT (token_hash) DO NOTHING
          `
          row = (yield* tableRow(tokenHash))!
        }
        // Balance again: finishing a round above may have moved it.
        const balance = yield* walletSession(origin, payload.token).pipe(
          Effect.map((s) => s.balance),
          Effect.orElseSucceed(() => session.balance)
        )
        return {
          game: row.game,
          title: GAMES[row.game].title,
          balance,
          commit: row.commitHash,
          nonce: row.nonce,
          limits: LIMITS,
          history: yield* rounds(tokenHash)
        }
      })

      const checkBets = Effect.fn("Khel.checkBets")(function*(game: GameCode, bets: Readonly<Record<string, number>>) {
        const spots = new Set(GAMES[game].spots.map((spot) => spot.id))
        const paise: Record<string, number> = {}
        let total = 0
        for (const [spot, amount] of Object.entries(bets)) {
          if (amount === 0) continue
          if (!spots.has(spot)) return yield* refuse("InvalidInput", `There is no '${spot}' bet at this table.`)
          const p = toPaise(amount)
          if (p === undefined || !Number.isInteger(amount)) return yield* refuse("InvalidInput", "Bets are whole rupees.")
          if (amount < LIMITS.min || amount > LIMITS.max) {
            return yield* refuse("InvalidInput", `Each bet must be between ₹${LIMITS.min} and ₹${LIMITS.max.toLocaleString("en-IN")}.`)
          }
          paise[spot] = p
          total += amount
        }
        if (total === 0) return yield* refuse("InvalidInput", "Place a bet first.")
        if (total > LIMITS.total) return yield* refuse("InvalidInput", `The table limit is ₹${LIMITS.total.toLocaleString("en-IN")} a round.`)
        return paise
      })

      const play = Effect.fn("Khel.play")(function*(origin: string, payload: PlayPayload) {
        yield* Ref.set(lastOrigin, origin)
        if (!isGameCode(payload.game)) return yield* refuse("NotFound", "There is no such game.")
        const game = payload.game
        const bets = yield* checkBets(game, payload.bets)
        const stake = Object.values(bets).reduce((sum, p) => sum + p, 0)
        const tokenHash = sha256(payload.token)
        for (const round of yield* unfinished(tokenHash)) yield* finish(origin, round)

        // 1. Take the committed seed and commit the next one, in one transaction.
        const next = yield* newSeed()
        const started = yield* sql.withTransaction(Effect.gen(function*() {
          const row = yield* sql`
            SELECT token_hash, player_id, game, server_seed, commit_hash, nonce FROM khel_tables WHERE token_hash = ${tokenHash} FOR UPDATE
          `.pipe(decodeFirst(TableRow))
          if (!row) return yield* refuse("NotFound", "Open the table first.")
          if (row.game !== game) return yield* refuse("Forbidden", "This game session was opened for another game.")
          if (row.commitHash !== payload.commit) {
            return yield* refuse("Conflict", "A round was played in another window: the table has a new seed hash. Check it and bet again.")
          }
          const id = randomUUID()
          yield* sql`
            INSERT INTO khel_rounds (id, token_hash, player_id, game, bets, stake, client_seed, server_seed, commit_hash, nonce, status)
            VALUES (${id}, ${tokenHash}, ${row.playerId}, ${game}, ${JSON.stringify(bets)}::jsonb, ${stake}, ${payload.clientSeed},
                    ${row.serverSeed}, ${row.commitHash}, ${row.nonce}, 'pending')
          `
          yield* sql`
            UPDATE khel_tables SET server_seed = ${next.seed}, commit_hash = ${next.commit}, nonce = nonce + 1, updated_at = now()
             WHERE token_hash = ${tokenHash}
          `
          return { id, row }
        }))
        const { id, row } = started

        // 2. The stake.
        const debited = yield* wallet(origin, "debit", { token: payload.token, transactionId: `${id}-bet`, roundId: id, amount: toRupees(stake) }).pipe(
          Effect.catchTag("WalletRefused", (error) =>
            Effect.andThen(setStatus(id, "rejected", error.message), Effect.fail(refusal(error)))),
          Effect.catchTag("WalletUnreachable", (error) =>
            Effect.gen(function*() {
              // The debit may or may not have gone through: cancel it either way.
              const round = yield* roundOf(id)
              yield* finish(origin, round!)
              return yield* Effect.fail(refusal(error))
            }))
        )

        // 3. The outcome, from the seeds, and what it returns.
        const outcome = yield* Effect.promise(() => draw(game, row.serverSeed, payload.clientSeed, row.nonce))
        const win = payout(outcome, bets)
        yield* sql`UPDATE khel_rounds SET outcome = ${JSON.stringify(outcome)}::jsonb, win = ${win}, status = 'settling' WHERE id = ${id}`
        const settling = yield* roundOf(id)

        // 4. The return (0 closes a lost round); retried later if the wallet cannot be reached now.
        const credited = yield* credit(origin, settling!).pipe(
          Effect.tap(() => setStatus(id, "settled", null)),
          Effect.map((result) => ({ settled: true, balance: result.balance })),
          Effect.catchTag("WalletRefused", (error) =>
            Effect.as(setStatus(id, "cancelled", error.message), { settled: false, balance: debited.balance })),
          Effect.catchTag("WalletUnreachable", () => Effect.succeed({ settled: false, balance: debited.balance }))
        )
        const finished = yield* roundOf(id)
        return {
          round: view(finished!),
          balance: credited.balance,
          next: { commit: next.commit, nonce: row.nonce + 1 },
          settled: credited.settled
        }
      })

      // Rounds left half-way are finished within a minute or so, even if the player never comes back.
      yield* Effect.gen(function*() {
        const origin = yield* Ref.get(lastOrigin)
        if (origin) yield* sweep(origin)
      }).pipe(
        Effect.catchCause((cause) => Effect.logWarning("khel sweep failed", cause)),
        Effect.repeat(Schedule.spaced(Duration.minutes(1))),
        Effect.forkScoped
      )

      const recover = (origin: string) =>
        Ref.set(lastOrigin, origin).pipe(
          Effect.andThen(sweep(origin)),
          Effect.tap((done) => (done > 0 ? Effect.logInfo("khel rounds recovered at start-up", { done }) : Effect.void)),
          Effect.catchCause((cause) => Effect.logWarning("khel start-up sweep failed", cause)),
          Effect.forkIn(scope),
          Effect.asVoid
        )

      return Khel.of({ table, play, sweep, recover })
    })
  ).pipe(Layer.provide(FetchHttpClient.layer))
}
