import { Schema } from "effect"
import type { SqlClient } from "effect/sql"
import { toRupees } from "../../../src/domain/money.ts"
import { Paise } from "../../db/rows.ts"
import type { GameCode, Outcome } from "./fair.js"

/**
 * Khel Originals' own records: a player's table and its rounds as stored
 * (decoded, since a round's stake and win move money), and a round as the
 * table shows it.
 */

export interface RoundView {
  readonly roundId: string
  readonly game: GameCode
  readonly bets: Readonly<Record<string, number>>
  readonly stake: number
  readonly win: number
  readonly outcome: Outcome
  readonly serverSeed: string
  readonly clientSeed: string
  readonly nonce: number
  readonly commit: string
  readonly createdAt: string
}

const Game = Schema.Literals(["dragon-tiger", "andar-bahar", "lucky-lotus"])
const SlotSymbol = Schema.Literals(["lotus", "seven", "bar", "bell", "mango", "cherry"])
/** A drawn outcome as `fair.js` makes it (`Outcome`), read back from the round's row. */
const OutcomeRow = Schema.Union([
  Schema.Struct({ game: Schema.Literal("dragon-tiger"), dragon: Schema.Int, tiger: Schema.Int, winner: Schema.Literals(["dragon", "tiger", "tie"]) }),
  Schema.Struct({ game: Schema.Literal("andar-bahar"), joker: Schema.Int, andar: Schema.Array(Schema.Int), bahar: Schema.Array(Schema.Int), winner: Schema.Literals(["andar", "bahar"]) }),
  Schema.Struct({ game: Schema.Literal("lucky-lotus"), stops: Schema.Array(Schema.Int), reels: Schema.Array(Schema.Array(SlotSymbol)), line: Schema.Array(SlotSymbol), multiplier: Schema.Finite })
])

/** A player's table: the committed seed of their next round. */
export const TableRow = Schema.Struct({
  tokenHash: Schema.String,
  playerId: Schema.String,
  game: Game,
  serverSeed: Schema.String,
  commitHash: Schema.String,
  nonce: Schema.Int
})
export type TableRow = typeof TableRow.Type

/** A round: what was staked (paise per spot) and, once drawn, what it returned; decoded, since it moves money. */
export const RoundRow = Schema.Struct({
  id: Schema.String,
  tokenHash: Schema.String,
  playerId: Schema.String,
  game: Game,
  bets: Schema.Record(Schema.String, Schema.Int),
  stake: Paise,
  clientSeed: Schema.String,
  serverSeed: Schema.String,
  commitHash: Schema.String,
  nonce: Schema.Int,
  outcome: Schema.NullOr(OutcomeRow),
  win: Schema.NullOr(Paise),
  status: Schema.Literals(["pending", "settling", "settled", "rejected", "cancelled"]),
  createdAt: Schema.Date
})
export type RoundRow = typeof RoundRow.Type

/** The columns of `RoundRow`. */
export const roundColumns = (sql: SqlClient.SqlClient) =>
  sql`id, token_hash, player_id, game, bets, stake, client_seed, server_seed, commit_hash, nonce, outcome, win, status, created_at`

/** A settled round as the table shows it (rupees). */
export const view = (row: RoundRow): RoundView => ({
  roundId: row.id,
  game: row.game,
  bets: Object.fromEntries(Object.entries(row.bets).map(([spot, paise]) => [spot, toRupees(paise)])),
  stake: toRupees(row.stake),
  win: toRupees(row.win ?? 0),
  outcome: row.outcome!,
  serverSeed: row.serverSeed,
  clientSeed: row.clientSeed,
  nonce: row.nonce,
  commit: row.commitHash,
  createdAt: new Date(row.createdAt).toISOString()
})
