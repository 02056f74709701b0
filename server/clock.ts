import { Clock, Context, Effect, Layer } from "effect"
import { ServerConfig } from "./config.ts"

/**
 * The server's clock. It is Effect's `Clock`, so services read the time with
 * `Clock.currentTimeMillis` (or take the clock once when their layer is
 * built). In production it is the machine's clock. With TEST_CLOCK on it is
 * the machine's clock plus an offset that only grows, moved by the test-only
 * route (edge/testClock.ts), and it can be frozen so a test reads exactly the instant it
 * set: tests step over 24 hours, 7 days or a month, to the millisecond,
 * without sleeping. Sleeping itself (delays, retries) still runs on real time.
 */
export class ClockControl extends Context.Service<ClockControl, {
  /** Moves the clock forward and returns the time it now reads. */
  advance(millis: number): Effect.Effect<Date>
  /** Stops the clock where it is (it moves only when advanced) or lets it run on from there. */
  freeze(frozen: boolean): Effect.Effect<Date>
  readonly status: Effect.Effect<{ readonly now: Date; readonly offsetMillis: number; readonly frozen: boolean }>
}>()("khel/ClockControl") {}

const movable = (real: Clock.Clock) => {
  let offset = 0
  let frozenAt: number | undefined
  const nowMillis = () => frozenAt ?? real.currentTimeMillisUnsafe() + offset
  const clock: Clock.Clock = {
    currentTimeMillisUnsafe: nowMillis,
    currentTimeMillis: Effect.sync(nowMillis),
    currentTimeNanosUnsafe: () => BigInt(nowMillis()) * 1_000_000n,
    currentTimeNanos: Effect.sync(() => BigInt(nowMillis()) * 1_000_000n),
    monotonicTimeNanosUnsafe: () => real.monotonicTimeNanosUnsafe(),
    monotonicTimeNanos: real.monotonicTimeNanos,
    sleep: (duration) => real.sleep(duration)
  }
  const status = Effect.sync(() => ({ now: new Date(nowMillis()), offsetMillis: nowMillis() - real.currentTimeMillisUnsafe(), frozen: frozenAt !== undefined }))
  const control = ClockControl.of({
    advance: (millis) =>
      Effect.sync(() => {
        if (frozenAt === undefined) offset += millis
        else frozenAt += millis
        return new Date(nowMillis())
      }),
    freeze: (frozen) =>
      Effect.sync(() => {
        if (frozen && frozenAt === undefined) frozenAt = nowMillis()
        if (!frozen && frozenAt !== undefined) {
          offset = frozenAt - real.currentTimeMillisUnsafe()
          frozenAt = undefined
        }
        return new Date(nowMillis())
      }),
    status
  })
  return { clock, control }
}

/** The movable clock (and its control) when TEST_CLOCK is on; nothing otherwise, so the default clock serves. */
export const ServerClockLive = Layer.unwrap(Effect.gen(function*() {
  const config = yield* ServerConfig
  if (!config.testClock) return Layer.empty
  const { clock, control } = movable(yield* Clock.Clock)
  return Layer.mergeAll(Layer.succeed(Clock.Clock, clock), Layer.succeed(ClockControl, control))
}))
