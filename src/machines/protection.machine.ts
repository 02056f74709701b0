import { assign, fromPromise, sendTo, setup } from "xstate"
import {
  coolingState,
  type ExclusionMonths,
  LIMIT_KINDS,
  LIMIT_PERIODS,
  type LimitKind,
  type LimitPeriod,
  parseLimitAmount,
  type RealityCheckMinutes,
  type TimeOutDays
} from "../domain/protection.ts"
import { toRupees } from "../domain/money.ts"
import { messageOf } from "../schema/failures.ts"
import type { Limit, Protection } from "../schema/protection.ts"
import { activityMachine } from "./activity.machine.ts"
import type { CallFailed } from "./calls.ts"
import { listRegion } from "./listRegion.ts"
import { realityCheckMachine } from "./realityCheck.machine.ts"
import { unprovided, unprovidedAction } from "./unprovided.ts"
import type { Written } from "./writes.ts"

/**
 * A signed-in player's protection (docs/protection.md), a flow of the app's
 * system (id `protection`) for as long as the player is signed in: the
 * layout holds it for the reality check, /responsible-gambling and /deposit
 * show and change it.
 *
 * - Data: the server's protection state, read when the flow opens and after
 *   every change; the server's clock comes with it.
 * - Command: one change at a time (a limit typed as free text, confirming a
 *   raised limit, the reality-check interval, a time-out, a self-exclusion,
 *   asking to return). A time-out and a self-exclusion cannot be undone, so
 *   they wait for the player to confirm them. A refusal keeps the server's
 *   message for the section it concerns. A self-exclusion ends the session.
 * - CoolingOff: a raised or removed limit waits 24 hours (Pending) and then
 *   waits for the player to confirm it (Confirmable); a timer moves it from
 *   one to the other at the time the server gave.
 * - Children: the reality check (`realityCheck`), kept in step with each
 *   read, and the activity statement (`activity`), loaded when a view asks.
 */

/** "deposit.day", "loss.month": one of the six limits. */
export type LimitKey = `${LimitKind}.${LimitPeriod}`
export const limitKey = (kind: LimitKind, period: LimitPeriod): LimitKey => `${kind}.${period}`
export const LIMIT_KEYS: ReadonlyArray<LimitKey> = LIMIT_KINDS.flatMap((kind) => LIMIT_PERIODS.map((period) => limitKey(kind, period)))

/** A change as it is sent to the server. */
export type ProtectionCommand =
  | { readonly type: "setLimit"; readonly kind: LimitKind; readonly period: LimitPeriod; readonly amount: number | null }
  | { readonly type: "confirmLimit"; readonly kind: LimitKind; readonly period: LimitPeriod }
  | { readonly type: "setRealityCheck"; readonly minutes: RealityCheckMinutes }
  | { readonly type: "timeOut"; readonly days: TimeOutDays }
  | { readonly type: "selfExclude"; readonly months: ExclusionMonths }
  | { readonly type: "requestReturn" }

/** The part of the page a command belongs to: where its refusal is shown. */
export type ProtectionSection = "limits" | "realityCheck" | "timeOut" | "selfExclusion"

export const sectionOf = (command: ProtectionCommand): ProtectionSection => {
  switch (command.type) {
    case "setLimit":
    case "confirmLimit":
      return "limits"
    case "setRealityCheck":
      return "realityCheck"
    case "timeOut":
      return "timeOut"
    case "selfExclude":
    case "requestReturn":
      return "selfExclusion"
  }
}

export interface ProtectionForm {
  /** The limits as typed, free text ("5000", "5,000.50", "₹ 10,000"). */
  readonly limits: Readonly<Record<LimitKey, string>>
  readonly timeOutDays: TimeOutDays
  readonly exclusionMonths: ExclusionMonths
}

export interface ProtectionContext {
  readonly protection: Protection | undefined
  /** The server's clock (ms) as of the last read or cooling-off tick: what "can it be confirmed yet" is judged by. */
  readonly now: number
  readonly form: ProtectionForm
  readonly fieldErrors: Partial<Record<LimitKey, string>>
  /** The change in flight, or waiting for the player to confirm it. */
  readonly command: ProtectionCommand | undefined
  /** The server's refusal of the last change, shown in its section. */
  readonly refusal: { readonly section: ProtectionSection; readonly message: string } | undefined
}

export type ProtectionEvent =
  | { type: "protection.reload" }
  | { type: "protection.loaded"; protection: Protection }
  | { type: "limit.change"; key: LimitKey; value: string }
  | { type: "limit.save"; key: LimitKey }
  | { type: "limit.remove"; key: LimitKey }
  | { type: "limit.confirm"; key: LimitKey }
  | { type: "realityCheck.set"; minutes: RealityCheckMinutes }
  | { type: "timeOut.change"; days: TimeOutDays }
  | { type: "timeOut.submit" }
  | { type: "selfExclusion.change"; months: ExclusionMonths }
  | { type: "selfExclusion.submit" }
  | { type: "return.request" }
  | { type: "command.confirm" }
  | { type: "command.cancel" }

const keyParts = (key: LimitKey) => {
  const [kind, period] = key.split(".") as [LimitKind, LimitPeriod]
  return { kind, period }
}

export const limitOf = (protection: Protection | undefined, key: LimitKey): Limit | undefined => {
  const { kind, period } = keyParts(key)
  return protection?.limits.find((limit) => limit.kind === kind && limit.period === period)
}

/** A limit's cooling-off stage at the server's time `now`: none, in force, pending, or confirmable. */
export const stageOf = (limit: Limit, now: number) =>
  coolingState({ amount: limit.amount, pending: limit.pending ? { amount: limit.pending.amount, confirmableAt: new Date(limit.pending.confirmableAt) } : null }, new Date(now))

/** When the next pending change becomes confirmable (server ms), if one is still waiting. */
export const nextConfirmable = (context: Pick<ProtectionContext, "protection" | "now">): number | undefined => {
  const times = (context.protection?.limits ?? [])
    .flatMap((limit) => (limit.pending ? [Date.parse(limit.pending.confirmableAt)] : []))
    .filter((at) => at > context.now)
  return times.length > 0 ? Math.min(...times) : undefined
}

const anyPending = (context: ProtectionContext) => (context.protection?.limits ?? []).some((limit) => limit.pending !== null)

const blankLimits = Object.fromEntries(LIMIT_KEYS.map((key) => [key, ""])) as Record<LimitKey, string>

const parsed = (context: ProtectionContext, key: LimitKey) => parseLimitAmount(context.form.limits[key])

const protectionSetup = setup({
  types: {
    context: {} as ProtectionContext,
    events: {} as ProtectionEvent | CallFailed<"run">,
    input: {} as Record<string, never>,
    children: {} as { load: "load"; run: "run"; realityCheck: "realityCheck"; activity: "activity" }
  },
  actors: {
    load: fromPromise<Protection>(unprovided("protection", "load")),
    /** Sends one change; answers the protection state after it and the server's message, shown as a toast. */
    run: fromPromise<Written<Protection>, ProtectionCommand>(unprovided("protection", "run")),
    realityCheck: realityCheckMachine,
    activity: activityMachine
  },
  actions: {
    /** The server's message on a change (what applies from when); a refusal shows in its section only. */
    toastSuccess: unprovidedAction<{ message: string }>("protection", "toastSuccess"),
    /** The state the server answered, and its clock. */
    keep: assign((_, params: { protection: Protection }) => ({ protection: params.protection, now: Date.parse(params.protection.serverTime) })),
    /** The reality check follows every read. */
    syncRealityCheck: sendTo("realityCheck", ({ context }) => ({
      type: "realityCheck.sync" as const,
      check: context.protection!.realityCheck,
      now: context.now
    })),
    /** A self-exclusion signed the player out everywhere: the session ends here too. */
    endSession: sendTo(({ system }) => system.get("session"), { type: "session.logout" as const })
  },
  delays: { untilConfirmable: ({ context }) => Math.max(0, (nextConfirmable(context) ?? context.now) - context.now) },
  guards: {
    amountInvalid: ({ context, event }) => event.type === "limit.save" && "error" in parsed(context, event.key),
    pendingWaiting: ({ context }) => nextConfirmable(context) !== undefined,
    pendingConfirmable: ({ context }) => anyPending(context) && nextConfirmable(context) === undefined,
    settled: ({ context }) => !anyPending(context),
    selfExcluded: ({ context }) => context.command?.type === "selfExclude"
  }
})

export const protectionMachine = protectionSetup.createMachine({
  id: "protection",
  context: {
    protection: undefined,
    now: 0,
    form: { limits: blankLimits, timeOutDays: 1, exclusionMonths: 6 },
    fieldErrors: {},
    command: undefined,
    refusal: undefined
  },
  type: "parallel",
  invoke: [
    { id: "realityCheck", systemId: "realityCheck", src: "realityCheck" },
    { id: "activity", systemId: "activity", src: "activity" }
  ],
  on: {
    // The reality check's Continue answers with the whole state.
    "protection.loaded": { actions: [{ type: "keep", params: ({ event }) => ({ protection: event.protection }) }, "syncRealityCheck"] },
    "limit.change": {
      actions: assign(({ context, event }) => ({
        form: { ...context.form, limits: { ...context.form.limits, [event.key]: event.value } },
        fieldErrors: { ...context.fieldErrors, [event.key]: undefined }
      }))
    },
    "timeOut.change": { actions: assign(({ context, event }) => ({ form: { ...context.form, timeOutDays: event.days } })) },
    "selfExclusion.change": { actions: assign(({ context, event }) => ({ form: { ...context.form, exclusionMonths: event.months } })) }
  },
  states: {
    Data: listRegion(protectionSetup, {
      settledOn: { "protection.reload": "Loading" },
      load: { id: "load", src: "load" },
      then: [{ type: "keep", params: ({ event }) => ({ protection: event.output }) }, "syncRealityCheck"],
      failedTags: ["failed"]
    }),
    Command: {
      initial: "Idle",
      states: {
        Idle: {
          on: {
            "limit.save": [
              {
                guard: "amountInvalid",
                actions: assign(({ context, event }) => {
                  const result = parsed(context, event.key)
                  return { fieldErrors: { ...context.fieldErrors, [event.key]: "error" in result ? result.error : undefined } }
                })
              },
              {
                target: "Saving",
                actions: assign(({ context, event }) => {
                  const result = parsed(context, event.key)
                  const amount = "paise" in result ? toRupees(result.paise) : null
                  return { command: { type: "setLimit" as const, ...keyParts(event.key), amount } }
                })
              }
            ],
            "limit.remove": { target: "Saving", actions: assign({ command: ({ event }) => ({ type: "setLimit" as const, ...keyParts(event.key), amount: null }) }) },
            "limit.confirm": { target: "Saving", actions: assign({ command: ({ event }) => ({ type: "confirmLimit" as const, ...keyParts(event.key) }) }) },
            "realityCheck.set": { target: "Saving", actions: assign({ command: ({ event }) => ({ type: "setRealityCheck" as const, minutes: event.minutes }) }) },
            "timeOut.submit": { target: "Confirming", actions: assign({ command: ({ context }) => ({ type: "timeOut" as const, days: context.form.timeOutDays }) }) },
            "selfExclusion.submit": {
              target: "Confirming",
              actions: assign({ command: ({ context }) => ({ type: "selfExclude" as const, months: context.form.exclusionMonths }) })
            },
            "return.request": { target: "Saving", actions: assign({ command: { type: "requestReturn" as const } }) }
          }
        },
        /** A time-out or a self-exclusion cannot be shortened: the player confirms it first. */
        Confirming: {
          tags: ["confirming"],
          on: {
            "command.confirm": "Saving",
            "command.cancel": { target: "Idle", actions: assign({ command: undefined }) }
          }
        },
        Saving: {
          tags: ["busy"],
          entry: assign({ refusal: undefined }),
          invoke: {
            id: "run",
            src: "run",
            input: ({ context }) => context.command!,
            onDone: [
              {
                guard: "selfExcluded",
                target: "Idle",
                actions: [{ type: "keep", params: ({ event }) => ({ protection: event.output.data }) }, { type: "toastSuccess", params: ({ event }) => ({ message: event.output.message }) }, assign({ command: undefined }), "endSession"]
              },
              {
                target: "Idle",
                actions: [
                  { type: "keep", params: ({ event }) => ({ protection: event.output.data }) },
                  { type: "toastSuccess", params: ({ event }) => ({ message: event.output.message }) },
                  // The box of a limit that was set goes back to empty: the page shows the limit in force.
                  assign(({ context }) => {
                    const command = context.command
                    const limits = command?.type === "setLimit" ? { ...context.form.limits, [limitKey(command.kind, command.period)]: "" } : context.form.limits
                    return { form: { ...context.form, limits }, command: undefined }
                  }),
                  "syncRealityCheck"
                ]
              }
            ]
          },
          on: {
            "xstate.error.actor.run": {
              target: "Idle",
              actions: assign(({ context, event }) => ({
                refusal: { section: sectionOf(context.command!), message: messageOf(event.error) },
                command: undefined
              }))
            }
          }
        }
      }
    },
    CoolingOff: {
      initial: "Settled",
      states: {
        /** No raised or removed limit is waiting. */
        Settled: {
          always: [{ guard: "pendingWaiting", target: "Pending" }, { guard: "pendingConfirmable", target: "Confirmable" }]
        },
        /** A raised or removed limit is in its 24 hours: the old limit holds. */
        Pending: {
          always: [{ guard: "settled", target: "Settled" }, { guard: "pendingConfirmable", target: "Confirmable" }],
          // The server's time the change becomes confirmable: the page offers to confirm it from then.
          after: { untilConfirmable: { target: "Pending", reenter: true, actions: assign({ now: ({ context }) => nextConfirmable(context) ?? context.now }) } }
        },
        /** Every waiting change can be confirmed now; until it is, the old limit still holds. */
        Confirmable: {
          always: [{ guard: "settled", target: "Settled" }, { guard: "pendingWaiting", target: "Pending" }]
        }
      }
    }
  }
})
