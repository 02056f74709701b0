import type { Reporter } from "@playwright/test/reporter"
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { allStateNodes, allTransitions, type Visited } from "../../src/root/flowCoverage.ts"
import { MACHINES } from "./flows/machines.ts"

/**
 * Prints, when an e2e run ends, per machine, the states and transitions that
 * the run's real browser sessions went through (collected by the fixture of
 * tests/e2e/coverage.ts), against each machine's graph. With
 * FLOW_COVERAGE_DOC set (`npm run test:e2e`, the whole suite) it also writes
 * that file (docs/flow-coverage.md) and, beside the generated specs,
 * what the hand-written specs visited (`npm run flows` generates specs for
 * what they miss).
 */

interface Recorded {
  readonly file: string
  readonly test: string
  readonly pages: ReadonlyArray<Visited>
}

export interface MachineCoverage {
  readonly id: string
  readonly target: boolean
  readonly states: { readonly covered: number; readonly total: number }
  readonly transitions: { readonly covered: number; readonly total: number; readonly missed: ReadonlyArray<string> }
  readonly unreachable: Readonly<Record<string, string>>
}

/** The generated specs' folder: their visits do not count as the hand-written specs'. */
export const GENERATED = "flows/"
export const BASELINE = "tests/e2e/flows/visited.json"

const union = (records: ReadonlyArray<Recorded>) => {
  const states = new Map<string, Set<string>>()
  const transitions = new Map<string, Set<string>>()
  for (const record of records) {
    for (const page of record.pages) {
      for (const [machine, seen] of Object.entries(page)) {
        const s = states.get(machine) ?? new Set<string>()
        const t = transitions.get(machine) ?? new Set<string>()
        seen.states.forEach((x) => s.add(x))
        seen.transitions.forEach((x) => t.add(x))
        states.set(machine, s)
        transitions.set(machine, t)
      }
    }
  }
  return { states, transitions }
}

export const measure = (records: ReadonlyArray<Recorded>): Array<MachineCoverage> => {
  const { states, transitions } = union(records)
  return MACHINES.map(({ machine, target, unreachable }) => {
    const allStates = [...allStateNodes(machine)]
    const reachable = [...allTransitions(machine)].filter((t) => !(t in unreachable))
    const seenStates = states.get(machine.id) ?? new Set()
    const seen = transitions.get(machine.id) ?? new Set()
    return {
      id: machine.id,
      target,
      states: { covered: allStates.filter((s) => seenStates.has(s)).length, total: allStates.length },
      transitions: { covered: reachable.filter((t) => seen.has(t)).length, total: reachable.length, missed: reachable.filter((t) => !seen.has(t)) },
      unreachable
    }
  })
}

const percent = (covered: number, total: number) => (total === 0 ? 100 : (100 * covered) / total)
const shown = (covered: number, total: number) => `${covered}/${total} (${percent(covered, total).toFixed(1)} %)`

const readRecords = (dir: string): Array<Recorded> =>
  existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".json")).map((f) => JSON.parse(readFileSync(join(dir, f), "utf8")) as Recorded) : []

const doc = (rows: ReadonlyArray<MachineCoverage>, tests: number) =>
  [
    "# Flow coverage from real browser runs",
    "",
    "Written by `npm run test:e2e` (tests/e2e/coverage-reporter.ts). Each e2e test runs in Chromium against the test",
    "build and the real server; the test build records, from XState's inspection stream, every state and transition",
    "each machine of the app's actor system went through (`__khelLog.coverage()`, src/root/devtools.ts), and the",
    `figures below count them against each machine's graph, from ${tests} browser tests.`,
    "",
    "A transition is *UI-reachable* unless no UI can make the machine take it: those are listed under each machine",
    "with why, and left out of the figure (tests/e2e/flows/machines.ts). Held to ≥ 95 %: the machines marked target.",
    "",
    "| Machine | Target | States visited | UI-reachable transitions taken | Left out |",
    "|---|---|---|---|---|",
    ...rows.map(
      (row) =>
        `| \`${row.id}\` | ${row.target ? "yes" : ""} | ${shown(row.states.covered, row.states.total)} | ${shown(row.transitions.covered, row.transitions.total)} | ${Object.keys(row.unreachable).length} |`
    ),
    "",
    ...rows.flatMap((row) => {
      const lines: Array<string> = []
      if (row.transitions.missed.length === 0 && Object.keys(row.unreachable).length === 0) return lines
      lines.push(`## ${row.id}`, "")
      if (row.transitions.missed.length > 0) lines.push("Not taken by any browser run:", "", ...row.transitions.missed.map((t) => `- \`${t}\``), "")
      const left = Object.entries(row.unreachable)
      if (left.length > 0) lines.push("Not UI-reachable:", "", ...left.map(([t, why]) => `- \`${t}\`: ${why}`), "")
      return lines
    })
  ].join("\n")

export default class FlowCoverageReporter implements Reporter {
  printsToStdio() {
    return false
  }

  onEnd() {
    const records = readRecords(process.env.E2E_COVERAGE_DIR ?? "")
    if (records.length === 0) return
    const rows = measure(records)
    const width = Math.max(...rows.map((row) => row.id.length))
    console.log(`\nFlow coverage from ${records.length} browser tests (states visited; UI-reachable transitions taken):`)
    for (const row of rows) {
      const low = row.target && percent(row.transitions.covered, row.transitions.total) < 95
      console.log(`  ${row.id.padEnd(width)}  states ${shown(row.states.covered, row.states.total).padEnd(16)}  transitions ${shown(row.transitions.covered, row.transitions.total)}${low ? "  < 95 %" : ""}`)
    }
    const out = process.env.FLOW_COVERAGE_DOC
    if (!out) return
    writeCoverage(records, out)
    console.log(`  written: ${out}, ${BASELINE}`)
  }
}

/** Writes the coverage document and what the hand-written specs took (for `npm run flows`: the generated specs cover the rest). */
export const writeCoverage = (records: ReadonlyArray<Recorded>, out: string) => {
  writeFileSync(out, doc(measure(records), records.length))
  const { transitions } = union(records.filter((record) => !record.file.includes(GENERATED)))
  writeFileSync(BASELINE, JSON.stringify(Object.fromEntries([...transitions].map(([m, t]) => [m, [...t].sort()]).sort()), null, 1) + "\n")
}

/** The records of one or more runs' coverage folders. */
export { readRecords }
