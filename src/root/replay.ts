import { type AnyActorLogic, type AnyStateMachine, createActor, enqueueActions, fromPromise, StateMachine } from "xstate"
import type { FlowName } from "../machines/flows.ts"
import { rootApp } from "./app.ts"
import { type Clock, createRecorder, type EventEntry, type EventLog, type PageLog, statesOf } from "./eventLog.ts"
import { flowLogic, loadFlow } from "./flows.ts"

/**
 * `npm run replay`: a recorded page replayed into the same machines, wired as
 * the composition root wires them (the app actor, its session and sign-in
 * modals, the flows views opened, the children those invoke), minus the
 * world. Headless: no DOM, no network, no timers.
 *
 * The replay's world, all of it:
 * - every actor that is not a state machine (API calls, sockets, storage,
 *   watchers) is `recorded`: it does nothing until the replay settles it with
 *   the outcome the log holds (its done or error event) or sends on its behalf
 *   what it sent (a callback's events);
 * - every custom action (toasts, storage, navigation, the document) does
 *   nothing; XState's own actions (assign, raise, sendTo, spawn, …) run;
 * - the clock never fires: the log says when each timer went off;
 * - `spawnFlow` spawns the flow's logic from the root's loaders, minus its world.
 *
 * The replay then delivers, in order, what came from outside the machines:
 * events from views, timers, and the world's answers. Everything else (events
 * between machines, done events) the machines produce themselves, and each
 * machine's states are compared with the recorded ones.
 */

/** The world in a replay: waits for the outcome the log recorded (`xstate.promise.resolve` / `reject`). */
const recorded = fromPromise<unknown, unknown>(() => new Promise<never>(() => {}))

const idleClock: Clock = { setTimeout: () => 0, clearTimeout: () => {} }

const nothing = () => {}

const isBuiltInAction = (action: unknown) =>
  typeof action === "function" && "type" in action && typeof action.type === "string" && action.type.startsWith("xstate.")

/**
 * The world a machine runs in: what each actor that is not a state machine
 * becomes, by the name the machine gives it (`loadSports`, `login`). The
 * replay's is `() => recorded`; a test may script one.
 */
export type World = (name: string, logic: AnyActorLogic) => AnyActorLogic

const inWorld = (world: World) => {
  const done = new WeakMap<AnyStateMachine, AnyStateMachine>()
  const machine = (m: AnyStateMachine): AnyStateMachine => {
    const known = done.get(m)
    if (known) return known
    const { actors, actions, guards, delays } = m.implementations
    const logic = (name: string, l: AnyActorLogic) => (l instanceof StateMachine ? machine(l) : world(name, l))
    const wired = new StateMachine(m.config, {
      // An actor is given as its logic, or as `{ src, input }` (logic with a default input).
      actors: Object.fromEntries(Object.entries(actors).map(([name, a]) => [name, "src" in a ? { ...a, src: logic(name, a.src) } : logic(name, a)])),
      actions: Object.fromEntries(Object.entries(actions).map(([name, action]) => [name, isBuiltInAction(action) ? action : nothing])),
      guards,
      delays
    })
    done.set(m, wired)
    return wired
  }
  return machine
}

/**
 * The app as the composition root wires it (src/root/app.ts: session, sign-in
 * modals, the flows of src/root/flows.ts spawned by name), with `world` in
 * place of its world and every custom action doing nothing.
 */
export const appIn = (world: World): AnyStateMachine => {
  const machine = inWorld(world)
  const flow = (name: FlowName): AnyActorLogic => {
    const logic = flowLogic(name)
    return logic instanceof StateMachine ? machine(logic) : world(name, logic)
  }
  return machine(rootApp).provide({
    actions: {
      spawnFlow: enqueueActions(({ enqueue }, params: { id: string; flow: FlowName; input: unknown }) => {
        enqueue.spawnChild(flow(params.flow), { id: params.id, systemId: params.id, input: params.input })
      })
    }
  })
}

/** Every flow a page opened, loaded (spawning is synchronous, so the logic must be there first). */
export const loadFlowsOf = async (entries: PageLog["entries"]): Promise<ReadonlyArray<string>> => {
  const names = new Set(entries.flatMap((entry) => (entry.kind === "event" && entry.event.type === "flow.open" && typeof entry.event.flow === "string" ? [entry.event.flow] : [])))
  const unknown: Array<string> = []
  for (const name of names) {
    // A name from a log: loadFlow has no loader for a flow this build does not know.
    await loadFlow(name as FlowName).catch(() => unknown.push(name))
  }
  return unknown
}

type Cause = { readonly to: string; readonly event: EventEntry["event"] }

/**
 * What the replay must deliver for a recorded event, if anything: events from
 * outside the system and from timers as they were; a world actor's events to
 * others as it sent them; its done or error event as the outcome that settles
 * it. Events a machine sent, and done events of machines, the replay's
 * machines produce themselves.
 */
export const causeOf = (entry: EventEntry, machines: ReadonlyMap<string, boolean>): Cause | undefined => {
  const { from, to, event } = entry
  if (from === undefined || entry.timer) return { to, event }
  if (machines.get(from) === true) return undefined
  // From a world actor.
  if (event.type.startsWith("xstate.done.actor.")) return { to: from, event: { type: "xstate.promise.resolve", data: event.output } }
  if (event.type.startsWith("xstate.error.actor.")) return { to: from, event: { type: "xstate.promise.reject", data: event.error } }
  if (to === from || event.type.startsWith("xstate.snapshot.")) return undefined
  return { to, event }
}

export interface ReplayedActor {
  readonly actor: string
  readonly logic: string
  readonly machine: boolean
  readonly recorded: ReadonlyArray<string>
  readonly replayed: ReadonlyArray<string>
}

export interface ReplayedPage {
  readonly url: string
  readonly startedAt: string
  readonly actors: ReadonlyArray<ReplayedActor>
  /** Where the replay did not follow the log; none means every actor reached the recorded states. */
  readonly problems: ReadonlyArray<string>
}

const same = (a: ReadonlyArray<string>, b: ReadonlyArray<string>) => a.length === b.length && a.every((s, i) => s === b[i])

export const replayPage = async (page: PageLog): Promise<ReplayedPage> => {
  const problems: Array<string> = []
  const root = page.entries.find((entry) => entry.kind === "actor")
  if (page.dropped > 0 || root === undefined || root.actor.includes("/")) {
    const why = page.dropped > 0 ? `lost its first ${page.dropped} entries (the page ran longer than the recorder keeps)` : "does not start with the app actor"
    return { url: page.url, startedAt: page.startedAt, actors: [], problems: [`this page ${why}: it cannot be replayed from its start`] }
  }

  for (const flow of await loadFlowsOf(page.entries)) problems.push(`flow '${flow}' is not one this build knows`)

  const recorder = createRecorder({ capacity: Number.POSITIVE_INFINITY, clock: idleClock })
  const app = createActor(appIn(() => recorded), { input: root.input, inspect: recorder.inspect, clock: recorder.clock })
  app.start()

  const machines = new Map<string, boolean>()
  for (const entry of page.entries) {
    if (entry.kind === "actor") machines.set(entry.actor, entry.machine)
    if (entry.kind !== "event") continue
    const cause = causeOf(entry, machines)
    if (cause === undefined) continue
    const actor = recorder.actor(cause.to)
    if (actor !== undefined) actor.send(cause.event)
    // An event for an actor that has stopped is dropped, in the replay as it was in the browser.
    else if (!recorder.stopped(cause.to)) problems.push(`${cause.event.type} (at ${entry.at} ms) is for ${cause.to}, which the replay has not started`)
  }
  app.stop()

  const replayedEntries = recorder.entries()
  const before = statesOf(page.entries)
  const after = statesOf(replayedEntries)
  const started = new Map([...page.entries, ...replayedEntries].flatMap((entry) => (entry.kind === "actor" ? [[entry.actor, entry] as const] : [])))
  const actors = [...started.values()].map(({ actor, logic, machine }) => ({ actor, logic, machine, recorded: before.get(actor) ?? [], replayed: after.get(actor) ?? [] }))
  for (const actor of actors) {
    if (!same(actor.recorded, actor.replayed)) {
      problems.push(`${actor.actor}: recorded ${actor.recorded.join(" → ") || "(nothing)"}, replayed ${actor.replayed.join(" → ") || "(nothing)"}`)
    }
  }
  return { url: page.url, startedAt: page.startedAt, actors, problems }
}

/** Every page of a log, one after the other (each page load is its own actor system). */
export const replayLog = async (log: EventLog): Promise<ReadonlyArray<ReplayedPage>> => {
  const pages: Array<ReplayedPage> = []
  for (const page of log.pages) pages.push(await replayPage(page))
  return pages
}
