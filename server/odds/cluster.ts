import { Clock, Context, Deferred, Effect, Layer, Schema, Semaphore } from "effect"
import { randomBytes } from "node:crypto"
import { MarketBook, MarketPricePayload, type Score } from "../../src/schema/betting.ts"
import { type ApiError, refuse } from "../../src/schema/envelope.ts"
import { ErrorTag } from "../../src/schema/errors.ts"
import { ServerConfig } from "../config.ts"
import { Realtime } from "../realtime/Realtime.ts"
import { BookStore, type LeaderConnection } from "./BookStore.ts"
import { makeBooks, type PricedMarket, serveBooks } from "./Books.ts"
import { Draws } from "./Draws.ts"
import { campaign } from "./election.ts"
import { Fixtures } from "./Fixtures.ts"
import { Lifecycle } from "./Lifecycle.ts"
import { OddsFeed } from "./OddsFeed.ts"
import { runSimulator, Simulation, simulatorOptionsFromEnv } from "./runSimulator.ts"
import { makeSimulator, type Simulator } from "./Simulator.ts"

/**
 * What servers tell each other about the odds, through the socket.io
 * adapter (PostgreSQL NOTIFY): the same channel that carries room emits.
 */
export const ODDS_EVENTS = {
  /** leader → every server: books and scores up to this sequence number are stored. */
  stored: "odds:stored",
  /** a server → the leader: how many of its clients watch each event. */
  watching: "odds:watching",
  /** a new leader → every server: tell me what your clients watch. */
  leading: "odds:leading",
  /** any server → the leader (acknowledged): an operator's price. */
  setPrice: "odds:set-price",
  /** any server → the leader: a matched bet took size off a ladder. */
  taken: "odds:taken",
  /** any server or the CLI → the leader: markets changed in the database (settled, added); load them again. */
  reload: "odds:reload"
} as const

/** The leader writes what changed this often (conflated: the latest book of each market). */
const FLUSH_EVERY = "100 millis"
/** Each server reads the store this often as well, in case a notice was lost. */
const SYNC_EVERY = "2 seconds"
/** Each server sends what its clients watch this often (and at once when it changes). */
const WATCHING_EVERY = "5 seconds"
/** A server not heard from for this long watches nothing. */
const WATCHING_FRESH_MS = 15_000
/** A leader prunes closed books this often. */
const PRUNE_EVERY = "1 minute"

const Watching = Schema.Struct({ server: Schema.String, events: Schema.Record(Schema.String, Schema.Int) })
/** The leader's answer to a forwarded command: the result and the sequence number it was stored under, or the refusal. */
const Answer = Schema.Union([
  Schema.Struct({ book: Schema.optional(MarketBook), seq: Schema.Int }),
  Schema.Struct({ error: Schema.Struct({ code: Schema.Int, message: Schema.String, tag: ErrorTag }) })
])
type Answer = typeof Answer.Type
/** A bet matched on a market: what it took off the ladder (`takeMatched`). */
const TakenMessage = Schema.Struct({
  marketId: Schema.String,
  selectionId: Schema.String,
  side: Schema.Literals(["back", "lay"]),
  matches: Schema.Array(Schema.Struct({ odds: Schema.Finite, stake: Schema.Int }))
})

const noLeader = () => refuse("Unavailable", "The odds feed is changing hands. Please try again in a few seconds.")

interface Leading {
  readonly simulator: Simulator
  readonly setPrice: (input: MarketPricePayload) => Effect.Effect<{ readonly book: MarketBook; readonly seq: number }, ApiError>
  readonly reload: Effect.Effect<number>
}

/**
 * Several servers on one PostgreSQL, one source of prices. Every server
 * serves the books from the store (`BookStore`), reading what is newer
 * whenever the leader says it stored something, and every 2 s in case a
 * notice was lost. One server at a time leads (an advisory lock on a
 * connection of its own, `campaign`): it runs the simulator, carrying on
 * from the stored books, models, scores and event states, and writes what
 * changed every 100 ms through that connection, so a server that lost the
 * lock cannot write any more. Operators' prices and reloads reach the leader
 * from any server, and clients' watching from every server, through the
 * socket.io adapter.
 */
export const ClusterFeedLive = Layer.effectContext(Effect.gen(function*() {
  const fixtures = yield* Fixtures
  const lifecycle = yield* Lifecycle
  const draws = yield* Draws
  const store = yield* BookStore
  const { io } = yield* Realtime
  const config = yield* ServerConfig
  const options = simulatorOptionsFromEnv()
  const services = yield* Effect.context<never>()
  const fork = <A, E>(effect: Effect.Effect<A, E>) =>
    Effect.runForkWith(services)(effect.pipe(Effect.catchCause((cause) => Effect.logWarning("odds: a step between servers failed", cause))))
  const now = Clock.currentTimeMillis

  // ---- every server: the books, from the store ------------------------------------------------
  const books = makeBooks()
  let seq = 0
  let syncedAt = Date.now()
  const reading = yield* Semaphore.make(1)
  const sync = reading.withPermits(1)(Effect.gen(function*() {
    const next = yield* store.since(seq)
    books.apply(next.changes)
    seq = Math.max(seq, next.seq)
    syncedAt = Date.now()
  }))
  const syncTo = (target: number) => (seq >= target ? Effect.void : sync)
  yield* sync.pipe(Effect.orDie)
  io.on(ODDS_EVENTS.stored, (target: unknown) => {
    if (typeof target === "number" && target > seq) fork(syncTo(target))
  })
  yield* sync.pipe(Effect.catchCause((cause) => Effect.logWarning("odds: reading the store failed", cause)), Effect.delay(SYNC_EVERY), Effect.forever, Effect.forkScoped)

  // ---- every server: what its clients watch; the leader adds up every server's ------------------
  const me = randomBytes(8).toString("hex")
  const remote = new Map<string, { readonly events: Readonly<Record<string, number>>; readonly at: number }>()
  let watchingSoon: ReturnType<typeof setTimeout> | undefined
  const serving = serveBooks(books, () => {
    watchingSoon ??= setTimeout(() => {
      watchingSoon = undefined
      sendWatching()
    }, 200)
  })
  const local = serving.watching
  const sendWatching = () => io.serverSideEmit(ODDS_EVENTS.watching, { server: me, events: Object.fromEntries(local) })
  io.on(ODDS_EVENTS.watching, (message: unknown) => {
    if (Schema.is(Watching)(message)) remote.set(message.server, { events: message.events, at: Date.now() })
  })
  io.on(ODDS_EVENTS.leading, () => sendWatching())
  yield* Effect.sync(sendWatching).pipe(Effect.delay(WATCHING_EVERY), Effect.forever, Effect.forkScoped)
  yield* Effect.addFinalizer(() => Effect.sync(() => clearTimeout(watchingSoon)))
  const watchers = (eventId: string) => {
    let count = local.get(eventId) ?? 0
    const fresh = Date.now() - WATCHING_FRESH_MS
    for (const [server, heard] of remote) {
      if (heard.at < fresh) remote.delete(server)
      else count += heard.events[eventId] ?? 0
    }
    return count
  }

  // ---- the leader -------------------------------------------------------------------------------
  let leading: Leading | undefined
  const decided = yield* Deferred.make<void>()

  const lead = (connection: LeaderConnection) =>
    Effect.gen(function*() {
      const { epoch } = yield* store.takeOver(connection, config.serverId)
      const outbox = { markets: new Map<string, PricedMarket>(), scores: new Map<string, Score>() }
      const simulator = makeSimulator({ fixtures, lifecycle, draws }, options, {
        publish: (changes) => {
          for (const market of changes.markets) outbox.markets.set(market.book.marketId, market)
          for (const score of changes.scores) outbox.scores.set(score.eventId, score)
        },
        catalogueChanged: serving.catalogueChanged,
        watchers
      }, store.carried)
      const writing = yield* Semaphore.make(1)
      /** Stores what changed since the last flush, then serves it here and tells every server. */
      const flush = writing.withPermits(1)(Effect.gen(function*() {
        if (outbox.markets.size === 0 && outbox.scores.size === 0) return seq
        const changes = { markets: [...outbox.markets.values()], scores: [...outbox.scores.values()] }
        outbox.markets.clear()
        outbox.scores.clear()
        const models = new Map(changes.markets.flatMap((m) => {
          const model = simulator.modelOf(m.book.marketId)
          return model ? [[m.book.marketId, model] as const] : []
        }))
        const written = yield* store.write(connection, epoch, { ...changes, models })
        yield* reading.withPermits(1)(Effect.sync(() => {
          const writtenAt = Date.now()
          books.apply({ ...changes, markets: changes.markets.map((market) => ({ ...market, writtenAt })) })
          seq = Math.max(seq, written)
          syncedAt = Date.now()
        }))
        io.serverSideEmit(ODDS_EVENTS.stored, written)
        return written
      }))
      yield* simulator.load(yield* now)
      yield* flush
      yield* store.prune(connection).pipe(Effect.catchCause((cause) => Effect.logWarning("odds: pruning failed", cause)), Effect.delay(PRUNE_EVERY), Effect.forever, Effect.forkScoped)
      yield* runSimulator(simulator)
      leading = {
        simulator,
        setPrice: (input) =>
          Effect.gen(function*() {
            const book = yield* simulator.setPrice(input, yield* now)
            return { book, seq: yield* flush.pipe(Effect.orDie) }
          }),
        reload: Effect.gen(function*() {
          yield* simulator.load(yield* now)
          return yield* flush
        }).pipe(Effect.orDie)
      }
      yield* Effect.addFinalizer(() =>
        Effect.gen(function*() {
          leading = undefined
          // What changed since the last flush, if the connection still takes it.
          yield* flush.pipe(Effect.ignore)
          yield* Effect.logInfo("odds leadership ended", { epoch, server: config.serverId })
        })
      )
      io.serverSideEmit(ODDS_EVENTS.leading)
      yield* Effect.logInfo("odds leadership taken", { epoch, server: config.serverId })
      yield* Deferred.succeed(decided, undefined)
      // For as long as it leads. A write that fails (the connection, and with it the lock, is gone) ends the
      // leadership: nothing unwritten was served, and the next leader carries on from what was.
      return yield* flush.pipe(Effect.delay(FLUSH_EVERY), Effect.forever)
    })

  yield* campaign(config.databaseUrl!, `khel-odds ${config.serverId}`, lead, Deferred.succeed(decided, undefined).pipe(Effect.asVoid)).pipe(
    Effect.catchCause((cause) => Effect.logWarning("odds leadership ended; campaigning again", cause)),
    Effect.andThen(Effect.sleep("1 second")),
    Effect.forever,
    Effect.forkScoped
  )
  // Serve once this server knows whether it leads (a lone server leads before its first request).
  yield* Deferred.await(decided)

  // ---- commands that reach the leader from any server --------------------------------------------
  const answer = (effect: Effect.Effect<{ readonly book?: MarketBook; readonly seq: number }, ApiError>, ack: (answer: Answer) => void) =>
    fork(effect.pipe(
      Effect.map((result): Answer => result),
      Effect.catch((error) => Effect.succeed<Answer>({ error: { code: error.code, message: error.message, tag: error.tag } })),
      Effect.tap((result) => Effect.sync(() => ack(result)))
    ))
  io.on(ODDS_EVENTS.setPrice, (input: unknown, ack: unknown) => {
    if (typeof ack !== "function") return
    if (!leading || !Schema.is(MarketPricePayload)(input)) return ack(null)
    answer(leading.setPrice(input), ack as (answer: Answer) => void)
  })
  io.on(ODDS_EVENTS.taken, (message: unknown) => {
    if (leading && Schema.is(TakenMessage)(message)) fork(Effect.flatMap(now, (at) => Effect.sync(() => leading?.simulator.take(message.marketId, message, at))))
  })
  io.on(ODDS_EVENTS.reload, (ack: unknown) => {
    if (!leading) return typeof ack === "function" ? ack(null) : undefined
    answer(Effect.map(leading.reload, (written) => ({ seq: written })), typeof ack === "function" ? ack as (answer: Answer) => void : () => undefined)
  })

  /** Asks every other server; the leader answers, the others say null. */
  const forward = (event: string, ...args: ReadonlyArray<unknown>) =>
    Effect.callback<Answer | undefined>((resume) => {
      io.serverSideEmit(event, ...args, (_error: Error | null, responses: ReadonlyArray<unknown>) => {
        const found = responses.find((response) => Schema.is(Answer)(response))
        resume(Effect.succeed(found as Answer | undefined))
      })
    })

  const viaLeader = (local: (leader: Leading) => Effect.Effect<{ readonly book?: MarketBook; readonly seq: number }, ApiError>, event: string, ...args: ReadonlyArray<unknown>) =>
    Effect.gen(function*() {
      const result = leading ? yield* local(leading) : yield* forward(event, ...args)
      if (!result) return yield* noLeader()
      if ("error" in result) return yield* refuse(result.error.tag, result.error.message)
      yield* syncTo(result.seq).pipe(Effect.orDie)
      return result
    })

  const feed = OddsFeed.of({
    ...serving.serves,
    storedBook: store.bookColumn,
    syncedAt: () => syncedAt,
    setPrice: (input) =>
      viaLeader((leader) => leader.setPrice(input), ODDS_EVENTS.setPrice, input).pipe(
        Effect.flatMap((result) => (result.book ? Effect.succeed(result.book) : noLeader()))
      ),
    // The leader's ladder is the one served: told there, stored with its next flush.
    take: (marketId, taken) =>
      Effect.flatMap(now, (at) =>
        Effect.sync(() => {
          if (leading) leading.simulator.take(marketId, taken, at)
          else io.serverSideEmit(ODDS_EVENTS.taken, { marketId, ...taken })
        })
      ),
    reload: viaLeader((leader) => Effect.map(leader.reload, (written) => ({ seq: written })), ODDS_EVENTS.reload).pipe(Effect.ignore)
  })
  return Context.make(OddsFeed, feed).pipe(Context.add(Simulation, Simulation.of({ current: Effect.sync(() => leading?.simulator) })))
}))
