import { test as base } from "@playwright/test"
import { mkdirSync, writeFileSync } from "node:fs"
import { join, relative } from "node:path"
import type { Visited } from "../../src/root/flowCoverage.ts"

/**
 * Every e2e test runs with this fixture (import `test` and `expect` from here):
 * when the test ends, it reads from each page still open what the app's actor
 * system went through in that tab (`__khelLog.coverage()`, src/root/devtools.ts:
 * the states and transitions of each machine, every page load of the tab) and
 * writes it to the run's coverage folder. The flow-coverage reporter
 * (tests/e2e/coverage-reporter.ts) counts them against each machine's graph.
 */

/** The run's folder (playwright.config.ts makes it and hands it to the workers through the environment). */
export const coverageDir = () => process.env.E2E_COVERAGE_DIR!

export const test = base.extend<{ flowCoverage: undefined }>({
  flowCoverage: [
    async ({ context }, use, testInfo) => {
      await use(undefined)
      const pages: Array<Visited> = []
      for (const page of context.pages()) {
        if (page.isClosed()) continue
        // A page on another site (a casino game's window) has no log: its tab's log is lost with it.
        const visited = await page.evaluate(() => window.__khelLog?.coverage()).catch(() => undefined)
        if (visited) pages.push(visited)
      }
      if (pages.length === 0) return
      mkdirSync(coverageDir(), { recursive: true })
      const name = `${testInfo.testId}-${testInfo.retry}.json`
      writeFileSync(join(coverageDir(), name), JSON.stringify({ file: relative(testInfo.config.rootDir, testInfo.file), test: testInfo.titlePath.join(" › "), pages }))
    },
    { auto: true }
  ]
})

export { type APIRequestContext, expect, type Page } from "@playwright/test"
