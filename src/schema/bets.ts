import { Schema } from "effect"
import { MarketType } from "./sports.ts"
import { Rupees } from "./user.ts"

export const SelectionType = Schema.Literals(["back", "lay"])
export type SelectionType = typeof SelectionType.Type

/**
 * Where a bet is: open (`matched`, `partially_matched` while part of it waits, `unmatched` while all of it does),
 * `cancelled` (nothing of it was matched, and its stake went back), or settled with its market (`won`, `lost`, `void`).
 */
export const BetStatus = Schema.Literals(["matched", "partially_matched", "unmatched", "cancelled", "won", "lost", "void"])
export type BetStatus = typeof BetStatus.Type

/** What an exchange bet's unmatched part does when its event goes in play: cancelled, or kept waiting. */
export const Persistence = Schema.Literals(["cancel", "keep"])
export type Persistence = typeof Persistence.Type

/** A part of a bet matched at one price. */
export const BetMatch = Schema.Struct({ odds: Schema.Finite, stake: Rupees })
export type BetMatch = typeof BetMatch.Type

export const Bet = Schema.Struct({
  _id: Schema.String,
  selection: Schema.String,
  selectionId: Schema.String,
  selectionType: SelectionType,
  /** The price asked: the bet is matched at it or better, and its unmatched part waits at it. */
  odds: Schema.Finite,
  /** The stake asked: what is matched, what waits and what was cancelled add up to it. */
  stake: Rupees,
  /** What the bet can lose as it stands: its matched parts, and its unmatched part if that is matched too. */
  liability: Rupees,
  /** Fancy markets: the size (rate per 100) that pays a back bet. */
  oddsSize: Schema.NullOr(Schema.Finite),
  marketType: MarketType,
  marketId: Schema.String,
  marketName: Schema.String,
  status: BetStatus,
  /** The stake matched, and the matched parts with their prices. */
  matched: Rupees,
  matches: Schema.Array(BetMatch),
  /** The stake still waiting at `odds`. */
  unmatched: Rupees,
  persistence: Persistence,
  profitLoss: Schema.NullOr(Rupees),
  /** A cash out's hedge bet (src/schema/cashOut.ts), labelled as such wherever bets are listed. */
  cashOut: Schema.optionalKey(Schema.Boolean),
  createdAt: Schema.String,
  eventId: Schema.Struct({ _id: Schema.String, name: Schema.String, slugName: Schema.String }),
  sportId: Schema.Struct({ slugName: Schema.String }),
  leagueId: Schema.Struct({ slugName: Schema.String })
})
export type Bet = typeof Bet.Type
