import { defineConfig } from "@playwright/test"
import { execFileSync } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { TEST_SERVER_ENV } from "./tests/http.ts"

/** A port nobody listens on now: asked of the kernel once, then handed to the workers through the environment. */
const freePort = () =>
  Number(execFileSync(process.execPath, ["-e", "const s=require('node:net').createServer().listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})"], { encoding: "utf8" }))

const port = Number(process.env.E2E_PORT ?? freePort())
process.env.E2E_PORT = String(port)
// Every run starts from an empty data folder: migrations and demo data run as on a fresh install.
const dataDir = process.env.E2E_DATA_DIR ?? mkdtempSync(join(tmpdir(), "khel-e2e-"))
process.env.E2E_DATA_DIR = dataDir
// The push service the installable app's specs run on this machine (tests/push.ts): the server may POST only to it.
const pushPort = Number(process.env.E2E_PUSH_PORT ?? freePort())
process.env.E2E_PUSH_PORT = String(pushPort)
// What each test's browser sessions went through, per machine (tests/e2e/coverage.ts), counted when the run ends.
process.env.E2E_COVERAGE_DIR ??= mkdtempSync(join(tmpdir(), "khel-flow-coverage-"))

export default defineConfig({
  testDir: "tests/e2e",
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  reporter: [["list"], ["./tests/e2e/coverage-reporter.ts"]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: "retain-on-failure",
    // The site's service worker would answer the other specs' requests from its cache (and outside page.route):
    // only the specs of the installable app let it in (tests/e2e/pwa.spec.ts, `serviceWorkers: "allow"`).
    serviceWorkers: "block",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-quic", "--no-first-run"]
    }
  },
  projects: [
    { name: "desktop", use: { viewport: { width: 1366, height: 900 } }, testIgnore: /mobile\.spec\.ts/ },
    { name: "mobile", use: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true }, testMatch: /mobile\.spec\.ts/ }
  ],
  webServer: {
    command: "node server/main.ts",
    url: `http://127.0.0.1:${port}/api/v1/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    stdout: "ignore",
    stderr: "pipe",
    env: {
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
      // The test build (`npm run build:test`): the production build plus the event log (src/root/devtools.ts).
      DIST_DIR: "dist-test",
      DATABASE_URL: "",
      NODE_ENV: "test",
      // Every player of the suite signs up and in from 127.0.0.1: the per-address limits are the server suite's to test.
      ...TEST_SERVER_ENV,
      // Specs may move the server's clock (POST /api/v1/test/clock) to step over cooling-off periods and time-outs.
      TEST_CLOCK: "on",
      PUSH_SERVICES: `http://127.0.0.1:${pushPort}`
    }
  }
})
