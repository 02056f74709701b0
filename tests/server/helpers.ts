import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Logger, ManagedRuntime, Redacted, References } from "effect"
import { SqlClient } from "effect/sql"
import { type ChildProcess, execFile, spawn } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createServer, request as httpRequest } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, afterEach, beforeAll, expect, vi } from "vitest"
import { io, type Socket } from "socket.io-client"
import { promisify } from "node:util"
import { makeServer } from "../../server/app.ts"
import { DEFAULT_LIMITS, ServerConfig, type ServerConfigShape } from "../../server/config.ts"
import { Ledger } from "../../server/ledger/Ledger.ts"
import { MetricsEndpoint } from "../../server/edge/metricsServer.ts"
import { Realtime } from "../../server/realtime/Realtime.ts"
import { type DemoStaff, deskSignIn, freshUtr, outboxCodes, request as plainRequest, TEST_SERVER_ENV, waitForCode } from "../http.ts"
import { reasonProblem, reasonsOf } from "./contract.ts"

/**
 * A real server on an ephemeral port, with its own database: a fresh PGlite
 * folder, or, when DATABASE_URL is set, a fresh PostgreSQL database created
 * for this server and dropped afterwards.
 */
export interface TestServer {
  readonly url: string
  readonly dataDir: string
  readonly engine: "pglite" | "postgres"
  readonly databaseUrl: string | undefined
  /** Where its metrics are served (`${metricsUrl}/metrics`). */
  readonly metricsUrl: string
  /** Runs a program against the server's own services (ledger, realtime…), for setup that has no HTTP call. */
  readonly run: <A, E>(effect: Effect.Effect<A, E, ServerServices>) => Promise<A>
  /** Runs SQL against the server's database (for assertions and setup). */
  readonly sql: <A>(f: (sql: SqlClient.SqlClient) => Effect.Effect<A, unknown, never>) => Promise<A>
  readonly close: () => Promise<void>
}

/** What a test may ask the server's runtime for. */
export type ServerServices = Layer.Success<ReturnType<typeof makeServer>>

export const tempDir = (prefix: string) => mkdtempSync(join(tmpdir(), `khel-${prefix}-`))

/** A tiny built site, so static serving can be tested without running vite. */
export const fakeDist = () => {
  const dir = tempDir("dist")
  mkdirSync(join(dir, "assets"))
  writeFileSync(join(dir, "index.html"), "<!doctype html><title>Khel test</title><div id=root></div>")
  writeFileSync(join(dir, "assets", "app-abc123.js"), "console.log('app')")
  return dir
}

const adminUrl = () => process.env.DATABASE_URL

const withAdmin = <A>(program: Effect.Effect<A, unknown, SqlClient.SqlClient>) =>
  Effect.runPromise(program.pipe(Effect.provide(PgClient.layer({ url: Redacted.make(adminUrl()!), maxConnections: 1 })), Effect.scoped))

const databaseFor = async (name: string) => {
  await withAdmin(SqlClient.SqlClient.use((sql) => sql.unsafe(`CREATE DATABASE ${name}`)))
  const url = new URL(adminUrl()!)
  url.pathname = `/${name}`
  return url.toString()
}

const dropDatabase = (name: string) =>
  withAdmin(SqlClient.SqlClient.use((sql) => sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)))

export const quietLogs = Layer.mergeAll(
  Logger.layer(process.env.DEBUG_SERVER ? [Logger.consolePretty()] : []),
  Layer.succeed(References.MinimumLogLevel, process.env.DEBUG_SERVER ? "Debug" : "Error")
)

/**
 * The limits of every test server (TEST_SERVER_ENV: the per-address ones
 * raised, as every player comes from 127.0.0.1); the tests of those limits
 * start their server with the production ones (`limits: DEFAULT_LIMITS`).
 */
export const SUITE_LIMITS = ServerConfig.fromEnv(TEST_SERVER_ENV).limits

/**
 * A server with the production limits, behind one trusted proxy: tests of
 * the limits speak from addresses of their own (`X-Forwarded-For`, from
 * `addressesFrom`), so each counts only what it sends.
 */
export const PRODUCTION_LIMITS_BEHIND_PROXY = { trustProxy: 1, limits: DEFAULT_LIMITS } satisfies Partial<ServerConfigShape>

/** Fresh client addresses under a documentation prefix (`203.0.113` → 203.0.113.1, .2, …). */
export const addressesFrom = (prefix: string) => {
  let counter = 0
  return () => `${prefix}.${++counter}`
}

/**
 * The deadline of a test that starts a server of its own in its body (hooks have the same one in
 * vitest.config.ts): migrations, seed and the embedded database unpacked take a minute or more on a loaded machine.
 */
export const SERVER_START_TIMEOUT = 300_000

export const startServer = async (overrides: Partial<ServerConfigShape> = {}): Promise<TestServer> => {
  const dataDir = overrides.dataDir ?? tempDir("data")
  const dbName = `khel_test_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
  const databaseUrl = "databaseUrl" in overrides ? overrides.databaseUrl : adminUrl() ? await databaseFor(dbName) : undefined
  const config = ServerConfig.fromEnv(TEST_SERVER_ENV, {
    port: 0,
    host: "127.0.0.1",
    dataDir,
    databaseUrl,
    distDir: fakeDist(),
    limits: SUITE_LIMITS,
    ...overrides
  })
  const server = createServer()
  const runtime = ManagedRuntime.make(makeServer(config, server).pipe(Layer.provide(quietLogs)))
  const { url: metricsUrl } = await runtime.runPromise(MetricsEndpoint)
  const { port } = server.address() as AddressInfo
  return {
    run: (effect) => runtime.runPromise(effect),
    url: `http://127.0.0.1:${port}`,
    metricsUrl,
    dataDir,
    engine: databaseUrl ? "postgres" : "pglite",
    databaseUrl,
    // Through the server's own client: PGlite has one owner, and rows come back camelCased as the server sees them.
    sql: (f) => runtime.runPromise(SqlClient.SqlClient.use(f)),
    close: async () => {
      await runtime.dispose()
      if (databaseUrl && !("databaseUrl" in overrides)) await dropDatabase(dbName)
      if (!overrides.dataDir) rmSync(dataDir, { recursive: true, force: true })
    }
  }
}

/** What a test file's server (`useServer`) is started with, and what it does around the tests. */
export interface ServerFixtureOptions {
  /** The server's settings; a function is read when the server starts (to name another fixture's database). */
  readonly config?: Partial<ServerConfigShape> | (() => Partial<ServerConfigShape>)
  /** Demo staff signed in on the desk once it runs: their tokens are the handle's fields of those names. */
  readonly signIn?: ReadonlyArray<DemoStaff>
  /** A check after each test, such as `expectLedgerVerifies`. */
  readonly afterEach?: (server: TestServer) => Promise<unknown>
}

/** The server of a file or a describe block, with the desk tokens of the staff it signed in. */
export type ServerFixture = TestServer & { readonly [K in DemoStaff]: string }

/**
 * One server for the file (or the describe block it is called in): started in beforeAll, closed in afterAll.
 * The handle is a TestServer whose fields are read when used, so read them inside tests and hooks.
 */
export const useServer = (options: ServerFixtureOptions = {}): ServerFixture => {
  let started: TestServer | undefined
  const tokens = new Map<string, string>()
  const current = () => {
    if (!started) throw new Error("the test server is read before its beforeAll started it")
    return started
  }
  const token = (name: DemoStaff) => {
    const found = tokens.get(name)
    if (found === undefined) throw new Error(`useServer did not sign ${name} in (signIn option)`)
    return found
  }
  beforeAll(async () => {
    started = await startServer(typeof options.config === "function" ? options.config() : options.config)
    const signedIn = await Promise.all((options.signIn ?? []).map((name) => deskSignIn(started!.url, name)))
    signedIn.forEach(({ token }, i) => tokens.set(options.signIn![i]!, token))
  })
  afterAll(async () => {
    await started?.close()
  })
  const handle: ServerFixture = {
    get url() { return current().url },
    get dataDir() { return current().dataDir },
    get engine() { return current().engine },
    get databaseUrl() { return current().databaseUrl },
    get metricsUrl() { return current().metricsUrl },
    run: (effect) => current().run(effect),
    sql: (f) => current().sql(f),
    close: () => current().close(),
    get director() { return token("director") },
    get admin() { return token("admin") },
    get support() { return token("support") }
  }
  const check = options.afterEach
  if (check) afterEach(async () => { await check(handle) })
  return handle
}

/** What `npm run admin -- verify-ledger` checks (the server's own Ledger.verify), asserted: run after every scenario. */
export const expectLedgerVerifies = async (server: Pick<TestServer, "run">) => {
  const check = await server.run(Ledger.use((ledger) => ledger.verify))
  expect(check.unbalanced).toEqual([])
  expect(check.drifted).toEqual([])
  expect(check.belowFloor).toEqual([])
  expect(check.total).toBe("0")
  return check
}

/**
 * Time passes for a server running in this process: its `Date` moves `ms`
 * forward (rate limits count with it, and so does PGlite's `now()`), while
 * real time and timers go on as usual. PostgreSQL's own clock does not move,
 * so a test of something SQL times moves its rows instead.
 * Files that use it call `vi.useRealTimers()` when they end.
 */
export const advanceClock = (ms: number) => {
  if (!vi.isFakeTimers()) vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true })
  vi.setSystemTime(Date.now() + ms)
}

/**
 * JSON request returning status, headers and parsed body. Every failure a
 * test meets is held to the contract: its reason declared by the endpoint,
 * sent with its status.
 */
export const request: typeof plainRequest = async (base, path, init = {}) => {
  const answer = await plainRequest(base, path, init)
  const { status, body } = answer
  if (status !== 200 && typeof body === "object" && body !== null && body.meta !== undefined) {
    const problem = reasonProblem(reasonsOf(init.method ?? "GET", path), status, body.meta.error)
    if (problem) throw new Error(`${init.method ?? "GET"} ${path} answered ${status} "${body.meta.message}": ${problem}`)
  }
  return answer
}

export { freshUtr, outboxCodes, waitForCode }

/** An answer as it travelled: its bytes still in their content coding (fetch would undo it), headers joined. */
export interface RawAnswer {
  readonly status: number
  readonly headers: Record<string, string | undefined>
  readonly bytes: Buffer
}

/** A request through `node:http`, for what fetch hides: the content coding of the bytes and the headers as sent. */
export const rawRequest = (url: string, { method = "GET", headers = {}, body }: { method?: string; headers?: Record<string, string>; body?: string } = {}) =>
  new Promise<RawAnswer>((resolve, reject) => {
    const outgoing = httpRequest(url, { method, headers }, (response) => {
      const chunks: Array<Buffer> = []
      response.on("data", (chunk: Buffer) => chunks.push(chunk))
      response.on("end", () => resolve({
        status: response.statusCode!,
        headers: Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(", ") : value])),
        bytes: Buffer.concat(chunks)
      }))
    })
    outgoing.on("error", reject)
    outgoing.end(body)
  })

let phoneCounter = 0
/** A fresh valid Indian mobile number (E.164), unique within this process. */
export const freshPhone = () => `+917${String(Date.now() % 1e6).padStart(6, "0")}${String(++phoneCounter % 1000).padStart(3, "0")}`

/**
 * Signs up and verifies a new player through the API; returns their token and user. `headers` go with both
 * calls: an address (`X-Forwarded-For`, on a server that trusts a proxy) or a browser's visitor cookie.
 */
export const signUpPlayer = async (
  server: Pick<TestServer, "url" | "dataDir">,
  options: { name?: string; password?: string; affiliateCode?: string; region?: string; headers?: Record<string, string> } = {}
) => {
  const mobileNo = freshPhone()
  const password = options.password ?? "Monsoon#Tiffin42"
  const signUp = await request(server.url, "/identity/user/sign-up", {
    method: "POST",
    ...(options.headers ? { headers: options.headers } : {}),
    json: {
      name: options.name ?? "Test Player",
      mobile_no: mobileNo,
      password,
      confirmPassword: password,
      ageConfirmed: true,
      region: options.region ?? "MH",
      ...(options.affiliateCode ? { affiliateCode: options.affiliateCode } : {})
    }
  })
  if (signUp.status !== 200) throw new Error(`sign-up failed: ${JSON.stringify(signUp.body)}`)
  const otp = await waitForCode(server.dataDir, mobileNo, "signup")
  const verified = await request(server.url, "/identity/user/verify-otp", { method: "POST", json: { mobile_no: mobileNo, otp }, ...(options.headers ? { headers: options.headers } : {}) })
  if (verified.status !== 200) throw new Error(`verify failed: ${JSON.stringify(verified.body)}`)
  return { token: verified.body.meta.token as string, user: verified.body.data as { id: string; username: string; referralCode: string }, mobileNo, password }
}

/** Signs a seeded demo account in; returns the token. Staff (admin, director, support) sign in on the desk, with their second factor. */
export const loginAs = async (server: Pick<TestServer, "url">, username: "demo" | "credit" | DemoStaff) => {
  if (username !== "demo" && username !== "credit") {
    const { token, staff } = await deskSignIn(server.url, username)
    return { token, user: { id: staff.id } }
  }
  const passwords = { demo: "Demo@1234", credit: "Credit@1234" } as const
  const res = await request(server.url, "/identity/user/login", { method: "POST", json: { username, password: passwords[username] } })
  if (res.status !== 200) throw new Error(`login failed: ${JSON.stringify(res.body)}`)
  return { token: res.body.meta.token as string, user: res.body.data as { id: string } }
}

/** A socket.io client on the websocket transport, signed in with `token` ("" for a visitor), once connected. */
export const connectSocket = (url: string, token: string) =>
  new Promise<Socket>((resolve, reject) => {
    const socket = io(url, { transports: ["websocket"], auth: { token }, reconnection: false })
    socket.on("connect", () => resolve(socket))
    socket.on("connect_error", reject)
  })

/** The next change the desk socket hears of `topic` (and of `id`, when given); other desk changes, such as moving markets, pass by. */
export const nextDeskChange = (socket: Socket, topic: string, id?: string) =>
  new Promise<{ topic: string; id: string }>((resolve) => {
    const on = (change: { topic: string; id: string }) => {
      if (change.topic !== topic || (id !== undefined && change.id !== id)) return
      socket.off("desk", on)
      resolve(change)
    }
    socket.on("desk", on)
  })

/**
 * Resolves once `socket` hears a marker the server sends to every socket now.
 * A socket's events arrive in the order they were sent, so after the marker
 * nothing sent earlier is still on its way: what the socket has not heard by
 * then, it was never sent.
 */
export const drained = async (server: Pick<TestServer, "run">, socket: Socket) => {
  const marker = `test.marker.${Math.random().toString(36).slice(2)}`
  const heard = new Promise<void>((resolve) => socket.once(marker, () => resolve()))
  await server.run(Realtime.use((realtime) => Effect.sync(() => realtime.io.emit(marker))))
  await heard
}

/** Credits a player's main balance from the deposits account: one ledger posting, as an approved deposit makes. */
export const creditMain = (server: Pick<TestServer, "run">, userId: string, paise: number, description = "test deposit") =>
  server.run(Ledger.use((ledger) =>
    ledger.post({
      kind: "deposit",
      userId,
      description,
      legs: [{ account: { operator: "deposits" }, amount: -paise }, { account: { user: userId, kind: "main" }, amount: paise }]
    })
  ))

const execFileAsync = promisify(execFile)

/**
 * The real server process (`node server/main.ts`, as `npm run serve` starts it) on free ports with the suite's
 * settings and `env`, once it listens; `output` is everything it has written. The caller stops `child`.
 */
export const launchServer = (env: Record<string, string>) =>
  new Promise<{ child: ChildProcess; url: string; output: () => string }>((resolve, reject) => {
    const child = spawn(process.execPath, ["server/main.ts"], {
      env: { ...process.env, ...TEST_SERVER_ENV, PORT: "0", HOST: "127.0.0.1", NODE_ENV: "test", ...env },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    const onData = (chunk: Buffer) => {
      output += chunk.toString()
      const match = /Listening on http:\/\/[^:]+:(\d+)/.exec(output)
      if (match) resolve({ child, url: `http://127.0.0.1:${match[1]}`, output: () => output })
    }
    child.stdout!.on("data", onData)
    child.stderr!.on("data", onData)
    child.on("exit", (code) => reject(new Error(`server exited early (${code}): ${output.slice(-2000)}`)))
  })

/** `npm run admin -- …` on a test server's database (PGlite needs that server stopped: one process owns a data folder). */
export const runAdmin = (server: Pick<TestServer, "dataDir" | "databaseUrl">, args: ReadonlyArray<string>) =>
  execFileAsync(process.execPath, ["server/admin.ts", ...args], {
    env: { ...process.env, DATA_DIR: server.dataDir, DATABASE_URL: server.databaseUrl ?? "" }
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr })
  )

/** How many answers had each status: `{ 200: 10, 422: 20 }`. */
export const countStatuses = (statuses: ReadonlyArray<number>) =>
  statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {})
