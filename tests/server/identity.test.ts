import { afterAll, describe, expect, it, vi } from "vitest"
import { advanceClock, connectSocket, creditMain, drained, freshPhone, loginAs, outboxCodes, request, signUpPlayer, useServer, waitForCode } from "./helpers.ts"
import { NOT_US_NUMBER } from "../../src/domain/phone.ts"

const server = useServer()
afterAll(() => {
  vi.useRealTimers()
})

const post = (path: string, json: unknown, token?: string) => request(server.url, `/identity/user${path}`, { method: "POST", json, ...(token ? { token } : {}) })
const me = (token: string) => request(server.url, "/api/v1/getUserData", { token })

/** Moves a number's codes into the past, as if `seconds` had passed (for their expiry, which SQL times). */
const age = (mobileNo: string, seconds: number) =>
  server.sql((sql) => sql`
    UPDATE otp_codes SET created_at = created_at - ${`${seconds} seconds`}::interval, expires_at = expires_at - ${`${seconds} seconds`}::interval
     WHERE mobile_no = ${mobileNo}
  `)

describe("sign-up and OTP", () => {
  it("signs up, sends a 4-digit code to the outbox, verifies it and logs the player in", async () => {
    const mobileNo = freshPhone()
    const national = mobileNo.slice(3)
    const res = await post("/sign-up", { name: "Asha Rao", mobile_no: national, password: "Monsoon#Tiffin42", confirmPassword: "Monsoon#Tiffin42", ageConfirmed: true, region: "MH" })
    expect(res.status).toBe(200)
    expect(res.body.data).toEqual({ mobile_no: mobileNo })
    const otp = await waitForCode(server.dataDir, mobileNo, "signup")
    expect(otp).toMatch(/^\d{4}$/)
    // Not active until verified.
    expect((await post("/login", { mobile_no: mobileNo, password: "Monsoon#Tiffin42" })).status).toBe(403)
    const verified = await post("/verify-otp", { mobile_no: mobileNo, otp })
    expect(verified.status).toBe(200)
    expect(verified.body.meta.token).toMatch(/^[\w-]{40,}$/)
    expect(verified.body.data).toMatchObject({ name: "Asha Rao", mobileNo, role: 4, wallet: 1, balance: 0, exposure: 0 })
    expect(verified.body.data.username).toMatch(/^asha\d{4}$/)
    const profile = await me(verified.body.meta.token)
    expect(profile.body.data.id).toBe(verified.body.data.id)
    // The code is spent.
    expect((await post("/verify-otp", { mobile_no: mobileNo, otp })).status).toBe(422)
  })

  it("explains every invalid sign-up and creates nothing", async () => {
    const mobileNo = freshPhone()
    const base = { name: "Asha", mobile_no: mobileNo, password: "Monsoon#Tiffin42", confirmPassword: "Monsoon#Tiffin42", ageConfirmed: true, region: "MH" }
    const { ageConfirmed: _age, region: _region, ...undeclared } = base
    const cases: Array<[unknown, number, string | RegExp]> = [
      [{ ...base, name: " " }, 400, "Name is required"],
      [{ ...base, mobile_no: "" }, 400, "Mobile No is required"],
      [{ ...base, password: "" }, 400, "Password is required"],
      [{ ...base, confirmPassword: "" }, 400, "Confirm Password is required"],
      [{ ...base, confirmPassword: "Other@123" }, 400, "Passwords do not match"],
      [{ ...base, password: "short", confirmPassword: "short" }, 400, "Password must be at least 8 characters"],
      [{ ...base, mobile_no: "+441234567890" }, 400, /India \(\+91\) or the US \(\+1\)/],
      // Premium-rate and Caribbean +1 numbers (issue 27): US area codes only.
      [{ ...base, mobile_no: "+19005551234" }, 400, NOT_US_NUMBER],
      [{ ...base, mobile_no: "+18765551234" }, 400, NOT_US_NUMBER],
      [{ ...base, mobile_no: "+1 809 555 1234" }, 400, NOT_US_NUMBER],
      [{ ...base, mobile_no: "12345" }, 400, /valid mobile number/],
      [{ ...base, mobile_no: "+9198765432101234" }, 400, /valid mobile number/],
      [{ ...base, affiliateCode: "NOPE0000" }, 422, /referral code is not valid/],
      [{ name: "x" }, 400, /Invalid request body/],
      // The age confirmation and the state of residence are required (issue 11).
      [{ ...undeclared, region: "MH" }, 400, /ageConfirmed: Please confirm you are 18 or older and accept the terms/],
      [{ ...base, ageConfirmed: false }, 400, /Please confirm you are 18 or older and accept the terms/],
      [{ ...undeclared, ageConfirmed: true }, 400, /region: Please choose the state you live in/],
      [{ ...base, region: "XX" }, 400, /Please choose the state you live in/],
      [{ ...base, password: 12345678 }, 400, /password: Expected string/]
    ]
    for (const [json, status, message] of cases) {
      const res = await post("/sign-up", json)
      expect(res.status, JSON.stringify(json)).toBe(status)
      expect(res.body.meta.code).toBe(status)
      expect(res.body.meta.message).toMatch(message)
      expect(res.body.data).toBeNull()
    }
    const rows = await server.sql((sql) => sql`SELECT 1 FROM users WHERE mobile_no = ${mobileNo}`)
    expect(rows).toHaveLength(0)
    expect(outboxCodes(server.dataDir, mobileNo)).toHaveLength(0)
  })

  it("sends codes to US area codes among +1 numbers, never to a premium-rate or Caribbean one", async () => {
    const us = await post("/sign-up", { name: "Sam", mobile_no: "+1 415 555 2671", password: "Monsoon#Tiffin42", confirmPassword: "Monsoon#Tiffin42", ageConfirmed: true, region: "MH" })
    expect(us.status).toBe(200)
    expect(us.body.data.mobile_no).toBe("+14155552671")
    expect(await waitForCode(server.dataDir, "+14155552671", "signup")).toMatch(/^\d{4}$/)
    for (const number of ["+19005551234", "+18765551234"]) {
      const reset = await post("/forgot-password", { mobile_no: number })
      expect(reset.body.meta).toMatchObject({ code: 400, message: NOT_US_NUMBER, error: "InvalidInput" })
      expect(outboxCodes(server.dataDir, number)).toHaveLength(0)
    }
  })

  it("refuses a number that is already registered", async () => {
    const res = await post("/sign-up", { name: "Again", mobile_no: "+919000000001", password: "Monsoon#Tiffin42", confirmPassword: "Monsoon#Tiffin42", ageConfirmed: true, region: "MH" })
    expect(res.status).toBe(409)
    expect(res.body.meta.message).toBe("This mobile number is already registered. Please log in.")
  })

  it("links a referred player to the referrer", async () => {
    const referrer = await signUpPlayer(server)
    const referred = await signUpPlayer(server, { affiliateCode: referrer.user.referralCode.toLowerCase() })
    const [row] = await server.sql((sql) => sql<{ referredBy: string }>`SELECT referred_by FROM users WHERE id = ${referred.user.id}`)
    expect(row!.referredBy).toBe(referrer.user.id)
  })

  it("counts wrong codes: 5 tries per code, then a new code is needed", async () => {
    const mobileNo = freshPhone()
    await post("/sign-up", { name: "Try", mobile_no: mobileNo, password: "Monsoon#Tiffin42", confirmPassword: "Monsoon#Tiffin42", ageConfirmed: true, region: "MH" })
    const otp = await waitForCode(server.dataDir, mobileNo, "signup")
    const wrong = otp === "0000" ? "1111" : "0000"
    for (let i = 0; i < 4; i++) {
      const res = await post("/verify-otp", { mobile_no: mobileNo, otp: wrong })
      expect(res.status).toBe(422)
      expect(res.body.meta.message).toBe("Invalid OTP")
    }
    const fifth = await post("/verify-otp", { mobile_no: mobileNo, otp: wrong })
    expect(fifth.status).toBe(429)
    expect(fifth.body.meta.message).toBe("Too many wrong attempts. Please request a new OTP.")
    // Even the right code no longer works.
    expect((await post("/verify-otp", { mobile_no: mobileNo, otp })).status).toBe(429)
    advanceClock(11_000)
    expect((await post("/resend-otp", { mobile_no: mobileNo })).status).toBe(200)
    const fresh = await waitForCode(server.dataDir, mobileNo, "signup", 1)
    expect((await post("/verify-otp", { mobile_no: mobileNo, otp: fresh })).status).toBe(200)
  })

  it("expires codes after 5 minutes", async () => {
    const mobileNo = freshPhone()
    await post("/sign-up", { name: "Late", mobile_no: mobileNo, password: "Monsoon#Tiffin42", confirmPassword: "Monsoon#Tiffin42", ageConfirmed: true, region: "MH" })
    const otp = await waitForCode(server.dataDir, mobileNo, "signup")
    await age(mobileNo, 5 * 60 + 1)
    const res = await post("/verify-otp", { mobile_no: mobileNo, otp })
    expect(res.status).toBe(422)
    expect(res.body.meta.message).toBe("OTP has expired. Please request a new one.")
  })

  it("waits 10 s between sends and allows 5 sends an hour", async () => {
    const mobileNo = freshPhone()
    await post("/sign-up", { name: "Many", mobile_no: mobileNo, password: "Monsoon#Tiffin42", confirmPassword: "Monsoon#Tiffin42", ageConfirmed: true, region: "MH" })
    const early = await post("/resend-otp", { mobile_no: mobileNo })
    expect(early.status).toBe(429)
    expect(early.body.meta.message).toMatch(/^Please wait \d+ seconds before requesting another OTP\.$/)
    for (let sent = 1; sent < 5; sent++) {
      advanceClock(11_000)
      expect((await post("/resend-otp", { mobile_no: mobileNo })).status).toBe(200)
    }
    advanceClock(11_000)
    const capped = await post("/resend-otp", { mobile_no: mobileNo })
    expect(capped.status).toBe(429)
    expect(capped.body.meta.message).toMatch(/^Too many OTP requests\. Try again in \d+ minutes?\.$/)
    await waitForCode(server.dataDir, mobileNo, "signup", 4)
    expect(outboxCodes(server.dataDir, mobileNo)).toHaveLength(5)
  })

  it("has nothing to resend for an unknown number", async () => {
    const res = await post("/resend-otp", { mobile_no: freshPhone() })
    expect(res.status).toBe(404)
  })
})

describe("login", () => {
  it("logs in by username or by phone number in any common shape", async () => {
    for (const json of [
      { username: "demo", password: "Demo@1234" },
      { username: " DEMO ", password: "Demo@1234" },
      { mobile_no: "+919000000001", password: "Demo@1234" },
      { mobile_no: "9000000001", password: "Demo@1234" },
      { mobile_no: "09000000001", password: "Demo@1234" }
    ]) {
      const res = await post("/login", json)
      expect(res.status, JSON.stringify(json)).toBe(200)
      expect(res.body.meta.message).toBe("Logged In")
      expect(res.body.data).toMatchObject({ username: "demo", balance: 10000, role: 4 })
    }
  })

  it("gives the credit player their credit reference", async () => {
    const res = await post("/login", { username: "credit", password: "Credit@1234" })
    expect(res.body.data).toMatchObject({ role: 104, creditReference: 50000, balance: 50000 })
  })

  it("answers wrong credentials without saying which part was wrong", async () => {
    const unknown = await post("/login", { username: "nobody-here", password: "Monsoon#Tiffin42" })
    const wrong = await post("/login", { username: "admin", password: "Wrong@123" })
    expect(unknown.status).toBe(422)
    expect(wrong.body.meta.message).toBe(unknown.body.meta.message)
    expect((await post("/login", { mobile_no: "+919999999999", password: "x" })).body.meta.message).toBe("Invalid mobile number or password")
    expect((await post("/login", { username: "", password: "x" })).body.meta.message).toBe("Username is required")
    expect((await post("/login", { mobile_no: "", password: "x" })).body.meta.message).toBe("Mobile No is required")
    expect((await post("/login", { username: "demo", password: "" })).body.meta.message).toBe("Password is required")
  })
})

describe("sessions", () => {
  it("answers HTTP 401 to a missing, unknown or revoked token, and revokes on logout", async () => {
    expect((await me("")).status).toBe(401)
    expect((await me("not-a-token")).status).toBe(401)
    const { token } = await loginAs(server, "demo")
    expect((await me(token)).status).toBe(200)
    const out = await post("/logout", {}, token)
    expect(out.status).toBe(200)
    expect(out.body.meta.message).toBe("Logged Out")
    const after = await me(token)
    expect(after.status).toBe(401)
    expect(after.body.meta.code).toBe(401)
    expect((await post("/logout", {}, token)).status).toBe(401)
  })

  it("stores only a hash of the token", async () => {
    const { token } = await loginAs(server, "admin")
    const rows = await server.sql((sql) => sql<{ tokenHash: string }>`SELECT token_hash FROM sessions`)
    expect(rows.some((row) => row.tokenHash === token)).toBe(false)
    expect(rows.every((row) => /^[0-9a-f]{64}$/.test(row.tokenHash))).toBe(true)
  })
})

describe("passwords", () => {
  it("changes the password: every old session ends, the new token works, the new password logs in", async () => {
    const player = await signUpPlayer(server)
    const other = await post("/login", { username: player.user.username, password: player.password })
    const wrongOld = await post("/change-password", { old_password: "Nope@1234", password: "Newer#Mango1234", confirm_password: "Newer#Mango1234" }, player.token)
    expect(wrongOld.status).toBe(422)
    expect(wrongOld.body.meta.message).toBe("Current password is incorrect")
    const mismatch = await post("/change-password", { old_password: player.password, password: "Newer#Mango1234", confirm_password: "Other#Mango1234" }, player.token)
    expect(mismatch.body.meta.message).toBe("New password and Confirm password mismatch")
    const changed = await post("/change-password", { old_password: player.password, password: "Newer#Mango1234", confirm_password: "Newer#Mango1234" }, player.token)
    expect(changed.status).toBe(200)
    expect(changed.body.meta.message).toBe("Password Changed")
    expect((await me(player.token)).status).toBe(401)
    expect((await me(other.body.meta.token)).status).toBe(401)
    expect((await me(changed.body.meta.token)).status).toBe(200)
    expect((await post("/login", { username: player.user.username, password: player.password })).status).toBe(422)
    expect((await post("/login", { username: player.user.username, password: "Newer#Mango1234" })).status).toBe(200)
  })

  it("resets a forgotten password with a code bound to the phone that asked for it", async () => {
    const player = await signUpPlayer(server)
    const intruder = await signUpPlayer(server)
    // The sign-up code went out a moment ago; sends to one number are 10 s apart, whatever their purpose.
    expect((await post("/forgot-password", { mobile_no: player.mobileNo })).status).toBe(429)
    advanceClock(11_000)
    const asked = await post("/forgot-password", { mobile_no: player.mobileNo })
    expect(asked.status).toBe(200)
    const otp = await waitForCode(server.dataDir, player.mobileNo, "reset")
    // The code alone, or with another number, identifies nobody.
    expect((await post("/forgot-password", { otp, password: "Reset#Mango2024", confirm_password: "Reset#Mango2024" })).body.meta.message).toBe("Mobile No is required")
    expect((await post("/forgot-password", { mobile_no: intruder.mobileNo, otp, password: "Reset#Mango2024", confirm_password: "Reset#Mango2024" })).status).toBe(422)
    expect((await post("/forgot-password", { mobile_no: player.mobileNo, otp: "", password: "a", confirm_password: "a" })).body.meta.message).toBe("Please fill all Fields")
    expect((await post("/forgot-password", { mobile_no: player.mobileNo, otp, password: "Reset#Mango2024", confirm_password: "Other#Mango1234" })).body.meta.message).toBe("New password and Confirm password mismatch")
    const reset = await post("/forgot-password", { mobile_no: player.mobileNo, otp, password: "Reset#Mango2024", confirm_password: "Reset#Mango2024" })
    expect(reset.status).toBe(200)
    expect((await me(player.token)).status).toBe(401)
    expect((await post("/login", { mobile_no: player.mobileNo, password: "Reset#Mango2024" })).status).toBe(200)
    expect((await post("/login", { mobile_no: intruder.mobileNo, password: intruder.password })).status).toBe(200)
  })

  it("answers the phone step the same for unknown numbers, without sending anything", async () => {
    const player = await signUpPlayer(server)
    advanceClock(11_000)
    const unknown = freshPhone()
    const stranger = await post("/forgot-password", { mobile_no: unknown })
    const registered = await post("/forgot-password", { mobile_no: player.mobileNo })
    for (const res of [stranger, registered]) {
      expect(res.status).toBe(200)
      expect(res.body.meta.message).toMatch(/^If \+91 \d{5} \d{5} is registered, a 4-digit code is on its way to it\.$/)
    }
    // By the time the registered number's code is out, nothing went to the unknown one.
    await waitForCode(server.dataDir, player.mobileNo, "reset")
    expect(outboxCodes(server.dataDir, unknown)).toHaveLength(0)
  })
})

describe("realtime", () => {
  it("tells only the player's own authenticated socket about changes to them", async () => {
    const a = await signUpPlayer(server)
    const b = await signUpPlayer(server)
    const [socketA, socketB, visitor] = await Promise.all([connectSocket(server.url, a.token), connectSocket(server.url, b.token), connectSocket(server.url, "")])
    const heard: Array<string> = []
    const arrived = new Promise<void>((resolve) => socketA.on(a.user.id, () => {
      heard.push("a")
      resolve()
    }))
    socketB.on(a.user.id, () => heard.push("b"))
    visitor.on(a.user.id, () => heard.push("visitor"))
    await creditMain(server, a.user.id, 500_00)
    await arrived
    await Promise.all([drained(server, socketB), drained(server, visitor)])
    expect(heard).toEqual(["a"])
    expect((await me(a.token)).body.data.balance).toBe(500)
    for (const socket of [socketA, socketB, visitor]) socket.close()
  })
})
