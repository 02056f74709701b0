/**
 * The combined book of an event: can a player, taking prices on offer across
 * every market of one event at once, win whatever happens? Such a set of
 * prices is an arbitrage against the house, and is never published.
 *
 * Every runner of an exchange or bookmaker market settles on one outcome of
 * an outcome space (the match result, a goals total, a race's winner);
 * markets of the same space offer the same outcomes (Match Odds and the
 * bookmaker). A back bet at decimal odds `d` on an outcome gains unless the
 * outcome's chance is above 1/d; a lay at `d` unless it is below 1/d. So the
 * prices are safe exactly when some chances (q, summing to 1) sit between
 * them: 1/(best lay) <= q <= 1/(best back) for every outcome. That holds
 * iff for every outcome the best back is not above the best lay, the best
 * backs' book (sum of 1/back) is at least 1, and the best lays' book at most 1.
 *
 * A fancy line is a bet on "the runs of a count reach the line": Yes backs
 * it, No lays it. Counts nest (the runs after 6 overs never exceed those
 * after 10; the runs at a wicket never exceed those at the next, or the innings'; a batter's
 * never exceed the innings'), and a
 * Yes on a count and a No on a count within it leave no result where both
 * lose when the No line is at or above the Yes line: the same rule, pair by
 * pair (exact here, because reaching a line only gets likelier as the line
 * falls or the count grows).
 */
import type { MarketBook, PriceLevel } from "../schema/betting.ts"
import type { MarketType } from "../schema/sports.ts"

/**
 * A fancy's count of runs in one side's innings: by the end of an over, in
 * one over only, when a wicket falls (the 1st, 2nd, …), or one batter's.
 */
export type RunCount =
  | { readonly side: string; readonly kind: "overs"; readonly overs: number }
  | { readonly side: string; readonly kind: "over"; readonly over: number }
  | { readonly side: string; readonly kind: "wicket"; readonly wicket: number }
  | { readonly side: string; readonly kind: "batter"; readonly batter: number }
  | { readonly side: string; readonly kind: "other" }

/** What a market's runners settle on. */
export type MarketClaim =
  /** Runner i settles on `outcomes[i]` of `space`. */
  | { readonly kind: "outcomes"; readonly space: string; readonly outcomes: ReadonlyArray<string> }
  /** A fancy: whether `count` reaches the line. */
  | { readonly kind: "runs"; readonly count: RunCount; readonly key: string }

/** An innings of the simulated (T20) cricket: the runs at 20 overs are the innings' runs. */
export const INNINGS_OVERS = 20

/** 1st, 2nd, 3rd, 4th … 10th. */
export const ordinal = (n: number) => `${n}${n % 10 === 1 && n !== 11 ? "st" : n % 10 === 2 && n !== 12 ? "nd" : n % 10 === 3 && n !== 13 ? "rd" : "th"}`

/** The fancy on the runs at which a side's `wicket`th wicket falls: "Fall of 2nd Wkt MI". */
export const fallOfWicketName = (wicket: number, side: string) => `Fall of ${ordinal(wicket)} Wkt ${side}`

/** The fancy on the runs of one over: "Only 7th Over Runs MI". */
export const overRunsName = (over: number, side: string) => `Only ${ordinal(over)} Over Runs ${side}`

/** The fancy on the runs of one of a side's batters (by batting order: no real names): "Batter 3 Runs MI". */
export const batterRunsName = (batter: number, side: string) => `Batter ${batter} Runs ${side}`

/** The count a fancy's name describes: "6 Over Runs MI", "Only 7th Over Runs MI", "Fall of 2nd Wkt MI", "Batter 3 Runs MI". */
export const runCountOf = (name: string): RunCount => {
  const overs = /^(\d+) Over Runs (.*)$/.exec(name)
  if (overs) return { side: overs[2]!, kind: "overs", overs: Number(overs[1]) }
  const over = /^Only (\d+)(?:st|nd|rd|th) Over Runs (.*)$/.exec(name)
  if (over) return { side: over[2]!, kind: "over", over: Number(over[1]) }
  const wicket = /^Fall of (\d+)(?:st|nd|rd|th) Wkt (.*)$/.exec(name)
  if (wicket) return { side: wicket[2]!, kind: "wicket", wicket: Number(wicket[1]) }
  const batter = /^Batter (\d+) Runs (.*)$/.exec(name)
  if (batter) return { side: batter[2]!, kind: "batter", batter: Number(batter[1]) }
  return { side: name, kind: "other" }
}

const countKey = (count: RunCount) =>
  `${count.side}:${count.kind}${
    count.kind === "overs" ? `:${count.overs}` : count.kind === "over" ? `:${count.over}` : count.kind === "wicket" ? `:${count.wicket}` : count.kind === "batter" ? `:${count.batter}` : ""
  }`

/** Whether count `a` can never be above count `b` (so reaching a line on `a` means reaching it on `b`). */
export const countWithin = (a: RunCount, b: RunCount) => {
  if (a.side !== b.side) return false
  if (a.kind === "overs" && b.kind === "overs") return a.overs <= b.overs
  // One over's runs are within the runs by its end, or any later one.
  if (a.kind === "over") return (b.kind === "over" && a.over === b.over) || (b.kind === "overs" && a.over <= b.overs)
  // A wicket falls no later than the next one, and within the innings.
  if (a.kind === "wicket") return (b.kind === "wicket" && a.wicket <= b.wicket) || (b.kind === "overs" && b.overs >= INNINGS_OVERS)
  // A batter's runs are some of the innings'.
  if (a.kind === "batter") return (b.kind === "batter" && a.batter === b.batter) || (b.kind === "overs" && b.overs >= INNINGS_OVERS)
  return a.kind === "other" && b.kind === "other"
}

/** The outcome space of a goals or points line ("Over/Under 2.5 Goals", "Over/Under 46.5 Points"), or undefined. */
const totalLine = (name: string) => /^Over\/Under ([\d.]+)/.exec(name)?.[1]

/**
 * Markets on a space of their own, by name: Yes/No questions settle on
 * "yes" or "no"; the others, like the result, runner by position (home,
 * away, the draw).
 */
export const NAMED_SPACES: Readonly<Record<string, string>> = {
  "Both Teams To Score": "btts",
  "Half Time": "half-time",
  "Set 1 Winner": "set 1",
  "Tied Match": "tie"
}

/** The side whose innings total an odd/even market settles on ("Innings Runs Odd/Even MI"), or undefined. */
const oddEvenSide = (name: string) => /^Innings Runs Odd\/Even (.+)$/.exec(name)?.[1]

/** The space of whether a side's innings total is odd or even: outcomes "odd" and "even". */
export const oddEvenSpace = (side: string) => `odd-even ${side}`

/**
 * What a market settles on, from its name and runners: a fancy on its count;
 * "Over/Under N" on the total; an innings' odd/even on its total's parity; a named market (NAMED_SPACES) on its own
 * space; anything else on the result, runner by position (home, away, the
 * draw; a race's runners), as the feed settles it.
 */
export const claimOf = (market: {
  readonly name: string
  readonly marketType: MarketType
  readonly runners: ReadonlyArray<{ readonly name: string }>
}): MarketClaim => {
  if (market.marketType === "FANCY") {
    const count = runCountOf(market.name)
    return { kind: "runs", count, key: countKey(count) }
  }
  const total = totalLine(market.name)
  if (total !== undefined) {
    return {
      kind: "outcomes",
      space: `total ${total}`,
      outcomes: market.runners.map((r) => (r.name.startsWith("Over") ? "over" : r.name.startsWith("Under") ? "under" : r.name))
    }
  }
  const side = oddEvenSide(market.name)
  if (side !== undefined) return { kind: "outcomes", space: oddEvenSpace(side), outcomes: market.runners.map((r) => r.name.toLowerCase()) }
  const named = NAMED_SPACES[market.name]
  const outcome = (name: string, i: number) => (named && name === "Yes" ? "yes" : named && name === "No" ? "no" : String(i))
  return { kind: "outcomes", space: named ?? "result", outcomes: market.runners.map((r, i) => outcome(r.name, i)) }
}

/** A level's decimal odds: exchange odds as they are, a bookmaker rate per 100 plus the stake, a fancy's size per 100 plus the stake. */
export const decimalOf = (type: MarketType, level: PriceLevel) =>
  type === "EXCHANGE" ? level.price : type === "BOOKMAKER" ? 1 + level.price / 100 : 1 + level.size / 100

/** Why a set of books lets a player win whatever happens. */
export type BookProblem =
  | { readonly kind: "backs"; readonly space: string; readonly book: number }
  | { readonly kind: "lays"; readonly space: string; readonly book: number }
  | { readonly kind: "crossed"; readonly space: string; readonly outcome: string; readonly back: number; readonly lay: number }
  | { readonly kind: "lines"; readonly yes: string; readonly no: string; readonly yesLine: number; readonly noLine: number }

export interface SpaceBook {
  readonly space: string
  /** Sum over outcomes of 1 / the best back anywhere (an outcome nobody backs counts 1): at least 1. */
  readonly backs: number
  /** Sum over outcomes of 1 / the best lay anywhere (an outcome nobody lays counts 0): at most 1. */
  readonly lays: number
}

export interface EventBookCheck {
  readonly spaces: ReadonlyArray<SpaceBook>
  readonly problems: ReadonlyArray<BookProblem>
}

/** Room for floating point: a book of exactly 1 (2.00 and 2.00) is fair, not an arbitrage. */
const EPSILON = 1e-9

interface Best {
  back: number
  lay: number
}

/**
 * The combined book of an event's markets and what is wrong with it. Only
 * open books count (a suspended or closed one takes no bets); every level
 * counts, whatever its size.
 */
export const checkEventBooks = (markets: ReadonlyArray<{ readonly claim: MarketClaim; readonly book: MarketBook }>): EventBookCheck => {
  const spaces = new Map<string, Map<string, Best>>()
  const yes: Array<{ key: string; count: RunCount; line: number; decimal: number }> = []
  const no: Array<{ key: string; count: RunCount; line: number; decimal: number }> = []
  for (const { claim, book } of markets) {
    if (book.status !== "OPEN") continue
    if (claim.kind === "runs") {
      for (const runner of book.runners) {
        for (const level of runner.back) yes.push({ key: claim.key, count: claim.count, line: level.price, decimal: decimalOf("FANCY", level) })
        for (const level of runner.lay) no.push({ key: claim.key, count: claim.count, line: level.price, decimal: decimalOf("FANCY", level) })
      }
      continue
    }
    let outcomes = spaces.get(claim.space)
    if (!outcomes) spaces.set(claim.space, (outcomes = new Map()))
    for (const outcome of claim.outcomes) if (!outcomes.has(outcome)) outcomes.set(outcome, { back: 1, lay: Infinity })
    for (const [i, runner] of book.runners.entries()) {
      const outcome = claim.outcomes[i]
      if (outcome === undefined) continue
      const best = outcomes.get(outcome)!
      for (const level of runner.back) best.back = Math.max(best.back, decimalOf(book.marketType, level))
      for (const level of runner.lay) best.lay = Math.min(best.lay, decimalOf(book.marketType, level))
    }
  }
  const problems: Array<BookProblem> = []
  const books: Array<SpaceBook> = []
  for (const [space, outcomes] of spaces) {
    let backs = 0
    let lays = 0
    for (const [outcome, best] of outcomes) {
      backs += 1 / best.back
      lays += 1 / best.lay
      if (best.back > best.lay + EPSILON) problems.push({ kind: "crossed", space, outcome, back: best.back, lay: best.lay })
    }
    books.push({ space, backs, lays })
    if (backs < 1 - EPSILON) problems.push({ kind: "backs", space, book: backs })
    if (lays > 1 + EPSILON) problems.push({ kind: "lays", space, book: lays })
  }
  // A Yes on B and a No on A within it, the No line at or above the Yes line: reaching the No line means reaching the
  // Yes line, so the Yes's chance is at least the No's. Safe only if the Yes pays no more than the No costs.
  for (const y of yes) {
    for (const n of no) {
      if (countWithin(n.count, y.count) && n.line >= y.line && y.decimal > n.decimal + EPSILON) {
        problems.push({ kind: "lines", yes: y.key, no: n.key, yesLine: y.line, noLine: n.line })
      }
    }
  }
  return { spaces: books, problems }
}

/** What a problem means, for an operator. */
export const problemText = (problem: BookProblem) => {
  switch (problem.kind) {
    case "backs":
      return `backing every outcome of ${problem.space} at the best prices is a book of ${problem.book.toFixed(3)}, under 1`
    case "lays":
      return `laying every outcome of ${problem.space} at the best prices is a book of ${problem.book.toFixed(3)}, over 1`
    case "crossed":
      return `outcome ${problem.outcome} of ${problem.space} can be backed at ${problem.back.toFixed(2)} and laid at ${problem.lay.toFixed(2)}`
    case "lines":
      return `Yes ${problem.yesLine} on ${problem.yes} and No ${problem.noLine} on ${problem.no} cannot both lose`
  }
}
