/** The simulator as the server runs it: its options from the environment, its steps on the clock, and the service that reaches it. */
import { Context, Effect } from "effect"
import { CADENCE, type Simulator, type SimulatorOptions } from "./Simulator.ts"

export const simulatorOptionsFromEnv = (env: NodeJS.ProcessEnv = process.env): SimulatorOptions => ({
  running: env.ODDS_SIMULATOR !== "off",
  updatesPerSecond: Math.max(1, Math.min(5000, Number(env.ODDS_UPDATES_PER_SECOND ?? 12) || 12))
})

/**
 * The simulator this process runs, if it runs one (with several servers,
 * only the leader does): tests call its steps (`tick`, `scores`,
 * `lifecycle`) with the moment they choose.
 */
export class Simulation extends Context.Service<Simulation, {
  readonly current: Effect.Effect<Simulator | undefined>
}>()("khel/Simulation") {}

/**
 * Runs the simulator's steps from the clock for the life of the scope: prices
 * every 20 ms, scores every 500 ms, the lifecycle every 5 s, each in its own
 * fiber (a slow database never holds prices up). A failed step is logged and
 * the next one runs.
 */
export const runSimulator = (simulator: Simulator) =>
  Effect.gen(function*() {
    if (!simulator.options.running) return
    const every = (ms: number, step: (now: number) => Effect.Effect<unknown, unknown>, name: string) =>
      Effect.clockWith((clock) => step(clock.currentTimeMillisUnsafe())).pipe(
        Effect.andThen(simulator.report),
        Effect.catchCause((cause) => Effect.logError(`odds ${name} failed`, cause)),
        Effect.andThen(Effect.sleep(ms)),
        Effect.forever,
        Effect.forkScoped
      )
    yield* every(CADENCE.tickMs, (now) => Effect.sync(() => simulator.tick(now)), "tick")
    yield* every(CADENCE.scoresMs, simulator.scores, "scores")
    yield* every(CADENCE.lifecycleMs, simulator.lifecycle, "lifecycle")
  })
