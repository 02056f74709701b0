import type { APIRequestContext, Page } from "@playwright/test"
import type { AnyEventObject, AnyMachineSnapshot, AnyStateMachine, MachineImplementationsFrom, OutputFrom } from "xstate"

/**
 * A machine's adapter to the real UI (issue 9, QA paths): how a player (or
 * the clock, or the real server) makes each of its events happen, and how the
 * screen shows each of its states. `npm run flows` (scripts/flows.ts) walks
 * the machine's graph with the events an adapter knows, and writes a
 * Playwright spec (tests/e2e/flows/<machine>.spec.ts) for the transitions the
 * hand-written e2e specs miss; each generated test drives the UI through
 * these steps, checks each state on screen, and then checks that the
 * browser's machine took the transition (`__khelLog.coverage()`).
 */

export interface FlowWorld {
  readonly page: Page
  readonly request: APIRequestContext
  /** What `start` keeps for later steps (a player's number, a password). */
  readonly data: Record<string, string>
}

export interface EventAdapter {
  /** The payloads the walk tries (the event bare when none); a function to choose by the state (a form's next field). */
  readonly samples?: ReadonlyArray<AnyEventObject> | ((snapshot: AnyMachineSnapshot) => ReadonlyArray<AnyEventObject>)
  /**
   * What makes it happen: a click, typing. For a call's outcome (`xstate.done.actor.*`, `xstate.error.actor.*`)
   * the real server answers, so the step is at most a wait; the steps before it decide which outcome it is.
   */
  readonly step: (world: FlowWorld, event: AnyEventObject) => Promise<void>
  /**
   * For an outcome the server gives only in some world (a refusal): what makes it so, run before the step that
   * sends the call (e.g. the session ended on the server before the click); it gets the event the path takes
   * (which of an outcome's samples).
   */
  readonly arrange?: (world: FlowWorld, event: AnyEventObject) => Promise<void>
  /** The machine's screen is gone after this step (its parent stopped it): the step's own check is all there is. */
  readonly ends?: boolean
}

export interface FlowAdapter {
  /** The machine's id (src/machines/<name>.machine.ts). */
  readonly machine: string
  /** The spec's name when a machine has more than one way in (`authModal.changePassword`); the machine's id by default. */
  readonly name?: string
  readonly input?: unknown
  /** Events the machine has taken when `start` resolves (the walk starts after them; no step is run for them). */
  readonly prefix?: ReadonlyArray<AnyEventObject>
  /**
   * Opens the UI where the machine starts: a fresh player, signed in, on the page. It installs Playwright's clock
   * (`page.clock.install()`) before the page loads when the machine has timers: the walk's `after` steps run it.
   */
  readonly start: (world: FlowWorld) => Promise<void>
  /** Run every step's `arrange` before `start` (the calls are sent as the page loads). */
  readonly arrangeFirst?: boolean
  /** The machine's timers are steps of its paths (Playwright's clock, which `start` installs). */
  readonly clock?: boolean
  /** A delay the machine draws at random (by its name), at its longest: the clock runs that far, so the timer is due. */
  readonly delays?: Readonly<Record<string, number>>
  readonly events: Readonly<Record<string, EventAdapter>>
  /** What the screen shows in a state, by state node id (`otpCountdown.Counting`); nodes not listed are not checked. */
  readonly states: Readonly<Record<string, (world: FlowWorld) => Promise<void>>>
}

type ActorsOf<M extends AnyStateMachine> = NonNullable<MachineImplementationsFrom<M>["actors"]>

/**
 * A call's answer as the walk feeds it (`xstate.done.actor.<src>`), typed by the machine's actor: the walk runs the
 * machine's assigns on it, so an output the actor could never give would walk states the machine cannot be in.
 * `const done = answerOf<typeof referralMachine>()` then `done("claim", { data, message })`.
 */
export const answerOf = <M extends AnyStateMachine>() =>
  <const K extends keyof ActorsOf<M> & string>(src: K, output: OutputFrom<NonNullable<ActorsOf<M>[K]>>) =>
    ({ type: `xstate.done.actor.${src}`, actorId: src, output }) as const

/** One step of a generated path: an event, or the clock running (an `after` transition). */
export type Step = { readonly event: AnyEventObject } | { readonly clock: number }

/** Runs a generated path against the real UI: each step, then the screen of every state node reached. */
export const runPath = async (adapter: FlowAdapter, world: FlowWorld, path: ReadonlyArray<{ readonly step: Step; readonly states: ReadonlyArray<string> }>) => {
  const arrange = async (step: Step | undefined) => {
    if (step && "event" in step) await adapter.events[step.event.type]?.arrange?.(world, step.event)
  }
  if (adapter.arrangeFirst) for (const { step } of path) await arrange(step)
  else await arrange(path[0]?.step)
  await adapter.start(world)
  for (const [i, { step, states }] of path.entries()) {
    const next = path[i + 1]?.step
    if (!adapter.arrangeFirst) await arrange(next)
    if ("clock" in step) await world.page.clock.runFor(step.clock)
    else {
      const event = adapter.events[step.event.type]
      if (!event) throw new Error(`${adapter.machine} adapter: no step for ${step.event.type}`)
      await event.step(world, step.event)
      if (event.ends) continue
    }
    // A step that sends a call: the screen may already show the answer (the next step checks it).
    if (next && "event" in next && /^xstate\.(done|error)\.actor\./.test(next.event.type)) continue
    for (const state of states) await adapter.states[state]?.(world)
  }
}

/** The transitions of a machine the page's actor system has taken so far (src/root/devtools.ts). */
export const takenTransitions = async (page: Page, machine: string): Promise<ReadonlyArray<string>> =>
  page.evaluate((id) => window.__khelLog?.coverage()[id]?.transitions ?? [], machine)

/**
 * The network drops the requests matching `glob` (the browser aborts them): how a path reaches a call's failure that
 * no server answer gives (the `Unreachable` reason). Everything else about the server stays real.
 */
export const networkDown = (glob: string | RegExp, times?: number) => async ({ page }: FlowWorld): Promise<void> => {
  await page.route(glob, (route) => route.abort("internetdisconnected"), times === undefined ? {} : { times })
}

/** Only the next request matching `glob` is dropped: a load fails once, and the next one (a retry) reaches the server. */
export const nextCallDropped = (glob: string | RegExp) => networkDown(glob, 1)
