import {
  type Actions,
  assign,
  type DoneActorEvent,
  type EventObject,
  type InvokeConfig,
  type MachineContext,
  type MetaObject,
  type OutputFrom,
  type ParameterizedObject,
  type PropertyAssigner,
  type ProvidedActor,
  type StateNodeConfig,
  type TransitionsConfig
} from "xstate"
import type { CallFailed } from "./calls.ts"

type OutputOf<TActor extends ProvidedActor, TSrc> = OutputFrom<Extract<TActor, { src: TSrc }>["logic"]>

/**
 * The list a page loads, as a machine's own region: `Loading` (tagged
 * `loading`, invoking `load`) → `Ready`, with `done` assigned from the
 * output, or `Failed` with the last list still there, after the actions of
 * `fail` (a toast saying why). Each event of `on` loads it again
 * (`".Loading"`) from any of the three, so a newer query replaces the one in
 * flight; each of `settledOn` (`"Loading"`) only from `Ready` or `Failed`, so
 * the load in flight finishes (a reload asking nothing new).
 *
 * `setup` is the machine's `setup(...)`, read only for its types: `load` must
 * name one of its actors, `done` is an `assign` object typed by that actor's
 * output, `then` the machine's own actions on the done event after it (a
 * named action that keeps the output), `fail` its actions on the call's
 * failure (the machine declares `CallFailed<id>` among its events). Used as a
 * state (`History: listRegion(flowSetup, …)`) or spread into the machine's
 * root config.
 */
export const listRegion = <
  TContext extends MachineContext,
  TEvent extends EventObject,
  TActor extends ProvidedActor,
  TAction extends ParameterizedObject,
  TGuard extends ParameterizedObject,
  TDelay extends string,
  TEmitted extends EventObject,
  TMeta extends MetaObject,
  const TLoad extends InvokeConfig<TContext, TEvent, TActor, TAction, TGuard, TDelay, TEmitted, TMeta> & { readonly id: string }
>(
  _setup: { createStateConfig: (config: StateNodeConfig<TContext, TEvent, TActor, TAction, TGuard, TDelay, string, unknown, TEmitted, TMeta>) => unknown },
  region: {
    on?: TransitionsConfig<TContext, TEvent, TActor, TAction, TGuard, TDelay, TEmitted, TMeta>
    settledOn?: TransitionsConfig<TContext, TEvent, TActor, TAction, TGuard, TDelay, TEmitted, TMeta>
    /** The invocation without its outcomes: id, src and input. */
    load: TLoad
    done?: PropertyAssigner<TContext, DoneActorEvent<OutputOf<TActor, TLoad["src"]>>, undefined, TEvent, TActor>
    then?: Actions<TContext, DoneActorEvent<OutputOf<TActor, TLoad["src"]>>, TEvent, undefined, TActor, TAction, TGuard, TDelay, TEmitted>
    fail?: Actions<TContext, Extract<TEvent, CallFailed<TLoad["id"]>>, TEvent, undefined, TActor, TAction, TGuard, TDelay, TEmitted>
    failedTags?: readonly string[]
  }
) => {
  const { done, then, fail, settledOn } = region
  const assigned = done ? [assign<TContext, DoneActorEvent<OutputOf<TActor, TLoad["src"]>>, undefined, TEvent, TActor>(done)] : []
  return {
    initial: "Loading" as const,
    ...(region.on ? { on: region.on } : {}),
    states: {
      Loading: {
        tags: ["loading"],
        invoke: {
          ...region.load,
          onDone: {
            target: "Ready",
            actions: then === undefined ? assigned : [...assigned, ...(Array.isArray(then) ? then : [then])]
          }
        },
        // The call's failure, as the machine declares it (`CallFailed<id>` among its events); a key made
        // from the id cannot name its event type, so the object is typed as the transitions it is.
        on: { [`xstate.error.actor.${region.load.id}`]: { target: "Failed", actions: fail ?? [] } } as TransitionsConfig<TContext, TEvent, TActor, TAction, TGuard, TDelay, TEmitted, TMeta>
      },
      Ready: settledOn ? { on: settledOn } : {},
      Failed: { tags: region.failedTags ?? [], ...(settledOn ? { on: settledOn } : {}) }
    }
  }
}
