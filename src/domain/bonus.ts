/**
 * Bonuses: the lifecycle as the player acts on it, and what counts towards a
 * bonus's wagering requirement.
 *
 * Only money really at risk counts, so a bonus cannot be turned into cash by
 * bets that cover each other: a back and a lay on the same runner at
 * neighbouring prices, or a back on Match Odds against a back on the other
 * side in the Bookmaker market of the same match. What counts is the
 * player's worst-case loss over every market of an event settled on the same
 * outcomes — its outcome space (src/domain/eventBook.ts): the match result
 * for Match Odds and Bookmaker together, a goals line, a race's winner; a
 * fancy on its own — counted once, when the last of those markets is
 * settled or voided (`wageringOfEvent`). A back bet alone counts its stake,
 * a lay bet its liability, bets that cover each other only the risk left, a
 * voided market nothing. Only bets the terms cover count: bonus-wallet bets
 * placed while the bonus is active; and never more than the worst case of all
 * the player's bets there, so a bonus bet hedged from the main wallet counts
 * only what is left.
 */
import type { Bonus, BonusStatus } from "../schema/bonus.ts"
import type { MarketType } from "../schema/sports.ts"
import { exposureChange, marketExposure, type Position, runnerOutcome } from "./betting.ts"
import { claimOf } from "./eventBook.ts"

/**
 * The bonus lifecycle as the player acts on it (SPEC section 4: activate,
 * claim, forfeit): which statuses each action applies to, as the server
 * enforces them, and the wagering progress a card shows.
 */
export type BonusAction = "activate" | "claim" | "forfeit"

/** The statuses a bonus may be in for each action: available → active → completed → claimed, or forfeited on the way. */
export const BONUS_ACTION_FROM: Readonly<Record<BonusAction, ReadonlyArray<BonusStatus>>> = {
  activate: ["available"],
  claim: ["completed"],
  forfeit: ["available", "active", "completed"]
}

export const canActOn = (action: BonusAction, status: BonusStatus) => BONUS_ACTION_FROM[action].includes(status)

/** Still in play: not yet claimed or forfeited. */
export const isLiveBonus = (status: BonusStatus) => canActOn("forfeit", status)

/** What counts towards the wagering so far, in whole percent (100 when nothing is required). */
export const wageringProgress = (bonus: Pick<Bonus, "wagered" | "wageringRequired">) =>
  bonus.wageringRequired <= 0 ? 100 : Math.min(100, Math.floor((bonus.wagered / bonus.wageringRequired) * 100))

/** The wagering rule as the player reads it on /bonus. */
export const WAGERING_RULE =
  "Wagering counts what you really risk with the bonus wallet. Each match counts the most you could have lost on it across its Match Odds and Bookmaker markets together, once both are settled; a fancy or any other market counts on its own. A back bet counts its stake, a lay bet its liability, and bets that cover each other count only the risk that is left. Voided markets do not count."

/** What one more bet adds to (or takes from) the wagering of its market, in paise. */
export const wageringOfBet = (type: MarketType, runners: ReadonlyArray<string>, earlier: ReadonlyArray<Position>, bet: Position) =>
  exposureChange(type, runners, earlier, bet)

/** What a settled market's bets count towards wagering, in paise: the sum of what each bet added, i.e. the market's worst-case loss. */
export const wageringOfMarket = (type: MarketType, runners: ReadonlyArray<string>, bets: ReadonlyArray<Position>) =>
  marketExposure(type, runners, bets)

/**
 * The outcome space a market settles on (`claimOf`, src/domain/eventBook.ts): the match result for Match Odds and
 * Bookmaker alike, a goals line, a race's winner. Undefined for a fancy, which settles on a line of its own.
 */
export const outcomeSpaceOf = (market: { readonly name: string; readonly marketType: MarketType }) => {
  const claim = claimOf({ ...market, runners: [] })
  return claim.kind === "outcomes" ? claim.space : undefined
}

/** Each runner's outcome in its space (`claimOf`: by position, home, away, the draw), runners in the market's order. */
export const outcomesOf = (market: {
  readonly name: string
  readonly marketType: MarketType
  readonly runners: ReadonlyArray<{ readonly selectionId: string; readonly name: string }>
}) => {
  const claim = claimOf(market)
  return market.runners.map((runner, i) => ({ selectionId: runner.selectionId, outcome: claim.kind === "outcomes" ? claim.outcomes[i] ?? runner.name : runner.name }))
}

/** A settled market as the wagering rule reads it: its runners by the outcome each settles on, and the player's bets. */
export interface OutcomeMarket {
  readonly type: MarketType
  /** Each runner's selection id and its outcome, the same in every market of the space (`outcomesOf`). */
  readonly runners: ReadonlyArray<{ readonly selectionId: string; readonly outcome: string }>
  readonly bets: ReadonlyArray<Position>
}

/**
 * The most the player can lose over markets settled on the same outcome:
 * the worst, over the outcomes, of what all their bets there leave them
 * with. A market without an outcome would be voided by it (its bets return).
 * One market is its own exposure (a fancy's bands included).
 */
export const exposureAcross = (markets: ReadonlyArray<OutcomeMarket>): number => {
  const live = markets.filter((market) => market.bets.length > 0)
  if (live.length === 0) return 0
  if (live.length === 1) return marketExposure(live[0]!.type, live[0]!.runners.map((r) => r.selectionId), live[0]!.bets)
  let worst = 0
  for (const outcome of new Set(live.flatMap((market) => market.runners.map((r) => r.outcome)))) {
    let total = 0
    for (const market of live) {
      const winner = market.runners.find((r) => r.outcome === outcome)
      if (winner) for (const bet of market.bets) total += runnerOutcome(market.type, bet, winner.selectionId)
    }
    worst = Math.min(worst, total)
  }
  return worst === 0 ? 0 : -worst
}

/**
 * What the settled markets of one outcome count towards a requirement, in
 * paise: the worst case of the bets the terms cover, but never more than the
 * worst case of all the player's bets there (a covered bet hedged by one the
 * terms do not cover risks only what is left).
 */
export const wageringOfEvent = (markets: ReadonlyArray<OutcomeMarket & { readonly covered: ReadonlyArray<Position> }>) =>
  Math.min(exposureAcross(markets.map((market) => ({ ...market, bets: market.covered }))), exposureAcross(markets))
