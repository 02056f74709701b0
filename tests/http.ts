import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"
import { codeAt } from "../server/desk/secondFactor.ts"
import { DEMO_STAFF } from "../server/seed/demoStaff.ts"

/**
 * What every test server runs with (the browser suite's, the cluster's and the
 * server suite's): every player of a suite signs up and in from 127.0.0.1, so
 * the per-address limits (SMS codes, failed sign-ins) are raised; the tests of
 * those limits start their server with the production ones. Metrics go on a
 * free port, so servers started together do not fight over 9464.
 */
export const TEST_SERVER_ENV = { SMS_PER_ADDRESS_PER_HOUR: "100000", SIGNIN_FAILURES_PER_ADDRESS: "100000", VISITORS_PER_ADDRESS_PER_HOUR: "100000", METRICS_PORT: "0" } as const

let utrCounter = 0
/** A fresh UPI payment reference (12 digits): the clock, the process and a counter, so unique across a run's workers. */
export const freshUtr = () =>
  `${String(Date.now() % 1e7).padStart(7, "0")}${String(process.pid % 100).padStart(2, "0")}${String(++utrCounter % 1000).padStart(3, "0")}`

/** JSON request returning status, headers and parsed body. */
export const request = async (base: string, path: string, init: RequestInit & { json?: unknown; token?: string } = {}) => {
  const headers = new Headers(init.headers)
  if (init.json !== undefined) headers.set("content-type", "application/json")
  if (init.token) headers.set("authorization", `Bearer ${init.token}`)
  const response = await fetch(`${base}${path}`, {
    ...init,
    headers,
    ...(init.json !== undefined ? { body: JSON.stringify(init.json) } : {})
  })
  const text = await response.text()
  let body: any
  try {
    body = JSON.parse(text)
  } catch {
    body = text
  }
  return { status: response.status, headers: response.headers, body }
}

/**
 * The codes the console SMS provider wrote for a number, newest last. Only
 * whole lines count: the server may be appending one as the file is read.
 */
export const outboxCodes = (dataDir: string, mobileNo: string, purpose?: "signup" | "reset") => {
  const path = join(dataDir, "sms-outbox.jsonl")
  if (!existsSync(path)) return []
  return readFileSync(path, "utf8")
    .split("\n")
    .slice(0, -1)
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { mobile_no: string; purpose: string; otp: string })
    .filter((entry) => entry.mobile_no === mobileNo && (!purpose || entry.purpose === purpose))
    .map((entry) => entry.otp)
}

/**
 * The newest code sent to a number, once it is in the outbox: codes go out
 * after the answer (once the request's transaction commits, on a fiber of
 * their own), so a caller waits for the outbox line, the real condition.
 * `after` is how many codes the number had before the call that sends one.
 * The deadline is generous (a loaded machine) and counted on the monotonic
 * clock: server tests move `Date` (advanceClock).
 */
export const waitForCode = async (dataDir: string, mobileNo: string, purpose: "signup" | "reset", after = 0, timeoutMs = 60_000) => {
  const deadline = performance.now() + timeoutMs
  for (;;) {
    const codes = outboxCodes(dataDir, mobileNo, purpose)
    if (codes.length > after) return codes.at(-1)!
    if (performance.now() > deadline) throw new Error(`no ${purpose} code reached the outbox for ${mobileNo} within ${timeoutMs / 1000} s`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

/** The demo staff (server/seed/accounts.ts), by username. */
export type DemoStaff = (typeof DEMO_STAFF)[number]["username"]

export interface DeskSignedIn {
  readonly token: string
  readonly staff: { readonly id: string; readonly username: string; readonly role: number; readonly permissions: ReadonlyArray<string> }
}

const deskSessions = new Map<string, DeskSignedIn>()

/**
 * A demo staff member's desk session: their password and, where the account
 * has a second factor, the code of its TOTP secret. A code is accepted once,
 * so another sign-in in the same 30-second step takes the next step's code
 * (the server allows a step of drift), and a third waits for the step to pass.
 * Sessions are kept per server and account (`fresh` signs in again).
 */
export const deskSignIn = async (base: string, username: DemoStaff, options: { fresh?: boolean } = {}): Promise<DeskSignedIn> => {
  const key = `${base} ${username}`
  const kept = deskSessions.get(key)
  if (kept && !options.fresh) return kept
  const member = DEMO_STAFF.find((staff) => staff.username === username)!
  for (let attempt = 0; ; attempt++) {
    const now = Date.now()
    const code = member.totpSecret ? codeAt(member.totpSecret, now + (attempt % 2) * 30_000) : undefined
    const res = await request(base, "/api/v1/desk/sign-in", { method: "POST", json: { username, password: member.password, ...(code ? { code } : {}) } })
    if (res.status === 200 && res.body.data.step === "signedIn") {
      const signedIn = { token: res.body.meta.token as string, staff: res.body.data.staff }
      deskSessions.set(key, signedIn)
      return signedIn
    }
    if (!member.totpSecret || res.body?.meta?.error !== "InvalidCredentials" || attempt >= 3) {
      throw new Error(`desk sign-in of ${username} failed: ${res.status} ${JSON.stringify(res.body)}`)
    }
    // Both codes of the moment were used: the next step brings a new one.
    if (attempt % 2 === 1) await new Promise((resolve) => setTimeout(resolve, 30_000 - (Date.now() % 30_000) + 50))
  }
}
