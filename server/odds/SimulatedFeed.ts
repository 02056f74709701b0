import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { slugify } from "../../src/domain/sports.ts"
import type { EventOdds, MarketBook, MarketPricePayload, RunnerPrices, Score } from "../../src/schema/betting.ts"
import { notFound, unprocessable } from "../../src/schema/envelope.ts"
import type { MarketType } from "../../src/schema/sports.ts"
import { Settlement } from "../betting/Settlement.ts"
import { OddsFeed, type OddsUpdate } from "./OddsFeed.ts"
import {
  fancyPrices,
  fancyState,
  gaussian,
  hash,
  homeChance,
  initialProbabilities,
  isRacingCode,
  ladderDown,
  ladderFloor,
  ladderUp,
  matchAt,
  matchDuration,
  type MatchState,
  normalise,
  pricesFor,
  rng,
  SPORT
} from "./simulation.ts"

interface Row {
  readonly id: string
  readonly externalId: string
  readonly name: string
  readonly marketType: MarketType
  readonly status: string
  readonly sort: number
  readonly eventId: string
  readonly eventName: string
  readonly startsAt: Date
  readonly eventStatus: "scheduled" | "live"
  readonly leagueId: string
  readonly sportCode: string
  readonly runners: ReadonlyArray<{ selectionId: string; name: string }> | null
}

interface MarketState {
  readonly id: string
  readonly externalId: string
  readonly eventId: string
  readonly name: string
  readonly type: MarketType
  readonly sort: number
  readonly runners: ReadonlyArray<{ selectionId: string; name: string }>
  probs: Array<number>
  line: number
  book: MarketBook
  suspendedUntil: number
  /** Held suspended by the database row or an operator. */
  held: boolean
  /** Priced by hand by an operator: the simulator leaves it alone. */
  manual: boolean
  closed: boolean
}

interface EventState {
  readonly id: string
  readonly name: string
  readonly sportCode: string
  readonly startsAt: number
  readonly leagueId: string
  status: "scheduled" | "live"
  readonly markets: Array<string>
  watchers: number
  lastTick: number
  score: Score | undefined
  finishing: boolean
}

export interface SimulatorOptions {
  /** Off: prices are set once and never move, events never start or finish (tests). */
  readonly running: boolean
  /** Price updates per second for each event someone watches. */
  readonly updatesPerSecond: number
}

export const simulatorOptionsFromEnv = (env: NodeJS.ProcessEnv = process.env): SimulatorOptions => ({
  running: env.ODDS_SIMULATOR !== "off",
  updatesPerSecond: Math.max(1, Math.min(5000, Number(env.ODDS_UPDATES_PER_SECOND ?? 12) || 12))
})

const TICK_MS = 20
const SCORE_EVERY_MS = 500
const LIFECYCLE_EVERY_MS = 5000
/** Markets added elsewhere (another server, an operator) are picked up this often. */
const RELOAD_EVERY_MS = 30_000
/** Updates per second spread over every market nobody watches, so their prices still drift. */
const BACKGROUND_PER_SECOND = 20

const isMatchMarket = (market: MarketState) => market.type !== "FANCY" && (market.name === "Match Odds" || market.name === "Bookmaker")

/**
 * The built-in odds feed: a simulator over the demo catalogue. Prices drift
 * and jump, markets suspend while a ball is bowled or after a goal, events go
 * in play at their start and finish after a sport's running time; then the
 * feed settles their markets from the simulated score and schedules a new
 * fixture in the league, so the demo never runs dry.
 */
export const makeSimulatedFeed = (options: SimulatorOptions) =>
  Layer.effect(
    OddsFeed,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const settlement = yield* Settlement
      const random = rng(hash(`feed:${Date.now()}`))
      const markets = new Map<string, MarketState>()
      const events = new Map<string, EventState>()
      const listeners = new Set<(update: OddsUpdate) => void>()
      const catalogueListeners = new Set<() => void>()

      const emit = (update: OddsUpdate) => {
        for (const listener of listeners) listener(update)
      }

      const matchOf = (event: EventState, now = Date.now()) => matchAt(event, now)

      const statusOf = (market: MarketState, now: number) =>
        market.closed ? ("CLOSED" as const) : market.held || market.suspendedUntil > now ? ("SUSPENDED" as const) : ("OPEN" as const)

      /** Chances for a match market in play, leaning towards who leads. */
      const implied = (market: MarketState, event: EventState, match: MatchState) => {
        const fraction = (Date.now() - event.startsAt) / matchDuration(event.sportCode)
        const home = homeChance(match, fraction)
        if (market.runners.length === 3) {
          const draw = event.sportCode === SPORT.football ? Math.max(0.02, 0.3 * (1 - Math.abs(home - 0.5) * 2) * (1 - fraction * 0.5)) : 0.02
          return normalise([home * (1 - draw), (1 - home) * (1 - draw), draw])
        }
        return [home, 1 - home]
      }

      const reprice = (market: MarketState, now: number) => {
        const event = events.get(market.eventId)
        const inPlay = event?.status === "live"
        if (market.type === "FANCY" && !market.manual && event) {
          const state = fancyState(market.name, matchOf(event, now))
          market.line = state.line
        }
        market.book = {
          marketId: market.externalId,
          eventId: market.eventId,
          marketType: market.type,
          status: statusOf(market, now),
          inPlay,
          runners: market.type === "FANCY"
            ? fancyPrices(market.runners[0]?.selectionId ?? "", market.line).map((r) => ({
              ...r,
              back: r.back.map((l) => ({ ...l, size: market.book?.runners[0]?.back[0]?.size ?? 100 })),
              lay: r.lay.map((l) => ({ ...l, size: market.book?.runners[0]?.lay[0]?.size ?? 100 }))
            }))
            : pricesFor(market.type, market.runners.map((r) => r.selectionId), market.probs, random, market.line),
          version: (market.book?.version ?? 0) + 1
        }
      }

      const publish = (market: MarketState) => emit({ eventId: market.eventId, market: market.book })

      /** One price move: drift, now and then a jump, and in play a pull towards the score. */
      const move = (market: MarketState, now: number) => {
        if (market.manual || market.closed) return
        const event = events.get(market.eventId)
        if (market.type === "FANCY") {
          // Fancy lines move with the score; between balls only the sizes flicker.
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
            const target = implied(market, event, match)
            market.probs = normalise(market.probs.map((p, k) => 0.95 * p + 0.05 * (target[k] ?? p)))
          }
        }
        // In play, an exchange market now and then suspends for a few seconds.
        if (event?.status === "live" && random() < 0.0015) market.suspendedUntil = now + 3000
        reprice(market, now)
      }

      const load = Effect.gen(function*() {
        const rows = yield* sql<Row>`
          SELECT m.id, m.external_id, m.name, m.market_type, m.status, m.sort,
                 e.id AS event_id, e.name AS event_name, e.starts_at, e.status AS event_status, e.league_id, s.code AS sport_code,
                 (SELECT json_agg(json_build_object('selectionId', r.selection_id, 'name', r.name) ORDER BY r.sort)
                    FROM runners r WHERE r.market_id = m.id) AS runners
            FROM markets m
            JOIN events e ON e.id = m.event_id
            JOIN leagues l ON l.id = e.league_id
            JOIN sports s ON s.id = l.sport_id
           WHERE e.status IN ('scheduled', 'live') AND m.status IN ('OPEN', 'SUSPENDED')
           ORDER BY e.starts_at, m.sort
        `
        const now = Date.now()
        const seen = new Set<string>()
        const seenEvents = new Set<string>()
        for (const row of rows) {
          seen.add(row.externalId)
          seenEvents.add(row.eventId)
          let event = events.get(row.eventId)
          if (!event) {
            event = {
              id: row.eventId,
              name: row.eventName,
              sportCode: row.sportCode,
              startsAt: new Date(row.startsAt).getTime(),
              leagueId: row.leagueId,
              status: row.eventStatus,
              markets: [],
              watchers: 0,
              lastTick: -1,
              score: undefined,
              finishing: false
            }
            events.set(row.eventId, event)
          }
          event.status = row.eventStatus
          const existing = markets.get(row.externalId)
          if (existing) {
            existing.held = row.status === "SUSPENDED"
            continue
          }
          const seeded = rng(hash(row.externalId))
          const runners = row.runners ?? []
          const market: MarketState = {
            id: row.id,
            externalId: row.externalId,
            eventId: row.eventId,
            name: row.name,
            type: row.marketType,
            sort: row.sort,
            runners,
            probs: initialProbabilities(runners.length, seeded, runners.length === 3 && row.sportCode === SPORT.football),
            line: 0,
            // Version 0, no prices: replaced by the first pricing just below.
            book: { marketId: row.externalId, eventId: row.eventId, marketType: row.marketType, status: "SUSPENDED", inPlay: false, runners: [], version: 0 },
            suspendedUntil: 0,
            held: row.status === "SUSPENDED",
            manual: false,
            closed: false
          }
          markets.set(row.externalId, market)
          if (!event.markets.includes(row.externalId)) event.markets.push(row.externalId)
          reprice(market, now)
        }
        // Markets settled or events finished elsewhere: close them here too.
        for (const [id, market] of markets) {
          if (!seen.has(id)) {
            markets.delete(id)
            market.closed = true
            market.book = { ...market.book, status: "CLOSED", version: market.book.version + 1 }
            publish(market)
            const event = events.get(market.eventId)
            if (event) event.markets.splice(event.markets.indexOf(id), 1)
          }
        }
        for (const [id] of events) if (!seenEvents.has(id)) events.delete(id)
      }).pipe(Effect.orDie, Effect.withSpan("OddsFeed.load"))

      yield* load

      const notifyCatalogue = () => {
        for (const listener of catalogueListeners) listener()
      }

      /** A fancy whose result is known: closed here, settled through the ledger. */
      const settleFancy = (market: MarketState, result: number) =>
        Effect.gen(function*() {
          market.closed = true
          market.book = { ...market.book, status: "CLOSED", version: market.book.version + 1 }
          publish(market)
          yield* settlement.settle(market.externalId, String(result), "feed").pipe(Effect.catchTag("ApiError", () => Effect.void))
          markets.delete(market.externalId)
          const event = events.get(market.eventId)
          if (event) event.markets.splice(event.markets.indexOf(market.externalId), 1)
        })

      interface Fixture {
        readonly id: string
        readonly name: string
        readonly sportCode: string
        readonly startsAt: number
        readonly leagueId: string
      }

      /**
       * The winner of an exchange or bookmaker market from the final score;
       * undefined to void it (a tie with no draw). A race is drawn by the
       * market's chances (from memory, or seeded from the market's id).
       */
      const winnerOf = (
        market: { externalId: string; name: string; runners: ReadonlyArray<{ selectionId: string; name: string }> },
        event: Fixture,
        match: MatchState | undefined
      ) => {
        const ids = market.runners.map((r) => r.selectionId)
        if (isRacingCode(event.sportCode) || !match) {
          const probs = markets.get(market.externalId)?.probs ?? initialProbabilities(ids.length, rng(hash(market.externalId)), false)
          const draw = rng(hash(`result:${market.externalId}`))()
          let sum = 0
          for (const [i, p] of probs.entries()) if ((sum += p) >= draw) return ids[i]
          return ids.at(-1)
        }
        if (market.name.startsWith("Over/Under")) {
          const over = market.runners.find((r) => r.name.startsWith("Over"))
          const under = market.runners.find((r) => r.name.startsWith("Under"))
          const line = Number(/([\d.]+)/.exec(market.name)?.[1] ?? 2.5)
          return (match.goals ?? match.home + match.away) > line ? over?.selectionId : under?.selectionId
        }
        if (match.home > match.away) return ids[0]
        if (match.away > match.home) return ids[1]
        return ids[2]
      }

      /** Settles every market of a finished event still open, from its final score; each settles once whoever tries. */
      const settleFinished = (event: Fixture) =>
        Effect.gen(function*() {
          const final = matchAt(event, event.startsAt + matchDuration(event.sportCode))
          const rows = yield* sql<{ externalId: string; name: string; marketType: MarketType; runners: ReadonlyArray<{ selectionId: string; name: string }> | null }>`
            SELECT m.external_id, m.name, m.market_type,
                   (SELECT json_agg(json_build_object('selectionId', r.selection_id, 'name', r.name) ORDER BY r.sort)
                      FROM runners r WHERE r.market_id = m.id) AS runners
              FROM markets m WHERE m.event_id = ${event.id} AND m.status IN ('OPEN', 'SUSPENDED', 'CLOSED')
          `
          for (const row of rows) {
            const fancy = row.marketType === "FANCY" ? fancyState(row.name, final) : undefined
            const outcome = fancy ? String(fancy.result ?? fancy.line) : winnerOf({ ...row, runners: row.runners ?? [] }, event, final)
            const settle = outcome === undefined
              ? settlement.voidMarket(row.externalId, "No result", "feed")
              : settlement.settle(row.externalId, outcome, "feed")
            yield* settle.pipe(Effect.catchTag("ApiError", () => Effect.void))
          }
        })

      /**
       * Finishes an event: first marked finished (one server wins the
       * conditional update; bets are refused from then on and the catalogue no
       * longer lists it), then its markets settled, then its successor scheduled.
       */
      const finish = (event: EventState) =>
        Effect.gen(function*() {
          event.finishing = true
          const claimed = yield* sql`UPDATE events SET status = 'finished' WHERE id = ${event.id} AND status = 'live' RETURNING id`
          if (claimed.length === 0) return
          yield* settleFinished(event)
          yield* scheduleNext(event)
        }).pipe(Effect.catchCause((cause) => Effect.logError("finishing an event failed", cause)), Effect.ensuring(Effect.sync(() => {
          event.finishing = false
        })))

      /** Finished events left with open markets (a server stopped half-way): settled, and their successor scheduled. */
      const recover = Effect.gen(function*() {
        const stranded = yield* sql<{ id: string; name: string; sportCode: string; startsAt: Date; leagueId: string }>`
          SELECT e.id, e.name, s.code AS sport_code, e.starts_at, e.league_id
            FROM events e JOIN leagues l ON l.id = e.league_id JOIN sports s ON s.id = l.sport_id
           WHERE e.status = 'finished'
             AND EXISTS (SELECT 1 FROM markets m WHERE m.event_id = e.id AND m.status IN ('OPEN', 'SUSPENDED', 'CLOSED'))
           LIMIT 20
        `
        for (const row of stranded) {
          const fixture: Fixture = { id: row.id, name: row.name, sportCode: row.sportCode, startsAt: new Date(row.startsAt).getTime(), leagueId: row.leagueId }
          yield* settleFinished(fixture)
          yield* scheduleNext(fixture)
        }
        return stranded.length
      }).pipe(Effect.catchCause((cause) => Effect.as(Effect.logError("recovering finished events failed", cause), 0)))

      /** A new fixture in the same league with the same markets, starting soon. */
      const scheduleNext = (event: Fixture) =>
        sql.withTransaction(Effect.gen(function*() {
          // One successor per fixture, however many servers (or recoveries) try.
          yield* sql`SELECT pg_advisory_xact_lock(hashtext(${`${event.leagueId}:${event.name}`}))`
          const upcoming = yield* sql`SELECT 1 FROM events WHERE league_id = ${event.leagueId} AND name = ${event.name} AND status IN ('scheduled', 'live')`
          if (upcoming.length > 0) return
          const startsAt = new Date(Date.now() + (isRacingCode(event.sportCode) ? 12 : 8) * 60_000)
          const stamp = startsAt.toISOString().slice(0, 16).replace(/[-:T]/g, "")
          const external = `${Date.now()}${Math.floor(random() * 1000).toString().padStart(3, "0")}`
          const [created] = yield* sql<{ id: string }>`
            INSERT INTO events (external_id, league_id, name, slug, starts_at, status)
            VALUES (${`9${external}`}, ${event.leagueId}, ${event.name}, ${slugify(`${event.name} ${stamp}`)}, ${startsAt}, 'scheduled')
            ON CONFLICT DO NOTHING
            RETURNING id
          `
          if (!created) return
          const old = yield* sql<{ id: string; name: string; marketType: string; sort: number }>`
            SELECT id, name, market_type, sort FROM markets WHERE event_id = ${event.id} ORDER BY sort
          `
          for (const [index, market] of old.entries()) {
            const [copy] = yield* sql<{ id: string }>`
              INSERT INTO markets (external_id, event_id, name, market_type, starts_at, sort)
              VALUES (${`1.${external}${index}`}, ${created.id}, ${market.name}, ${market.marketType}, ${startsAt}, ${market.sort})
              RETURNING id
            `
            yield* sql`
              INSERT INTO runners (selection_id, market_id, name, sort)
              SELECT selection_id, ${copy!.id}, name, sort FROM runners WHERE market_id = ${market.id}
            `
          }
        }))

      let reloadIn = RELOAD_EVERY_MS
      /** Starts events whose time has come and finishes those that have run their course. */
      const lifecycle = Effect.gen(function*() {
        const started = yield* sql<{ id: string }>`
          UPDATE events SET status = 'live' WHERE status = 'scheduled' AND starts_at <= now() RETURNING id
        `
        const now = Date.now()
        const due = [...events.values()].filter((e) => e.status === "live" && !e.finishing && now >= e.startsAt + matchDuration(e.sportCode))
        // Events another server started or finished are picked up by the reload.
        for (const event of due) yield* finish(event)
        const recovered = yield* recover
        reloadIn -= LIFECYCLE_EVERY_MS
        if (started.length > 0 || due.length > 0 || recovered > 0 || reloadIn <= 0) {
          reloadIn = RELOAD_EVERY_MS
          yield* load
          for (const row of started) {
            const event = events.get(row.id)
            if (!event) continue
            event.status = "live"
            for (const id of event.markets) {
              const market = markets.get(id)
              if (market) {
                reprice(market, now)
                publish(market)
              }
            }
          }
          if (started.length > 0 || due.length > 0 || recovered > 0) notifyCatalogue()
        }
      }).pipe(Effect.catchCause((cause) => Effect.logError("odds lifecycle failed", cause)), Effect.withSpan("OddsFeed.lifecycle"))

      /** Scores move on; markets suspend while a ball is bowled or after a goal; fancy lines follow; decided fancies settle. */
      const scores = (now: number) => {
        const settle: Array<Effect.Effect<void, unknown>> = []
        for (const event of events.values()) {
          if (event.status !== "live") continue
          const match = matchOf(event, now)
          if (!match || match.tick === event.lastTick) continue
          const first = event.lastTick === -1
          event.lastTick = match.tick
          event.score = match.score
          emit({ eventId: event.id, score: match.score })
          for (const id of [...event.markets]) {
            const market = markets.get(id)
            if (!market || market.closed) continue
            if (!first) {
              if (event.sportCode === SPORT.cricket && market.type !== "EXCHANGE") market.suspendedUntil = now + 2000
              if (event.sportCode === SPORT.football) market.suspendedUntil = now + 4000
            }
            if (market.type === "FANCY" && !market.manual) {
              const state = fancyState(market.name, match)
              if (state.result !== undefined) {
                settle.push(settleFancy(market, state.result))
                continue
              }
            }
            reprice(market, now)
            publish(market)
          }
        }
        return settle
      }

      if (options.running) {
        const services = yield* Effect.context<SqlClient.SqlClient>()
        let budget = 0
        let background = 0
        let sinceScores = 0
        let sinceLifecycle = LIFECYCLE_EVERY_MS
        let lifecycleRunning = false
        const reopened = new Set<MarketState>()
        const tick = () => {
          const now = Date.now()
          // Markets whose suspension ran out reopen with a fresh price.
          for (const market of markets.values()) {
            if (market.book.status === "SUSPENDED" && !market.held && market.suspendedUntil <= now && !market.closed) reopened.add(market)
          }
          for (const market of reopened) {
            reprice(market, now)
            publish(market)
          }
          reopened.clear()
          const watched = [...events.values()].filter((e) => e.watchers > 0 && e.markets.length > 0)
          budget += (options.updatesPerSecond * TICK_MS) / 1000
          const perEvent = Math.floor(budget)
          budget -= perEvent
          for (const event of watched) {
            for (let n = 0; n < perEvent; n++) {
              const market = markets.get(event.markets[Math.floor(random() * event.markets.length)]!)
              if (!market) continue
              move(market, now)
              publish(market)
            }
          }
          background += (BACKGROUND_PER_SECOND * TICK_MS) / 1000
          if (background >= 1 && markets.size > 0) {
            background -= 1
            const all = [...markets.values()]
            const market = all[Math.floor(random() * all.length)]!
            move(market, now)
            publish(market)
          }
          sinceScores += TICK_MS
          if (sinceScores >= SCORE_EVERY_MS) {
            sinceScores = 0
            const settle = scores(now)
            if (settle.length > 0) Effect.runForkWith(services)(Effect.all(settle, { discard: true }).pipe(Effect.catchCause((cause) => Effect.logError("fancy settlement failed", cause))))
          }
          sinceLifecycle += TICK_MS
          if (sinceLifecycle >= LIFECYCLE_EVERY_MS && !lifecycleRunning) {
            sinceLifecycle = 0
            lifecycleRunning = true
            Effect.runForkWith(services)(lifecycle.pipe(Effect.ensuring(Effect.sync(() => {
              lifecycleRunning = false
            }))))
          }
        }
        yield* Effect.acquireRelease(
          Effect.sync(() => setInterval(tick, TICK_MS)),
          (timer) => Effect.sync(() => clearInterval(timer))
        )
      }

      const eventOdds = (eventId: string): EventOdds => {
        const event = events.get(eventId)
        const books = (event?.markets ?? [])
          .map((id) => markets.get(id))
          .filter((m): m is MarketState => m !== undefined)
          .sort((a, b) => a.sort - b.sort)
          .map((m) => m.book)
        const score = event ? event.score ?? matchOf(event)?.score ?? null : null
        return { eventId, markets: books, score }
      }

      const setPrice = (input: MarketPricePayload) =>
        Effect.gen(function*() {
          const market = markets.get(input.marketId)
          if (!market) return yield* notFound("No such open market.")
          const selectionId = input.selectionId ?? market.runners[0]?.selectionId
          const index = market.book.runners.findIndex((r) => r.selectionId === selectionId)
          if (index === -1) return yield* unprocessable("That selection is not part of this market.")
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
          market.book = { ...market.book, runners, status: statusOf(market, Date.now()), version: market.book.version + 1 }
          if (market.type === "FANCY" && input.back) market.line = input.back.price
          publish(market)
          return market.book
        })

      return OddsFeed.of({
        book: (marketId) => markets.get(marketId)?.book,
        eventOdds,
        score: (eventId) => events.get(eventId)?.score,
        subscribe: (listener) => {
          listeners.add(listener)
          return () => listeners.delete(listener)
        },
        onCatalogueChange: (listener) => {
          catalogueListeners.add(listener)
          return () => catalogueListeners.delete(listener)
        },
        watch: (eventId, delta) => {
          const event = events.get(eventId)
          if (event) event.watchers = Math.max(0, event.watchers + delta)
        },
        setPrice,
        reload: load
      })
    })
  )

/** The feed the server runs: the simulator, configured from the environment (ODDS_SIMULATOR, ODDS_UPDATES_PER_SECOND). */
export const OddsFeedLive = Layer.unwrap(Effect.sync(() => makeSimulatedFeed(simulatorOptionsFromEnv())))
