/**
 * The generated QA paths (part of `npm run flows`): for each machine with a
 * UI adapter (tests/e2e/flows/adapters), walks the machine's graph with the
 * events the adapter can make happen and the machine's own timers, finds a
 * shortest path to every transition the hand-written e2e specs did not take
 * (tests/e2e/flows/visited.json, written by the last full `npm run test:e2e`),
 * and writes them as a Playwright spec, tests/e2e/flows/<machine>.spec.ts.
 */
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import {
  type AnyActorScope,
  type AnyEventObject,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type AnyStateNode,
  createActor,
  fromTransition,
  getInitialSnapshot,
  getNextSnapshot
} from "xstate"
import { serializeSnapshot } from "xstate/graph"
import { delayOf, transitionKey } from "../src/root/flowCoverage.ts"
import type { FlowAdapter, Step } from "../tests/e2e/flows/adapter.ts"
import { ADAPTERS } from "../tests/e2e/flows/adapters/index.ts"
import { MACHINES } from "../tests/e2e/flows/machines.ts"

const DIR = "tests/e2e/flows"
const BASELINE = join(DIR, "visited.json")
/** Steps a generated path may take: a QA path longer than this is a scenario, not a path. */
const MAX_DEPTH = 12
const MAX_STATES = 5000

interface Edge {
  readonly step: Step
  readonly states: ReadonlyArray<string>
  readonly taken: ReadonlyArray<string>
}

/** The walk's view of the machine: every action a no-op (the walk computes states, it touches nothing). */
const forWalk = (machine: AnyStateMachine) =>
  machine.provide({ actions: Object.fromEntries(Object.keys(machine.implementations.actions).map((name) => [name, () => {}])) as never })

/**
 * One event on the walk's machine, and every transition it takes: the event's own, and the eventless and
 * `done.state` transitions it sets off in the same macrostep (XState's `@xstate.microstep` inspection events, as
 * the browser's coverage counts them). XState's `getNextSnapshot` with an inspected system of its own.
 */
const take = (machine: AnyStateMachine, snapshot: AnyMachineSnapshot, event: AnyEventObject) => {
  const taken: Array<string> = []
  const system = createActor(fromTransition((state: undefined) => state, undefined)).system
  system.inspect((inspected) => {
    if (inspected.type === "@xstate.microstep") taken.push(...inspected._transitions.map(transitionKey))
  })
  const scope = {
    self: createActor(machine),
    defer: () => {},
    id: "",
    logger: () => {},
    sessionId: "",
    stopChild: () => {},
    system,
    emit: () => {},
    actionExecutor: () => {}
  } as unknown as AnyActorScope
  const after = machine.transition(snapshot, event, scope) as AnyMachineSnapshot
  return { after, taken: [...new Set(taken)] }
}

const nodesOf = (snapshot: AnyMachineSnapshot) => (snapshot._nodes as ReadonlyArray<AnyStateNode>).filter((node) => node.parent)

/** Shortest paths (breadth first) to every transition the adapter's events and the timers can take. */
const walk = (adapter: FlowAdapter, machine: AnyStateMachine) => {
  const walked = forWalk(machine)
  let start = getInitialSnapshot(walked, adapter.input as never) as AnyMachineSnapshot
  for (const event of adapter.prefix ?? []) start = getNextSnapshot(walked, start, event) as AnyMachineSnapshot
  if (start.status !== "active") throw new Error(`flows: ${adapter.machine} does not start from the adapter's input and prefix (${String(start.error)})`)
  const pathTo = new Map<string, ReadonlyArray<Edge>>()
  const seen = new Set<string>([JSON.stringify(serializeSnapshot(start))])
  let frontier: Array<{ snapshot: AnyMachineSnapshot; path: ReadonlyArray<Edge> }> = [{ snapshot: start, path: [] }]
  for (let depth = 0; depth < MAX_DEPTH && frontier.length > 0 && seen.size < MAX_STATES; depth++) {
    const next: typeof frontier = []
    for (const { snapshot, path } of frontier) {
      const types = new Set(nodesOf(snapshot).flatMap((node) => [...node.transitions.keys()]))
      for (const type of (walked.root as AnyStateNode).transitions.keys()) types.add(type)
      const steps: Array<{ event: AnyEventObject; step: Step }> = []
      for (const type of types) {
        if (type.startsWith("xstate.after.")) {
          const drawn = adapter.delays?.[type.slice("xstate.after.".length).split(".")[0]!]
          if (adapter.clock) steps.push({ event: { type }, step: { clock: drawn ?? delayOf(machine, type, snapshot) } })
        }
        else {
          const known = adapter.events[type]
          const samples = typeof known?.samples === "function" ? known.samples(snapshot) : (known?.samples ?? (known ? [{ type }] : []))
          for (const event of samples) steps.push({ event, step: { event } })
        }
      }
      for (const { event, step } of steps) {
        if (walked.getTransitionData(snapshot as never, event).length === 0) continue
        const { after, taken } = take(walked, snapshot, event)
        const edge: Edge = { step, states: nodesOf(after).map((node) => node.id).filter((id) => id in adapter.states), taken }
        const extended = [...path, edge]
        for (const key of edge.taken) if (!pathTo.has(key)) pathTo.set(key, extended)
        const key = JSON.stringify(serializeSnapshot(after))
        if (seen.has(key) || after.status !== "active") continue
        seen.add(key)
        next.push({ snapshot: after, path: extended })
      }
    }
    frontier = next
  }
  return pathTo
}

/** A step's label: the event, with the reason of a call's failure (one call may fail in several ways). */
const describe = (edge: Edge) => {
  if ("clock" in edge.step) return `after ${edge.step.clock} ms`
  const reason = (edge.step.event.error as { reason?: unknown } | undefined)?.reason
  return typeof reason === "string" ? `${edge.step.event.type} (${reason})` : edge.step.event.type
}

/** A path's title: its steps, a step repeated shown once with its count (`after 1000 ms ×9`). */
const title = (path: ReadonlyArray<Edge>) => {
  const runs: Array<{ label: string; count: number }> = []
  for (const label of path.map(describe)) {
    const last = runs.at(-1)
    if (last?.label === label) last.count++
    else runs.push({ label, count: 1 })
  }
  return runs.map(({ label, count }) => (count === 1 ? label : `${label} ×${count}`)).join(" → ")
}

/** The adapter's export: `authModal.changePassword` → `authModalChangePassword`. */
const variable = (adapter: FlowAdapter) => (adapter.name ?? adapter.machine).replace(/\.(\w)/g, (_, c: string) => c.toUpperCase())

const spec = (adapter: FlowAdapter, paths: ReadonlyArray<{ readonly target: ReadonlyArray<string>; readonly path: ReadonlyArray<Edge> }>) =>
  [
    `// Generated by \`npm run flows\` (scripts/flowSpecs.ts) from the ${adapter.machine} machine and its UI adapter`,
    `// (tests/e2e/flows/adapters/${adapter.machine}.ts): the transitions the hand-written e2e specs do not take. Do not edit.`,
    `import { expect, test } from "../coverage.ts"`,
    `import { runPath, takenTransitions } from "./adapter.ts"`,
    `import { ${variable(adapter)} } from "./adapters/${adapter.machine}.ts"`,
    "",
    `test.describe("${adapter.name ?? adapter.machine}: generated QA paths", () => {`,
    ...paths.flatMap(({ target, path }) => [
      `  test(${JSON.stringify(title(path))}, async ({ page, request }) => {`,
      `    await runPath(${variable(adapter)}, { page, request, data: {} }, [`,
      ...path.map(({ step, states }) => `      ${JSON.stringify({ step, states })},`),
      `    ])`,
      `    await expect.poll(() => takenTransitions(page, ${JSON.stringify(adapter.machine)})).toEqual(expect.arrayContaining(${JSON.stringify(target)}))`,
      `  })`
    ]),
    `})`,
    ""
  ].join("\n")

export const writeFlowSpecs = () => {
  const baseline: Record<string, ReadonlyArray<string>> = existsSync(BASELINE) ? JSON.parse(readFileSync(BASELINE, "utf8")) : {}
  for (const file of readdirSync(DIR)) if (file.endsWith(".spec.ts")) rmSync(join(DIR, file))
  const written: Array<string> = []
  const generated = new Map<string, Set<string>>()
  for (const adapter of ADAPTERS) {
    const entry = MACHINES.find((m) => m.machine.id === adapter.machine)
    if (!entry) throw new Error(`flows: adapter for an unknown machine '${adapter.machine}'`)
    // Taken by the hand-written specs, or by the paths of an earlier adapter of the same machine.
    const done = new Set([...(baseline[adapter.machine] ?? []), ...(generated.get(adapter.machine) ?? [])])
    const pathTo = walk(adapter, entry.machine)
    const missed = [...pathTo.keys()].filter((key) => !done.has(key) && !(key in entry.unreachable))
    // Longest paths first; a path whose targets a longer chosen path already takes is dropped.
    const chosen: Array<{ target: Array<string>; path: ReadonlyArray<Edge> }> = []
    const covered = new Set<string>()
    for (const key of missed.sort((a, b) => pathTo.get(b)!.length - pathTo.get(a)!.length)) {
      if (covered.has(key)) continue
      const path = pathTo.get(key)!
      const target = [...new Set(path.flatMap((edge) => edge.taken))].filter((t) => missed.includes(t) && !covered.has(t))
      target.forEach((t) => covered.add(t))
      chosen.push({ target, path })
    }
    generated.set(adapter.machine, new Set([...(generated.get(adapter.machine) ?? []), ...covered]))
    if (chosen.length === 0) continue
    const file = join(DIR, `${adapter.name ?? adapter.machine}.spec.ts`)
    writeFileSync(file, spec(adapter, chosen))
    written.push(`${file}: ${chosen.length} paths, ${covered.size} transitions`)
  }
  return written
}
