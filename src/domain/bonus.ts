import type { Bonus, BonusStatus } from "../schema/bonus.ts"

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

/** Settled stakes towards the wagering, in whole percent (100 when nothing is required). */
export const wageringProgress = (bonus: Pick<Bonus, "wagered" | "wageringRequired">) =>
  bonus.wageringRequired <= 0 ? 100 : Math.min(100, Math.floor((bonus.wagered / bonus.wageringRequired) * 100))
