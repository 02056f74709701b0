import { chromium, type Browser, type Page } from "@playwright/test"
import { type ChildProcess, spawn } from "node:child_process"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"

export interface RunningServer {
  readonly url: string
  readonly process: ChildProcess
  readonly stop: () => Promise<void>
}

/**
 * The real server (`node server/main.ts`) on a free port and a fresh data folder; `root` runs another checkout's
 * server (the `compare` section). BENCH_PROFILE=<folder> writes the server's CPU profile there when it stops
 * (`node --cpu-prof`).
 */
export const startServer = async (env: Record<string, string> = {}, root = process.cwd()): Promise<RunningServer> => {
  const dataDir = mkdtempSync(join(tmpdir(), "khel-bench-"))
  const profile = process.env.BENCH_PROFILE ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_PROFILE}`] : []
  const child = spawn(process.execPath, [...profile, "server/main.ts"], {
    cwd: root,
    env: { ...process.env, PORT: "0", METRICS_PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, DATABASE_URL: "", ...env },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  const port = await new Promise<number>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const match = /Listening on http:\/\/[^:]+:(\d+)/.exec(output)
      if (match) resolve(Number(match[1]))
    }
    child.stdout!.on("data", onData)
    child.stderr!.on("data", onData)
    child.on("exit", (code) => reject(new Error(`server exited (${code}): ${output.slice(-2000)}`)))
  })
  return {
    url: `http://127.0.0.1:${port}`,
    process: child,
    stop: () =>
      new Promise((resolve) => {
        child.once("exit", () => resolve())
        child.kill("SIGTERM")
      })
  }
}

/** The demo player's token: the benches watch the site as a signed-in player. */
export const demoToken = async (base: string): Promise<string> => {
  const res = await fetch(`${base}/identity/user/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ username: "demo", password: "Demo@1234" })
  })
  return ((await res.json()) as { meta: { token: string } }).meta.token
}

export const launchChromium = (): Promise<Browser> =>
  chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-quic", "--no-first-run"]
  })

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`

/** The middle value (the upper one of an even count); NaN for none. */
export const median = (values: ReadonlyArray<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN

/** Notes inside the page the moment the spec's preloader leaves, as `window.preloaderGoneAt` (call before `goto`). */
export const notePreloaderGone = (page: Page) =>
  page.addInitScript(() => {
    let seen = false
    new MutationObserver(() => {
      const present = document.querySelector("[data-testid=preloader]") !== null
      if (present) seen = true
      else if (seen && !("preloaderGoneAt" in window)) Object.assign(window, { preloaderGoneAt: performance.now() })
    }).observe(document, { subtree: true, childList: true })
  })

/** When the preloader left (ms from the navigation's start), once it has. */
export const preloaderGoneAt = async (page: Page, timeout = 30_000): Promise<number> => {
  await page.waitForFunction(() => "preloaderGoneAt" in window, undefined, { timeout })
  return page.evaluate(() => (window as unknown as { preloaderGoneAt: number }).preloaderGoneAt)
}

export const table = (rows: ReadonlyArray<ReadonlyArray<string | number>>) => {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => String(row[i]).length)))
  for (const [index, row] of rows.entries()) {
    console.log(row.map((cell, i) => (i === 0 ? String(cell).padEnd(widths[i]!) : String(cell).padStart(widths[i]!))).join("  "))
    if (index === 0) console.log(widths.map((w) => "-".repeat(w)).join("  "))
  }
}
