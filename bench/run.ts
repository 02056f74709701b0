/**
 * `npm run bench`: prints the figures the issues ask for. Each section starts
 * what it measures itself (built site, real server, Chromium) and prints a
 * table; `npm run bench -- <section>` runs one section.
 */
import { execFileSync } from "node:child_process"
import { sections } from "./sections.ts"

const wanted = process.argv.slice(2)
const chosen = wanted.length ? sections.filter((s) => wanted.includes(s.name)) : sections

// Always the site as the source is now: a `dist/` left from an earlier build would measure old code.
console.log("building the site first…")
execFileSync("npm", ["run", "build"], { stdio: "inherit" })

for (const section of chosen) {
  console.log(`\n## ${section.title}\n`)
  try {
    await section.run()
  } catch (error) {
    console.log(`failed: ${error instanceof Error ? error.stack : String(error)}`)
    process.exitCode = 1
  }
}
