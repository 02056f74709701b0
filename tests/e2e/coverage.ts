import { type Page, test as base } from "@playwright/test"
import { mkdirSync, writeFileSync } from "node:fs"
import { join, relative } from "node:path"
import type { Visited } from "../../src/root/flowCoverage.ts"

/**
 * Every e2e test runs with this fixture (import `test` and `expect` from here):
 * when the test ends, it reads from each page still open, in the test's context
 * and in any the test made with `browser.newContext()` (which it then closes),
 * what the app's actor system went through in that tab (`__khelLog.coverage()`,
 * src/root/devtools.ts: the states and transitions of each machine, every page
 * load of the tab) and writes it to the run's coverage folder. The flow-coverage reporter
 * (tests/e2e/coverage-reporter.ts) counts them against each machine's graph.
 */

/** The run's folder (playwright.config.ts makes it and hands it to the workers through the environment). */
export const coverageDir = () => process.env.E2E_COVERAGE_DIR!

/**
 * What one tab went through. A test may end while its tab navigates (a log-out reloads the site): the page
 * that is leaving hands its record to the next through session storage, so read it once the next one is up.
 * A page on another site (a casino game's window) has no log: its tab's record is lost with it.
 */
const coverageOf = async (page: Page, site: string): Promise<Visited | undefined> => {
  for (let attempt = 0; attempt < 3; attempt++) {
    const visited = await page
      .waitForFunction(() => window.__khelLog !== undefined, undefined, { timeout: 10_000 })
      .then(() => page.evaluate(() => window.__khelLog?.coverage()))
      .catch(() => undefined)
    if (visited) return visited
    if (page.isClosed() || !page.url().startsWith(site)) return undefined
  }
  return undefined
}

export const test = base.extend<{ flowCoverage: undefined }>({
  flowCoverage: [
    async ({ browser, context, baseURL }, use, testInfo) => {
      const before = new Set(browser.contexts())
      await use(undefined)
      const made = browser.contexts().filter((other) => !before.has(other) && other !== context)
      const pages: Array<Visited> = []
      for (const page of [context, ...made].flatMap((each) => each.pages())) {
        if (page.isClosed() || baseURL === undefined || !page.url().startsWith(baseURL)) continue
        const visited = await coverageOf(page, baseURL)
        if (visited) pages.push(visited)
      }
      await Promise.all(made.map((each) => each.close()))
      if (pages.length === 0) return
      mkdirSync(coverageDir(), { recursive: true })
      const name = `${testInfo.testId}-${testInfo.retry}.json`
      writeFileSync(join(coverageDir(), name), JSON.stringify({ file: relative(testInfo.config.rootDir, testInfo.file), test: testInfo.titlePath.join(" › "), pages }))
    },
    { auto: true }
  ]
})

export { type APIRequestContext, expect, type Page } from "@playwright/test"
