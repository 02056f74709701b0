import { Clock, Context, Effect, Layer } from "effect"
import { ServerConfig } from "../config.ts"
import { BookStore } from "./BookStore.ts"
import { makeBooks, serveBooks } from "./Books.ts"
import { ClusterFeedLive } from "./cluster.ts"
import { Draws } from "./Draws.ts"
import { Fixtures } from "./Fixtures.ts"
import { Lifecycle } from "./Lifecycle.ts"
import { OddsFeed } from "./OddsFeed.ts"
import { runSimulator, Simulation, simulatorOptionsFromEnv } from "./runSimulator.ts"
import { makeSimulator } from "./Simulator.ts"

export { Simulation } from "./runSimulator.ts"

/**
 * One process, one simulator (the embedded database's path): the simulator
 * publishes straight into the books this server serves.
 */
const singleProcess = Layer.effectContext(Effect.gen(function*() {
  const fixtures = yield* Fixtures
  const lifecycle = yield* Lifecycle
  const draws = yield* Draws
  const books = makeBooks()
  const serving = serveBooks(books)
  const simulator = makeSimulator({ fixtures, lifecycle, draws }, simulatorOptionsFromEnv(), {
    publish: books.apply,
    catalogueChanged: serving.catalogueChanged,
    watchers: (eventId) => serving.watching.get(eventId) ?? 0
  })
  yield* simulator.load(yield* Clock.currentTimeMillis).pipe(Effect.orDie)
  yield* runSimulator(simulator)

  const feed = OddsFeed.of({
    ...serving.serves,
    storedBook: undefined,
    syncedAt: undefined,
    setPrice: (input) => Effect.flatMap(Clock.currentTimeMillis, (now) => simulator.setPrice(input, now)),
    take: (marketId, taken) => Effect.flatMap(Clock.currentTimeMillis, (now) => Effect.sync(() => simulator.take(marketId, taken, now))),
    reload: Effect.flatMap(Clock.currentTimeMillis, (now) => simulator.load(now)).pipe(Effect.orDie)
  })
  return Context.make(OddsFeed, feed).pipe(Context.add(Simulation, Simulation.of({ current: Effect.succeed(simulator) })))
}))

/**
 * The feed the server runs: the simulator (ODDS_SIMULATOR, ODDS_UPDATES_PER_SECOND), with its fixtures and
 * lifecycle; on PostgreSQL, one simulator for every server (cluster.ts).
 */
export const OddsFeedLive = Layer.unwrap(Effect.gen(function*() {
  const config = yield* ServerConfig
  return config.databaseUrl ? ClusterFeedLive : singleProcess
})).pipe(Layer.provide(Lifecycle.layer), Layer.provideMerge(Layer.mergeAll(Fixtures.layer, BookStore.layer)))
