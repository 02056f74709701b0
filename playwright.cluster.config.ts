import { defineConfig } from "@playwright/test"

/**
 * `npm run test:cluster`: three servers on one PostgreSQL behind nginx, started by the test itself
 * (tests/cluster/harness.ts) on free loopback ports, with Chromium through nginx. Needs PostgreSQL
 * (DATABASE_URL, else PG_URL, else postgres://khel:khel@127.0.0.1:5432/khel) and Debian's nginx.
 */
export default defineConfig({
  testDir: "tests/cluster",
  // Each step waits for real conditions with its own generous deadline; the whole test is bounded here.
  timeout: 600_000,
  expect: { timeout: 30_000 },
  fullyParallel: false,
  workers: 1,
  reporter: [["list"]],
  use: {
    trace: "retain-on-failure",
    // Failover is about the servers: no service worker answering from its cache (tests/e2e/pwa.spec.ts tests it).
    serviceWorkers: "block",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-quic", "--no-first-run"]
    }
  },
  projects: [{ name: "cluster", use: { viewport: { width: 1366, height: 900 } } }]
})
