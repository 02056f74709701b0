import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { expect } from "vitest"
import {
  Actor,
  type AnyActorLogic,
  type AnyEventObject,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyStateNode,
  createActor,
  createMachine,
  type EventFromLogic,
  type EventObject,
  fromCallback,
  fromPromise,
  type InputFrom,
  type InspectionEvent,
  type MachineImplementationsFrom,
  SimulatedClock,
  type SnapshotFrom
} from "xstate"
import { getAdjacencyMap, getShortestPaths, getStateNodes, serializeSnapshot, type StatePath } from "xstate/graph"
import { allStateNodes, allTransitions, delayOf, transitionKey } from "../../src/root/flowCoverage.ts"
import { getInitialSnapshot, getNextSnapshot } from "xstate"
import type { Failure } from "../../src/schema/errors.ts"
import { type Effect, expectEffects, type WalkStep } from "./walk.ts"

/**
 * Model-based testing for machines that invoke actors and use delays, which
 * `createTestModel` refuses (ARCHITECTURE section 4):
 *
 * 1. walk the machine's graph with `xstate/graph`, feeding it every event its
 *    active states listen for (done/error events of invoked actors and
 *    delayed events included);
 * 2. replay each path on a real actor whose invoked actors are stubs that
 *    never settle (or the recording world of walk.ts), sending the same
 *    events and advancing a simulated clock for delays, and check the real
 *    actor lands where the graph said;
 * 3. at every step, check the machine's invariants on the snapshot and
 *    that the step took exactly the effects its oracle expects in a
 *    recording world (`world`, `effects`: walk.ts), or hand the step's
 *    outcome to `check`: the snapshot before and after, the named actions it
 *    ran (with their params) and the actors it invoked (with their input);
 * 4. record every transition the real actor took (from the inspection API)
 *    and fail unless every state node and every transition was exercised.
 * Either way a walk asserts context invariants and the effects taken (the
 * payload a call is given, the toast shown), not only the state value
 * (docs/testing.md).
 */

type Snapshot = AnyMachineSnapshot
type Path = StatePath<Snapshot, AnyEventObject>

/** What `provide` takes for a machine: its actors, actions, guards and delays, by the names its `setup` gives them. */
export type Implementations<M extends AnyStateMachine> = MachineImplementationsFrom<M>
/** The actors a test can provide for a machine (a fake's logic must be the setup's: same input and output). */
export type ActorsOf<M extends AnyStateMachine> = NonNullable<Implementations<M>["actors"]>
/** The actions a test can provide for a machine (a fake's params are the setup's). */
export type ActionsOf<M extends AnyStateMachine> = NonNullable<Implementations<M>["actions"]>

/** The dotted paths of a state value type (`"Form" | "Form.Submitting"`); any string for an untyped one. */
type Dotted<V> = string extends V ? string : V extends string ? V : V extends object ? { [K in keyof V & string]: K | `${K}.${Dotted<NonNullable<V[K]>>}` }[keyof V & string] : never

/** A named state of the snapshot's machine, dotted (`Form.Submitting`): a typo or a state the machine has not got does not compile. */
export type StatePathOf<S extends AnyMachineSnapshot> = Dotted<S["value"]>

/** An event XState makes (a child's snapshot, a timer's `xstate.after.…`): a walk may send or replay it, untyped. */
type XStateEvent = AnyEventObject & { readonly type: `xstate.${string}` }

/** Sample payloads by event type: each is the machine's event of that type (or one of XState's own). */
type EventSamples<E extends EventObject> = { readonly [K in E["type"]]?: ReadonlyArray<Extract<E, { type: K }>> } & {
  readonly [K: `xstate.${string}`]: ReadonlyArray<XStateEvent>
}

/**
 * Options of a walk, typed by the machine walked (`replayPaths` infers `M`):
 * the fakes are its setup's actors and actions, events its events, the
 * snapshots the oracles see its snapshots.
 */
export interface ModelOptions<M extends AnyStateMachine = AnyStateMachine> {
  /** Outputs to try for each invoked actor, by actor source name (`onDone` events carry them). */
  readonly outputs?: Record<string, ReadonlyArray<unknown>>
  /** Failures to try for each invoked actor, by source name (its error events carry them); a server error by default. */
  readonly errors?: Record<string, ReadonlyArray<Failure>>
  /** Payloads to try for events with data, by event type; events not listed are sent bare. */
  readonly events?: EventSamples<EventFromLogic<M>>
  /** What makes two snapshots the same state for the walk (value and context by default). */
  readonly serialize?: (snapshot: SnapshotFrom<M>) => string
  /**
   * Extra starting points: another input, and/or events replayed first (e.g.
   * ticks that bring a counter near a guard's edge). Real actors reach them
   * the same way, so timers and invoked actors are in place.
   */
  readonly from?: ReadonlyArray<{ readonly label: string; readonly input?: InputFrom<M>; readonly prefix?: ReadonlyArray<EventFromLogic<M> | XStateEvent> }>
  readonly input?: InputFrom<M>
  /** Actor stubs for replay; by default every invoked actor is a promise that never settles. */
  readonly actors?: ActorsOf<M>
  /** Actors the replay runs as the machine defines them, not stubbed (e.g. a child machine, on the walk's clock). */
  readonly real?: ReadonlyArray<keyof ActorsOf<M> & string>
  readonly actions?: ActionsOf<M>
  /** Actions replaced in the graph walk only: those that reach a parent or the system, which the walk has not got (the replay has, through `host`). */
  readonly graphActions?: ActionsOf<M>
  /** Transitions that are unreachable by design (documented at the call site). */
  readonly ignore?: ReadonlyArray<string>
  /** The recording world the actors and actions above belong to: its effects are taken after every step. */
  readonly world?: { readonly take: () => Array<Effect> }
  /** What must hold of every snapshot the real actor reaches (throws, or fails an `expect`, when it does not). */
  readonly invariants?: (snapshot: SnapshotFrom<M>) => void
  /** The effects a step must take, as SPEC says (needs `world`). */
  readonly effects?: (step: WalkStep<SnapshotFrom<M>>) => ReadonlyArray<Effect>
  /** Asserts what one replayed step did (its named actions and invoked actors, from inspection); runs after every step of every path. */
  readonly check?: (step: Step<SnapshotFrom<M>>) => void
  /**
   * Events the replay makes happen through the world rather than sending
   * them, by type: e.g. a child's timer running out on the simulated clock.
   */
  readonly drive?: Record<string, (clock: SimulatedClock) => void>
  /**
   * A parent for the machine, by the path's input: the machine runs as its
   * child `walked` (so `sendParent` and `system.get` reach real actors).
   */
  readonly host?: (walked: AnyStateMachine, input: InputFrom<M>) => AnyStateMachine
}

/** An action a step ran: its name and resolved params (`warn` with `{ message }`). */
export interface TakenAction {
  readonly type: string
  readonly params: unknown
}

/** An actor a step invoked: its source name and the input it was given (a call's payload). */
export interface Invoked {
  readonly src: string
  readonly input: unknown
}

/** One replayed step, for `check`. */
export interface Step<S extends AnyMachineSnapshot = AnyMachineSnapshot> {
  readonly event: AnyEventObject
  readonly before: S
  readonly after: S
  /** The machine's own named actions the step ran (built-in ones like assign and raise are left out). */
  readonly actions: ReadonlyArray<TakenAction>
  readonly invoked: ReadonlyArray<Invoked>
}

/** The first invocation of `src` in a step, or undefined. */
export const invokedWith = (step: Step, src: string) => step.invoked.find((i) => i.src === src)

/** The params of every `type` action a step ran. */
export const actionParams = (step: Step, type: string) => step.actions.filter((a) => a.type === type).map((a) => a.params)

/**
 * The toast actions a call's outcome runs (SPEC sections 7 and 8), once: a
 * failure of any call in `failing` is `toastFailure` with its error; the
 * answer of a write in `writes` is `toastSuccess` with the server's message.
 */
export const callToasts = (step: { readonly event: AnyEventObject }, failing: ReadonlyArray<string>, writes: ReadonlyArray<string> = []): Array<TakenAction> => {
  const { event } = step
  if (failing.some((id) => event.type === `xstate.error.actor.${id}`)) return [{ type: "toastFailure", params: { error: event.error } }]
  if (writes.some((id) => event.type === `xstate.done.actor.${id}`)) return [{ type: "toastSuccess", params: { message: event.output.message } }]
  return []
}

/** The named states a snapshot is in, dotted (`Form.Submitting`), to test entry into a state across a step. */
const activeIds = (snapshot: Snapshot) => new Set((snapshot._nodes as ReadonlyArray<AnyStateNode>).map((node) => node.path.join(".")))

/** A step as `entered` and `left` see it (a `Step`, or a walk's, whose start has no `before`). */
type Across<S extends AnyMachineSnapshot> = { readonly event: AnyEventObject; readonly before: S | undefined; readonly after: S }

/** The step entered `path` (dotted, `Form.Submitting`, a state of the step's machine): active after, not before (the first step enters the initial states). */
export const entered = <S extends AnyMachineSnapshot>(step: Across<S>, path: StatePathOf<S>) =>
  activeIds(step.after).has(path) && (step.event.type.startsWith("xstate.init") || step.before === undefined || !activeIds(step.before).has(path))

/** The step left `path` (dotted, a state of the step's machine). */
export const left = <S extends AnyMachineSnapshot>(step: Across<S>, path: StatePathOf<S>) =>
  step.before !== undefined && activeIds(step.before).has(path) && !activeIds(step.after).has(path)

/** `path` (dotted, a state of the snapshot's machine) is active in the snapshot. */
export const isIn = <S extends AnyMachineSnapshot>(snapshot: S, path: StatePathOf<S>) => activeIds(snapshot).has(path)

/** What an invoked call fails with when a walk names no failures for it: as every provided call, a `Failure` (src/machines/calls.ts). */
const STUBBED_FAILURE: Failure = { code: 500, message: "stubbed failure", reason: "ServerError" }

const invokeSources = (machine: AnyStateMachine) => {
  const byId = new Map<string, string>()
  for (const node of [machine.root, ...getStateNodes(machine.root)]) {
    for (const invoke of node.invoke) byId.set(invoke.id, typeof invoke.src === "string" ? invoke.src : invoke.id)
  }
  return byId
}

/**
 * The options as the walk's own code sees them: the same code walks every
 * machine, so inside it snapshots, events and fakes are any machine's (the
 * typing is the callers', checked where they write the options).
 */
const untyped = <M extends AnyStateMachine>(options: ModelOptions<M>): ModelOptions => options as ModelOptions

/** The events the active states of a snapshot listen for, with sample payloads. */
const eventsFor = (machine: AnyStateMachine, options: ModelOptions) => {
  const sources = invokeSources(machine)
  return (snapshot: Snapshot): ReadonlyArray<AnyEventObject> => {
    const types = new Set<string>()
    for (const node of snapshot._nodes as ReadonlyArray<AnyStateNode>) for (const type of node.transitions.keys()) types.add(type)
    // A call's failure is handled in `on`, which XState lists before the invoke's done: walk the answer first.
    for (const type of [...types]) {
      const failed = type.replace("xstate.done.actor.", "xstate.error.actor.")
      if (failed !== type && types.delete(failed)) types.add(failed)
    }
    const events: Array<AnyEventObject> = []
    for (const type of types) {
      if (type.startsWith("xstate.done.actor.")) {
        const id = type.slice("xstate.done.actor.".length)
        // A spawned child (no invoke) is known by its id.
        const src = sources.get(id) ?? id
        for (const output of options.outputs?.[src] ?? [undefined]) events.push({ type, output, actorId: type.slice(18) })
      } else if (type.startsWith("xstate.error.actor.")) {
        const id = type.slice("xstate.error.actor.".length)
        const src = sources.get(id) ?? id
        for (const error of options.errors?.[src] ?? [STUBBED_FAILURE]) events.push({ type, error, actorId: type.slice(19) })
      } else if (options.events?.[type]) {
        events.push(...options.events[type])
      } else if (type.startsWith("xstate.done.state.")) {
        // Raised by the machine itself when a region finishes; never sent from outside.
      } else if (type !== "*") {
        events.push({ type })
      }
    }
    return events
  }
}

interface Start {
  readonly label: string
  readonly input: InputFrom<AnyStateMachine>
  readonly prefix: ReadonlyArray<AnyEventObject>
}

export type ModelPath = Path & { readonly origin: Start; taken?: ReadonlySet<string> }

/** A copy of a config without `systemId`s (plain objects and arrays only; logic and functions stay as they are). */
const withoutSystemIds = <T>(value: T): T => {
  if (Array.isArray(value)) return value.map(withoutSystemIds) as T
  if (value === null || typeof value !== "object" || Object.getPrototypeOf(value) !== Object.prototype) return value
  return Object.fromEntries(Object.entries(value).filter(([key]) => key !== "systemId").map(([key, v]) => [key, withoutSystemIds(v)])) as T
}

/**
 * The machine as the graph walk sees it. xstate/graph runs a whole traversal
 * in one actor system, so a state that invokes a child with a system id
 * would register it again on every visit; the walk drops system ids (the
 * replay on real actors keeps them, one system per path).
 */
const forWalk = (machine: AnyStateMachine): AnyStateMachine =>
  createMachine(withoutSystemIds(machine.config), machine.implementations)

/**
 * Paths that together take every edge of the graph: for each state, its
 * shortest path, then each event it reacts to. (Shortest paths alone visit
 * every state but skip edges that lead to an already-seen state, such as a
 * failed step that goes where the successful one does.)
 */
export const modelPaths = <M extends AnyStateMachine>(machine: M, typed: NoInfer<ModelOptions<M>> = {}): Array<ModelPath> => {
  const options = untyped(typed)
  // Walk the machine with its actions provided, so side effects (logging, DOM) stay out of the walk.
  const walked = forWalk(machine).provide({ actions: { ...options.actions, ...options.graphActions } })
  const serialize = options.serialize ?? ((s: Snapshot) => serializeSnapshot(s) as string)
  const starts: Array<Start> = [
    { label: "start", input: options.input, prefix: [] },
    ...(options.from ?? []).map((from) => ({ label: from.label, input: from.input ?? options.input, prefix: from.prefix ?? [] }))
  ]
  return starts.flatMap((origin) => {
    let fromState = getInitialSnapshot(walked, origin.input) as Snapshot
    for (const event of origin.prefix) fromState = getNextSnapshot(walked, fromState, event) as Snapshot
    const traversal = {
      events: eventsFor(machine, options),
      serializeState: (s: Snapshot) => serialize(s),
      input: origin.input,
      fromState
    }
    const shortest = new Map<string, Path>()
    for (const path of getShortestPaths(walked, traversal) as Array<Path>) shortest.set(serialize(path.state), path)
    const adjacency = getAdjacencyMap(walked, traversal) as Record<string, { state: Snapshot; transitions: Record<string, { event: AnyEventObject; state: Snapshot }> }>
    const paths: Array<ModelPath> = []
    for (const [key, { transitions }] of Object.entries(adjacency)) {
      const base = shortest.get(key)
      if (!base) continue
      for (const { event, state } of Object.values(transitions)) {
        paths.push({ state, steps: [...base.steps, { event, state }], weight: base.weight + 1, origin })
      }
    }
    return paths
  })
}

/** A call that never settles: it fits any promise actor (whatever its input, it gives no output). */
const neverSettles = <O = any, I = any>() => fromPromise<O, I>(() => new Promise<never>(() => {}))
/** A subscription that does nothing: it fits any callback actor (it reads no input and sends nothing back). */
const silentCallback = <E extends EventObject = any, I = any, Emitted extends EventObject = any>() => fromCallback<E, I, Emitted>(() => () => {})

export interface Coverage {
  readonly states: { covered: number; total: number; missing: Array<string> }
  readonly transitions: { covered: number; total: number; missing: Array<string> }
  readonly paths: Array<ModelPath>
}

/**
 * Replays every path on a real actor (stubbed or recording actors, a
 * simulated clock per path), checks each step lands on the graph's state
 * and, when given, the invariants and the step's effects; reports coverage.
 */
export const replayPaths = <M extends AnyStateMachine>(machine: M, typed: NoInfer<ModelOptions<M>> = {}): Coverage => {
  const options = untyped(typed)
  const paths = modelPaths<AnyStateMachine>(machine, options)
  const taken = new Set<string>()
  const visited = new Set<string>()
  const stubs: Record<string, AnyActorLogic> = {}
  for (const [, src] of invokeSources(machine)) stubs[src] = neverSettles()
  for (const name of Object.keys(machine.implementations.actors)) stubs[name] ??= neverSettles()
  Object.assign(stubs, options.actors)
  for (const name of options.real ?? []) delete stubs[name]

  for (const path of paths) {
    const provided = machine.provide({ actors: stubs, actions: options.actions ?? {} })
    const pathTaken = new Set<string>()
    path.taken = pathTaken
    const isOurs = (ref: unknown) => (ref as { logic?: unknown } | undefined)?.logic === provided
    let actions: Array<TakenAction> = []
    let invoked: Array<Invoked> = []
    const inspect = (event: InspectionEvent) => {
      if (event.type === "@xstate.action" && isOurs(event.actorRef) && !event.action.type.startsWith("xstate.")) {
        actions.push({ type: event.action.type, params: event.action.params })
      }
      // A child the machine invokes (not a grandchild). The initial state's children are made with the machine, before it starts.
      if (event.type === "@xstate.actor" && event.actorRef instanceof Actor && isOurs(event.actorRef.options.parent)) {
        const src = event.actorRef.src
        invoked.push({ src: typeof src === "string" ? src : event.actorRef.id, input: event.actorRef.options.input })
      }
      if (event.type === "@xstate.microstep" && isOurs(event.actorRef)) {
        for (const t of event._transitions) {
          taken.add(transitionKey(t))
          pathTaken.add(transitionKey(t))
          // A transition leaving a state proves the state was active (transient states leave in the same step).
          visited.add((t.source as AnyStateNode).id)
        }
        // Transient states (eventless and final ones) only show up inside microsteps.
        for (const node of (event.snapshot as Snapshot)._nodes as ReadonlyArray<AnyStateNode>) visited.add(node.id)
      }
    }
    const clock = new SimulatedClock()
    options.world?.take()
    const root = createActor(options.host ? options.host(provided, path.origin.input) : provided, { input: path.origin.input, inspect, clock })
    root.start()
    const actor = options.host ? (root.getSnapshot() as Snapshot).children.walked! : root
    const where = (event: AnyEventObject) => `after ${event.type} on path to ${JSON.stringify(path.state.value)} (${path.origin.label})`
    const verify = (step: WalkStep) => {
      const snapshot = step.after
      if (snapshot.status === "error") throw snapshot.error
      options.invariants?.(snapshot)
      if (options.world) {
        const effects = options.world.take()
        if (options.effects) expectEffects(effects, options.effects(step), where(step.event))
      }
    }
    const apply = (event: AnyEventObject) => {
      const before = actor.getSnapshot() as Snapshot
      const drive = options.drive?.[event.type]
      if (drive) drive(clock)
      else if (event.type.startsWith("xstate.after.")) clock.increment(delayOf(machine, event.type, before))
      else if (!event.type.startsWith("xstate.init")) actor.send(event)
      const after = actor.getSnapshot() as Snapshot
      verify({ before, event, after })
      return after
    }
    verify({ before: undefined, event: { type: "xstate.init" }, after: actor.getSnapshot() as Snapshot })
    for (const event of path.origin.prefix) apply(event)
    for (const node of actor.getSnapshot()._nodes as ReadonlyArray<AnyStateNode>) visited.add(node.id)
    for (const step of path.steps) {
      const before = actor.getSnapshot() as Snapshot
      // The first step (xstate.init) carries what starting (and any prefix) did.
      const snapshot = step.event.type.startsWith("xstate.init") ? before : apply(step.event)
      expect(snapshot.value, where(step.event)).toEqual(step.state.value)
      for (const node of snapshot._nodes as ReadonlyArray<AnyStateNode>) visited.add(node.id)
      options.check?.({ event: step.event, before, after: snapshot, actions, invoked })
      actions = []
      invoked = []
    }
    root.stop()
  }

  const ignore = new Set(options.ignore ?? [])
  const transitions = [...allTransitions(machine)].filter((key) => !ignore.has(key))
  const states = [...allStateNodes(machine)]
  return {
    paths,
    states: { covered: states.filter((s) => visited.has(s)).length, total: states.length, missing: states.filter((s) => !visited.has(s)) },
    transitions: {
      covered: transitions.filter((t) => taken.has(t)).length,
      total: transitions.length,
      missing: transitions.filter((t) => !taken.has(t))
    }
  }
}

/** Asserts 100 % state and transition coverage, naming what was missed. */
export const expectFullCoverage = (coverage: Coverage) => {
  expect(coverage.states.missing, "state nodes never reached").toEqual([])
  expect(coverage.transitions.missing, "transitions never taken").toEqual([])
}

/** Per step of a path, for docs/flows.md: the event (a call's `done:`/`error:`, a timer's `after:`) and the state it leads to. */
export const describeSteps = (path: Path) =>
  path.steps
    .filter((step) => !step.event.type.startsWith("xstate.init"))
    .map((step) => [
      step.event.type.replace(/^xstate\.(done|error)\.actor\.(.*)$/, "$1:$2").replace(/^xstate\.after\.([^.]+)\..*$/, "after:$1"),
      typeof step.state.value === "string" ? step.state.value : JSON.stringify(step.state.value)
    ] as const)

export { neverSettles, silentCallback }

/**
 * A stand-in for a child machine `child` of the machine under test (a parent
 * reads only its snapshot's context, or sends it an event), typed as the
 * child so it fits the parent's `actors`. The one cast of a fake: a machine's
 * type is its whole definition, so no other machine has it.
 */
export const standIn = <M extends AnyStateMachine>(_child: M, stand: AnyStateMachine): M => stand as M

/** A small set of paths that together take every transition: greedy, most new transitions first. */
export const covering = (paths: ReadonlyArray<ModelPath>) => {
  const chosen: Array<ModelPath> = []
  const seen = new Set<string>()
  const remaining = [...paths]
  for (;;) {
    let best: ModelPath | undefined
    let gain = 0
    for (const path of remaining) {
      const fresh = [...(path.taken ?? [])].filter((t) => !seen.has(t)).length
      if (fresh > gain || (fresh === gain && fresh > 0 && best && path.steps.length < best.steps.length)) {
        best = path
        gain = fresh
      }
    }
    if (!best || gain === 0) return chosen
    chosen.push(best)
    for (const t of best.taken ?? []) seen.add(t)
    remaining.splice(remaining.indexOf(best), 1)
  }
}

/**
 * With FLOWS_OUT set (`npm run flows`), writes the machine's paths and
 * coverage as a Markdown fragment that scripts/flows.ts joins into docs/flows.md.
 */
export const recordFlows = (name: string, description: string, coverage: Coverage) => {
  const out = process.env.FLOWS_OUT
  if (!out) return
  const shown = covering(coverage.paths)
  const width = Math.max(0, ...shown.flatMap((path) => describeSteps(path).map(([event]) => event.length)))
  const lines = [
    `## ${name}`,
    "",
    description,
    "",
    `Coverage: ${coverage.states.covered}/${coverage.states.total} states, ${coverage.transitions.covered}/${coverage.transitions.total} transitions; ${coverage.paths.length} paths replayed, ${shown.length} shown.`,
    "",
    "```",
    ...shown.flatMap((path, i) => [`${i + 1}. ${path.origin.label}`, ...describeSteps(path).map(([event, state]) => `   ${event.padEnd(width)}  ${state}`)]),
    "```",
    ""
  ]
  mkdirSync(out, { recursive: true })
  writeFileSync(join(out, `${name}.md`), lines.join("\n"))
}
