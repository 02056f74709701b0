import { Clock, Context, Effect, Layer } from "effect"
import { SqlClient, type SqlError, type Statement } from "effect/sql"
import { closureAt } from "../../src/domain/protection.ts"
import { type ApiError, refuse } from "../../src/schema/envelope.ts"
import { COMPLIANCE_KEY, switchesOf } from "./Compliance.ts"
import { type BetProtectionInputs, protectionReads, type ProtectionRules, refuseIfClosed, timesOf, type Usage, usageOf, windowsAt } from "./rules.ts"

type Failure = ApiError | SqlError.SqlError

export const DEPOSITS_CLOSED = "Real-money deposits are closed at the moment: Khel runs on demo credit."

/**
 * Protection where money moves: the checks deposits, bets, the casino and
 * bonuses call before they move it, and the results of play the loss limits
 * count. The checks run inside the caller's transaction, take the player's
 * row lock (FOR NO KEY UPDATE: it serialises the player's money moves without
 * blocking the foreign keys that point at the player) and count what is
 * already committed, so no two parallel requests pass a limit together.
 * Every time the rules compare comes from the server's clock.
 */
export class Admission extends Context.Service<Admission, {
  /** A dry run of `admitDeposit` before anything is stored: refuses what would be refused now. */
  readonly checkDeposit: (userId: string, amountPaise: number) => Effect.Effect<void, Failure>
  /** Inside the deposit request's transaction: refuses a closed account, closed deposits or a limit passed; counts the deposit. */
  readonly admitDeposit: (userId: string, depositId: string, amountPaise: number) => Effect.Effect<void, Failure>
  /**
   * For a bet's `bet_inputs` call (migration 0081): the arguments after the player and the market that give its
   * loss rules and, when a loss limit is in force, what the limit counts now. Built once per decision, so the
   * bet's read and its write's check count the same windows.
   */
  readonly betInputArgs: () => Statement.Fragment
  /** By the rules and counts `bet_inputs` read: refuses a closed account, or a bet whose added worst case could pass a loss limit. */
  readonly admitBet: (inputs: BetProtectionInputs, userId: string, addedRiskPaise: number) => Effect.Effect<void, Failure>
  /** Inside the casino debit's transaction: like a bet, and the stake counts as lost until the round pays back. */
  readonly admitCasinoStake: (userId: string, amountPaise: number, reference: string) => Effect.Effect<void, Failure>
  /** Refuses a closed account: casino launches, bonuses. Moves nothing, takes no lock. */
  readonly admitPlay: (userId: string) => Effect.Effect<void, Failure>
  /** `admitPlay` by rules a caller's read has already read (the bet's `bet_inputs`). */
  readonly admitPlayBy: (state: ProtectionRules) => Effect.Effect<void, Failure>
  /** A result of play (positive won, negative lost), inside the transaction that pays or collects it. */
  readonly recordResult: (userId: string, source: "sports" | "casino", amountPaise: number, reference: string) => Effect.Effect<void, SqlError.SqlError>
  /** Offers and promotions are not shown to a player on a time-out or self-excluded. */
  readonly hidesMarketing: (userId: string) => Effect.Effect<boolean, SqlError.SqlError>
}>()("khel/Admission") {
  static readonly layer = Layer.effect(
    Admission,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const clock = yield* Clock.Clock
      const now = () => new Date(clock.currentTimeMillisUnsafe())
      const { loadRules, loadState, enforceLimits } = protectionReads(sql)

    const depositRules = (userId: string, amount: number, lock: boolean) =>
      Effect.gen(function*() {
        const row = yield* loadRules(userId, "deposit", lock)
        // Read after the lock: what a request that held it before us counted is older than this.
        const at = now()
        yield* refuseIfClosed(row, at)
        if (!switchesOf(row.switches).depositsOpen) return yield* refuse("DepositsClosed", DEPOSITS_CLOSED)
        yield* enforceLimits("deposit", userId, row.inForce, amount, at, "deposit")
        return at
      })

    const checkDeposit = Effect.fn("Admission.checkDeposit")(function*(userId: string, amount: number) {
      yield* depositRules(userId, amount, false)
    })

    const admitDeposit = Effect.fn("Admission.admitDeposit")(function*(userId: string, depositId: string, amount: number) {
      const at = yield* depositRules(userId, amount, true)
      yield* sql`INSERT INTO protection_deposits (deposit_id, user_id, amount, at) VALUES (${depositId}, ${userId}, ${amount}, ${at})`
    })

    const lossRules = (userId: string, added: number, what: "bet" | "stake") =>
      Effect.flatMap(loadRules(userId, "loss", true), (row) => enforceLoss(row, userId, added, what))

    /**
     * Refuses a closed account, or `added` past a loss limit, by rules read under the player's row lock (or
     * verified under it, as a bet's are) and what the limits count (`counted`, else read now).
     */
    const enforceLoss = (row: ProtectionRules, userId: string, added: number, what: "bet" | "stake", counted?: Usage) =>
      Effect.gen(function*() {
        const at = now()
        yield* refuseIfClosed(row, at)
        yield* enforceLimits("loss", userId, row.inForce, added, at, what, counted)
        return at
      })

    const betInputArgs = () => {
      const { day, week, month } = windowsAt(now())
      return sql`${COMPLIANCE_KEY}, ${day}, ${week}, ${month}`
    }

    const admitBet = Effect.fn("Admission.admitBet")(function*(inputs: BetProtectionInputs, userId: string, added: number) {
      yield* enforceLoss(inputs, userId, added, "bet", inputs.open === null ? undefined : usageOf(inputs))
    })

    const admitCasinoStake = Effect.fn("Admission.admitCasinoStake")(function*(userId: string, amount: number, reference: string) {
      const at = yield* lossRules(userId, amount, "stake")
      yield* sql`INSERT INTO protection_results (user_id, source, amount, reference, at) VALUES (${userId}, 'casino', ${-amount}, ${reference}, ${at})`
    })

    const admitPlay = Effect.fn("Admission.admitPlay")(function*(userId: string) {
      yield* refuseIfClosed(yield* loadState(userId, false), now())
    })

    const admitPlayBy = Effect.fn("Admission.admitPlayBy")(function*(state: ProtectionRules) {
      yield* refuseIfClosed(state, now())
    })

    const recordResult = Effect.fn("Admission.recordResult")(function*(userId: string, source: "sports" | "casino", amount: number, reference: string) {
      if (amount === 0) return
      yield* sql`INSERT INTO protection_results (user_id, source, amount, reference, at) VALUES (${userId}, ${source}, ${amount}, ${reference}, ${now()})`
    })

    const hidesMarketing = Effect.fn("Admission.hidesMarketing")(function*(userId: string) {
      return closureAt(timesOf(yield* loadState(userId, false)), now()) !== undefined
    })

      return Admission.of({
        checkDeposit,
        admitDeposit,
        betInputArgs,
        admitBet,
        admitCasinoStake,
        admitPlay,
        admitPlayBy,
        recordResult,
        hidesMarketing
      })
    })
  )
}
