import { Schema } from "effect"
import { type ActorRefLike, type AnyEventObject, type InspectionEvent, isMachineSnapshot, type StateValue } from "xstate"
import { createRedactor } from "./redact.ts"

/**
 * The event log: what the one actor system did, recorded from XState's
 * inspection stream (development and test builds; see src/root/devtools.ts)
 * and replayed headlessly by `npm run replay` (src/root/replay.ts).
 *
 * Every actor is named by its path from the root (`app`, `app/session`,
 * `app/withdrawal/payoutAccounts`); a path used again later (a flow closed and
 * opened again, a call made twice) gets `#2`, `#3`. Entries, in order:
 *
 * - `actor`: an actor started, with its logic (the machine id, or the name its
 *   parent gave it: `loadSports`), whether it is a state machine, its system id
 *   and its input;
 * - `event`: an event delivered to an actor, with its sender (none: from
 *   outside the system, a view) and `timer` when the clock delivered it (an
 *   `after` transition, a delayed send); a call's answer is in the done or
 *   error event its actor sends its parent (`xstate.done.actor.login`);
 * - `state`: an actor's new status and, for a machine, its state value
 *   (recorded when it changes; contexts are not recorded).
 *
 * Secrets are redacted when a page is exported (src/root/redact.ts); in
 * memory the recorder keeps references to the events the system already
 * holds, in a ring buffer, so recording costs an entry object per event.
 */

export const LOG_VERSION = 1

const StateValueSchema: Schema.Codec<StateValue> = Schema.Union([
  Schema.String,
  Schema.Record(Schema.String, Schema.suspend((): Schema.Codec<StateValue> => StateValueSchema))
])

const Event = Schema.StructWithRest(Schema.Struct({ type: Schema.String }), [Schema.Record(Schema.String, Schema.Unknown)])

const ActorEntry = Schema.Struct({
  at: Schema.Finite,
  kind: Schema.Literal("actor"),
  actor: Schema.String,
  logic: Schema.String,
  machine: Schema.Boolean,
  systemId: Schema.optionalKey(Schema.String),
  input: Schema.optionalKey(Schema.Unknown)
})

const EventEntry = Schema.Struct({
  at: Schema.Finite,
  kind: Schema.Literal("event"),
  to: Schema.String,
  from: Schema.optionalKey(Schema.String),
  timer: Schema.optionalKey(Schema.Literal(true)),
  event: Event
})

const Status = Schema.Literals(["active", "done", "error", "stopped"])

const StateEntry = Schema.Struct({
  at: Schema.Finite,
  kind: Schema.Literal("state"),
  actor: Schema.String,
  status: Status,
  value: Schema.optionalKey(StateValueSchema)
})

const Entry = Schema.Union([ActorEntry, EventEntry, StateEntry])

/** One page load: one actor system from its start (a reload starts another, such as the one after signing in). */
export const PageLog = Schema.Struct({
  /** Path and query of the page when recording started. */
  url: Schema.String,
  startedAt: Schema.String,
  /** Entries the ring buffer let go, oldest first: a page that lost its start cannot be replayed. */
  dropped: Schema.Int,
  entries: Schema.Array(Entry)
})

export const EventLog = Schema.Struct({
  version: Schema.Literal(LOG_VERSION),
  app: Schema.Literal("khel"),
  exportedAt: Schema.String,
  pages: Schema.Array(PageLog)
})

export type ActorEntry = typeof ActorEntry.Type
export type EventEntry = typeof EventEntry.Type
export type StateEntry = typeof StateEntry.Type
export type Entry = typeof Entry.Type
export type PageLog = typeof PageLog.Type
export type EventLog = typeof EventLog.Type
export type Status = typeof Status.Type

/** A log read from a file, checked: a clear error for anything that is not a version-1 Khel event log. */
export const decodeEventLog = Schema.decodeUnknownSync(EventLog)

/** What the inspection stream hands over is an `Actor`: its id, parent (`_parent`, as Stately's inspector reads it) and logic. */
interface InspectedActor extends ActorRefLike {
  readonly id: string
  readonly _parent?: InspectedActor | undefined
  readonly src: unknown
  readonly systemId?: string | undefined
}

const isActor = (ref: ActorRefLike): ref is InspectedActor => "id" in ref && typeof ref.id === "string" && "src" in ref

const inspected = (ref: ActorRefLike): InspectedActor => {
  if (!isActor(ref)) throw new Error("event log: the inspection stream handed over something that is not an actor")
  return ref
}

/** The timers of an actor system (`createActor(logic, { clock })`). */
export interface Clock {
  readonly setTimeout: (fn: () => void, ms: number) => unknown
  readonly clearTimeout: (id: unknown) => void
}

const logicName = (actor: InspectedActor) => {
  if (typeof actor.src === "string") return actor.src
  if (typeof actor.src === "object" && actor.src !== null && "id" in actor.src && typeof actor.src.id === "string") return actor.src.id
  return actor.id
}

const sameState = (a: StateValue | undefined, b: StateValue | undefined): boolean => {
  if (a === b) return true
  if (typeof a !== "object" || typeof b !== "object") return false
  const keys = Object.keys(a)
  return keys.length === Object.keys(b).length && keys.every((key) => key in b && sameState(a[key], b[key]))
}

/**
 * A promise actor delivers its own outcome to itself (`xstate.promise.resolve`
 * with the data) and then its done or error event to its parent, with the same
 * data: the log keeps the data once, in the done or error event.
 */
const settled = (event: AnyEventObject): AnyEventObject =>
  event.type === "xstate.promise.resolve" || event.type === "xstate.promise.reject" ? { type: event.type } : event

export interface RecorderOptions {
  /** Entries kept; the oldest go first. */
  readonly capacity: number
  /** Where the timers really run (the system's clock); the recorder wraps it to mark what they deliver. */
  readonly clock?: Clock
  readonly now?: () => number
}

export interface Recorder {
  /** The inspection observer: `createActor(root, { inspect: recorder.inspect, clock: recorder.clock })`. */
  readonly inspect: (event: InspectionEvent) => void
  readonly clock: Clock
  /** The entries kept, oldest first. */
  readonly entries: () => ReadonlyArray<Entry>
  readonly dropped: () => number
  /** A running actor by its key (the replay delivers events to it); none once it has stopped. */
  readonly actor: (key: string) => ActorRefLike | undefined
  /** Whether the actor of this key ran and has stopped (an event for it is dropped, as XState drops it). */
  readonly stopped: (key: string) => boolean
  /** The page so far, with secrets redacted, ready for JSON. */
  readonly page: (url: string) => PageLog
}

/** The platform's timers behind numbered handles (a browser's are numbers, Node's objects). */
const platformClock = (): Clock => {
  const timers = new Map<number, ReturnType<typeof setTimeout>>()
  let last = 0
  return {
    setTimeout: (fn, ms) => {
      const id = ++last
      timers.set(id, setTimeout(() => {
        timers.delete(id)
        fn()
      }, ms))
      return id
    },
    clearTimeout: (id) => {
      if (typeof id !== "number") return
      clearTimeout(timers.get(id))
      timers.delete(id)
    }
  }
}

export const createRecorder = (options: RecorderOptions): Recorder => {
  const now = options.now ?? (() => performance.now())
  const startedAt = new Date().toISOString()
  const start = now()
  const at = () => Math.round(now() - start)

  // A ring buffer: `buffer[(head + i) % capacity]` is the i-th oldest entry.
  const buffer: Array<Entry> = []
  let head = 0
  let dropped = 0
  const push = (entry: Entry) => {
    if (buffer.length < options.capacity) buffer.push(entry)
    else {
      buffer[head] = entry
      head = (head + 1) % options.capacity
      dropped++
    }
  }
  const entries = () => (head === 0 ? buffer.slice() : [...buffer.slice(head), ...buffer.slice(0, head)])

  const keys = new WeakMap<object, string>()
  const uses = new Map<string, number>()
  // Running actors only, so the recorder holds no stopped actor (nor the output it keeps) in memory.
  const live = new Map<string, ActorRefLike>()
  const stopped = new Set<string>()
  const lastState = new Map<string, { status: Status; value: StateValue | undefined }>()

  const keyOf = (actor: InspectedActor): string => {
    const known = keys.get(actor)
    if (known !== undefined) return known
    const path = actor._parent ? `${keyOf(actor._parent)}/${actor.id}` : logicName(actor)
    const n = (uses.get(path) ?? 0) + 1
    uses.set(path, n)
    const key = n === 1 ? path : `${path}#${n}`
    keys.set(actor, key)
    return key
  }

  // Set while a timer's callback runs: the first event it delivers is the timer's.
  let timerFiring = false
  const base = options.clock ?? platformClock()
  const clock: Clock = {
    setTimeout: (fn, ms) =>
      base.setTimeout(() => {
        timerFiring = true
        try {
          fn()
        } finally {
          timerFiring = false
        }
      }, ms),
    clearTimeout: (id) => base.clearTimeout(id)
  }

  const inspect = (inspection: InspectionEvent) => {
    switch (inspection.type) {
      case "@xstate.event": {
        const target = inspected(inspection.actorRef)
        const timer = timerFiring
        timerFiring = false
        const to = keyOf(target)
        const { event } = inspection
        if (event.type === "xstate.init") {
          live.set(to, target)
          stopped.delete(to)
          const systemId = target.systemId
          push({
            at: at(),
            kind: "actor",
            actor: to,
            logic: logicName(target),
            machine: isMachineSnapshot(target.getSnapshot()),
            ...(systemId === undefined ? {} : { systemId }),
            ...("input" in event && event.input !== undefined ? { input: event.input } : {})
          })
          return
        }
        const source = inspection.sourceRef && inspected(inspection.sourceRef)
        const from = source && keyOf(source)
        push({ at: at(), kind: "event", to, ...(from ? { from } : {}), ...(timer ? { timer: true } : {}), event: from === to ? settled(event) : event })
        return
      }
      case "@xstate.snapshot": {
        const key = keyOf(inspected(inspection.actorRef))
        const { snapshot } = inspection
        const status = snapshot.status
        const value = isMachineSnapshot(snapshot) ? snapshot.value : undefined
        if (status !== "active" && live.delete(key)) stopped.add(key)
        const last = lastState.get(key)
        if (last && last.status === status && sameState(last.value, value)) return
        lastState.set(key, { status, value })
        push({ at: at(), kind: "state", actor: key, status, ...(value === undefined ? {} : { value }) })
        return
      }
      default:
        return
    }
  }

  return {
    inspect,
    clock,
    entries,
    dropped: () => dropped,
    actor: (key) => live.get(key),
    stopped: (key) => stopped.has(key),
    page: (url) => ({ url, startedAt, dropped, entries: createRedactor()(entries()) })
  }
}

/** `Ready.Idle`; parallel regions in braces: `Starting.{Progress.Ticking, Pipeline.Sports}`. */
export const formatState = (value: StateValue): string => {
  if (typeof value === "string") return value
  const regions = Object.entries(value).map(([key, child]) =>
    child === undefined || (typeof child === "object" && Object.keys(child).length === 0) ? key : `${key}.${formatState(child)}`
  )
  return regions.length === 1 ? regions[0]! : `{${regions.join(", ")}}`
}

/**
 * What each actor went through, in order: a machine's state values, or
 * another actor's statuses (`active`, `done`, `error`). A stop adds nothing
 * (the actor's list just ends), nor does a restart in the same state.
 */
export const statesOf = (entries: ReadonlyArray<Entry>): Map<string, Array<string>> => {
  const states = new Map<string, Array<string>>()
  for (const entry of entries) {
    if (entry.kind !== "state") continue
    if (entry.status === "stopped") continue
    const shown = entry.value === undefined ? entry.status : formatState(entry.value)
    const list = states.get(entry.actor) ?? []
    if (list.at(-1) !== shown) list.push(shown)
    states.set(entry.actor, list)
  }
  return states
}
