import { assign, fromPromise, raise, setup } from "xstate"
import { type BonusAction, canActOn } from "../domain/bonus.ts"
import type { BonusData } from "../schema/bonus.ts"
import type { Failure } from "../schema/errors.ts"
import { watchBalances } from "./balances.ts"
import { type CallFailed, failedWith } from "./calls.ts"
import { listRegion } from "./listRegion.ts"
import { unprovided, unprovidedAction } from "./unprovided.ts"
import { newIdempotencyKey, type Refusal, refusalOf, type Written } from "./writes.ts"

/**
 * /bonus: the player's bonuses and bonus wallet, and the actions of SPEC
 * section 4 on them — activate, claim, forfeit (after the player confirms),
 * one at a time, each with its own Idempotency-Key. The server answers an
 * action with the bonuses as they now are. A bonus that moved meanwhile
 * (another tab, wagering completed it) is refused as a Conflict, and a lost
 * answer leaves its outcome unknown: either way the list loads again. The list
 * also reloads when the player's money moves (a settled bet counts towards the
 * wagering). The wallet switch on the page is the wallet machine's.
 */
export interface BonusContext {
  /** The bonuses and the bonus wallet, once loaded. */
  readonly data: BonusData | undefined
  /** The action asked for or running, and its key. */
  readonly pending: BonusRequest | undefined
  /** Why the server refused the last action. */
  readonly refusal: Refusal | undefined
}

export type BonusEvent =
  | { type: "bonus.activate"; bonusId: string }
  | { type: "bonus.claim"; bonusId: string }
  | { type: "bonus.forfeit"; bonusId: string }
  | { type: "forfeit.confirm" }
  | { type: "forfeit.cancel" }
  | { type: "bonus.reload" }
  | { type: "balances.changed" }

/** An action as it is sent. */
export interface BonusRequest {
  readonly action: BonusAction
  readonly bonusId: string
  readonly key: string
}

/** An action on a bonus, with a key of its own. */
const request = (action: BonusAction, bonusId: string): BonusRequest => ({ action, bonusId, key: newIdempotencyKey(`bonus-${action}`) })

const bonusSetup = setup({
  types: {
    context: {} as BonusContext,
    events: {} as BonusEvent | CallFailed<"act" | "loadBonuses">
  },
  actors: {
    watchBalances,
    loadBonuses: fromPromise<BonusData>(unprovided("bonus", "loadBonuses")),
    act: fromPromise<Written<BonusData>, BonusRequest>(unprovided("bonus", "act"))
  },
  actions: {
    /** The server's answer to an action ('Bonus activated…'), SPEC section 7. */
    toastSuccess: unprovidedAction<{ message: string }>("bonus", "toastSuccess"),
    /** Why a call failed (SPEC section 8). */
    toastFailure: unprovidedAction<{ error: Failure }>("bonus", "toastFailure")
  },
  guards: {
    /** The bonus is listed in a status the action applies to. */
    applies: ({ context }, params: { action: BonusAction; bonusId: string }) => {
      const bonus = context.data?.bonuses.find((b) => b._id === params.bonusId)
      return bonus !== undefined && canActOn(params.action, bonus.status)
    },
    /** The list on screen is out of date (the bonus moved) or the outcome is unknown (no answer). */
    listStale: failedWith("Conflict", "NotFound", "Unreachable")
  }
})

export const bonusMachine = bonusSetup.createMachine({
  id: "bonus",
  context: { data: undefined, pending: undefined, refusal: undefined },
  type: "parallel",
  invoke: { id: "watchBalances", src: "watchBalances" },
  states: {
    List: listRegion(bonusSetup, {
      on: {
        "bonus.reload": ".Loading",
        "balances.changed": ".Loading"
      },
      load: { id: "loadBonuses", src: "loadBonuses" },
      done: { data: ({ event }) => event.output },
      fail: { type: "toastFailure", params: ({ event }) => ({ error: event.error }) },
      failedTags: ["failed"]
    }),
    Action: {
      initial: "Idle",
      states: {
        Idle: {
          on: {
            "bonus.activate": {
              guard: { type: "applies", params: ({ event }) => ({ action: "activate", bonusId: event.bonusId }) },
              target: "Running",
              actions: assign({ pending: ({ event }) => request("activate", event.bonusId), refusal: undefined })
            },
            "bonus.claim": {
              guard: { type: "applies", params: ({ event }) => ({ action: "claim", bonusId: event.bonusId }) },
              target: "Running",
              actions: assign({ pending: ({ event }) => request("claim", event.bonusId), refusal: undefined })
            },
            "bonus.forfeit": {
              guard: { type: "applies", params: ({ event }) => ({ action: "forfeit", bonusId: event.bonusId }) },
              target: "Confirming",
              actions: assign({ pending: ({ event }) => request("forfeit", event.bonusId), refusal: undefined })
            }
          }
        },
        /** Forfeiting removes the bonus wallet's money: the player says so first. */
        Confirming: {
          tags: ["confirming"],
          on: {
            "forfeit.confirm": "Running",
            "forfeit.cancel": { target: "Idle", actions: assign({ pending: undefined }) }
          }
        },
        Running: {
          tags: ["busy"],
          invoke: {
            id: "act",
            src: "act",
            input: ({ context }) => context.pending!,
            onDone: {
              target: "Idle",
              actions: [assign({ data: ({ event }) => event.output.data, pending: undefined }), { type: "toastSuccess", params: ({ event }) => ({ message: event.output.message }) }]
            }
          },
          on: {
            "xstate.error.actor.act": [
              {
                guard: "listStale",
                target: "Idle",
                actions: [
                  assign({ refusal: ({ event }) => refusalOf(event.error), pending: undefined }),
                  { type: "toastFailure", params: ({ event }) => ({ error: event.error }) },
                  raise({ type: "bonus.reload" })
                ]
              },
              // The toast says why (the wagering is not met yet, say); the list is as it was.
              {
                target: "Idle",
                actions: [assign({ refusal: ({ event }) => refusalOf(event.error), pending: undefined }), { type: "toastFailure", params: ({ event }) => ({ error: event.error }) }]
              }
            ]
          }
        }
      }
    }
  }
})
