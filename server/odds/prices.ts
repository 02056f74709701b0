/**
 * The simulator's price model, free of I/O: a market's chances, its fancy
 * line and the book priced from them, moved one step at a time. Every
 * function takes the moment (`now`) and the random source it uses, so the
 * same calls give the same prices.
 */
import type { MarketBook, MarketPricePayload, RunnerPrices } from "../../src/schema/betting.ts"
import type { MarketType } from "../../src/schema/sports.ts"
import {
  fancyPrices,
  fancyState,
  gaussian,
  hash,
  homeChance,
  initialProbabilities,
  ladderDown,
  ladderFloor,
  ladderUp,
  matchAt,
  matchDuration,
  type MatchState,
  normalise,
  pricesFor,
  rng,
  type Rng,
  SPORT
} from "./simulation.ts"

export interface Runner {
  readonly selectionId: string
  readonly name: string
}

/** What the simulator knows of an event: when it starts, whether it is in play, its markets and last score tick. */
export interface EventState {
  readonly id: string
  readonly name: string
  readonly sportCode: string
  /** Follows the database (an operator may move a start). */
  startsAt: number
  readonly leagueId: string
  status: "scheduled" | "live"
  /** Feed ids of its open markets. */
  readonly markets: Array<string>
  /** The match's last tick (a ball, a goal), -1 before the first score. */
  lastTick: number
}

/** One market in the simulator: its model and the book last priced from it. */
export interface MarketState {
  readonly id: string
  readonly externalId: string
  readonly eventId: string
  readonly name: string
  readonly type: MarketType
  readonly sort: number
  readonly runners: ReadonlyArray<Runner>
  /** Each runner's chance (exchange and bookmaker markets). */
  probs: Array<number>
  /** A fancy's line in runs. */
  line: number
  book: MarketBook
  suspendedUntil: number
  /** Held suspended by the database row or an operator. */
  held: boolean
  /** Priced by hand by an operator: the simulator leaves it alone. */
  manual: boolean
  closed: boolean
}

/** What survives a change of simulator (a restart, another server taking over): the model behind a book. */
export interface MarketModel {
  readonly probs: ReadonlyArray<number>
  readonly line: number
  readonly manual: boolean
}

export const matchOf = (event: EventState, now: number) => matchAt(event, now)

export const isMatchMarket = (market: MarketState) => market.type !== "FANCY" && (market.name === "Match Odds" || market.name === "Bookmaker")

export const statusOf = (market: MarketState, now: number) =>
  market.closed ? ("CLOSED" as const) : market.held || market.suspendedUntil > now ? ("SUSPENDED" as const) : ("OPEN" as const)

/**
 * A market as the simulator first sees it: chances seeded from its id (the
 * same on every server and after a restart) unless a stored model carries
 * on from where the last simulator left it, with that book.
 */
export const newMarket = (
  row: { readonly id: string; readonly externalId: string; readonly eventId: string; readonly name: string; readonly type: MarketType; readonly sort: number; readonly runners: ReadonlyArray<Runner>; readonly held: boolean; readonly sportCode: string },
  stored?: { readonly model: MarketModel; readonly book: MarketBook }
): MarketState => ({
  id: row.id,
  externalId: row.externalId,
  eventId: row.eventId,
  name: row.name,
  type: row.type,
  sort: row.sort,
  runners: row.runners,
  probs: stored && stored.model.probs.length === row.runners.length
    ? [...stored.model.probs]
    : initialProbabilities(row.runners.length, rng(hash(row.externalId)), row.runners.length === 3 && row.sportCode === SPORT.football),
  line: stored?.model.line ?? 0,
  // Without a stored book: version 0, no prices, replaced by the first pricing.
  book: stored?.book ?? { marketId: row.externalId, eventId: row.eventId, marketType: row.type, status: "SUSPENDED", inPlay: false, runners: [], version: 0 },
  suspendedUntil: 0,
  held: row.held,
  manual: stored?.model.manual ?? false,
  closed: false
})

export const modelOf = (market: MarketState): MarketModel => ({ probs: market.probs, line: market.line, manual: market.manual })

/** Chances for a match market in play, leaning towards who leads. */
const implied = (market: MarketState, event: EventState, match: MatchState, now: number) => {
  const fraction = (now - event.startsAt) / matchDuration(event.sportCode)
  const home = homeChance(match, fraction)
  if (market.runners.length === 3) {
    const draw = event.sportCode === SPORT.football ? Math.max(0.02, 0.3 * (1 - Math.abs(home - 0.5) * 2) * (1 - fraction * 0.5)) : 0.02
    return normalise([home * (1 - draw), (1 - home) * (1 - draw), draw])
  }
  return [home, 1 - home]
}

/** A fresh book from the model (a fancy's line follows the score). */
export const reprice = (market: MarketState, event: EventState | undefined, random: Rng, now: number) => {
  if (market.type === "FANCY" && !market.manual && event) market.line = fancyState(market.name, matchOf(event, now)).line
  const sizes = market.book.runners[0]
  market.book = {
    marketId: market.externalId,
    eventId: market.eventId,
    marketType: market.type,
    status: statusOf(market, now),
    inPlay: event?.status === "live",
    runners: market.type === "FANCY"
      ? fancyPrices(market.runners[0]?.selectionId ?? "", market.line).map((r) => ({
        ...r,
        back: r.back.map((l) => ({ ...l, size: sizes?.back[0]?.size ?? 100 })),
        lay: r.lay.map((l) => ({ ...l, size: sizes?.lay[0]?.size ?? 100 }))
      }))
      : pricesFor(market.type, market.runners.map((r) => r.selectionId), market.probs, random, market.line),
    version: market.book.version + 1
  }
}

/** One price move: drift, now and then a jump, and in play a pull towards the score. A fancy's sizes flicker between balls. */
export const move = (market: MarketState, event: EventState | undefined, random: Rng, now: number) => {
  if (market.manual || market.closed) return
  if (market.type === "FANCY") {
    const sizes = [[100, 100], [100, 100], [90, 110], [110, 90], [95, 105]] as const
    const [yes, no] = sizes[Math.floor(random() * sizes.length)]!
    market.book = {
      ...market.book,
      status: statusOf(market, now),
      runners: market.book.runners.map((r) => ({ ...r, back: r.back.map((l) => ({ ...l, size: yes })), lay: r.lay.map((l) => ({ ...l, size: no })) })),
      version: market.book.version + 1
    }
    return
  }
  const i = Math.floor(random() * market.probs.length)
  const jump = random() < 0.02
  market.probs[i] = market.probs[i]! * Math.exp((jump ? 0.25 : 0.03) * gaussian(random))
  market.probs = normalise(market.probs.map((p) => Math.min(0.995, Math.max(0.002, p))))
  if (event?.status === "live" && isMatchMarket(market)) {
    const match = matchOf(event, now)
    if (match) {
      const target = implied(market, event, match, now)
      market.probs = normalise(market.probs.map((p, k) => 0.95 * p + 0.05 * (target[k] ?? p)))
    }
  }
  // In play, an exchange market now and then suspends for a few seconds.
  if (event?.status === "live" && random() < 0.0015) market.suspendedUntil = now + 3000
  reprice(market, event, random, now)
}

/** Something happened in the match: cricket's bookmaker and fancy markets suspend for the ball, football's for a goal. */
export const suspendForPlay = (market: MarketState, event: EventState, now: number) => {
  if (event.sportCode === SPORT.cricket && market.type !== "EXCHANGE") market.suspendedUntil = now + 2000
  if (event.sportCode === SPORT.football) market.suspendedUntil = now + 4000
}

/** Closed for good (settled, or its event is being settled): the last book clients get. */
export const close = (market: MarketState) => {
  market.closed = true
  market.book = { ...market.book, status: "CLOSED", version: market.book.version + 1 }
}

/**
 * An operator's price for one runner (and optionally the market's status):
 * the market is priced by hand from then on. An exchange price snaps to the
 * ladder and gets two more levels; a fancy's Yes price becomes its line.
 */
export const setManualPrice = (market: MarketState, input: MarketPricePayload, now: number): MarketBook | "unknownSelection" | "offLadder" => {
  const selectionId = input.selectionId ?? market.runners[0]?.selectionId
  const index = market.book.runners.findIndex((r) => r.selectionId === selectionId)
  if (index === -1) return "unknownSelection"
  // Exchange odds live on the ladder, 1.01 to 1000; the lay side is kept as given, so it must be on it already.
  const offLadder = (level: { price: number } | undefined) => level !== undefined && level.price < 1.01
  if (market.type === "EXCHANGE" && (offLadder(input.back) || offLadder(input.lay))) return "offLadder"
  market.manual = true
  if (input.status) {
    market.held = input.status === "SUSPENDED"
    market.closed = input.status === "CLOSED"
  }
  const ladder = (first: { price: number; size: number }, step: (p: number) => number) => {
    if (market.type !== "EXCHANGE") return [first]
    const levels = [first]
    for (let i = 1; i < 3; i++) levels.push({ price: step(levels[i - 1]!.price), size: first.size })
    return levels
  }
  const runners: Array<RunnerPrices> = market.book.runners.map((runner, i) =>
    i !== index ? runner : {
      selectionId: runner.selectionId,
      back: input.back ? ladder(market.type === "EXCHANGE" ? { ...input.back, price: ladderFloor(input.back.price) } : input.back, ladderDown) : runner.back,
      lay: input.lay ? ladder(input.lay, ladderUp) : runner.lay
    }
  )
  market.book = { ...market.book, runners, status: statusOf(market, now), version: market.book.version + 1 }
  if (market.type === "FANCY" && input.back) market.line = input.back.price
  return market.book
}
