import { Context, Effect, Layer } from "effect"
import { type ApiError, refuse } from "../../src/schema/envelope.ts"
import { ServerConfig } from "../config.ts"
import { RateLimits, waitText } from "../limits/RateLimits.ts"

/** Wrong passwords for one account from one address that cost nothing (typos happen). */
export const FREE_FAILURES = 4
/** The first wait after the free ones, doubled at each further failure, up to the longest. */
export const FIRST_DELAY_SECONDS = 30
export const LONGEST_DELAY_SECONDS = 15 * 60
/** An address that reaches its failure limit (SIGNIN_FAILURES_PER_ADDRESS) waits this long; failures count over the same window. */
export const ADDRESS_WINDOW_SECONDS = 15 * 60
/** A run of failures for an account from an address is forgotten a day after its first failure. */
const PAIR_MEMORY_SECONDS = 24 * 3600

/** How long an address waits after its `failures`-th wrong password for one account: 0, then 30 s, 1, 2, 4, 8, 15 min. */
export const signInDelaySeconds = (failures: number) =>
  failures <= FREE_FAILURES ? 0 : Math.min(FIRST_DELAY_SECONDS * 2 ** (failures - FREE_FAILURES - 1), LONGEST_DELAY_SECONDS)

/**
 * Throttles whoever guesses passwords, not the account they guess at: wrong
 * passwords are counted per (address, account), with growing waits, and per
 * address over all accounts. The owner signing in from another address is
 * never held up by what an attacker does elsewhere. Known and unknown
 * accounts count alike, so the answers never tell which exist.
 */
export class Throttle extends Context.Service<Throttle, {
  /** Refuses a sign-in from `address` to `account` that has to wait. */
  check(address: string, account: string): Effect.Effect<void, ApiError>
  failed(address: string, account: string): Effect.Effect<void>
  succeeded(address: string, account: string): Effect.Effect<void>
}>()("khel/Throttle") {
  static readonly layer = Layer.effect(
    Throttle,
    Effect.gen(function*() {
      const limits = yield* RateLimits
      const { limits: settings } = yield* ServerConfig
      const pairFailures = limits.make({ name: "signin_pair", points: Number.MAX_SAFE_INTEGER, seconds: PAIR_MEMORY_SECONDS })
      const pairWait = limits.make({ name: "signin_wait", points: 0, seconds: LONGEST_DELAY_SECONDS })
      const addressFailures = limits.make({ name: "signin_address", points: settings.signInFailuresPerAddress, seconds: ADDRESS_WINDOW_SECONDS })
      const pairKey = (address: string, account: string) => `${address}|${account}`

      const check = Effect.fn("Throttle.check")(function*(address: string, account: string) {
        const addressWait = yield* addressFailures.waitFor(address)
        if (addressWait > 0) return yield* refuse("RateLimited", `Too many failed sign-ins from your network. Try again in ${waitText(addressWait)}.`)
        const wait = yield* pairWait.waitFor(pairKey(address, account))
        if (wait > 0) return yield* refuse("RateLimited", `Too many failed attempts. Try again in ${waitText(wait)}.`)
      })

      const failed = Effect.fn("Throttle.failed")(function*(address: string, account: string) {
        const failures = yield* pairFailures.count(pairKey(address, account))
        const delay = signInDelaySeconds(failures)
        if (delay > 0) yield* pairWait.block(pairKey(address, account), delay)
        yield* addressFailures.strike(address)
      })

      const succeeded = Effect.fn("Throttle.succeeded")(function*(address: string, account: string) {
        yield* pairFailures.reset(pairKey(address, account))
        yield* pairWait.reset(pairKey(address, account))
      })

      return Throttle.of({ check, failed, succeeded })
    })
  )
}
