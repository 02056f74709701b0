/**
 * `npm run replay -- log.json [--json]`: replays an event log exported from a
 * development or test build (`window.__khelLog.export()`, Ctrl+Alt+L) into the
 * machines, headlessly, and prints each actor's states, page by page. Exits 1
 * when the replay did not reach the recorded states, 2 when the file is not a
 * Khel event log. How QA uses it: docs/qa.md.
 */
import { readFileSync } from "node:fs"
import { decodeEventLog, type EventLog } from "../src/root/eventLog.ts"
import { replayLog } from "../src/root/replay.ts"

const args = process.argv.slice(2)
const json = args.includes("--json")
const file = args.find((arg) => !arg.startsWith("--"))
if (file === undefined) {
  console.error("usage: npm run replay -- <log.json> [--json]")
  process.exit(2)
}

const fail = (message: string): never => {
  console.error(message)
  process.exit(2)
}
const reason = (error: unknown) => (error instanceof Error ? error.message : String(error))

let text = ""
try {
  text = readFileSync(file, "utf8")
} catch (error) {
  fail(`cannot read ${file}: ${reason(error)}`)
}
let log: EventLog
try {
  log = decodeEventLog(JSON.parse(text))
} catch (error) {
  log = fail(`${file} is not a Khel event log (version 1): ${reason(error)}`)
}

const pages = await replayLog(log)
const failed = pages.some((page) => page.problems.length > 0)

if (json) {
  console.log(JSON.stringify({ file, reached: !failed, pages }, null, 2))
} else {
  pages.forEach((page, i) => {
    console.log(`\nPage ${i + 1} of ${pages.length}: ${page.url} (recorded ${page.startedAt})`)
    // An actor's key, and its logic where the key does not say it (`app/casino.panel (casino)`).
    const names = page.actors.map((actor) => (actor.logic === actor.actor.split("/").at(-1)?.replace(/#\d+$/, "") ? actor.actor : `${actor.actor} (${actor.logic})`))
    const width = Math.max(0, ...names.map((name) => name.length))
    page.actors.forEach((actor, j) => console.log(`  ${names[j]!.padEnd(width)}  ${actor.replayed.join(" → ")}`))
    if (page.problems.length === 0) console.log("  ✓ every actor reached the recorded states")
    for (const problem of page.problems) console.log(`  ✗ ${problem}`)
  })
  console.log(failed ? "\nThe replay did not reach the recorded states." : `\nThe replay reached the recorded states, actor by actor (${pages.length} page${pages.length === 1 ? "" : "s"}).`)
}
process.exitCode = failed ? 1 : 0
