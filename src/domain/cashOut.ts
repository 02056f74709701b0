/**
 * Cash out, for the server and the client alike: hedge bets that make a
 * player's position on a market pay the same whatever wins. A position is the
 * player's P/L per runner (p_i, from their matched bets). Laying each runner
 * with stake × price = p_i − min p makes every outcome pay min p + the lay
 * stakes; backing each with stake × price = max p − p_i makes every outcome pay
 * max p − the back stakes; the better of the two is the quote. Each hedge walks
 * its side of the ladder level by level with the sizes on offer (never the top
 * price alone), so a quote is what the ladder can really give. A bookmaker's
 * rate per 100 is decimal odds 1 + rate / 100, taken whole at its one rate.
 * Fancy markets are not cashed out: their Yes and No lines differ, so no hedge
 * equalises them. Amounts are integer paise; the value quoted is the least the
 * hedged position pays, computed as settlement will, so the house never pays
 * more than the quote.
 */
import type { MarketType } from "../schema/sports.ts"
import { matchedOnly, type Position, positionsOfBet, runnerBook, type Side } from "./betting.ts"
import { type Match, type Offer } from "./matching.ts"
import { toPaise } from "./money.ts"

/** A runner's ladder as offers in paise, best first, each side as the player takes it (`offersOf`). */
export interface RunnerOffers {
  readonly selectionId: string
  readonly back: ReadonlyArray<Offer>
  readonly lay: ReadonlyArray<Offer>
}

/** One hedge bet: a side of a runner, in parts at the ladder's prices. */
export interface Hedge {
  readonly selectionId: string
  readonly side: Side
  readonly matches: ReadonlyArray<Match>
}

export interface CashOutQuote {
  /**
   * What the part cashed out locks whatever wins: the least over the runners of the P/L after less what the kept
   * part of the position still does there (for a fraction f of a full cash out locking G, f·G; for all of it, the
   * least P/L after), in whole paise rounded down.
   */
  readonly value: number
  readonly hedges: ReadonlyArray<Hedge>
  /** Each runner's P/L before and after. */
  readonly perRunner: ReadonlyArray<{ readonly selectionId: string; readonly before: number; readonly after: number }>
}

/** Why there is no quote. */
export type NoQuote = "fancy" | "flat" | "notEnoughOnOffer"

const decimalOdds = (type: MarketType, price: number) => (type === "EXCHANGE" ? price : 1 + price / 100)

/**
 * Parts that cover `target` (stake × decimal odds, in paise) from `offers`, best first: an exchange level gives at
 * most its size; a bookmaker's rate takes any stake. Undefined when the ladder runs out first.
 */
const cover = (type: MarketType, offers: ReadonlyArray<Offer>, target: number): Array<Match> | undefined => {
  const matches: Array<Match> = []
  let rest = target
  let odds = decimalOdds(type, offers[0]?.price ?? 1)
  for (const offer of type === "EXCHANGE" ? offers : offers.slice(0, 1)) {
    if (rest <= 0) break
    odds = decimalOdds(type, offer.price)
    const stake = Math.min(type === "EXCHANGE" ? offer.size : Infinity, Math.round(rest / odds))
    if (stake <= 0) continue
    matches.push({ odds: offer.price, stake })
    rest -= stake * odds
  }
  // Covered to within a paisa of stake: what rounding stakes to whole paise leaves.
  return rest < odds ? matches : undefined
}

const positionsOfHedges = (hedges: ReadonlyArray<Hedge>): Array<Position> =>
  hedges.flatMap((hedge) => hedge.matches.map((match) => ({ selectionId: hedge.selectionId, side: hedge.side, odds: match.odds, stake: match.stake })))

/** Each runner's P/L with the hedges added, exactly as settlement counts it. */
const withHedges = (type: MarketType, runners: ReadonlyArray<string>, position: ReadonlyArray<Position>, hedges: ReadonlyArray<Hedge>) =>
  runnerBook(type, runners, [...position, ...positionsOfHedges(hedges)])

/** The hedges of one kind (all lays or all backs) that flatten `book`, or undefined when the ladder cannot. */
const hedgesOf = (type: MarketType, book: ReadonlyMap<string, number>, ladders: ReadonlyArray<RunnerOffers>, side: Side) => {
  const values = [...book.values()]
  const level = side === "lay" ? Math.min(...values) : Math.max(...values)
  const hedges: Array<Hedge> = []
  for (const [selectionId, pl] of book) {
    const target = side === "lay" ? pl - level : level - pl
    if (target === 0) continue
    const ladder = ladders.find((r) => r.selectionId === selectionId)
    const matches = ladder ? cover(type, side === "lay" ? ladder.lay : ladder.back, target) : undefined
    if (!matches) return undefined
    if (matches.length > 0) hedges.push({ selectionId, side, matches })
  }
  return hedges
}

/** `fraction` (0 .. 1] of each hedge's parts, in whole paise. */
const scaled = (hedges: ReadonlyArray<Hedge>, fraction: number): Array<Hedge> =>
  hedges
    .map((hedge) => ({ ...hedge, matches: hedge.matches.map((m) => ({ odds: m.odds, stake: Math.round(m.stake * fraction) })).filter((m) => m.stake > 0) }))
    .filter((hedge) => hedge.matches.length > 0)

/**
 * The cash out of `fraction` of a position (its matched bets on one market, `position`) against the market's ladder
 * now: the lay hedge or the back hedge, whichever locks more.
 */
export const quoteCashOut = (
  type: MarketType,
  runners: ReadonlyArray<string>,
  position: ReadonlyArray<Position>,
  ladders: ReadonlyArray<RunnerOffers>,
  fraction = 1
): CashOutQuote | NoQuote => {
  if (type === "FANCY") return "fancy"
  const matched = position.filter((p) => !p.waiting)
  const book = runnerBook(type, runners, matched)
  const values = [...book.values()]
  // Within a paisa is flat: what a full cash out leaves once its stakes are rounded to whole paise.
  if (values.length === 0 || Math.max(...values) - Math.min(...values) <= 1) return "flat"
  const quoteOf = (hedges: ReadonlyArray<Hedge>, fraction: number): CashOutQuote => {
    const after = withHedges(type, runners, matched, hedges)
    // Rounded to a thousandth of a paisa first, so float noise in (1 − f) × P/L never costs the player a paisa.
    const locked = (id: string) => Math.floor(Math.round(((after.get(id) ?? 0) - (1 - fraction) * (book.get(id) ?? 0)) * 1000) / 1000)
    return {
      value: Math.min(...runners.map(locked)),
      hedges,
      perRunner: runners.map((id) => ({ selectionId: id, before: book.get(id) ?? 0, after: after.get(id) ?? 0 }))
    }
  }
  // The side whose full hedge locks more; a part of the position is that part of its hedge.
  const full = (["lay", "back"] as const).flatMap((side) => {
    const hedges = hedgesOf(type, book, ladders, side)
    return hedges ? [quoteOf(hedges, 1)] : []
  })
  if (full.length === 0) return "notEnoughOnOffer"
  const best = full.reduce((a, b) => (b.value > a.value ? b : a))
  return fraction === 1 ? best : quoteOf(scaled(best.hedges, fraction), fraction)
}

/** How long a quote holds (seconds): accepting it later re-quotes. */
export const QUOTE_SECONDS = 30

/**
 * How far below its quote a cash out's value may fall by the time it is accepted and still be taken (paise): 1 % of
 * the quote, at least ₹1. Further, nothing is written and the player is quoted again. A rise is always taken.
 */
export const quoteTolerance = (quoted: number) => Math.max(100, Math.round(Math.abs(quoted) / 100))

/** Whether a value found at acceptance honours the quote the player accepted. */
export const honoursQuote = (quoted: number, now: number) => now >= quoted - quoteTolerance(quoted)

/** An auto cash-out rule (paise; null: not that side). */
export interface AutoRule {
  readonly target: number | null
  readonly floor: number | null
}

/** Why an auto cash-out rule typed in rupees is refused (the server's and the form's words), or undefined. */
export const autoRuleProblem = (rule: AutoRule): string | undefined => {
  const wholePaise = (rupees: number | null) => rupees === null || toPaise(rupees) !== undefined
  if (!wholePaise(rule.target) || !wholePaise(rule.floor)) return "Auto cash out amounts are rupees with at most two decimals."
  if (rule.target !== null && rule.floor !== null && rule.floor >= rule.target) return "The stop-loss floor must be below the take-profit target."
  return undefined
}

/** Whether a rule fires at this value: at or above its target, or at or below its floor. */
export const autoCashOutDue = (rule: AutoRule, value: number) =>
  (rule.target !== null && value >= rule.target) || (rule.floor !== null && value <= rule.floor)

/** A bet as the market's open bets list it, enough to tell an earlier cash out: its parts, when, and whether a hedge. */
type ListedBet = Parameters<typeof positionsOfBet>[0] & { readonly createdAt: string; readonly cashOut?: boolean }

/**
 * What the player's earlier cash outs on a market left in their position, so a quote (always of the whole position)
 * can say so: undefined when there was none; the amount locked (paise, the least over the runners) when the bets up
 * to the last one are flat, as a full cash out leaves them (within its stakes' rounding); "part" when some of that
 * position was still open (a part cashed out, or a bet placed before it matched since).
 */
export const earlierCashOut = (type: MarketType, runners: ReadonlyArray<string>, bets: ReadonlyArray<ListedBet>): number | "part" | undefined => {
  const hedges = bets.filter((bet) => bet.cashOut === true)
  if (hedges.length === 0) return undefined
  const last = Math.max(...hedges.map((bet) => Date.parse(bet.createdAt)))
  const book = runnerBook(type, runners, matchedOnly(bets.filter((bet) => Date.parse(bet.createdAt) <= last).flatMap(positionsOfBet)))
  const pl = runners.map((id) => book.get(id) ?? 0)
  const slack = hedges.reduce((sum, bet) => sum + bet.matches.reduce((s, m) => s + m.odds / 2 + 1, 0), 0)
  return Math.max(...pl) - Math.min(...pl) <= slack ? Math.min(...pl) : "part"
}
