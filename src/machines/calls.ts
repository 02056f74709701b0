import type { EventObject } from "xstate"
import type { ErrorTag, Failure } from "../schema/errors.ts"

/**
 * The error event of the invoked call `Id`, as a machine declares it among
 * its events (`events: {} as WalletEvent | CallFailed<"switchWallet">`) and
 * handles it beside the invoke (`on: { "xstate.error.actor.switchWallet": … }`):
 * its `error` is the call's `Failure`, so actions and guards read a typed
 * reason and message. XState types an invoke's `onError` event as `unknown`
 * and cannot know what an actor rejects with; the composition root makes this
 * declaration true: every call actor it provides rejects only with a
 * `Failure` (`rejectCall`, src/schema/failures.ts, turns anything else into one).
 * A failure the machine does not read (it only moves on, or resets) stays an
 * invoke's `onError`: there `event.error` is `unknown`, which nothing typed takes.
 */
export type CallFailed<Id extends string> = Id extends string ? { readonly type: `xstate.error.actor.${Id}`; readonly error: Failure } : never

const isCallFailed = (event: EventObject): event is CallFailed<string> => event.type.startsWith("xstate.error.actor.")

/** A named guard: the call failed for one of `reasons` (`oddsChanged: failedWith("OddsChanged")`). */
export const failedWith = (...reasons: ReadonlyArray<ErrorTag>) => ({ event }: { readonly event: EventObject }) =>
  isCallFailed(event) && reasons.includes(event.error.reason)
