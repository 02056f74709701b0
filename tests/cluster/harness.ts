/**
 * Several real servers (`node server/main.ts`) on one fresh PostgreSQL
 * database behind Debian's nginx, configured with deploy/nginx.conf (the file
 * docs/deploy.md describes), on free loopback ports. Used by the cluster
 * test and by `npm run bench -- cluster`.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { createWriteStream, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join, resolve } from "node:path"
import pg from "pg"
import { TEST_SERVER_ENV } from "../http.ts"

const ROOT = resolve(import.meta.dirname, "../..")
const NGINX = process.env.NGINX_PATH ?? "/usr/sbin/nginx"

/** A port the kernel hands out now (nothing listens on it once this returns). */
export const freePort = () =>
  new Promise<number>((resolvePort, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolvePort(port))
    })
  })

const pause = (ms: number) => new Promise((resolveLater) => setTimeout(resolveLater, ms))

/** Polls `check` until it holds or the deadline passes (generous: the machine may be loaded). */
export const until = async (what: string, check: () => Promise<boolean>, deadlineMs = 120_000, everyMs = 200) => {
  const end = Date.now() + deadlineMs
  for (;;) {
    if (await check().catch(() => false)) return
    if (Date.now() > end) throw new Error(`waited ${deadlineMs / 1000} s for ${what}`)
    await pause(everyMs)
  }
}

/** Ready to take players (database, migrations, fresh odds): what a load balancer asks (deploy/nginx.conf). */
const healthy = async (url: string) => {
  const res = await fetch(`${url}/ready`).catch(() => undefined)
  return res?.status === 200
}

/** The PostgreSQL server the suite uses (DATABASE_URL, else the one .ci/run starts). */
export const adminDatabaseUrl = () => process.env.DATABASE_URL || process.env.PG_URL || "postgres://khel:khel@127.0.0.1:5432/khel"

const onAdmin = async (statement: string) => {
  const client = new pg.Client({ connectionString: adminDatabaseUrl() })
  await client.connect()
  try {
    await client.query(statement)
  } finally {
    await client.end()
  }
}

export interface ClusterServer {
  readonly id: string
  readonly port: number
  readonly url: string
  readonly process: () => ChildProcess | undefined
  /** Starts it (again) on its port, and waits until it answers its health check. */
  readonly start: () => Promise<void>
  /** Sends SIGTERM and waits for it to exit. */
  readonly stop: () => Promise<number | null>
  /** SIGKILL: no goodbye, its connections simply vanish. */
  readonly kill: () => Promise<void>
}

export interface Cluster {
  readonly url: string
  readonly databaseUrl: string
  readonly dataDir: string
  readonly logs: string
  readonly servers: ReadonlyArray<ClusterServer>
  /** nginx's processes (master and workers), for measuring where CPU goes. */
  readonly nginxPids: () => ReadonlyArray<number>
  /** Runs `npm run admin -- …` against the cluster's database. */
  readonly admin: (args: ReadonlyArray<string>) => { code: number; stdout: string; stderr: string }
  readonly query: <R extends Record<string, unknown>>(text: string, values?: ReadonlyArray<unknown>) => Promise<Array<R>>
  readonly stop: () => Promise<void>
}

/** deploy/nginx.conf on this cluster's ports, inside a complete configuration nginx runs in the foreground. */
const nginxConfig = (dir: string, port: number, serverPorts: ReadonlyArray<number>) => {
  // The site's own listen line (not the commented TLS redirect's).
  let site = readFileSync(join(ROOT, "deploy/nginx.conf"), "utf8").replace(/^ {2}listen 80;$/m, `  listen 127.0.0.1:${port};`)
  serverPorts.forEach((serverPort, i) => {
    site = site.replaceAll(`127.0.0.1:${8081 + i}`, `127.0.0.1:${serverPort}`)
  })
  if (serverPorts.length < 3) {
    // Fewer servers: each sticky upstream is its own server (or the first), and the missing ones' lines go.
    site = site.replace(/upstream khel_s(\d) \{[^}]*\}/g, (_all, n: string) =>
      `upstream khel_s${n} { server 127.0.0.1:${serverPorts[Number(n) - 1] ?? serverPorts[0]}; }`)
    for (let i = serverPorts.length; i < 3; i++) site = site.split("\n").filter((line) => !line.includes(`127.0.0.1:${8081 + i}`)).join("\n")
  }
  writeFileSync(join(dir, "khel.conf"), site)
  for (const temp of ["body", "proxy", "fastcgi", "uwsgi", "scgi"]) mkdirSync(join(dir, temp), { recursive: true, mode: 0o777 })
  const asRoot = process.getuid?.() === 0 ? "user root;\n" : ""
  return `${asRoot}worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${dir}/khel.conf;
}
`
}

/**
 * Starts `count` servers (s1, s2, …) on one new database, then nginx in front
 * of them. The first server migrates and loads the demo data before the
 * others start.
 */
export const startCluster = async (options: { count: number; env?: Record<string, string> }): Promise<Cluster> => {
  const name = `khel_cluster_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`
  await onAdmin(`CREATE DATABASE ${name}`)
  const databaseUrl = Object.assign(new URL(adminDatabaseUrl()), { pathname: `/${name}` }).toString()
  const dir = mkdtempSync(join(tmpdir(), "khel-cluster-"))
  const dataDir = join(dir, "data")
  const logs = join(dir, "logs")
  mkdirSync(dataDir)
  mkdirSync(logs)

  const makeServer = (index: number, port: number): ClusterServer => {
    const id = `s${index + 1}`
    let child: ChildProcess | undefined
    const exited = () => child === undefined || child.exitCode !== null || child.signalCode !== null
    const start = async () => {
      const log = createWriteStream(join(logs, `${id}.log`), { flags: "a" })
      child = spawn(process.execPath, ["server/main.ts"], {
        cwd: ROOT,
        env: {
          ...process.env,
          PORT: String(port),
          HOST: "127.0.0.1",
          DATABASE_URL: databaseUrl,
          DATA_DIR: dataDir,
          SERVER_ID: id,
          NODE_ENV: "test",
          LOG_REQUESTS: "false",
          // Every player of the test signs up and in from 127.0.0.1: the per-address limits are the server suite's to test.
          ...TEST_SERVER_ENV,
          ...options.env
        },
        stdio: ["ignore", "pipe", "pipe"]
      })
      child.stdout!.pipe(log)
      child.stderr!.pipe(log)
      const started = child
      await until(`${id} to answer on port ${port}`, async () => {
        if (started.exitCode !== null) throw new Error(`${id} exited (${started.exitCode}); see ${join(logs, `${id}.log`)}`)
        return healthy(`http://127.0.0.1:${port}`)
      })
    }
    const waitExit = () =>
      new Promise<number | null>((resolveExit) => {
        if (exited()) return resolveExit(child?.exitCode ?? null)
        child!.once("exit", (code) => resolveExit(code))
      })
    return {
      id,
      port,
      url: `http://127.0.0.1:${port}`,
      process: () => child,
      start,
      stop: async () => {
        if (exited()) return child?.exitCode ?? null
        const exit = waitExit()
        child!.kill("SIGTERM")
        return exit
      },
      kill: async () => {
        if (exited()) return
        const exit = waitExit()
        child!.kill("SIGKILL")
        await exit
      }
    }
  }

  const ports = await Promise.all(Array.from({ length: options.count }, () => freePort()))
  const servers = ports.map((port, index) => makeServer(index, port))
  let nginx: ChildProcess | undefined
  const nginxPort = await freePort()
  const url = `http://127.0.0.1:${nginxPort}`
  try {
    await servers[0]!.start()
    await Promise.all(servers.slice(1).map((server) => server.start()))
    const nginxDir = join(dir, "nginx")
    mkdirSync(nginxDir)
    writeFileSync(join(nginxDir, "nginx.conf"), nginxConfig(nginxDir, nginxPort, ports))
    const started = spawn(NGINX, ["-p", nginxDir, "-c", join(nginxDir, "nginx.conf"), "-g", "daemon off;"], { stdio: ["ignore", "pipe", "pipe"] })
    nginx = started
    const nginxLog = createWriteStream(join(logs, "nginx.log"))
    started.stdout!.pipe(nginxLog)
    started.stderr!.pipe(nginxLog)
    await until("nginx to pass requests through", async () => {
      if (started.exitCode !== null) throw new Error(`nginx exited (${started.exitCode}); see ${join(logs, "nginx.log")} and ${join(nginxDir, "error.log")}`)
      return healthy(url)
    })
  } catch (error) {
    nginx?.kill("SIGQUIT")
    await Promise.all(servers.map((server) => server.kill()))
    await onAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    throw error
  }

  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 })
  return {
    url,
    databaseUrl,
    dataDir,
    logs,
    servers,
    nginxPids: () => {
      const master = nginx?.pid
      if (master === undefined) return []
      const children = (() => {
        try {
          return readFileSync(`/proc/${master}/task/${master}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number)
        } catch {
          return []
        }
      })()
      return [master, ...children]
    },
    admin: (args) => {
      try {
        const stdout = execFileSync(process.execPath, ["server/admin.ts", ...args], {
          cwd: ROOT,
          env: { ...process.env, DATABASE_URL: databaseUrl, DATA_DIR: dataDir },
          encoding: "utf8",
          stdio: ["ignore", "pipe", "pipe"],
          timeout: 120_000
        })
        return { code: 0, stdout, stderr: "" }
      } catch (error) {
        const failed = error as { status: number; stdout: string; stderr: string }
        return { code: failed.status, stdout: failed.stdout, stderr: failed.stderr }
      }
    },
    query: async <R extends Record<string, unknown>>(text: string, values?: ReadonlyArray<unknown>) =>
      (await pool.query(text, values as Array<unknown>)).rows as Array<R>,
    stop: async () => {
      nginx?.kill("SIGQUIT")
      await Promise.all(servers.map((server) => server.stop()))
      await pool.end()
      await onAdmin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    }
  }
}
