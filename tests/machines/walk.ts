import { expect } from "vitest"
import type { Failure } from "../../src/schema/errors.ts"
import { failureTone, messageOf } from "../../src/schema/failures.ts"
import { type AnyActorLogic, type AnyActorRef, type AnyEventObject, type AnyMachineSnapshot, type AnyStateMachine, createMachine, type EventObject, fromCallback, fromPromise, sendTo } from "xstate"

/**
 * The recording world of a model walk: fakes for what a machine touches
 * (the API, toasts, storage, subscriptions, navigation), which record what
 * they were asked to do instead of doing it. `replayPaths` (harness.ts)
 * takes the effects after every step and hands them, with the snapshots
 * before and after, to the machine's `effects` oracle: the effects that
 * step must have taken, written from SPEC. Calls never answer on their own:
 * the walk sends their outcome (done or error) as a step of its own.
 */

export type Effect =
  /** An API call: the endpoint and the exact body (payload, query or path params) the root sends (src/root/requests.ts). */
  | { readonly kind: "call"; readonly endpoint: string; readonly body?: unknown }
  /** A toast in the spec's wording. */
  | { readonly kind: "toast"; readonly level: "success" | "warning" | "error"; readonly message: string; readonly subMessage?: string | undefined }
  /** Something kept in (or cleared from) browser storage. */
  | { readonly kind: "store"; readonly what: string; readonly value?: unknown }
  /** A subscription (socket, odds channel) started or stopped. */
  | { readonly kind: "watch" | "unwatch"; readonly name: string; readonly input?: unknown }
  /** Anything else that leaves the machine: navigation, the socket's token, a message to another actor. */
  | { readonly kind: "do"; readonly name: string; readonly params?: unknown }

/** One step of a replayed path, as the `effects` oracle sees it. */
export interface WalkStep<S extends AnyMachineSnapshot = AnyMachineSnapshot> {
  /** Undefined for the start (`xstate.init`). */
  readonly before: S | undefined
  readonly event: AnyEventObject
  readonly after: S
}

export const recorder = () => {
  const log: Array<Effect> = []
  const record = (effect: Effect) => void log.push(effect)
  return {
    record,
    /** What was recorded since the last take. */
    take: (): Array<Effect> => log.splice(0),
    /**
     * An API call that records `endpoint` (or the one the input picks) with the body `body(input)` builds, and never settles.
     * Its input is the body builder's (checked against the machine's actor); its output is any because there is none:
     * the walk sends the call's outcome itself (harness `outputs`).
     */
    call: <I = any, O = any>(endpoint: string | ((input: I, system: { get: (id: string) => AnyActorRef | undefined }) => string), body?: (input: I) => unknown) =>
      fromPromise<O, I>(({ input, system }) => {
        const name = typeof endpoint === "string" ? endpoint : endpoint(input, system)
        record(body ? { kind: "call", endpoint: name, body: body(input) } : { kind: "call", endpoint: name })
        return new Promise<O>(() => {})
      }),
    /** A subscription: recorded when it starts (with its input) and when it stops; it takes any input and sends nothing back, so it fits any callback actor. */
    watch: <E extends EventObject = any, I = any, Emitted extends EventObject = any>(name: string) =>
      fromCallback<E, I, Emitted>(({ input }) => {
        record(input === undefined ? { kind: "watch", name } : { kind: "watch", name, input })
        return () => record({ kind: "unwatch", name })
      }),
    /** A toast action with fixed wording (the root's constant). */
    toast: (level: "success" | "warning" | "error", notice: { readonly message: string; readonly subMessage?: string }) => () =>
      record({ kind: "toast", level, message: notice.message, ...(notice.subMessage === undefined ? {} : { subMessage: notice.subMessage }) }),
    /** A toast action whose wording the machine passes as params. */
    toastOf: (level: "success" | "warning" | "error") => (_: unknown, params: { readonly message: string; readonly subMessage?: string }) =>
      record({ kind: "toast", level, message: params.message, ...(params.subMessage === undefined ? {} : { subMessage: params.subMessage }) }),
    /** The toast of a failed call (src/root/bridge.ts `toastFailure`): its tone and the failure's message; none for an ended session. */
    toastFailure: (_: unknown, params: { readonly error: Failure }) => {
      const level = failureTone(params.error)
      if (level) record({ kind: "toast", level, message: messageOf(params.error) })
    },
    /** The success toast of a write (src/root/bridge.ts `toastSuccess`): the server's message. */
    toastSuccess: (_: unknown, params: { readonly message: string }) => {
      if (params.message) record({ kind: "toast", level: "success", message: params.message })
    },
    /** A storage action; records its params (or nothing). */
    store: (what: string) => (_: unknown, params?: unknown) => record(params === undefined ? { kind: "store", what } : { kind: "store", what, value: params }),
    /** Any other world-touching action; records its params. */
    act: (name: string) => (_: unknown, params?: unknown) => record(params === undefined ? { kind: "do", name } : { kind: "do", name, params })
  }
}

export type Recorder = ReturnType<typeof recorder>

const canonical = (effects: ReadonlyArray<unknown>) => effects.map((e) => JSON.stringify(e)).sort()

/**
 * The effects of a step equal the oracle's, as a set: XState's order between
 * a child stopping, exit, transition and entry actions is its own business,
 * what the player sees is the set.
 */
export const expectEffects = (actual: ReadonlyArray<Effect>, expected: ReadonlyArray<Effect>, where: string) => {
  const [a, b] = [canonical(actual), canonical(expected)]
  // Walks take thousands of steps: compare cheaply, and let `expect` explain only a difference.
  if (a.length !== b.length || a.some((effect, i) => effect !== b[i])) expect(a, `effects ${where}`).toEqual(b)
}

/** A cheap assertion for invariants checked at every step of thousands: `expect` only explains a failure. */
export const must = (holds: boolean, what: string, actual?: unknown) => {
  if (!holds) expect.fail(`invariant broken: ${what}${actual === undefined ? "" : ` (${JSON.stringify(actual)})`}`)
}

/** `xstate.done.actor.<id>` / `xstate.error.actor.<id>` of a step. */
export const settled = (step: WalkStep, id: string) =>
  step.event.type === `xstate.done.actor.${id}` ? ("done" as const) : step.event.type === `xstate.error.actor.${id}` ? ("error" as const) : undefined

/** An actor of the walk's system that records the events it receives (e.g. the `bets.<eventId>` list a placed bet refreshes). */
export const listener = (world: Recorder, name: string) =>
  fromCallback<AnyEventObject>(({ receive }) => {
    receive((event) => world.record({ kind: "do", name: `tell ${name}`, params: event }))
    return () => {}
  })

export interface Sibling {
  readonly src: AnyActorLogic
  readonly input?: unknown
  /** Sent to it once everyone has started (e.g. `session.loaded`, to start signed in). */
  readonly tell?: AnyEventObject
}

/**
 * A parent for the walked machine (harness option `host`): it records what
 * the machine tells its parent (`tell parent`) and runs `siblings` beside
 * it, by system id, so `sendParent` and `system.get` reach real actors.
 */
export const hosted = (world: Recorder, siblings: (input: unknown) => Record<string, Sibling> = () => ({})) =>
  (walked: AnyStateMachine, input: unknown) => {
    const others = siblings(input)
    return createMachine({
      invoke: [
        ...Object.entries(others).map(([systemId, sibling]) => ({ id: systemId, systemId, src: sibling.src, input: sibling.input })),
        { id: "walked", src: walked, input }
      ],
      on: {
        "*": {
          actions: ({ event }) => {
            if (!event.type.startsWith("xstate.")) world.record({ kind: "do", name: "tell parent", params: event })
          }
        }
      },
      // A child state: its entry runs once the siblings above have started.
      initial: "Running",
      states: {
        Running: {
          entry: Object.entries(others).flatMap(([systemId, sibling]) => (sibling.tell ? [sendTo(systemId, sibling.tell)] : []))
        }
      }
    })
  }
