import { Option, Schema } from "effect"
import type { InspectionEvent } from "xstate"
import { type Clock, createRecorder, type EventLog, LOG_VERSION, PageLog } from "./eventLog.ts"
import { trackCoverage, type Visited } from "./flowCoverage.ts"

/**
 * Development and test builds only (src/root/main.tsx imports this behind
 * `import.meta.env.DEV || import.meta.env.MODE === "test"`, so production
 * builds carry none of it): the event log of the page's actor system, and in
 * development with `?inspect` the Stately inspector (src/root/inspect.ts).
 *
 * The log covers the browser tab's session: when the page goes (a reload, the
 * reload after signing in), its log is redacted and kept in session storage,
 * and the next page's log follows it. In the console:
 * `__khelLog.export()` (the log as JSON data), `__khelLog.download()` (also
 * Ctrl+Alt+L, ⌘⌥L on a Mac), `__khelLog.clear()` (forgets the earlier pages).
 * docs/qa.md says how QA attaches a log to a bug report.
 */

/** Entries kept per page: a long session with live odds fills it in tens of minutes; older entries go first. */
export const PAGE_CAPACITY = 20_000
/** Earlier pages kept in session storage, newest last. */
export const PAGES_KEPT = 10
const STORE = "khel.eventLog"
const COVERAGE_STORE = "khel.flowCoverage"

export interface KhelLog {
  /** The log so far, secrets redacted: `JSON.stringify` it, or use `download()`. */
  readonly export: () => EventLog
  /** Saves the log as a file: `khel-log-<time>.json`. */
  readonly download: () => void
  /** Forgets the earlier pages of this tab (this page's log goes on: it is what a replay starts from). */
  readonly clear: () => void
  /**
   * The states and transitions of each machine this tab went through, all its pages together (the e2e runs
   * collect them: tests/e2e/coverage.ts). Kept whole, not in the ring buffer: a set of names per machine.
   */
  readonly coverage: () => Visited
}

declare global {
  interface Window {
    __khelLog?: KhelLog
  }
}

const decodePages = Schema.decodeUnknownOption(Schema.fromJsonString(Schema.Array(PageLog)))

/** The tab's earlier pages; none when there are none or what is stored is not a log (another build's). */
const readPages = (): ReadonlyArray<PageLog> => Option.getOrElse(decodePages(sessionStorage.getItem(STORE) ?? "[]"), () => [])

const Seen = Schema.Struct({ states: Schema.Array(Schema.String), transitions: Schema.Array(Schema.String) })
const decodeVisited = Schema.decodeUnknownOption(Schema.fromJsonString(Schema.Record(Schema.String, Seen)))

const savePages = (pages: ReadonlyArray<PageLog>) => {
  // Oldest pages go first when storage is full.
  for (let from = Math.max(0, pages.length - PAGES_KEPT); from < pages.length; from++) {
    try {
      sessionStorage.setItem(STORE, JSON.stringify(pages.slice(from)))
      return
    } catch {
      // Over the quota: try with fewer pages.
    }
  }
  sessionStorage.removeItem(STORE)
}

const download = (log: EventLog) => {
  const url = URL.createObjectURL(new Blob([JSON.stringify(log, null, 1)], { type: "application/json" }))
  const link = document.createElement("a")
  link.href = url
  link.download = `khel-log-${log.exportedAt.replace(/[:.]/g, "-")}.json`
  link.click()
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}

/** The options the app actor is created with: the inspection observer and the clock the recorder watches. */
export const startDevTools = async (): Promise<{ readonly inspect: (event: InspectionEvent) => void; readonly clock: Clock }> => {
  const recorder = createRecorder({ capacity: PAGE_CAPACITY })
  const coverage = trackCoverage(Option.getOrElse(decodeVisited(sessionStorage.getItem(COVERAGE_STORE) ?? "{}"), () => ({})))
  const url = location.pathname + location.search
  let earlier = readPages()
  const log = (): EventLog => ({ version: LOG_VERSION, app: "khel", exportedAt: new Date().toISOString(), pages: [...earlier, recorder.page(url)] })

  window.__khelLog = {
    export: log,
    download: () => download(log()),
    clear: () => {
      earlier = []
      sessionStorage.removeItem(STORE)
    },
    coverage: coverage.visited
  }
  addEventListener("pagehide", () => {
    savePages([...earlier, recorder.page(url)])
    sessionStorage.setItem(COVERAGE_STORE, JSON.stringify(coverage.visited()))
  })
  addEventListener("keydown", (event) => {
    if ((event.ctrlKey || event.metaKey) && event.altKey && event.code === "KeyL") {
      event.preventDefault()
      window.__khelLog?.download()
    }
  })
  console.info("[khel] This page's events are recorded: __khelLog.export(), or Ctrl+Alt+L to download the log (docs/qa.md).")

  // The Stately inspector: development only (test builds drop this branch).
  const stately = import.meta.env.DEV && new URLSearchParams(location.search).has("inspect") ? (await import("./inspect.ts")).startInspector() : undefined

  return {
    inspect: (event) => {
      recorder.inspect(event)
      coverage.inspect(event)
      stately?.(event)
    },
    clock: recorder.clock
  }
}
