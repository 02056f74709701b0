import type { AnyMachineSnapshot, AnyStateMachine, AnyStateNode, AnyTransitionDefinition, InspectionEvent } from "xstate"

/**
 * Which states and transitions of each machine the actor system went
 * through, from XState's inspection stream: the model-based walks
 * (tests/machines/harness.ts) count them against each machine's graph, and
 * test builds count them in real browser runs (src/root/devtools.ts, read by
 * the e2e runs: tests/e2e/coverage.ts).
 *
 * A transition is named `<source state id> --<event type>[<index>]`: the
 * index tells apart the guarded alternatives one state has for one event
 * (`always` for an eventless one), so the name is the same in every build.
 */

export const transitionKey = (t: AnyTransitionDefinition): string => {
  const source = t.source as AnyStateNode
  const list = t.eventType === "" ? (source.always ?? []) : (source.transitions.get(t.eventType) ?? [])
  return `${source.id} --${t.eventType || "always"}[${list.indexOf(t)}]`
}

const descendants = (node: AnyStateNode): Array<AnyStateNode> =>
  Object.values(node.states as Record<string, AnyStateNode>).flatMap((child) => [child, ...descendants(child)])

/** Every state node of a machine (the root excluded), by id. */
export const allStateNodes = (machine: AnyStateMachine): Set<string> => new Set(descendants(machine.root).map((node) => node.id))

/** Every transition a machine defines, by name. */
export const allTransitions = (machine: AnyStateMachine): Set<string> => {
  const keys = new Set<string>()
  for (const node of [machine.root, ...descendants(machine.root)]) {
    for (const [eventType, list] of node.transitions) list.forEach((_, i) => keys.add(`${node.id} --${eventType}[${i}]`))
    node.always?.forEach((_, i) => keys.add(`${node.id} --always[${i}]`))
  }
  return keys
}

/** The milliseconds of an `after` transition's event (`xstate.after.<delay>.<state id>`), a named delay included. */
export const delayOf = (machine: AnyStateMachine, type: string, snapshot: AnyMachineSnapshot): number => {
  const delay = type.slice("xstate.after.".length).split(".")[0]!
  const numeric = Number(delay)
  if (Number.isFinite(numeric)) return numeric
  const named = (machine.implementations.delays as Record<string, unknown>)[delay]
  return typeof named === "function" ? Number(named({ context: snapshot.context, event: { type } }, undefined)) : Number(named)
}

/** What a run visited, per machine id: state node ids and transition names. */
export interface Visited {
  readonly [machine: string]: { readonly states: ReadonlyArray<string>; readonly transitions: ReadonlyArray<string> }
}

export interface CoverageTracker {
  readonly inspect: (event: InspectionEvent) => void
  /** What was visited so far, with what `earlier` held. */
  readonly visited: () => Visited
}

const machineOf = (node: AnyStateNode): string => (node.machine as AnyStateMachine).id

/** Collects, from the inspection stream, what every machine of the system went through. */
export const trackCoverage = (earlier: Visited = {}): CoverageTracker => {
  const states = new Map<string, Set<string>>()
  const transitions = new Map<string, Set<string>>()
  const add = (into: Map<string, Set<string>>, machine: string, key: string) => {
    let set = into.get(machine)
    if (!set) into.set(machine, (set = new Set()))
    set.add(key)
  }
  for (const [machine, seen] of Object.entries(earlier)) {
    for (const state of seen.states) add(states, machine, state)
    for (const transition of seen.transitions) add(transitions, machine, transition)
  }
  const addNodes = (nodes: unknown) => {
    if (!Array.isArray(nodes)) return
    for (const node of nodes as ReadonlyArray<AnyStateNode>) if (node.parent) add(states, machineOf(node), node.id)
  }
  return {
    inspect: (event) => {
      if (event.type === "@xstate.microstep") {
        for (const t of event._transitions) {
          const source = t.source as AnyStateNode
          add(transitions, machineOf(source), transitionKey(t))
          // A transition leaving a state proves it was active (transient states leave in the same step).
          if (source.parent) add(states, machineOf(source), source.id)
        }
        addNodes((event.snapshot as { _nodes?: unknown })._nodes)
      } else if (event.type === "@xstate.snapshot") {
        addNodes((event.snapshot as { _nodes?: unknown })._nodes)
      }
    },
    visited: () =>
      Object.fromEntries(
        [...new Set([...states.keys(), ...transitions.keys()])].map((machine) => [
          machine,
          { states: [...(states.get(machine) ?? [])], transitions: [...(transitions.get(machine) ?? [])] }
        ])
      )
  }
}
