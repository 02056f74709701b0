/** The built-in source of prices: the demo catalogue simulated in explicit steps (run on the clock by runSimulator.ts). */
import { Effect } from "effect"
import type { SqlError } from "effect/sql"
import type { MarketBook, MarketPricePayload, Score } from "../../src/schema/betting.ts"
import { type ApiError, refuse } from "../../src/schema/envelope.ts"
import type { FeedChanges, PricedMarket } from "./Books.ts"
import type { Draws } from "./Draws.ts"
import type { Fixtures } from "./Fixtures.ts"
import type { Lifecycle } from "./Lifecycle.ts"
import { problemText } from "../../src/domain/eventBook.ts"
import {
  checkEvent,
  close,
  earlyResult,
  type EventState,
  isDecided,
  isManual,
  type MarketModel,
  type MarketState,
  matchOf,
  modelOf,
  move,
  newEvent,
  newMarket,
  priceMarkets,
  suspendEvent,
  suspendForPlay
} from "./prices.ts"
import { setManualPrice } from "./handPrices.ts"
import { type Taken, takeMatched, withoutEmptyLevels } from "./matchedStakes.ts"
import { makeLineOpener } from "./inPlayLines.ts"
import { hash, matchDuration, rng } from "./simulation.ts"

export interface SimulatorOptions {
  /** Off: nothing moves by itself; prices, scores and events change only when a step is called (tests). */
  readonly running: boolean
  /** Price updates per second for each event someone watches. */
  readonly updatesPerSecond: number
  /** Seeds the simulator's own random moves (tests); by default a new seed each run. */
  readonly seed?: number
}

/** How often each step runs while the simulator runs by itself. */
export const CADENCE = { tickMs: 20, scoresMs: 500, lifecycleMs: 5000 } as const
/** Markets added elsewhere (an operator, another server) are picked up this often. */
const RELOAD_EVERY_MS = 30_000
/** Updates per second spread over every market nobody watches, so their prices still drift. */
const BACKGROUND_PER_SECOND = 20
/** A step after a long pause (a blocked event loop) catches up at most this much. */
const MAX_CATCH_UP_MS = 1000

/** Where the simulator sends what it does (prices and scores, that the catalogue changed), and who watches what. */
export interface SimulatorOutput {
  readonly publish: (changes: FeedChanges) => void
  /** Events started, finished or were added; with `eventId`, only that event's markets changed (a line opened). */
  readonly catalogueChanged: (eventId?: string) => void
  /** Clients watching an event, on every server: price updates are spent where they are seen. */
  readonly watchers: (eventId: string) => number
}

/** A book and model to carry on from (stored by the simulator that ran before). */
export type StoredMarkets = ReadonlyMap<string, { readonly model: MarketModel; readonly book: MarketBook }>

/**
 * The built-in source of prices: the demo catalogue simulated. It keeps the
 * model of every open market in memory and moves it in explicit steps, each
 * given the moment it runs at:
 *
 * - `tick(now)`: prices drift and jump, where clients watch and a little everywhere;
 * - `scores(now)`: matches move on, markets suspend for a ball or a goal, fancy lines follow, decided ones settle and
 *   the lines play comes to open (`inPlayLines.ts`);
 * - `lifecycle(now)`: events start, finished ones are settled and replaced (`Lifecycle`), new fixtures are loaded.
 *
 * The running server calls them from a clock (`runSimulator`); tests call them directly.
 */
export const makeSimulator = (
  deps: { readonly fixtures: Fixtures["Service"]; readonly lifecycle: Lifecycle["Service"]; readonly draws: Pick<Draws["Service"], "seeds"> },
  options: SimulatorOptions,
  output: SimulatorOutput,
  stored: (externalIds: ReadonlyArray<string>) => Effect.Effect<StoredMarkets, SqlError.SqlError> = () => Effect.succeed(new Map())
) => {
  const random = rng(options.seed ?? hash(`feed:${Date.now()}:${Math.random()}`))
  const markets = new Map<string, MarketState>()
  const events = new Map<string, EventState>()
  const marketsOf = (event: EventState) => event.markets.map((id) => markets.get(id)).filter((m): m is MarketState => m !== undefined)
  const priced = (market: MarketState): PricedMarket => ({ book: withoutEmptyLevels(market.book), sort: market.sort })
  const lines = makeLineOpener(deps.fixtures.addLine)

  /** Events whose books contradicted each other (a defect of the model): suspended instead of published, logged. */
  let contradictions = 0
  const unreported: Array<string> = []
  /**
   * What changed, after the last check: an event whose books together would let a player win whatever happens is
   * never published so; its markets are suspended instead.
   */
  const checked = (changed: Iterable<MarketState>, now: number) => {
    const list = new Set(changed)
    for (const eventId of new Set([...list].map((m) => m.eventId))) {
      const event = events.get(eventId)
      if (!event) continue
      const all = marketsOf(event)
      const { problems } = checkEvent(all)
      if (problems.length === 0) continue
      contradictions++
      unreported.push(`${eventId}: ${problems.map(problemText).join("; ")}`)
      for (const market of suspendEvent(all, now)) list.add(market)
    }
    return list
  }
  const publishMarkets = (changed: Iterable<MarketState>, now: number) => {
    const list = [...checked(changed, now)].map(priced)
    if (list.length > 0) output.publish({ markets: list, scores: [] })
  }
  /** Prices `targets` of `event` again, or suspends the whole event if its pins contradict (a stored model): what changed. */
  const price = (event: EventState, targets: ReadonlyArray<MarketState>, now: number): ReadonlyArray<MarketState> =>
    priceMarkets(event, marketsOf(event), targets, now) ?? suspendEvent(marketsOf(event), now)

  /** Prices move by the time that passed since the last step (or the first load). */
  let lastTick: number | undefined
  let budget = 0
  let background = 0

  const forget = (market: MarketState) => {
    markets.delete(market.externalId)
    const event = events.get(market.eventId)
    if (event) event.markets.splice(event.markets.indexOf(market.externalId), 1)
  }

  /** The open markets from the database: new ones priced (or carried on from a stored book), gone ones closed. */
  const load = (now: number) =>
    Effect.gen(function*() {
      lastTick ??= now
      const rows = yield* deps.fixtures.openMarkets
      const unknown = rows.filter((row) => !markets.has(row.externalId)).map((row) => row.externalId)
      const carried = unknown.length > 0 ? yield* stored(unknown) : new Map()
      const seeds = yield* deps.draws.seeds([...new Set(rows.filter((row) => !events.has(row.eventId)).map((row) => row.eventId))])
      const fresh: Array<MarketState> = []
      const seen = new Set<string>()
      const changed: Array<MarketState> = []
      const scores: Array<Score> = []
      for (const row of rows) {
        seen.add(row.externalId)
        lines.saw(row.eventId, row.name, row.sort)
        let event = events.get(row.eventId)
        if (!event) {
          event = newEvent(row, seeds.get(row.eventId)!)
          events.set(row.eventId, event)
          const score = matchOf(event, now)?.score
          if (score) scores.push(score)
        }
        event.status = row.eventStatus
        event.startsAt = row.startsAt.getTime()
        const existing = markets.get(row.externalId)
        if (existing) {
          // A suspension set by hand lives here, not in the row (still OPEN): a reload must not lift it.
          if (row.status === "SUSPENDED") existing.held = true
          continue
        }
        const previous = carried.get(row.externalId)
        const market = newMarket({ ...row, type: row.marketType, runners: row.runners ?? [], held: row.status === "SUSPENDED" }, event, random, previous)
        markets.set(row.externalId, market)
        if (!event.markets.includes(row.externalId)) event.markets.push(row.externalId)
        fresh.push(market)
      }
      // New markets priced once every market of their event is known (the event's pins bound them all); a carried-on
      // one from the model it carries (its chances, pins and sizes), its versions going on from the stored book's.
      for (const eventId of new Set(fresh.map((m) => m.eventId))) {
        changed.push(...price(events.get(eventId)!, fresh.filter((m) => m.eventId === eventId), now))
      }
      // Markets settled or events finished elsewhere: closed here too.
      for (const market of [...markets.values()]) {
        if (seen.has(market.externalId)) continue
        close(market)
        changed.push(market)
        forget(market)
      }
      const live = new Set(rows.map((row) => row.eventId))
      for (const id of [...events.keys()]) {
        if (live.has(id)) continue
        events.delete(id)
        lines.forget(id)
      }
      output.publish({ markets: [...checked(changed, now)].map(priced), scores })
    }).pipe(Effect.withSpan("Simulator.load"))

  const tick = (now: number) => {
    const elapsed = Math.min(MAX_CATCH_UP_MS, Math.max(0, now - (lastTick ?? now - CADENCE.tickMs)))
    lastTick = now
    const changed: Array<MarketState> = []
    // Markets whose suspension ran out reopen with a fresh price.
    for (const market of markets.values()) {
      const event = events.get(market.eventId)
      if (event && market.book.status === "SUSPENDED" && !market.held && market.suspendedUntil <= now && !market.closed && !isDecided(market, event)) {
        changed.push(...price(event, [market], now))
      }
    }
    const moveOne = (market: MarketState, event: EventState) => {
      changed.push(...price(event, move(market, event, marketsOf(event), random, now), now))
    }
    budget += (options.updatesPerSecond * elapsed) / 1000
    const perEvent = Math.floor(budget)
    budget -= perEvent
    for (const event of events.values()) {
      if (event.markets.length === 0 || output.watchers(event.id) === 0) continue
      for (let n = 0; n < perEvent; n++) {
        const market = markets.get(event.markets[Math.floor(random() * event.markets.length)]!)
        if (market) moveOne(market, event)
      }
    }
    background += (BACKGROUND_PER_SECOND * elapsed) / 1000
    if (background >= 1 && markets.size > 0) {
      const all = [...markets.values()]
      for (; background >= 1; background -= 1) {
        const market = all[Math.floor(random() * all.length)]!
        const event = events.get(market.eventId)
        if (event) moveOne(market, event)
      }
    }
    publishMarkets(changed, now)
  }

  /** Scores move on; markets suspend for the play; fancy lines follow; decided fancies close and settle. */
  const scores = (now: number) =>
    Effect.gen(function*() {
      const changed: Array<MarketState> = []
      const scores: Array<Score> = []
      const decided: Array<{ market: MarketState; result: string }> = []
      for (const event of events.values()) {
        if (event.status !== "live") continue
        const match = matchOf(event, now)
        if (!match || (match.tick === event.lastTick && match.step === event.lastStep)) continue
        // Something happened (a ball, a goal), or only the clock moved on (a minute): the chances move either way.
        const play = event.lastTick !== -1 && match.tick !== event.lastTick
        event.lastTick = match.tick
        event.lastStep = match.step
        // The result is known before the time is up: nothing more is offered until the event is settled.
        if (match.finished) event.decided = true
        scores.push(match.score)
        const open: Array<MarketState> = []
        for (const market of marketsOf(event)) {
          if (market.closed) continue
          if (play) suspendForPlay(market, event, now)
          if (event.decided) market.suspendedUntil = Infinity
          const result = isManual(market) ? undefined : earlyResult(market, match)
          if (result !== undefined) {
            close(market)
            decided.push({ market, result })
          } else {
            open.push(market)
          }
          changed.push(market)
        }
        changed.push(...price(event, open, now))
      }
      output.publish({ markets: [...checked(changed, now)].map(priced), scores })
      for (const { market, result } of decided) {
        forget(market)
        yield* deps.lifecycle.settleEarly(market.externalId, result)
      }
      // Lines the match has come to (the next wicket's fall) open, loaded and priced at once.
      const live = [...events.values()].filter((event) => event.status === "live")
      const opened = yield* lines.open(live.map((event) => [event.id, matchOf(event, now)] as const), now)
      if (opened.length > 0) {
        yield* load(now)
        for (const eventId of opened) output.catalogueChanged(eventId)
      }
    }).pipe(Effect.withSpan("Simulator.scores"))

  let reloadIn = RELOAD_EVERY_MS
  /** Starts events whose time has come, settles and replaces those that have run their course, picks up new fixtures. */
  const lifecycle = (now: number) =>
    Effect.gen(function*() {
      const started = yield* deps.lifecycle.startDue(now)
      // Settled when the time is up, or as soon as the result is known.
      const due = [...events.values()].filter((e) => e.status === "live" && (e.decided || now >= e.startsAt + matchDuration(e.sportCode)))
      for (const event of due) {
        // Bets are refused from the claim on: clients see the markets close at once, settlement follows.
        const closing = event.markets.map((id) => markets.get(id)).filter((m): m is MarketState => m !== undefined && !m.closed)
        for (const market of closing) close(market)
        publishMarkets(closing, now)
        yield* deps.lifecycle.finish(event, now)
      }
      const recovered = yield* deps.lifecycle.recover(now)
      reloadIn -= CADENCE.lifecycleMs
      const catalogueChanged = started.length > 0 || due.length > 0 || recovered > 0
      if (catalogueChanged || reloadIn <= 0) {
        reloadIn = RELOAD_EVERY_MS
        yield* load(now)
        const nowLive = started.flatMap((id) => {
          const event = events.get(id)
          return event ? price(event, marketsOf(event), now) : []
        })
        publishMarkets(nowLive, now)
      }
      if (catalogueChanged) output.catalogueChanged()
      return { started: started.length, finished: due.length, recovered }
    }).pipe(Effect.withSpan("Simulator.lifecycle"))

  const setPrice = (input: MarketPricePayload, now: number): Effect.Effect<MarketBook, ApiError> => {
    const market = markets.get(input.marketId)
    const event = market && events.get(market.eventId)
    if (!market || !event) return refuse("NotFound", "No such open market.")
    const all = marketsOf(event)
    const book = setManualPrice(market, event, all, input, now)
    if (book === "unknownSelection") return refuse("Refused", "That selection is not part of this market.")
    if (book === "offLadder") return refuse("Refused", "Exchange prices run from 1.01 to 1000.")
    if ("contradicts" in book) {
      const why = book.contradicts?.problems.map(problemText).join("; ") ?? "the prices pinned on this event's markets leave no chances that fit them all"
      return refuse("PricesContradict", `That price contradicts the event's other prices: ${why}. A player could win whatever happens.`)
    }
    publishMarkets(all, now)
    return Effect.succeed(book)
  }

  /** Matched stakes come off the market's ladder (`takeMatched`), published at once. */
  const take = (marketId: string, taken: Taken, now: number) => {
    const market = markets.get(marketId)
    if (market && takeMatched(market, taken)) publishMarkets([market], now)
  }

  return {
    options,
    load,
    tick,
    scores,
    lifecycle,
    setPrice,
    take,
    /** The model behind a market's book, for the simulator that comes next. */
    modelOf: (externalId: string): MarketModel | undefined => {
      const market = markets.get(externalId)
      return market && modelOf(market, events.get(market.eventId))
    },
    /** How many times an event's books contradicted each other and were suspended instead (never, unless the model is wrong). */
    contradictions: () => contradictions,
    /** Logs the contradictions found since the last report. */
    report: Effect.suspend(() => {
      const lines = unreported.splice(0)
      return Effect.forEach(lines, (line) => Effect.logError(`odds: books that contradict each other were suspended instead: ${line}`), { discard: true })
    })
  }
}

export type Simulator = ReturnType<typeof makeSimulator>
