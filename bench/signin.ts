/**
 * Sign-in and password-reset answers for known and unknown accounts take the
 * same time: the same code path, one argon2 verification either way, the SMS
 * sent after the answer. This prints the figure (it is not a test: timing is
 * for `npm run bench`, never for a unit test).
 */
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { OTP_RESEND_SECONDS } from "../server/identity/Otp.ts"
import { waitForCode } from "../tests/http.ts"
import { median, startServer, table } from "./support.ts"

const SAMPLES = 60

const p90 = (values: Array<number>) => [...values].sort((a, b) => a - b)[Math.floor(values.length * 0.9)]!

export const signinBench = async () => {
  const dataDir = mkdtempSync(join(tmpdir(), "khel-bench-signin-"))
  // Every request speaks from an address of its own (a trusted proxy says so), so no limit gets in the way.
  const server = await startServer({ DATA_DIR: dataDir, TRUST_PROXY: "1" })
  let address = 0
  const post = async (path: string, json: unknown) => {
    const started = performance.now()
    const res = await fetch(`${server.url}/identity/user/${path}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-forwarded-for": `10.${(++address >> 16) & 255}.${(address >> 8) & 255}.${address & 255}` },
      body: JSON.stringify(json)
    })
    await res.text()
    return { ms: performance.now() - started, status: res.status }
  }
  try {
    // Players to ask resets for: one number each (a number gets one code every 10 s).
    const registered: Array<string> = []
    for (let i = 0; i < SAMPLES; i++) {
      const mobileNo = `+9178${String(Date.now() % 1e6).padStart(6, "0")}${String(i).padStart(2, "0")}`
      await post("sign-up", { name: "Bench Player", mobile_no: mobileNo, password: "Monsoon-Tiffin-42", confirmPassword: "Monsoon-Tiffin-42", ageConfirmed: true, region: "MH" })
      registered.push(mobileNo)
    }
    const lastCodeSent = performance.now()
    for (const mobileNo of registered) await post("verify-otp", { mobile_no: mobileNo, otp: await waitForCode(dataDir, mobileNo, "signup") })
    // Codes to one number go out OTP_RESEND_SECONDS apart (real time: the limiter reads the machine's clock), and each reset sends one.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, lastCodeSent + OTP_RESEND_SECONDS * 1000 + 500 - performance.now())))

    const known: Array<number> = []
    const unknown: Array<number> = []
    const resetKnown: Array<number> = []
    const resetUnknown: Array<number> = []
    // Interleaved, so load on the machine falls on both alike.
    for (let i = 0; i < SAMPLES; i++) {
      known.push((await post("login", { mobile_no: registered[i], password: "Wrong-Guess-1" })).ms)
      unknown.push((await post("login", { mobile_no: `+9179${String(i).padStart(8, "0")}`, password: "Wrong-Guess-1" })).ms)
      resetKnown.push((await post("forgot-password", { mobile_no: registered[i] })).ms)
      resetUnknown.push((await post("forgot-password", { mobile_no: `+9177${String(i).padStart(8, "0")}` })).ms)
    }
    const row = (name: string, a: Array<number>, b: Array<number>) =>
      [name, median(a).toFixed(1), median(b).toFixed(1), (median(a) - median(b)).toFixed(1), p90(a).toFixed(1), p90(b).toFixed(1)]
    table([
      ["", "known ms (median)", "unknown ms (median)", "difference", "known p90", "unknown p90"],
      row("login, wrong password", known, unknown),
      row("forgot-password", resetKnown, resetUnknown)
    ])
  } finally {
    await server.stop()
  }
}
