import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { toRupees } from "../../src/domain/money.ts"
import type { Bet } from "../../src/schema/bets.ts"
import { MarketType } from "../../src/schema/sports.ts"
import { decodeRows, NumericText, Paise } from "../db/rows.ts"

/** A bet row joined with its market, event, league and sport, as the API shows it. */
export const BetRow = Schema.Struct({
  id: Schema.String,
  selectionName: Schema.String,
  selectionId: Schema.String,
  side: Schema.Literals(["back", "lay"]),
  odds: NumericText,
  size: Schema.NullOr(NumericText),
  stake: Paise,
  liability: Paise,
  marketType: MarketType,
  marketExternalId: Schema.String,
  marketName: Schema.String,
  status: Schema.Literals(["open", "won", "lost", "void"]),
  profitLoss: Schema.NullOr(Paise),
  createdAt: Schema.Date,
  eventId: Schema.String,
  eventName: Schema.String,
  eventSlug: Schema.String,
  sportSlug: Schema.String,
  leagueSlug: Schema.String
})
export type BetRow = typeof BetRow.Type

export const betView = (row: BetRow): Bet => ({
  _id: row.id,
  selection: row.selectionName,
  selectionId: row.selectionId,
  selectionType: row.side,
  odds: Number(row.odds),
  stake: toRupees(row.stake),
  liability: toRupees(row.liability),
  oddsSize: row.size === null ? null : Number(row.size),
  marketType: row.marketType,
  marketId: row.marketExternalId,
  marketName: row.marketName,
  status: row.status,
  profitLoss: row.profitLoss === null ? null : toRupees(row.profitLoss),
  createdAt: row.createdAt.toISOString(),
  eventId: { _id: row.eventId, name: row.eventName, slugName: row.eventSlug },
  sportId: { slugName: row.sportSlug },
  leagueId: { slugName: row.leagueSlug }
})

/** Reads of a player's bets. */
export class Bets extends Context.Service<Bets, {
  /** Open bets, newest first; narrowed to a market (feed id) or an event when given. */
  open(userId: string, filter: { readonly marketId?: string | undefined; readonly eventId?: string | undefined }): Effect.Effect<ReadonlyArray<Bet>, SqlError.SqlError>
}>()("khel/Bets") {
  static readonly layer = Layer.effect(
    Bets,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient

      const select = sql`
        SELECT b.id, b.selection_name, b.selection_id, b.side, b.odds::text AS odds, b.size::text AS size, b.stake, b.liability,
               b.market_type, m.external_id AS market_external_id, m.name AS market_name, b.status, b.profit_loss, b.created_at,
               e.id AS event_id, e.name AS event_name, e.slug AS event_slug, s.slug AS sport_slug, l.slug AS league_slug
          FROM bets b
          JOIN markets m ON m.id = b.market_id
          JOIN events e ON e.id = b.event_id
          JOIN leagues l ON l.id = e.league_id
          JOIN sports s ON s.id = l.sport_id
      `

      const open = Effect.fn("Bets.open")(function*(userId: string, filter: { readonly marketId?: string | undefined; readonly eventId?: string | undefined }) {
        const rows = yield* sql`
          ${select}
           WHERE b.user_id = ${userId} AND b.status = 'open'
             ${filter.marketId ? sql`AND m.external_id = ${filter.marketId}` : sql``}
             ${filter.eventId ? sql`AND b.event_id = ${filter.eventId}` : sql``}
           ORDER BY b.created_at DESC, b.id
           LIMIT 500
        `.pipe(decodeRows(BetRow))
        return rows.map(betView)
      })

      return Bets.of({ open })
    })
  )
}
