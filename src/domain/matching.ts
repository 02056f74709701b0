/**
 * How an exchange bet is matched, for the server and the bet slip alike. The
 * house (through the price model) is the counterparty: a bet asks for a price
 * and a stake, and takes what the ladder of its side offers at that price or
 * better, level by level, best first; what the levels do not cover stays
 * unmatched, waiting at the asked price until the market comes to it (then it
 * is matched the same way, in the order the waiting bets were placed) or the
 * player cancels it. Bookmaker and fancy markets are not matched this way:
 * their rate is fixed, all or nothing. Amounts are integer paise.
 */
import { formatRupees, toRupees } from "./money.ts"
import { priceLabel, type Position, type Side } from "./betting.ts"
import type { Bet } from "../schema/bets.ts"
import type { MarketType } from "../schema/sports.ts"

/** A price on offer to the bet's side and the stake it takes, in paise. */
export interface Offer {
  readonly price: number
  readonly size: number
}

/** A part of a bet matched at one price: its stake in paise. */
export interface Match {
  readonly odds: number
  readonly stake: number
}

/** Hundredths of a price, exactly (1.85 -> 185). */
const hundredths = (price: number) => Math.round(price * 100)

/** Whether `price` is the asked price or better for this side: a backer wants it higher, a layer lower. */
export const meets = (side: Side, asked: number, price: number) =>
  side === "back" ? hundredths(price) >= hundredths(asked) : hundredths(price) <= hundredths(asked)

/** A book's levels (sizes in rupees, as the ladder shows them) as offers in paise, best first. */
export const offersOf = (side: Side, levels: ReadonlyArray<{ readonly price: number; readonly size: number }>): Array<Offer> =>
  levels
    .map((level) => ({ price: level.price, size: Math.max(0, Math.round(level.size * 100)) }))
    .sort((a, b) => (side === "back" ? hundredths(b.price) - hundredths(a.price) : hundredths(a.price) - hundredths(b.price)))

/** Parts at the same price become one (a bet matched at 1.82 twice holds one part at 1.82). */
export const mergeMatches = (matches: ReadonlyArray<Match>): Array<Match> => {
  const byPrice = new Map<number, number>()
  for (const match of matches) byPrice.set(hundredths(match.odds), (byPrice.get(hundredths(match.odds)) ?? 0) + match.stake)
  return [...byPrice].filter(([, stake]) => stake > 0).map(([h, stake]) => ({ odds: h / 100, stake }))
}

/** What `after` matched that `before` had not (per price): what a change of a bet took off the ladder. */
export const newlyMatched = (before: ReadonlyArray<Match>, after: ReadonlyArray<Match>): Array<Match> => {
  const had = new Map(mergeMatches(before).map((match) => [hundredths(match.odds), match.stake]))
  return mergeMatches(after).flatMap((match) => {
    const stake = match.stake - (had.get(hundredths(match.odds)) ?? 0)
    return stake > 0 ? [{ odds: match.odds, stake }] : []
  })
}

export interface Matched {
  /** The parts matched, best price first. */
  readonly matches: ReadonlyArray<Match>
  /** What the offers did not cover, waiting at the asked price. */
  readonly unmatched: number
  /** The offers as they are left. */
  readonly left: ReadonlyArray<Offer>
}

/**
 * Matches `stake` against `offers` (best first): each level's size at its price while the price meets `asked`, or at
 * any price when `asked` is undefined (the player takes the best available price). Never at a worse price than asked.
 */
export const matchOffers = (offers: ReadonlyArray<Offer>, side: Side, asked: number | undefined, stake: number): Matched => {
  const matches: Array<Match> = []
  const left: Array<Offer> = []
  let rest = stake
  for (const offer of offers) {
    const take = rest > 0 && (asked === undefined || meets(side, asked, offer.price)) ? Math.min(rest, offer.size) : 0
    if (take > 0) {
      matches.push({ odds: offer.price, stake: take })
      rest -= take
    }
    left.push({ price: offer.price, size: offer.size - take })
  }
  return { matches: mergeMatches(matches), unmatched: rest, left }
}

/**
 * Waiting bets on one side of one runner matched against the offers in the order given (the order they were placed):
 * each takes what is left at its price or better. Only the bets that matched something are returned.
 */
export const matchWaiting = <B extends { readonly odds: number; readonly unmatched: number }>(
  offers: ReadonlyArray<Offer>,
  side: Side,
  waiting: ReadonlyArray<B>
): Array<{ readonly bet: B; readonly matches: ReadonlyArray<Match> }> => {
  let left = offers
  const result: Array<{ bet: B; matches: ReadonlyArray<Match> }> = []
  for (const bet of waiting) {
    const matched = matchOffers(left, side, bet.odds, bet.unmatched)
    left = matched.left
    if (matched.matches.length > 0) result.push({ bet, matches: matched.matches })
  }
  return result
}

/** A bet as the exposure counts it: its matched parts, and its unmatched part waiting at the asked price. */
export interface BetParts {
  readonly selectionId: string
  readonly side: Side
  /** The price asked (the unmatched part waits at it). */
  readonly odds: number
  readonly size?: number | null | undefined
  readonly unmatched: number
  readonly matches: ReadonlyArray<Match>
}

/** The positions a bet holds on its market (betting.ts): one per matched part, one waiting for the unmatched part. */
export const positionsOf = (bet: BetParts): Array<Position> => {
  const base = { selectionId: bet.selectionId, side: bet.side, size: bet.size ?? null }
  const parts: Array<Position> = bet.matches.map((match) => ({ ...base, odds: match.odds, stake: match.stake }))
  if (bet.unmatched > 0) parts.push({ ...base, odds: bet.odds, stake: bet.unmatched, waiting: true })
  return parts
}

/** The stake matched. */
export const matchedStake = (matches: ReadonlyArray<Match>) => matches.reduce((sum, match) => sum + match.stake, 0)

/** The average price of the matched parts (weighted by stake), rounded to hundredths for showing; undefined when none. */
export const averageOdds = (matches: ReadonlyArray<Match>): number | undefined => {
  const stake = matchedStake(matches)
  if (stake === 0) return undefined
  return Math.round(matches.reduce((sum, match) => sum + hundredths(match.odds) * match.stake, 0) / stake) / 100
}

/** An open bet's state; a settled or cancelled one is past these. */
export type OpenStatus = "matched" | "partially_matched" | "unmatched"

export const openStatus = (matched: number, unmatched: number): OpenStatus =>
  unmatched === 0 ? "matched" : matched === 0 ? "unmatched" : "partially_matched"

const rupees = (paise: number) => formatRupees(toRupees(paise))

/**
 * What happened to a bet, as the slip and its toast say it: "Matched ₹100.00 at 1.82", "₹60.00 matched at 1.82, ₹40.00
 * waiting at 1.82", "Waiting at 1.82"; a part cancelled at once (in play, by the player's choice) is said too.
 */
export const outcomeMessage = (type: MarketType, bet: { readonly odds: number; readonly unmatched: number; readonly cancelled: number; readonly matches: ReadonlyArray<Match> }) => {
  const matched = matchedStake(bet.matches)
  const average = averageOdds(bet.matches)
  const at = (price: number) => priceLabel(price, type)
  const parts: Array<string> = []
  if (matched > 0 && bet.unmatched === 0 && bet.cancelled === 0) return `Matched ${rupees(matched)} at ${at(average!)}`
  if (matched > 0) parts.push(`${rupees(matched)} matched at ${at(average!)}`)
  if (bet.unmatched > 0) parts.push(matched > 0 ? `${rupees(bet.unmatched)} waiting at ${at(bet.odds)}` : `Waiting at ${at(bet.odds)}`)
  if (bet.cancelled > 0) parts.push(`${rupees(bet.cancelled)} cancelled`)
  return parts.join(", ")
}

/** `outcomeMessage` of a bet as the API shows it (rupees). */
export const betOutcome = (bet: Bet) => {
  const paise = (rupees: number) => Math.round(rupees * 100)
  return outcomeMessage(bet.marketType, {
    odds: bet.odds,
    unmatched: paise(bet.unmatched),
    cancelled: paise(bet.stake) - paise(bet.matched) - paise(bet.unmatched),
    matches: bet.matches.map((match) => ({ odds: match.odds, stake: paise(match.stake) }))
  })
}
