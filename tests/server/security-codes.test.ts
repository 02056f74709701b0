import { Effect } from "effect"
import { afterAll, describe, expect, it, vi } from "vitest"
import { DEFAULT_LIMITS } from "../../server/config.ts"
import { Otp, OTP_MAX_WRONG_PER_DAY } from "../../server/identity/Otp.ts"
import { addressesFrom, advanceClock, freshPhone, outboxCodes, PRODUCTION_LIMITS_BEHIND_PROXY, request, signUpPlayer, useServer, waitForCode } from "./helpers.ts"

/**
 * One-time codes, SMS and passwords with the production limits. The server
 * trusts one proxy, so each test speaks from addresses of its own.
 */
const server = useServer({ config: PRODUCTION_LIMITS_BEHIND_PROXY })
afterAll(() => {
  vi.useRealTimers()
})

const freshAddress = addressesFrom("192.0.2")

const post = (path: string, json: unknown, from = "192.0.2.250") =>
  request(server.url, `/identity/user${path}`, { method: "POST", json, headers: { "x-forwarded-for": from } })

/** A player signed up from an address of their own, with their sign-up code's 10 s spacing already behind them. */
const player = async () => {
  const signedUp = await signUpPlayer(server)
  advanceClock(11_000)
  return signedUp
}

const shape = (res: { status: number; body: { meta: { error?: string; message: string } } }) => [res.status, res.body.meta.error, res.body.meta.message]

describe("forgot password answers every number alike", () => {
  it("says and limits the same for a registered and an unknown number, and sends only to the registered one", async () => {
    const registered = await player()
    const unknown = freshPhone()
    const from = freshAddress()
    const first = [await post("/forgot-password", { mobile_no: registered.mobileNo }, from), await post("/forgot-password", { mobile_no: unknown }, from)]
    // Within 10 s: both refused alike (this used to be 429 only for registered numbers).
    const again = [await post("/forgot-password", { mobile_no: registered.mobileNo }, from), await post("/forgot-password", { mobile_no: unknown }, from)]
    expect(first.map((res) => res.status)).toEqual([200, 200])
    expect(again.map(shape)).toEqual([
      [429, "RateLimited", expect.stringMatching(/^Please wait \d+ seconds before requesting another OTP\.$/)],
      [429, "RateLimited", expect.stringMatching(/^Please wait \d+ seconds before requesting another OTP\.$/)]
    ])
    await waitForCode(server.dataDir, registered.mobileNo, "reset")
    expect(outboxCodes(server.dataDir, unknown)).toHaveLength(0)
  })

  it("answers the reset step for an unknown number as for a registered one: wrong code, then too many", async () => {
    const registered = await player()
    const unknown = freshPhone()
    for (const mobileNo of [registered.mobileNo, unknown]) expect((await post("/forgot-password", { mobile_no: mobileNo }, freshAddress())).status).toBe(200)
    const code = await waitForCode(server.dataDir, registered.mobileNo, "reset")
    const wrong = code === "0000" ? "1111" : "0000"
    const tries = async (mobileNo: string) => {
      const seen: Array<unknown> = []
      for (let i = 0; i < 6; i++) seen.push(shape(await post("/forgot-password", { mobile_no: mobileNo, otp: wrong, password: "Brand#Mango1234x", confirm_password: "Brand#Mango1234x" })))
      return seen
    }
    const knownAnswers = await tries(registered.mobileNo)
    expect(await tries(unknown)).toEqual(knownAnswers)
    expect(knownAnswers[0]).toEqual([422, "Refused", "Invalid OTP"])
    expect(knownAnswers.at(-1)).toEqual([429, "RateLimited", "Too many wrong attempts. Please request a new OTP."])
  })

  it("runs the same argon2 work for unknown accounts: one verification, against a decoy hash", async () => {
    // Structural, not timed: the decoy path is the same call with no account hash.
    const { Passwords } = await import("../../server/identity/Passwords.ts")
    const { hash } = await import("@node-rs/argon2")
    const real = await hash("Monsoon#Tiffin42", { algorithm: 2, memoryCost: 19_456, timeCost: 2, parallelism: 1 })
    const results = await server.run(Passwords.use((passwords) =>
      Effect.all([passwords.verify(real, "Monsoon#Tiffin42"), passwords.verify(real, "Wrong@123"), passwords.verify(undefined, "Monsoon#Tiffin42"), passwords.verify(undefined, "decoy-password-not-used")])
    ))
    expect(results).toEqual([true, false, false, false])
  })
})

describe("reset codes cannot be worn down", () => {
  it(`refuses resets for a number for 24 hours after ${OTP_MAX_WRONG_PER_DAY} wrong codes in a day, and says so`, async () => {
    const target = await player()
    const wrongTries = async (count: number) => {
      const code = await waitForCode(server.dataDir, target.mobileNo, "reset", outboxCodes(server.dataDir, target.mobileNo, "reset").length - 1)
      const wrong = code === "0000" ? "1111" : "0000"
      let last
      for (let i = 0; i < count; i++) last = await post("/forgot-password", { mobile_no: target.mobileNo, otp: wrong, password: "Brand#Mango1234x", confirm_password: "Brand#Mango1234x" })
      return { code, last: last! }
    }
    expect((await post("/forgot-password", { mobile_no: target.mobileNo }, freshAddress())).status).toBe(200)
    await waitForCode(server.dataDir, target.mobileNo, "reset")
    // Five wrong tries spend a code; a new code gives five more, but the day allows ten in all.
    const first = await wrongTries(5)
    expect(first.last.status).toBe(429)
    advanceClock(11_000)
    expect((await post("/forgot-password", { mobile_no: target.mobileNo }, freshAddress())).status).toBe(200)
    await waitForCode(server.dataDir, target.mobileNo, "reset", 1)
    const second = await wrongTries(5)
    const paused = /^Too many wrong codes were entered for this number today\. For your security, password reset for this number is paused for 24 hours\. Contact support if you need help sooner\.$/
    expect(shape(second.last)).toEqual([429, "CodesBlocked", expect.stringMatching(paused)])
    // Even the right code is refused now, and so is a new code.
    const right = await post("/forgot-password", { mobile_no: target.mobileNo, otp: second.code, password: "Brand#Mango1234x", confirm_password: "Brand#Mango1234x" })
    expect(shape(right)).toEqual([429, "CodesBlocked", expect.stringMatching(paused)])
    advanceClock(11_000)
    const ask = await post("/forgot-password", { mobile_no: target.mobileNo }, freshAddress())
    expect(shape(ask)).toEqual([429, "CodesBlocked", expect.stringMatching(paused)])
    // The password still works, and a day later resets do too.
    expect((await post("/login", { mobile_no: target.mobileNo, password: target.password }, freshAddress())).status).toBe(200)
    advanceClock(24 * 3600_000 + 1000)
    const sent = outboxCodes(server.dataDir, target.mobileNo, "reset").length
    expect((await post("/forgot-password", { mobile_no: target.mobileNo }, freshAddress())).status).toBe(200)
    const code = await waitForCode(server.dataDir, target.mobileNo, "reset", sent)
    expect((await post("/forgot-password", { mobile_no: target.mobileNo, otp: code, password: "Brand#Mango1234x", confirm_password: "Brand#Mango1234x" })).status).toBe(200)
  })
})

describe("SMS pumping", () => {
  it(`sends at most ${DEFAULT_LIMITS.smsPerAddressPerHour} codes an hour from one address, whatever the numbers`, async () => {
    const from = freshAddress()
    const numbers = Array.from({ length: DEFAULT_LIMITS.smsPerAddressPerHour + 1 }, () => freshPhone())
    const answers = []
    for (const mobileNo of numbers) answers.push(await post("/sign-up", { name: "Pump", mobile_no: mobileNo, password: "Monsoon#Tiffin42", confirmPassword: "Monsoon#Tiffin42", ageConfirmed: true, region: "MH" }, from))
    expect(answers.slice(0, -1).every((res) => res.status === 200)).toBe(true)
    expect(shape(answers.at(-1)!)).toEqual([429, "RateLimited", expect.stringMatching(/^Too many codes were requested from your network\. Try again in (60|59) minutes\.$/)])
    // The refused sign-up left nothing behind; another address still gets its code.
    expect(await server.sql((sql) => sql`SELECT 1 FROM users WHERE mobile_no = ${numbers.at(-1)!}`)).toHaveLength(0)
    expect((await post("/sign-up", { name: "Other", mobile_no: numbers.at(-1)!, password: "Monsoon#Tiffin42", confirmPassword: "Monsoon#Tiffin42", ageConfirmed: true, region: "MH" }, freshAddress())).status).toBe(200)
  })

  it("removes sign-ups never verified after PENDING_SIGNUP_HOURS, and frees their number", async () => {
    const abandoned = freshPhone()
    const recent = freshPhone()
    for (const mobileNo of [abandoned, recent]) {
      expect((await post("/sign-up", { name: "Left", mobile_no: mobileNo, password: "Monsoon#Tiffin42", confirmPassword: "Monsoon#Tiffin42", ageConfirmed: true, region: "MH" }, freshAddress())).status).toBe(200)
    }
    const verified = await signUpPlayer(server)
    await server.sql((sql) => sql`
      UPDATE users SET created_at = created_at - ${`${DEFAULT_LIMITS.pendingSignUpHours + 1} hours`}::interval
       WHERE mobile_no IN (${abandoned}, ${verified.mobileNo})
    `)
    const removed = await server.run(Otp.use((otp) => otp.expirePendingSignUps))
    expect(removed).toBeGreaterThanOrEqual(1)
    const left = await server.sql((sql) => sql<{ mobileNo: string; status: string }>`
      SELECT mobile_no, status FROM users WHERE mobile_no IN (${abandoned}, ${recent}, ${verified.mobileNo}) ORDER BY mobile_no
    `)
    expect(left.map((row) => row.mobileNo).sort()).toEqual([recent, verified.mobileNo].sort())
    expect(await server.sql((sql) => sql`SELECT 1 FROM ledger_accounts a WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.id = a.user_id) AND a.user_id IS NOT NULL`)).toHaveLength(0)
    advanceClock(11_000)
    expect((await post("/sign-up", { name: "Back", mobile_no: abandoned, password: "Monsoon#Tiffin42", confirmPassword: "Monsoon#Tiffin42", ageConfirmed: true, region: "MH" }, freshAddress())).status).toBe(200)
  })
})

describe("the SMS budget of the whole site", () => {
  const capped = useServer({ config: { ...PRODUCTION_LIMITS_BEHIND_PROXY, limits: { ...DEFAULT_LIMITS, smsPerHour: 3 } } })

  it("stops every code once the whole site reaches SMS_PER_HOUR, and tells the operator", async () => {
    const send = (i: number) =>
      request(capped.url, "/identity/user/sign-up", {
        method: "POST",
        headers: { "x-forwarded-for": `198.18.0.${i}` },
        json: { name: "Many", mobile_no: freshPhone(), password: "Monsoon#Tiffin42", confirmPassword: "Monsoon#Tiffin42", ageConfirmed: true, region: "MH" }
      })
    for (let i = 1; i <= 3; i++) expect((await send(i)).status).toBe(200)
    const refused = await send(4)
    expect(shape(refused)).toEqual([429, "RateLimited", expect.stringMatching(/^We cannot send codes right now\. Please try again in \d+ minutes\.$/)])
  })
})

describe("passwords", () => {
  it("refuses common and easily guessed passwords with a clear message, keeping the spec's own messages first", async () => {
    const mobileNo = freshPhone()
    const signUp = (password: string, name = "Kiran Mehta") =>
      post("/sign-up", { name, mobile_no: mobileNo, password, confirmPassword: password, ageConfirmed: true, region: "MH" }, freshAddress())
    for (const password of ["password", "Password1", "12345678", "qwerty123", "iloveyou1", "P@ssw0rd"]) {
      const res = await signUp(password)
      expect(shape(res), password).toEqual([400, "WeakPassword", expect.stringMatching(/^This password is too common or too easy to guess\./)])
    }
    // A common word, the site's name or a demo password's word with symbols and digits around it (issue 27).
    for (const password of ["Password@123", "India@1234", "Qwerty@123", "Abcd@1234", "Khel@1234", "Demo@1234", "Credit@1234", "Admin@1234", "2024#Cricket!"]) {
      expect(shape(await signUp(password)), password).toEqual([400, "WeakPassword", expect.stringMatching(/^This password is too common/)])
    }
    // Made of the player's own name and number.
    expect((await signUp(`mehta${mobileNo.slice(3)}`)).body.meta.error).toBe("WeakPassword")
    expect((await signUp("Kiran@12345")).body.meta.error).toBe("WeakPassword")
    // The spec's messages come first.
    expect((await signUp("short")).body.meta.message).toBe("Password must be at least 8 characters")
    expect((await post("/sign-up", { name: "Kiran", mobile_no: mobileNo, password: "password", confirmPassword: "other", ageConfirmed: true, region: "MH" }, freshAddress())).body.meta.message).toBe("Passwords do not match")
    expect(await server.sql((sql) => sql`SELECT 1 FROM users WHERE mobile_no = ${mobileNo}`)).toHaveLength(0)
    // A strong one goes through.
    expect((await signUp("Monsoon-Tiffin-42")).status).toBe(200)
  })

  it("refuses a weak new password on change and on reset", async () => {
    const someone = await player()
    const change = await request(server.url, "/identity/user/change-password", {
      method: "POST",
      token: someone.token,
      json: { old_password: someone.password, password: "password1", confirm_password: "password1" }
    })
    expect(shape(change)).toEqual([400, "WeakPassword", expect.any(String)])
    expect((await post("/login", { mobile_no: someone.mobileNo, password: someone.password }, freshAddress())).status).toBe(200)
    expect((await post("/forgot-password", { mobile_no: someone.mobileNo }, freshAddress())).status).toBe(200)
    const code = await waitForCode(server.dataDir, someone.mobileNo, "reset")
    const reset = await post("/forgot-password", { mobile_no: someone.mobileNo, otp: code, password: "qwerty123", confirm_password: "qwerty123" })
    expect(shape(reset)).toEqual([400, "WeakPassword", expect.any(String)])
    // The code was not spent on the refused password.
    expect((await post("/forgot-password", { mobile_no: someone.mobileNo, otp: code, password: "Monsoon-Tiffin-42", confirm_password: "Monsoon-Tiffin-42" })).status).toBe(200)
  })

  it("lets the owner sign in from their address right after a reset, however many wrong passwords it had sent", async () => {
    const owner = await player()
    const from = freshAddress()
    for (let i = 0; i < 5; i++) expect((await post("/login", { mobile_no: owner.mobileNo, password: "Wrong@123" }, from)).status).toBe(422)
    expect((await post("/login", { mobile_no: owner.mobileNo, password: owner.password }, from)).status).toBe(429)
    expect((await post("/forgot-password", { mobile_no: owner.mobileNo }, from)).status).toBe(200)
    const code = await waitForCode(server.dataDir, owner.mobileNo, "reset")
    expect((await post("/forgot-password", { mobile_no: owner.mobileNo, otp: code, password: "Monsoon-Tiffin-44", confirm_password: "Monsoon-Tiffin-44" }, from)).status).toBe(200)
    expect((await post("/login", { mobile_no: owner.mobileNo, password: "Monsoon-Tiffin-44" }, from)).status).toBe(200)
  })
})
