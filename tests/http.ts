import { existsSync, readFileSync } from "node:fs"
import { join } from "node:path"

/**
 * What every test server runs with (the browser suite's, the cluster's and the
 * server suite's): every player of a suite signs up and in from 127.0.0.1, so
 * the per-address limits (SMS codes, failed sign-ins) are raised; the tests of
 * those limits start their server with the production ones.
 */
export const TEST_SERVER_ENV = { SMS_PER_ADDRESS_PER_HOUR: "100000", SIGNIN_FAILURES_PER_ADDRESS: "100000" } as const

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
