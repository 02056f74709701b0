/**
 * The house's side of the players' bets (the desk's Markets and risk screen).
 * Every bet is settled against the house (server/betting/Settlement.ts), so
 * what the house wins or loses on an outcome is minus what all players
 * together win or lose on it, counted with the same formulas as settlement
 * (src/domain/betting.ts). Amounts are integer paise.
 */
import type { MarketType } from "../schema/sports.ts"
import { fancyOutcome, type Position, runnerOutcome } from "./betting.ts"

/** What the house ends with if a runner wins. */
export interface RunnerLine {
  readonly selectionId: string
  readonly name: string
  readonly house: number
}

/** What the house ends with for every fancy result from `from` runs to `to` (null: and above). */
export interface ResultBand {
  readonly from: number
  readonly to: number | null
  readonly house: number
}

/** The house's book of an exchange or bookmaker market: one line per runner, in the runners' order. */
export const runnerHouseBook = (
  type: MarketType,
  runners: ReadonlyArray<{ readonly selectionId: string; readonly name: string }>,
  bets: ReadonlyArray<Position>
): Array<RunnerLine> =>
  runners.map((runner) => ({ selectionId: runner.selectionId, name: runner.name, house: 0 - sum(bets.map((bet) => runnerOutcome(type, bet, runner.selectionId))) }))

/**
 * The house's book of a fancy market, by result bands: a player's result only
 * changes where a result reaches one of the lines, so the bands run from 0 to
 * below the lowest line, then from each line (a result is whole runs, so a
 * line of 45.5 starts at 46) to below the next, the last one open.
 */
export const fancyHouseBook = (bets: ReadonlyArray<Position>): Array<ResultBand> => {
  if (bets.length === 0) return []
  const starts = [...new Set([0, ...bets.map((bet) => Math.max(0, Math.ceil(bet.odds)))])].sort((a, b) => a - b)
  return starts.map((from, i) => ({
    from,
    to: i + 1 < starts.length ? starts[i + 1]! - 1 : null,
    house: 0 - sum(bets.map((bet) => fancyOutcome(bet, from)))
  }))
}

/** What the house stands to lose on a market: its worst outcome, 0 when no outcome loses. */
export const houseLiability = (outcomes: ReadonlyArray<number>) => {
  const worst = Math.min(0, ...outcomes)
  return worst === 0 ? 0 : -worst
}

/** The house's book of any market and its liability. */
export const marketRisk = (
  type: MarketType,
  runners: ReadonlyArray<{ readonly selectionId: string; readonly name: string }>,
  bets: ReadonlyArray<Position>
) => {
  if (type === "FANCY") {
    const bands = fancyHouseBook(bets)
    return { runners: [] as Array<RunnerLine>, bands, liability: houseLiability(bands.map((band) => band.house)) }
  }
  const lines = runnerHouseBook(type, runners, bets)
  return { runners: lines, bands: [] as Array<ResultBand>, liability: bets.length === 0 ? 0 : houseLiability(lines.map((line) => line.house)) }
}

/** A fancy result band as staff read it: "0–44", "45–49", "50+". */
export const bandLabel = (band: ResultBand) => (band.to === null ? `${band.from}+` : band.from === band.to ? String(band.from) : `${band.from}–${band.to}`)

const sum = (values: ReadonlyArray<number>) => values.reduce((a, b) => a + b, 0)

/** The fields of the desk's market commands (src/desk: the market record's rules), as typed. */
type Fields = Readonly<Record<string, string | undefined>>

const isPrice = (text: string | undefined) => text !== undefined && /^\d{1,4}(\.\d{1,2})?$/.test(text.trim()) && Number(text) > 0

/** What is wrong with a settle, void or price before it is sent, or undefined. */
export const MARKET_RULES = {
  settle: (fields: Fields) => (fields.result?.trim() ? undefined : "Choose the winner (or type a fancy's result in runs)."),
  void: (fields: Fields) => (fields.reason?.trim() ? undefined : "Say why the market is voided."),
  price: (fields: Fields) =>
    !fields.selection ? "Choose the runner to price." : !isPrice(fields.back) && !isPrice(fields.lay) ? "Give a back or a lay price (up to two decimals)." : undefined,
  approve: (fields: Fields) => (fields.approval ? undefined : "Choose the request."),
  decline: (fields: Fields) => (fields.approval ? undefined : "Choose the request.")
} as const
