/**
 * The rules behind each market, one text per kind of market: what it
 * settles on, what voids it, dead heats and, for cricket sessions, rain. The
 * kind comes from what the market settles on (`claimOf`), so a market and
 * its rules cannot disagree.
 */
import type { MarketType } from "../schema/sports.ts"
import { claimOf } from "./eventBook.ts"

export interface MarketRules {
  /** What the market settles on, in a line. */
  readonly summary: string
  readonly rules: ReadonlyArray<string>
}

const VOID_ABANDONED = "If the event is abandoned or cancelled before a result is known, every bet is void and stakes are returned."
const AS_PLAYED = "Bets stand on the result as the official score gives it once the event has settled."

const EXCHANGE = "Exchange: a back bet wins (odds − 1) × stake if the selection wins; a lay bet pays the backer that if it wins and keeps the stake if it loses."
const BOOKMAKER = "Bookmaker: rates are per 100; a back at 80 wins ₹80 for every ₹100 staked if the selection wins."

const byKind: Readonly<Record<string, MarketRules>> = {
  result: {
    summary: "The winner: of the match at the end of play (the draw where it is offered), or of the race.",
    rules: [
      "Settled on the result at the end of normal play, or on the race's official winner.",
      "Where no draw is offered and the match is tied, every bet is void.",
      VOID_ABANDONED
    ]
  },
  total: {
    summary: "Whether the match's total goes over or stays under the line.",
    rules: [
      "Settled on the total at the end of normal play; the line is half a goal or point, so there is no push.",
      "Once the total has passed the line, Over is settled at once.",
      VOID_ABANDONED
    ]
  },
  btts: {
    summary: "Whether both sides score at least once.",
    rules: ["Settled on normal play only. Settled Yes as soon as both sides have scored; otherwise at the end.", VOID_ABANDONED]
  },
  "half-time": {
    summary: "The result at half-time.",
    rules: ["Settled on the score when the first half ends, as soon as it ends.", "If the match is abandoned before half-time, every bet is void."]
  },
  "set 1": {
    summary: "The winner of the first set.",
    rules: ["Settled as soon as the first set is over.", "If a player retires before the first set is over, every bet is void."]
  },
  tie: {
    summary: "Whether the match ends with both innings on the same runs.",
    rules: ["Settled on the scores at the end of the match, before any super over.", VOID_ABANDONED]
  },
  "odd-even": {
    summary: "Whether the side's innings ends on an odd or an even number of runs.",
    rules: [
      "Settled on the innings' total, extras and penalty runs included, as soon as the innings is over (all out, its overs bowled, or the chase won).",
      "If overs are lost and the innings is shortened, bets stand on the total it ends on; if the innings is not played at all, every bet is void.",
      VOID_ABANDONED
    ]
  },
  fancy: {
    summary: "The runs the batting side will have at that point of its innings: Yes at or above the Yes line, No below the No line.",
    rules: [
      "Yes wins if the runs reach the Yes line; No wins if they stay below the No line. Sizes are per 100: Yes at 90 wins ₹90 for every ₹100.",
      "A session settles as soon as it is complete (its last ball bowled, or the wicket fallen), or when the innings ends before it.",
      "The fall of the next wicket (2nd, 3rd …) opens once the wicket before it has fallen; it settles on the runs when its wicket falls, or on the innings' runs if it does not.",
      "An over's runs (Only 7th Over Runs) open before its first ball and settle on the runs scored in that over, extras included, when it ends or the innings does; void if it is not bowled.",
      "A batter's runs (Batter 3 Runs: by batting order) open when the batter comes in and settle on the batter's score when out, or the score made not out when the innings ends; void if the batter does not bat.",
      "The second innings' lines are offered from its first ball; if that innings is not played, bets on them are void.",
      "Rain: if overs are lost and the session cannot be completed as offered, bets on it are void; a session already complete stands.",
      "Lines suspend on every ball and may change between balls; a bet is taken only at the line shown when it is placed."
    ]
  }
}

/** The rules of a market, from what it settles on (and how it is priced). */
export const rulesOf = (market: { readonly name: string; readonly marketType: MarketType }): MarketRules => {
  const claim = claimOf({ ...market, runners: [] })
  const kind = claim.kind === "runs" ? "fancy" : /^(total|odd-even) /.exec(claim.space)?.[1] ?? claim.space
  const rules = byKind[kind] ?? byKind.result!
  if (market.marketType === "FANCY") return rules
  return { summary: rules.summary, rules: [...rules.rules, market.marketType === "BOOKMAKER" ? BOOKMAKER : EXCHANGE, AS_PLAYED] }
}
