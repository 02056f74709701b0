import { assign, fromPromise, raise, setup } from "xstate"
import type { Failure } from "../schema/errors.ts"
import type { ReferralTransaction, ReferralUsers, ReferralWeek, WeeklyQuery } from "../schema/referral.ts"
import { watchBalances } from "./balances.ts"
import type { CallFailed } from "./calls.ts"
import { listRegion } from "./listRegion.ts"
import { unprovided, unprovidedAction } from "./unprovided.ts"
import { newIdempotencyKey, type Refusal, refusalOf, unanswered, type Written } from "./writes.ts"

/**
 * /referral-bonus: the player's referral code and the friends who joined with
 * it, their rewards by week (the weeks asked for with `startDate` and
 * `endDate`, SPEC section 7), the referral transactions, and the claim of the
 * referral bonus to the main balance (with an Idempotency-Key, kept after a
 * lost answer so trying again is the same claim). The lists load again after
 * a claim and whenever the player's money moves (a referred friend's first
 * deposit is approved).
 */
/** What the page lists: the code, the bonus and the friends; the rewards by week; the transactions. */
export interface Referrals {
  readonly users: ReferralUsers
  readonly weeks: ReadonlyArray<ReferralWeek>
  readonly transactions: ReadonlyArray<ReferralTransaction>
}

export interface ReferralContext {
  /** The weeks the weekly list covers. */
  readonly weekly: Required<WeeklyQuery>
  readonly referrals: Referrals | undefined
  /** Idempotency-Key of the claim in flight, kept after a lost answer. */
  readonly key: string | undefined
  /** Why the server refused the last claim. */
  readonly refusal: Refusal | undefined
}

export type ReferralEvent =
  | { type: "referral.claim" }
  | { type: "referrals.reload" }
  | { type: "balances.changed" }

export interface ReferralInput {
  /** The weeks to list (the last eight when the page opens). */
  readonly weekly: Required<WeeklyQuery>
}

const referralSetup = setup({
  types: {
    context: {} as ReferralContext,
    events: {} as ReferralEvent | CallFailed<"claim" | "loadReferrals">,
    input: {} as ReferralInput
  },
  actors: {
    watchBalances,
    /** The three lists, asked for together (the weekly one with startDate and endDate). */
    loadReferrals: fromPromise<Referrals, Required<WeeklyQuery>>(unprovided("referral", "loadReferrals")),
    claim: fromPromise<Written<ReferralUsers>, { key: string }>(unprovided("referral", "claim"))
  },
  actions: {
    /** The server's message on a claim (SPEC section 7). */
    toastSuccess: unprovidedAction<{ message: string }>("referral", "toastSuccess"),
    /** Why a call failed (SPEC section 8). */
    toastFailure: unprovidedAction<{ error: Failure }>("referral", "toastFailure")
  },
  guards: {
    /** There is a referral bonus to claim. */
    hasBonus: ({ context }) => (context.referrals?.users.refBonus ?? 0) > 0,
    unanswered
  }
})

export const referralMachine = referralSetup.createMachine({
  id: "referral",
  context: ({ input }) => ({ weekly: input.weekly, referrals: undefined, key: undefined, refusal: undefined }),
  type: "parallel",
  invoke: { id: "watchBalances", src: "watchBalances" },
  states: {
    Lists: listRegion(referralSetup, {
      on: {
        "referrals.reload": ".Loading",
        // The player's money moved: a friend's deposit brought a reward, or a claim landed.
        "balances.changed": ".Loading"
      },
      load: { id: "loadReferrals", src: "loadReferrals", input: ({ context }) => context.weekly },
      done: { referrals: ({ event }) => event.output },
      fail: { type: "toastFailure", params: ({ event }) => ({ error: event.error }) }
    }),
    Claim: {
      initial: "Idle",
      states: {
        Idle: {
          on: {
            "referral.claim": { guard: "hasBonus", target: "Claiming", actions: assign({ key: ({ context }) => context.key ?? newIdempotencyKey("referral-claim"), refusal: undefined }) }
          }
        },
        Claiming: {
          tags: ["busy"],
          invoke: {
            id: "claim",
            src: "claim",
            input: ({ context }) => ({ key: context.key! }),
            // The answer is the referral bonus as it now is; the transactions gained the claim.
            onDone: {
              target: "Idle",
              actions: [
                assign({ referrals: ({ context, event }) => context.referrals && { ...context.referrals, users: event.output.data }, key: undefined }),
                { type: "toastSuccess", params: ({ event }) => ({ message: event.output.message }) },
                raise({ type: "referrals.reload" })
              ]
            }
          },
          on: {
            "xstate.error.actor.claim": [
              {
                guard: "unanswered",
                target: "Idle",
                actions: [assign({ refusal: ({ event }) => refusalOf(event.error) }), { type: "toastFailure", params: ({ event }) => ({ error: event.error }) }]
              },
              // The toast says why; another claim is another request.
              {
                target: "Idle",
                actions: [assign({ refusal: ({ event }) => refusalOf(event.error), key: undefined }), { type: "toastFailure", params: ({ event }) => ({ error: event.error }) }]
              }
            ]
          }
        }
      }
    }
  }
})
