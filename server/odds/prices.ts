/**
 * The markets of an event as views of its price model, free of I/O: each
 * market's book priced from the event's chances (model.ts) with its own
 * margin and ladder (ladder.ts), its liquidity moving on its own, an
 * operator's pins kept as given. Every function takes the moment (`now`)
 * and the random source it uses, so the same calls give the same prices.
 * An operator's price set by hand is tried and pinned in handPrices.ts,
 * what matched bets take off a ladder in matchedStakes.ts.
 */
import { checkEventBooks, claimOf, type EventBookCheck, type MarketClaim } from "../../src/domain/eventBook.ts"
import type { MarketBook, RunnerPrices } from "../../src/schema/betting.ts"
import type { MarketType } from "../../src/schema/sports.ts"
import { bookmakerLevels, exchangeLevels, flickerSizes, type LadderSizes, newSizes } from "./ladder.ts"
import { forecastOf, type Forecast } from "./forecast.ts"
import { type EventState, type Pin, type Pricing, pricingOf, showChances, spaceFor, type View, WOBBLE } from "./model.ts"
import { fancyState, gaussian, matchAt, type MatchState, playedOf, raceChances, type Rng, settledOutcomeOf, SPORT } from "./simulation.ts"

export type { EventState } from "./model.ts"

export interface Runner {
  readonly selectionId: string
  readonly name: string
}

/** One market in the simulator: a view of its event's model, and the book last priced from it. */
export interface MarketState extends View {
  readonly id: string
  readonly externalId: string
  readonly eventId: string
  readonly name: string
  readonly type: MarketType
  readonly sort: number
  readonly runners: ReadonlyArray<Runner>
  readonly claim: MarketClaim
  /** What is on offer at each level of each runner's ladder (exchange and bookmaker), by runner. */
  readonly sizes: Array<LadderSizes>
  /** A fancy's Yes and No sizes per 100 (what each pays), changing between balls. */
  rates: { yes: number; no: number }
  /** A fancy's Yes and No lines as the model last set them (runs). */
  lines: { yes: number; no: number }
  /** Runners' sides an operator priced by hand, by selection id. */
  pins: Map<string, Pin>
  book: MarketBook
  suspendedUntil: number
  /** Held suspended by the database row or an operator. */
  held: boolean
  closed: boolean
}

/** What survives a change of simulator (a restart, another server taking over): the model behind a book. */
export interface MarketModel {
  /** The chances of the market's outcome space when it was written. */
  readonly probs: ReadonlyArray<number>
  readonly line: number
  /** Priced by hand (a pin on some runner). */
  readonly manual: boolean
  readonly pins?: Readonly<Record<string, Pin>> | undefined
}

const lastMatch = new WeakMap<EventState, { readonly now: number; readonly startsAt: number; readonly match: MatchState | undefined }>()
/** The event's match at `now` (kept for the moment asked last: a step prices many markets at one moment). */
export const matchOf = (event: EventState, now: number) => {
  const last = lastMatch.get(event)
  if (last?.now === now && last.startsAt === event.startsAt) return last.match
  const match = matchAt(event, now)
  lastMatch.set(event, { now, startsAt: event.startsAt, match })
  return match
}

/** An operator priced some of it by hand: a fancy priced by hand is also settled by hand. */
export const isManual = (market: MarketState) => market.pins.size > 0

export const statusOf = (market: MarketState, now: number) =>
  market.closed ? ("CLOSED" as const) : market.held || market.suspendedUntil > now ? ("SUSPENDED" as const) : ("OPEN" as const)

/** A new event's state, before any of its markets. */
export const newEvent = (
  row: { readonly eventId: string; readonly eventName: string; readonly sportCode: string; readonly startsAt: Date; readonly leagueId: string; readonly eventStatus: "scheduled" | "live" },
  seed: string
): EventState => ({
  id: row.eventId,
  name: row.eventName,
  sportCode: row.sportCode,
  startsAt: row.startsAt.getTime(),
  leagueId: row.leagueId,
  status: row.eventStatus,
  markets: [],
  spaces: new Map(),
  lastTick: -1,
  lastStep: -1,
  seed,
  forecast: undefined,
  decided: false,
  waiting: undefined
})

const FANCY_RATES = [[100, 100], [100, 100], [90, 110], [110, 90], [95, 105]] as const

/**
 * A market as the simulator first sees it, a view of its event's model; a
 * stored model carries on from where the last simulator left it: its book's
 * version, sizes and pins.
 */
export const newMarket = (
  row: { readonly id: string; readonly externalId: string; readonly eventId: string; readonly name: string; readonly type: MarketType; readonly sort: number; readonly runners: ReadonlyArray<Runner>; readonly held: boolean },
  event: EventState,
  random: Rng,
  stored?: { readonly model: MarketModel; readonly book: MarketBook }
): MarketState => {
  const claim = claimOf({ name: row.name, marketType: row.type, runners: row.runners })
  spaceFor(event, claim)
  const levels = row.type === "EXCHANGE" ? 3 : 1
  const sizes = row.runners.map((runner): LadderSizes => {
    // A carried-on book keeps the sizes it showed.
    const shown = stored?.book.runners.find((r) => r.selectionId === runner.selectionId)
    const fresh = newSizes(levels, random)
    return {
      back: fresh.back.map((size, i) => shown?.back[i]?.size ?? size),
      lay: fresh.lay.map((size, i) => shown?.lay[i]?.size ?? size)
    }
  })
  return {
    id: row.id,
    externalId: row.externalId,
    eventId: row.eventId,
    name: row.name,
    type: row.type,
    sort: row.sort,
    runners: row.runners,
    claim,
    sizes,
    rates: { yes: 100, no: 100 },
    lines: { yes: stored?.model.line ?? 0, no: (stored?.model.line ?? 0) - 1 },
    pins: pinsOf(stored),
    // Without a stored book: version 0, no prices, replaced by the first pricing.
    book: stored?.book ?? { marketId: row.externalId, eventId: row.eventId, marketType: row.type, status: "SUSPENDED", inPlay: false, runners: [], version: 0 },
    suspendedUntil: 0,
    held: row.held,
    closed: false
  }
}

/** The pins a stored model carries; a model written before pins were kept pinned its whole book. */
const pinsOf = (stored: { readonly model: MarketModel; readonly book: MarketBook } | undefined) => {
  if (!stored?.model.manual) return new Map<string, Pin>()
  if (stored.model.pins) return new Map(Object.entries(stored.model.pins))
  return new Map(stored.book.runners.map((r): [string, Pin] => [r.selectionId, { back: r.back, lay: r.lay }]))
}

export const modelOf = (market: MarketState, event: EventState | undefined): MarketModel => ({
  probs: (market.claim.kind === "outcomes" ? event?.spaces.get(market.claim.space)?.chances : undefined) ?? [],
  line: market.lines.yes,
  manual: isManual(market),
  pins: isManual(market) ? Object.fromEntries(market.pins) : undefined
})

/** The event's chances for the match as it is at `now` (worked out again only when the match has moved on). */
export const refresh = (event: EventState, now: number) => {
  const match = matchOf(event, now)
  event.waiting = match?.progress.kind === "cricket" && match.progress.innings === 1 ? match.progress.sides[1] : undefined
  showChances(event, match?.step ?? 0, () => {
    const played = playedOf(event)
    return played && match ? forecastOf(played.strengths, match.progress) : undefined
  }, (runners) => raceChances(event.seed, runners))
  return match
}

/** What a fancy's Yes and No must each keep over the fair price. */
const FANCY_MARGIN = 0.03

/**
 * A fancy's lines from the chances its count reaches each line: Yes at the
 * lowest line it pays no more than it should (what it pays, less the margin),
 * No at the highest line below it it costs no less than it should; from the
 * run rate so far where no chances are worked out.
 */
const fancyLines = (market: MarketState, forecast: Forecast | undefined, match: MatchState | undefined) => {
  const tail = market.claim.kind === "runs" ? forecast?.reach?.(market.claim.count) : undefined
  if (!tail) {
    const { line } = fancyState(market.name, match)
    return { yes: line, no: line - 1 }
  }
  const yesAt = (1 - FANCY_MARGIN) / (1 + market.rates.yes / 100)
  const noAt = (1 + FANCY_MARGIN) / (1 + market.rates.no / 100)
  let yes = tail.findIndex((t) => t <= yesAt)
  if (yes === -1) yes = tail.length
  let no = 0
  for (let r = 0; r < yes && tail[r]! >= noAt; r++) no = r
  return { yes, no: Math.min(no, yes - 1) }
}

/** A market's runners priced from the event's pricing, pinned sides as the operator left them. */
const runnersOf = (market: MarketState, pricing: Pricing, pins: ReadonlyMap<string, Pin>): Array<RunnerPrices> => {
  if (market.claim.kind === "runs") {
    const runner = market.runners[0]
    if (!runner) return []
    const pin = pins.get(runner.selectionId)
    const bounds = pricing.lines(market.claim.count)
    const yes = Math.max(1, market.lines.yes, bounds.yesAtLeast)
    const no = Math.min(market.lines.no, bounds.noAtMost)
    return [{
      selectionId: runner.selectionId,
      back: pin?.back ? [...pin.back] : [{ price: yes, size: market.rates.yes }],
      lay: pin?.lay ? [...pin.lay] : no >= 0 ? [{ price: no, size: market.rates.no }] : []
    }]
  }
  const { claim } = market
  const ranges = pricing.ranges.get(claim.space)
  return market.runners.map((runner, i) => {
    const range = ranges?.get(claim.outcomes[i] ?? "") ?? { high: 1, low: 0 }
    const levels = market.type === "BOOKMAKER" ? bookmakerLevels(range, market.sizes[i]!) : exchangeLevels(range, market.sizes[i]!)
    const pin = pins.get(runner.selectionId)
    return { selectionId: runner.selectionId, back: pin?.back ? [...pin.back] : levels.back, lay: pin?.lay ? [...pin.lay] : levels.lay }
  })
}

/**
 * What a market settles on once no play can change it, before the event
 * ends: a fancy's runs, or the runner on its space's settled outcome
 * (`settledOutcomeOf`); undefined while it is still open.
 */
export const earlyResult = (market: MarketState, match: MatchState | undefined): string | undefined => {
  if (market.claim.kind === "runs") {
    const runs = fancyState(market.name, match).result
    return runs === undefined ? undefined : String(runs)
  }
  const outcome = match ? settledOutcomeOf(market.claim.space, match) : undefined
  const index = outcome === undefined ? -1 : market.claim.outcomes.indexOf(outcome)
  return market.runners[index]?.selectionId
}

/** A line on an innings not begun yet (the second, during the first): listed, suspended, with no prices. */
const waits = (market: MarketState, event: EventState) => market.claim.kind === "runs" && market.claim.count.side === event.waiting

/** A market on a space whose result is already certain, or a line on an innings not begun, offers nothing now. */
export const isDecided = (market: MarketState, event: EventState) =>
  (market.claim.kind === "outcomes" && event.spaces.get(market.claim.space)?.decided === true) || waits(market, event)

/** The market's book from `pricing`, with `pins` in place of its own (an operator's price tried first, handPrices.ts). */
export const bookOf = (market: MarketState, event: EventState, pricing: Pricing, now: number, pins = market.pins, status = statusOf(market, now)): MarketBook => ({
  marketId: market.externalId,
  eventId: market.eventId,
  marketType: market.type,
  status: status === "OPEN" && isDecided(market, event) ? "SUSPENDED" : status,
  inPlay: event.status === "live",
  runners: waits(market, event) ? market.runners.map((r) => ({ selectionId: r.selectionId, back: [], lay: [] })) : runnersOf(market, pricing, pins),
  version: market.book.version + 1
})

/**
 * Prices `targets` (markets of `event`) afresh from the event's model, or
 * every market of the event when the match has moved on since (its chances
 * with it); a fancy's lines follow the match unless an operator priced it.
 * Returns the markets priced, or undefined when the pins contradict each
 * other (they were checked when set, so only a stored model from elsewhere
 * can): the caller suspends the event.
 */
export const priceMarkets = (event: EventState, markets: ReadonlyArray<MarketState>, targets: ReadonlyArray<MarketState>, now: number) => {
  const before = event.forecast
  const match = refresh(event, now)
  const pricing = pricingOf(event, markets)
  if (!pricing) return undefined
  const list = (event.forecast === before ? targets : markets).filter((m) => !m.closed)
  for (const market of list) {
    if (market.claim.kind === "runs" && !isManual(market)) market.lines = fancyLines(market, event.forecast?.value, match)
    market.book = bookOf(market, event, pricing, now)
  }
  return list
}

/** The markets of `event` a move touched, to be priced again. */
export type Touched = ReadonlyArray<MarketState>

/**
 * One price move of `market`'s event: a fancy's sizes flicker; an exchange
 * or bookmaker market's ladder sizes move, or its space's shown chances
 * drift about the match's (now and then a jump, within the margin), which
 * moves every market on that space together. The match itself moves them
 * with every ball, goal, game or minute (`refresh`).
 */
export const move = (market: MarketState, event: EventState, markets: ReadonlyArray<MarketState>, random: Rng, now: number): Touched => {
  // A line waiting for its innings has nothing on offer to move.
  if (market.closed || waits(market, event)) return []
  if (market.claim.kind === "runs") {
    if (isManual(market)) return []
    const [yes, no] = FANCY_RATES[Math.floor(random() * FANCY_RATES.length)]!
    market.rates = { yes, no }
    return [market]
  }
  if (random() < 0.5 && market.sizes.length > 0) {
    flickerSizes(market.sizes[Math.floor(random() * market.sizes.length)]!, random)
    return [market]
  }
  const { claim } = market
  const space = event.spaces.get(claim.space)
  if (!space) return []
  const i = Math.floor(random() * space.wobble.length)
  const jump = random() < 0.02
  space.wobble[i] = Math.min(WOBBLE, Math.max(-WOBBLE, space.wobble[i]! + (jump ? 0.006 : 0.0015) * gaussian(random)))
  // In play, a market now and then suspends for a few seconds.
  if (event.status === "live" && random() < 0.0015) market.suspendedUntil = now + 3000
  return markets.filter((m) => !m.closed && m.claim.kind === "outcomes" && m.claim.space === claim.space)
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

/** The event's books now, each with what it settles on (for the combined-book check). */
export const checkEvent = (markets: ReadonlyArray<MarketState>): EventBookCheck =>
  checkEventBooks(markets.filter((m) => !m.closed).map((m) => ({ claim: m.claim, book: m.book })))

/** Every open market of the event suspended for a few seconds (its books contradicted each other). */
export const suspendEvent = (markets: ReadonlyArray<MarketState>, now: number) =>
  markets.filter((m) => !m.closed).map((market) => {
    market.suspendedUntil = Math.max(market.suspendedUntil, now + 3000)
    market.book = { ...market.book, status: "SUSPENDED", version: market.book.version + 1 }
    return market
  })
