import { expect, test } from "./coverage.ts"
import { execFileSync } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { createServer } from "vite"
import { waitForApp } from "./support.ts"

/**
 * The developers' tools stay out of production: the Stately inspector lives
 * only in `npm run dev` (with `?inspect`), the event log only in development
 * and test builds.
 */

/** What gives the inspector away (@statelyai/inspect's own strings) and what gives the recorder away (src/root/devtools.ts). */
const INSPECTOR = ["@statelyai.connected", "xstateinspector", "stately.ai/inspect", "createBrowserInspector", "startInspector"]
const RECORDER = ["__khelLog", "khel.eventLog", "khel.flowCoverage", "startDevTools"]

const filesUnder = (dir: string): Array<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : [path]
  })

/** The built files (source maps aside: they name every source file) that contain `needle`. */
const holding = (dir: string, needle: string) =>
  filesUnder(dir).filter((file) => !/\.(map|gz|br)$/.test(file) && readFileSync(file, "latin1").includes(needle))

test("the production build holds neither the inspector nor the event log; the test build holds the log only", () => {
  test.setTimeout(240_000)
  const dist = mkdtempSync(join(tmpdir(), "khel-dist-"))
  try {
    execFileSync(process.execPath, ["node_modules/vite/bin/vite.js", "build", "--outDir", dist, "--emptyOutDir", "--logLevel", "error"], { stdio: "pipe" })
    for (const needle of [...INSPECTOR, ...RECORDER]) expect(holding(dist, needle), needle).toEqual([])
  } finally {
    rmSync(dist, { recursive: true, force: true })
  }
  // The test build this suite runs against (npm run build:test) records, so the strings above are the ones to look for.
  for (const needle of RECORDER) expect(holding("dist-test", needle), needle).not.toEqual([])
  for (const needle of INSPECTOR) expect(holding("dist-test", needle), needle).toEqual([])
})

test("npm run dev with ?inspect attaches the Stately inspector to the one actor system, secrets redacted", async ({ page, context }) => {
  test.setTimeout(240_000)
  // `npm run dev`: Vite with hot reload, its API proxied to the server this suite started.
  process.env.API_PORT = process.env.E2E_PORT
  const vite = await createServer({ server: { port: 0, host: "127.0.0.1", strictPort: false }, logLevel: "error", clearScreen: false })
  await vite.listen()
  try {
    const address = vite.httpServer?.address()
    if (address === null || address === undefined || typeof address === "string") throw new Error("vite: no port")
    // The inspector's window, played by a page that says it is connected and keeps what the app posts it.
    await context.route("https://stately.ai/inspect**", (route) =>
      route.fulfill({
        contentType: "text/html",
        body: `<!doctype html><title>inspector</title><script>
          window.received = []
          addEventListener("message", (e) => window.received.push(e.data))
          window.opener.postMessage({ type: "@statelyai.connected" }, "*")
        </script>`
      })
    )
    // Chrome's pop-up blocker, as a developer's browser has it (Playwright turns it off): no window until the person
    // clicks or types in the page.
    await page.addInitScript(() => {
      const open = window.open.bind(window)
      let gesture = false
      for (const type of ["click", "keydown"]) addEventListener(type, () => (gesture = true), true)
      window.open = (...args) => (gesture ? open(...args) : null)
    })
    await page.goto(`http://127.0.0.1:${address.port}/?inspect`)
    await waitForApp(page)
    // The sports loaded: the start-up calls answered (strict mode revives the app actor in development).
    await expect(page.getByRole("complementary", { name: "Sports" }).getByRole("button", { name: /^Cricket \d+ events$/ })).toBeVisible()

    // Blocked at load, the inspector opens with the first click, which the page still gets: the sign-in modal opens.
    const opening = page.waitForEvent("popup")
    await page.getByRole("banner").getByRole("button", { name: "Login" }).click()
    const inspector = await opening
    expect(inspector.url()).toMatch(/^https:\/\/stately\.ai\/inspect/)
    // The inspector sends when the page is idle (requestIdleCallback): the page in front, as the developer's would be.
    await page.bringToFront()

    // A refused sign-in: the password travels in an event, and must not reach the inspector.
    const dialog = page.getByRole("dialog")
    await dialog.getByRole("tab", { name: "Username" }).click()
    await dialog.getByLabel("Username").fill("demo")
    await dialog.getByLabel("Password", { exact: true }).fill("Wrong@9876")
    await dialog.getByRole("button", { name: "Login", exact: true }).click()
    await expect(dialog.getByRole("alert")).toBeVisible()

    interface Received {
      readonly type: string
      readonly name?: string
      readonly sessionId?: string
      readonly parentId?: string
      readonly event?: { readonly type: string; readonly field?: string; readonly value?: unknown }
    }
    const received = () => inspector.evaluate(() => (window as unknown as { received: Array<Received> }).received)
    await expect.poll(async () => (await received()).some((m) => m.type === "@xstate.event" && m.event?.type === "login.submit"), { timeout: 60_000 }).toBe(true)
    const messages = await received()
    const actors = messages.filter((m) => m.type === "@xstate.actor")
    const app = actors.find((m) => m.name === "app")
    expect(app, "the root actor, named by its machine id").toBeDefined()
    expect(app!.parentId).toBeUndefined()
    // One system, one root: React's strict mode builds a second app actor that never starts, and the inspector does not see it.
    expect(actors.filter((m) => m.name === "app")).toHaveLength(1)
    for (const child of ["session", "authModal", "loadSports"]) {
      expect(actors.find((m) => m.name === child)?.parentId, child).toBe(app!.sessionId)
    }
    // The password typed, field by field into the sign-in machine: in the inspector as a stand-in of its length.
    const typed = messages.filter((m) => m.type === "@xstate.event" && m.event?.type === "field.change" && m.event.field === "password")
    expect(typed.length).toBeGreaterThan(0)
    expect(typed.at(-1)!.event!.value).toHaveLength("Wrong@9876".length)
    expect(JSON.stringify(messages)).not.toContain("Wrong@9876")
  } finally {
    await vite.close()
  }
})
