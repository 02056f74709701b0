import { Schema } from "effect"
import { MarketType } from "./sports.ts"
import { Rupees } from "./user.ts"

export const SelectionType = Schema.Literals(["back", "lay"])
export type SelectionType = typeof SelectionType.Type

export const Bet = Schema.Struct({
  _id: Schema.String,
  selection: Schema.String,
  selectionId: Schema.String,
  selectionType: SelectionType,
  odds: Schema.Finite,
  stake: Rupees,
  liability: Rupees,
  /** Fancy markets: the size (rate per 100) that pays a back bet. */
  oddsSize: Schema.NullOr(Schema.Finite),
  marketType: MarketType,
  marketId: Schema.String,
  marketName: Schema.String,
  status: Schema.Literals(["open", "won", "lost", "void"]),
  profitLoss: Schema.NullOr(Rupees),
  createdAt: Schema.String,
  eventId: Schema.Struct({ _id: Schema.String, name: Schema.String, slugName: Schema.String }),
  sportId: Schema.Struct({ slugName: Schema.String }),
  leagueId: Schema.Struct({ slugName: Schema.String })
})
export type Bet = typeof Bet.Type
