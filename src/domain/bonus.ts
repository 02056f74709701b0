/**
 * Bonuses: the lifecycle as the player acts on it, and what counts towards a
 * bonus's wagering requirement.
 *
 * Only money really at risk counts, so a bonus cannot be turned into cash by
 * bets that cover each other (a back and a lay on the same runner at
 * neighbouring prices risk about 1 % of their stakes). Each bet counts the
 * increase of the player's worst-case loss on its market that it causes: a
 * back bet its stake, a lay bet its liability, a bet that covers earlier ones
 * nothing; and a bet that lowers the worst case takes back what it removes
 * (otherwise backing, laying and backing again would count the same stake
 * over and over). Added up, a settled market counts exactly its worst-case
 * loss: the most the player could have lost on it. Voided markets count
 * nothing.
 */
import type { Bonus, BonusStatus } from "../schema/bonus.ts"
import type { MarketType } from "../schema/sports.ts"
import { exposureChange, marketExposure, type Position } from "./betting.ts"

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
  "Wagering counts what you really risk. Each settled market counts the most you could have lost on it: a back bet counts its stake, a lay bet its liability, and bets that cover each other count only the risk that is left. Voided markets do not count."

/** What one more bet adds to (or takes from) the wagering of its market, in paise. */
export const wageringOfBet = (type: MarketType, runners: ReadonlyArray<string>, earlier: ReadonlyArray<Position>, bet: Position) =>
  exposureChange(type, runners, earlier, bet)

/** What a settled market's bets count towards wagering, in paise: the sum of what each bet added, i.e. the market's worst-case loss. */
export const wageringOfMarket = (type: MarketType, runners: ReadonlyArray<string>, bets: ReadonlyArray<Position>) =>
  marketExposure(type, runners, bets)
