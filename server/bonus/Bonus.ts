import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { formatRupees, toRupees } from "../../src/domain/money.ts"
import { type BonusData, BonusStatus } from "../../src/schema/bonus.ts"
import { type ApiError, refuse } from "../../src/schema/envelope.ts"
import { welcomeGrant } from "../../src/domain/bonusRules.ts"
import { decodeFirst, decodeRows, iso, Paise } from "../db/rows.ts"
import { InsufficientFunds, Ledger } from "../ledger/Ledger.ts"
import { Realtime } from "../realtime/Realtime.ts"
import { readBonusRules } from "./rules.ts"

export interface BonusOffer {
  readonly code: string
  readonly title: string
  readonly amountPaise: number
  readonly wageringPaise: number
  /** What the offer comes from; a player gets one bonus per source. */
  readonly source: string
}

const BonusRow = Schema.Struct({
  id: Schema.String,
  code: Schema.String,
  title: Schema.String,
  amount: Paise,
  wageringRequired: Paise,
  wagered: Paise,
  status: BonusStatus,
  createdAt: Schema.Date,
  activatedAt: Schema.NullOr(Schema.Date),
  finishedAt: Schema.NullOr(Schema.Date)
})
/** What moves a bonus on (activate, forfeit, claim): its state and its amounts. */
const BonusState = BonusRow.mapFields((fields) => ({ id: fields.id, status: fields.status, amount: fields.amount, wagered: fields.wagered, wageringRequired: fields.wageringRequired }))


/**
 * Bonuses: an offer becomes money in the bonus wallet when the player
 * activates it (paid from the operator's bonus_expense account); what the
 * player really risks on settled markets counts towards its wagering
 * requirement (src/domain/bonus.ts); once met, claiming moves the
 * bonus wallet to the main balance; forfeiting gives the bonus wallet back.
 * One bonus is in play at a time (a partial unique index), since the bonus
 * wallet belongs to it.
 */
export class Bonus extends Context.Service<Bonus, {
  /** Offers a bonus; nothing happens if this source already gave the player one. */
  offer(userId: string, offer: BonusOffer): Effect.Effect<boolean, SqlError.SqlError>
  /** Offers the welcome bonus for a first deposit of `depositPaise`, by the rules set now (src/domain/bonusRules.ts). */
  welcome(userId: string, depositPaise: number): Effect.Effect<boolean, SqlError.SqlError>
  data(userId: string): Effect.Effect<BonusData, SqlError.SqlError>
  activate(userId: string, bonusId: string): Effect.Effect<BonusData, ApiError | SqlError.SqlError>
  claim(userId: string, bonusId: string): Effect.Effect<BonusData, ApiError | SqlError.SqlError>
  forfeit(userId: string, bonusId: string): Effect.Effect<BonusData, ApiError | SqlError.SqlError>
  /**
   * Adds what the player really risked from the bonus wallet on settled
   * markets (in paise, `wageringOfEvent` in src/domain/bonus.ts) to the
   * wagering of the bonus in play. Settlement calls it inside its own
   * transaction, once per player and outcome: when the last market settled on
   * that outcome closes.
   */
  recordWagering(userId: string, paise: number): Effect.Effect<void, SqlError.SqlError>
}>()("khel/Bonus") {
  static readonly layer = Layer.effect(
    Bonus,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const ledger = yield* Ledger
      const realtime = yield* Realtime
      const rules = readBonusRules.pipe(Effect.provideService(SqlClient.SqlClient, sql))

      const offer = Effect.fn("Bonus.offer")(function*(userId: string, offer: BonusOffer) {
        const rows = yield* sql`
          INSERT INTO bonuses (user_id, code, title, amount, wagering_required, source)
          VALUES (${userId}, ${offer.code}, ${offer.title}, ${offer.amountPaise}, ${offer.wageringPaise}, ${offer.source})
          ON CONFLICT (user_id, source) DO NOTHING RETURNING id
        `
        if (rows.length > 0) yield* sql.afterCommit(realtime.notifyUser(userId, "bonus_offer"))
        return rows.length > 0
      })

      const welcome = Effect.fn("Bonus.welcome")(function*(userId: string, depositPaise: number) {
        const { welcome: rule } = yield* rules
        const { amountPaise, wageringPaise } = welcomeGrant(rule, depositPaise)
        return yield* offer(userId, { code: rule.code, title: rule.title, amountPaise, wageringPaise, source: "welcome" })
      })

      const data = Effect.fn("Bonus.data")(function*(userId: string) {
        const rows = yield* sql`
          SELECT id, code, title, amount, wagering_required, wagered, status, created_at, activated_at, finished_at
            FROM bonuses WHERE user_id = ${userId}
           ORDER BY CASE status WHEN 'completed' THEN 0 WHEN 'active' THEN 1 WHEN 'available' THEN 2 ELSE 3 END, created_at DESC
        `.pipe(decodeRows(BonusRow))
        const balances = yield* ledger.balances(userId)
        const { welcome: rule } = yield* rules
        return {
          bonusBalance: toRupees(balances.bonus),
          bonuses: rows.map((row) => ({
            _id: row.id,
            code: row.code,
            title: row.title,
            amount: toRupees(row.amount),
            wageringRequired: toRupees(row.wageringRequired),
            wagered: toRupees(row.wagered),
            wageringLeft: toRupees(row.wageringRequired > row.wagered ? row.wageringRequired - row.wagered : 0n),
            status: row.status,
            createdAt: new Date(row.createdAt).toISOString(),
            activatedAt: iso(row.activatedAt),
            finishedAt: iso(row.finishedAt)
          })),
          welcome: { percent: rule.percent, cap: rule.cap, wagerTimes: rule.wagerTimes }
        } satisfies BonusData
      })

      /** Moves the bonus from one status to the next, or says why it cannot (the row is locked until commit). */
      const transition = (userId: string, bonusId: string, from: ReadonlyArray<BonusStatus>, to: BonusStatus) =>
        Effect.gen(function*() {
          const row = yield* sql`
            SELECT id, status, amount, wagered, wagering_required FROM bonuses WHERE id = ${bonusId} AND user_id = ${userId} FOR UPDATE
          `.pipe(decodeFirst(BonusState))
          if (!row) return yield* refuse("NotFound", "There is no such bonus.")
          if (!from.includes(row.status)) return yield* refuse("Conflict", `This bonus is ${row.status}.`)
          yield* sql`
            UPDATE bonuses SET status = ${to},
              activated_at = CASE WHEN ${to} = 'active' THEN now() ELSE activated_at END,
              finished_at = CASE WHEN ${to} IN ('claimed', 'forfeited') THEN now() ELSE finished_at END
             WHERE id = ${bonusId}
          `
          return row
        })

      const activate = Effect.fn("Bonus.activate")(function*(userId: string, bonusId: string) {
        yield* sql.withTransaction(Effect.gen(function*() {
          const [inPlay] = yield* sql`SELECT 1 FROM bonuses WHERE user_id = ${userId} AND status IN ('active', 'completed') AND id <> ${bonusId}`
          if (inPlay) return yield* refuse("Conflict", "You already have a bonus in play. Claim or forfeit it first.")
          const row = yield* transition(userId, bonusId, ["available"], "active")
          yield* ledger.post({
            kind: "bonus_activate",
            userId,
            reference: `bonus:${bonusId}`,
            description: "Bonus activated",
            legs: [
              { account: { operator: "bonus_expense" }, amount: -Number(row.amount) },
              { account: { user: userId, kind: "bonus" }, amount: Number(row.amount) }
            ]
          }).pipe(Effect.catchTag("InsufficientFunds", (e) => Effect.die(e)))
          // An offer without wagering can be claimed at once.
          yield* sql`UPDATE bonuses SET status = 'completed' WHERE id = ${bonusId} AND wagered >= wagering_required`
        }))
        return yield* data(userId)
      })

      /** Empties the bonus wallet into `to`; the player plays from main again. */
      const settleWallet = (userId: string, bonusId: string, kind: "bonus_claim" | "bonus_forfeit") =>
        Effect.gen(function*() {
          const { bonus } = yield* ledger.balances(userId)
          if (bonus > 0) {
            yield* ledger.post({
              kind,
              userId,
              reference: `bonus:${bonusId}`,
              description: kind === "bonus_claim" ? "Bonus claimed to main balance" : "Bonus forfeited",
              legs: [
                { account: { user: userId, kind: "bonus" }, amount: -bonus },
                kind === "bonus_claim" ? { account: { user: userId, kind: "main" }, amount: bonus } : { account: { operator: "bonus_expense" }, amount: bonus }
              ]
            })
          }
          yield* sql`UPDATE users SET wallet = 1 WHERE id = ${userId} AND wallet <> 1`
        })

      const claim = Effect.fn("Bonus.claim")(function*(userId: string, bonusId: string) {
        yield* sql.withTransaction(Effect.gen(function*() {
          const row = yield* sql`
            SELECT id, status, amount, wagered, wagering_required FROM bonuses WHERE id = ${bonusId} AND user_id = ${userId}
          `.pipe(decodeFirst(BonusState))
          if (row?.status === "active") {
            return yield* refuse("Conflict", `Wager ${formatRupees(toRupees(row.wageringRequired - row.wagered))} more (what you risk on settled markets counts) to claim this bonus.`)
          }
          yield* transition(userId, bonusId, ["completed"], "claimed")
          yield* settleWallet(userId, bonusId, "bonus_claim")
        })).pipe(Effect.catchTag("InsufficientFunds", (e: InsufficientFunds) => Effect.die(e)))
        return yield* data(userId)
      })

      const forfeit = Effect.fn("Bonus.forfeit")(function*(userId: string, bonusId: string) {
        yield* sql.withTransaction(Effect.gen(function*() {
          const row = yield* transition(userId, bonusId, ["available", "active", "completed"], "forfeited")
          if (row.status !== "available") yield* settleWallet(userId, bonusId, "bonus_forfeit")
        })).pipe(Effect.catchTag("InsufficientFunds", (e: InsufficientFunds) => Effect.die(e)))
        yield* realtime.notifyUser(userId, "bonus")
        return yield* data(userId)
      })

      const recordWagering = Effect.fn("Bonus.recordWagering")(function*(userId: string, paise: number) {
        if (!Number.isSafeInteger(paise) || paise <= 0) return
        const rows = yield* sql`
          UPDATE bonuses SET wagered = wagered + ${paise},
            status = CASE WHEN wagered + ${paise} >= wagering_required THEN 'completed' ELSE status END
           WHERE user_id = ${userId} AND status = 'active'
           RETURNING status
        `
        if (rows.length > 0) yield* sql.afterCommit(realtime.notifyUser(userId, "bonus_wagering"))
      })

      return Bonus.of({ offer, welcome, data, activate, claim, forfeit, recordWagering })
    })
  )
}
