import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { liabilityOf, winAmount } from "../../src/domain/betting.ts"
import { type BetParts, type Match, matchedStake, openStatus, positionsOf } from "../../src/domain/matching.ts"
import { toRupees } from "../../src/domain/money.ts"
import type { Bet, Persistence } from "../../src/schema/bets.ts"
import { MarketType } from "../../src/schema/sports.ts"
import { decodeRows, NumericText, Paise } from "../db/rows.ts"

const Side = Schema.Literals(["back", "lay"])
/** A bet's matched parts as stored (`bets.matches`, migration 0110): prices and paise. */
export const Matches = Schema.Array(Schema.Struct({ odds: Schema.Finite, stake: Schema.Int }))

/**
 * A player's open bet on a market as `bet_position_query` lists it (migration 0110), JSON numbers: the price asked,
 * what waits and the matched parts (null for a bet written before bets were matched in parts: all of it at `odds`).
 */
export const OpenBetParts = Schema.Struct({
  selectionId: Schema.String,
  side: Side,
  odds: Schema.Finite,
  size: Schema.NullOr(Schema.Finite),
  stake: Schema.Int,
  unmatched: Schema.Int,
  matches: Schema.NullOr(Matches)
})

/** The parts of a bet as the rules read them (src/domain/matching.ts). */
export const partsOf = (row: {
  readonly selectionId: string
  readonly side: "back" | "lay"
  readonly odds: number
  readonly size: number | null
  readonly stake: number
  readonly unmatched: number
  readonly matches: ReadonlyArray<Match> | null
}): BetParts => ({
  selectionId: row.selectionId,
  side: row.side,
  odds: row.odds,
  size: row.size,
  unmatched: row.unmatched,
  matches: row.matches ?? [{ odds: row.odds, stake: row.stake }]
})

/** A bet's matched parts as positions, from its row (NUMERIC as text, paise as bigint): what waits is left out. */
export const matchedPositions = (row: {
  readonly selectionId: string
  readonly side: "back" | "lay"
  readonly odds: string
  readonly size: string | null
  readonly stake: bigint
  readonly matches: ReadonlyArray<Match> | null
}) => positionsOf(partsOf({ ...row, odds: Number(row.odds), size: row.size === null ? null : Number(row.size), stake: Number(row.stake), unmatched: 0 }))

/** What a bet could win and lose as it stands: its matched parts, and its waiting part at the price asked (paise). */
export const betFigures = (type: MarketType, parts: BetParts) => {
  const positions = positionsOf(parts).map((position) => ({ ...position, waiting: false }))
  return {
    profit: positions.reduce((sum, position) => sum + winAmount(type, position), 0),
    liability: positions.reduce((sum, position) => sum + liabilityOf(type, position), 0)
  }
}

/** A bet with its market, event, league and sport: what the API shows of it (amounts in paise). */
export interface BetRecord extends BetParts {
  readonly id: string
  readonly selectionName: string
  readonly stake: number
  readonly persistence: Persistence
  readonly marketType: MarketType
  readonly marketExternalId: string
  readonly marketName: string
  readonly status: "open" | "won" | "lost" | "void" | "cancelled"
  readonly profitLoss: number | null
  readonly createdAt: Date
  readonly eventId: string
  readonly eventName: string
  readonly eventSlug: string
  readonly sportSlug: string
  readonly leagueSlug: string
  /** A cash out's hedge bet: the quote it took. */
  readonly cashOutQuote?: string | null
}

export const viewOfBet = (record: BetRecord): Bet => {
  const matched = matchedStake(record.matches)
  return {
    _id: record.id,
    selection: record.selectionName,
    selectionId: record.selectionId,
    selectionType: record.side,
    odds: record.odds,
    stake: toRupees(record.stake),
    liability: toRupees(betFigures(record.marketType, record).liability),
    oddsSize: record.size ?? null,
    marketType: record.marketType,
    marketId: record.marketExternalId,
    marketName: record.marketName,
    status: record.status === "open" ? openStatus(matched, record.unmatched) : record.status,
    matched: toRupees(matched),
    matches: record.matches.map((match) => ({ odds: match.odds, stake: toRupees(match.stake) })),
    unmatched: toRupees(record.unmatched),
    persistence: record.persistence,
    profitLoss: record.profitLoss === null ? null : toRupees(record.profitLoss),
    ...(record.cashOutQuote ? { cashOut: true } : {}),
    createdAt: record.createdAt.toISOString(),
    eventId: { _id: record.eventId, name: record.eventName, slugName: record.eventSlug },
    sportId: { slugName: record.sportSlug },
    leagueId: { slugName: record.leagueSlug }
  }
}

/** A bet row joined with its market, event, league and sport (`betSelect`). */
export const BetRow = Schema.Struct({
  id: Schema.String,
  userId: Schema.String,
  selectionName: Schema.String,
  selectionId: Schema.String,
  side: Side,
  odds: NumericText,
  size: Schema.NullOr(NumericText),
  stake: Paise,
  unmatched: Paise,
  cancelled: Paise,
  matches: Schema.NullOr(Matches),
  persistence: Schema.Literals(["cancel", "keep"]),
  marketType: MarketType,
  marketId: Schema.String,
  marketExternalId: Schema.String,
  marketName: Schema.String,
  status: Schema.Literals(["open", "won", "lost", "void", "cancelled"]),
  profitLoss: Schema.NullOr(Paise),
  createdAt: Schema.Date,
  eventId: Schema.String,
  eventName: Schema.String,
  eventSlug: Schema.String,
  sportSlug: Schema.String,
  leagueSlug: Schema.String,
  cashOutQuote: Schema.NullOr(Schema.String)
})
export type BetRow = typeof BetRow.Type

export const recordOf = ({ odds, size, stake, unmatched, matches, profitLoss, ...row }: BetRow): BetRecord => ({
  ...row,
  ...partsOf({
    selectionId: row.selectionId,
    side: row.side,
    odds: Number(odds),
    size: size === null ? null : Number(size),
    stake: Number(stake),
    unmatched: Number(unmatched),
    matches
  }),
  stake: Number(stake),
  profitLoss: profitLoss === null ? null : Number(profitLoss)
})

export const betView = (row: BetRow): Bet => viewOfBet(recordOf(row))

/** Stake limits (paise) and the in-play delay (seconds), as bet_limits holds them. */
export const Limits = Schema.Struct({ minStake: Paise, maxStake: Paise, inPlayDelaySeconds: Schema.Int })
export type Limits = typeof Limits.Type

/** When no row of bet_limits applies (the migration adds a default row). */
export const DEFAULT_LIMITS: Limits = { minStake: 10_000n, maxStake: 50_000_000n, inPlayDelaySeconds: 0 }

/**
 * The most specific row of bet_limits (the event's, its league's, its sport's, or the default) for the ids given as
 * values or as columns of the caller's query: `SELECT … ${limitsFrom(sql, ids)}`.
 */
export const limitsFrom = (sql: SqlClient.SqlClient, ids: { readonly sport: unknown; readonly league: unknown; readonly event: unknown }) => sql`
  FROM bet_limits bl
 WHERE (bl.sport_id IS NULL OR bl.sport_id = ${ids.sport}) AND (bl.league_id IS NULL OR bl.league_id = ${ids.league}) AND (bl.event_id IS NULL OR bl.event_id = ${ids.event})
 ORDER BY (bl.event_id IS NOT NULL) DESC, (bl.league_id IS NOT NULL) DESC, (bl.sport_id IS NOT NULL) DESC
 LIMIT 1
`

/** The columns of `BetRow`, from `bets b` joined as below (a caller adds its WHERE). */
export const betSelect = (sql: SqlClient.SqlClient) => sql`
  SELECT b.id, b.user_id, b.selection_name, b.selection_id, b.side, b.odds::text AS odds, b.size::text AS size, b.stake,
         b.unmatched, b.cancelled, b.matches, b.persistence, b.market_type, b.market_id, m.external_id AS market_external_id,
         m.name AS market_name, b.status, b.profit_loss, b.created_at, b.cash_out_quote,
         e.id AS event_id, e.name AS event_name, e.slug AS event_slug, s.slug AS sport_slug, l.slug AS league_slug
    FROM bets b
    JOIN markets m ON m.id = b.market_id
    JOIN events e ON e.id = b.event_id
    JOIN leagues l ON l.id = e.league_id
    JOIN sports s ON s.id = l.sport_id
`

/** Reads of a player's bets. */
export class Bets extends Context.Service<Bets, {
  /** Open bets (matched, or waiting in part or whole), newest first; narrowed to a market (feed id) or an event when given. */
  open(userId: string, filter: { readonly marketId?: string | undefined; readonly eventId?: string | undefined }): Effect.Effect<ReadonlyArray<Bet>, SqlError.SqlError>
}>()("khel/Bets") {
  static readonly layer = Layer.effect(
    Bets,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const select = betSelect(sql)

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
