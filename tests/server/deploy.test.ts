import { Effect } from "effect"
import { execFileSync, spawnSync } from "node:child_process"
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join, resolve } from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { ENV_FILE, envFile } from "../../scripts/envFile.ts"
import { ServerConfig, SETTINGS } from "../../server/config.ts"
import { Ledger } from "../../server/ledger/Ledger.ts"
import { recordVerification } from "../../server/ledger/verifications.ts"
import { namesOf, scrape } from "../prometheus.ts"
import { request, tempDir, useServer } from "./helpers.ts"

/** What an operator copies from deploy/ (docs/deploy.md), held to the code it deploys. */
const ROOT = resolve(import.meta.dirname, "../..")
const read = (path: string) => readFileSync(join(ROOT, path), "utf8")
/** The tools (promtool evaluates hours of series; openssl makes a key) take seconds, or minutes on a loaded machine. */
const TOOL_TIMEOUT = 300_000
const has = (command: string) => spawnSync("sh", ["-c", `command -v ${command}`]).status === 0

describe("the environment file", () => {
  it("is what `npm run env-file` writes from server/config.ts", () => {
    expect(read(ENV_FILE), "run `npm run env-file`").toBe(envFile())
  })

  it("names every variable the server reads, with its default", () => {
    const used = new Set<string>()
    for (const file of readdirSync(join(ROOT, "server"), { recursive: true, encoding: "utf8" })) {
      if (!file.endsWith(".ts")) continue
      // `env.NAME`, `env["NAME"]`, and config.ts's `setting(env, "NAME")`.
      const source = readFileSync(join(ROOT, "server", file), "utf8")
      for (const match of source.matchAll(/\benv(?:\.([A-Z][A-Z0-9_]*)|\[\s*"([A-Z][A-Z0-9_]*)"\s*\])|\bsetting\(\s*env,\s*"([A-Z][A-Z0-9_]*)"/g)) {
        used.add(match[1] ?? match[2] ?? match[3]!)
      }
    }
    expect(used).toContain("DATABASE_URL")
    expect(used).toContain("ODDS_SIMULATOR")
    const named = new Set<string>(SETTINGS.map((s) => s.name))
    expect([...used].filter((name) => !named.has(name)), "add them to SETTINGS in server/config.ts, then `npm run env-file`").toEqual([])
    const file = read(ENV_FILE)
    for (const setting of SETTINGS) expect(file).toMatch(new RegExp(`^#?${setting.name}=`, "m"))
  })

  it("holds values the server accepts, the defaults and the production ones alike", () => {
    const lines = read(ENV_FILE).split("\n").filter((line) => /^#?[A-Z_]+=/.test(line))
    const asSet = Object.fromEntries(lines.filter((line) => !line.startsWith("#")).map((line) => line.split(/=(.*)/s).slice(0, 2)))
    const defaults = Object.fromEntries(lines.map((line) => line.replace(/^#/, "").split(/=(.*)/s).slice(0, 2)))
    expect(() => ServerConfig.fromEnv(defaults)).not.toThrow()
    const production = ServerConfig.fromEnv({ ...asSet, NODE_ENV: "production" })
    expect(production).toMatchObject({ production: true, host: "127.0.0.1", seedDemo: false, logFormat: "json", metricsHost: "127.0.0.1", metricsPort: 9464 })
  })
})

describe("alert rules and the dashboard", () => {
  const rules = join(ROOT, "deploy/prometheus/khel-alerts.yml")
  const expressions = () => [...read("deploy/prometheus/khel-alerts.yml").matchAll(/^\s+expr: (.+)$/gm)].map((m) => m[1]!)

  it.skipIf(!has("promtool"))("load in promtool, and each alert fires on what it names and not before (promtool's rule tests)", () => {
    expect(execFileSync("promtool", ["check", "rules", rules], { encoding: "utf8" })).toContain("SUCCESS: 6 rules found")
    expect(execFileSync("promtool", ["test", "rules", join(ROOT, "deploy/prometheus/khel-alerts.test.yml")], { encoding: "utf8" })).toContain("SUCCESS")
  }, TOOL_TIMEOUT)

  it("are six alerts, each with an expression, a severity and words for whoever is woken", () => {
    const text = read("deploy/prometheus/khel-alerts.yml")
    const alerts = [...text.matchAll(/^\s+- alert: (\w+)$/gm)].map((m) => m[1])
    expect(alerts).toEqual(["KhelNoOddsLeader", "KhelDepositWaiting", "KhelBetsRefusedInternal", "KhelBetLatencyHigh", "KhelDatabasePoolExhausted", "KhelLedgerVerifyFailed"])
    expect(expressions()).toHaveLength(6)
    expect(text.match(/severity: page/g)).toHaveLength(6)
    expect(text.match(/summary: /g)).toHaveLength(6)
  })

  describe("against a server", () => {
    const server = useServer()
    beforeAll(async () => {
      // Requests, a check of the ledger: what a server that has been running a while serves.
      await request(server.url, "/api/v1/get-sports-data")
      await server.run(Effect.flatMap(Ledger.use((ledger) => ledger.verify), recordVerification))
    })

    it("name only metrics a server serves", async () => {
      const served = namesOf(await scrape(server.metricsUrl))
      const dashboard = JSON.parse(read("deploy/grafana/khel-dashboard.json")) as { panels: Array<{ targets?: Array<{ expr: string }> }> }
      const queries = [...expressions(), ...dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr))]
      const named = new Set(queries.flatMap((query) => [...query.matchAll(/\bkhel_[a-z0-9_]+\b/g)].map((m) => m[0])))
      expect(named.size).toBeGreaterThan(20)
      expect([...named].filter((name) => !served.has(name))).toEqual([])
    })
  })
})

describe("systemd units", () => {
  const units = ["khel@.service", "khel-verify-ledger.service", "khel-verify-ledger.timer", "khel-backup.service", "khel-backup.timer"]

  it("run the server as its own user in production, restart it on failure and confine it", () => {
    const unit = read("deploy/systemd/khel@.service")
    for (const line of [
      "User=khel", "Environment=NODE_ENV=production", "EnvironmentFile=/etc/khel/khel.env", "Restart=on-failure", "KillSignal=SIGTERM",
      "NoNewPrivileges=yes", "ProtectSystem=strict", "ProtectHome=yes", "PrivateTmp=yes", "StateDirectory=khel", "CapabilityBoundingSet="
    ]) expect(unit).toMatch(new RegExp(`^${line.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`, "m"))
  })

  it.skipIf(!has("systemd-analyze"))("are valid units (systemd-analyze verify, with /opt/khel as this checkout)", () => {
    const dir = tempDir("units")
    for (const unit of units) writeFileSync(join(dir, unit), read(`deploy/systemd/${unit}`).replaceAll("/opt/khel", ROOT))
    writeFileSync(join(dir, "khel@s1.service"), read("deploy/systemd/khel@.service").replaceAll("/opt/khel", ROOT))
    const result = spawnSync("systemd-analyze", ["verify", ...["khel@s1.service", ...units.slice(1)].map((unit) => join(dir, unit))], { encoding: "utf8" })
    expect(result.stdout + result.stderr).toBe("")
    expect(result.status).toBe(0)
  }, TOOL_TIMEOUT)
})

describe("nginx", () => {
  it.skipIf(!has("openssl") || !existsSync("/usr/sbin/nginx"))("takes deploy/nginx.conf with its TLS lines uncommented", () => {
    const dir = tempDir("nginx")
    execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=khel.example", "-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem")], { stdio: "ignore" })
    const site = read("deploy/nginx.conf")
      // The TLS lines, as docs/deploy.md says to turn them on (the redirect server's braces included).
      .replace(/^# (server \{|  listen|  server_name|  return|\})/gm, "$1")
      .replace(/^ {2}listen 80;$/m, "")
      .replace(/^ {2}# (listen 443|listen \[::\]:443|server_name|ssl_|add_header)/gm, "  $1")
      .replaceAll("/etc/letsencrypt/live/khel.example/fullchain.pem", join(dir, "cert.pem"))
      .replaceAll("/etc/letsencrypt/live/khel.example/privkey.pem", join(dir, "key.pem"))
    expect(site).toMatch(/^ {2}listen 443 ssl http2;$/m)
    expect(site).toMatch(/^ {2}return 301 https:\/\/\$host\$request_uri;$/m)
    writeFileSync(join(dir, "khel.conf"), site)
    for (const temp of ["body", "proxy", "fastcgi", "uwsgi", "scgi"]) mkdirSync(join(dir, temp))
    writeFileSync(join(dir, "nginx.conf"), `${process.getuid?.() === 0 ? "user root;\n" : ""}pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events {}
http {
  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy; fastcgi_temp_path ${dir}/fastcgi; uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;
  include ${dir}/khel.conf;
}
`)
    const result = spawnSync("/usr/sbin/nginx", ["-t", "-p", dir, "-c", join(dir, "nginx.conf")], { encoding: "utf8" })
    expect(result.stderr).toContain("test is successful")
  }, TOOL_TIMEOUT)
})
