import { describe, expect, it } from "vitest"
import { can, PERMISSIONS, ROLE_PERMISSIONS } from "../../src/domain/staff.ts"
import { Roles } from "../../src/schema/user.ts"
import { codeAt } from "../../server/desk/secondFactor.ts"
import { NOT_PERMITTED, NOT_STAFF } from "../../server/edge/auth.ts"
import { DEMO_STAFF } from "../../server/seed/demoStaff.ts"
import { deskSignIn } from "../http.ts"
import { accountOf, deskEndpoints, sessionOf } from "./desk-support.ts"
import { expectLedgerVerifies, request, useServer } from "./helpers.ts"

/**
 * Who may do what on the desk, on the real server: every endpoint the desk's
 * middleware guards (read from the API definition, so a new one is in the
 * matrix the day it is added) against a visitor, a player, a credit player,
 * an agent and each staff role, as src/domain/staff.ts's table says.
 */
const server = useServer({ afterEach: expectLedgerVerifies })

const call = (method: string, path: string, token?: string) =>
  request(server.url, path.replace(/:(\w+)/g, "matrix-$1"), {
    method,
    ...(token ? { token } : {}),
    ...(method === "GET" || method === "DELETE" ? {} : { json: {} })
  })

const ROLES = [
  { name: "player", role: Roles.PLAYER },
  { name: "credit player", role: Roles.CREDIT_PLAYER },
  { name: "agent", role: Roles.AGENT },
  { name: "white label", role: Roles.WHITE_LABEL },
  { name: "master", role: Roles.MASTER },
  { name: "SUPPORT_ADMIN", role: Roles.SUPPORT_ADMIN },
  { name: "ADMIN", role: Roles.ADMIN },
  { name: "DIRECTOR", role: Roles.DIRECTOR }
] as const

describe("the desk's authorisation matrix", () => {
  it("names a permission on every desk endpoint, and the roles table gives DIRECTOR everything, ADMIN all but staff, support the queues", () => {
    const endpoints = deskEndpoints()
    expect(endpoints.length).toBeGreaterThan(20)
    expect(endpoints.filter((endpoint) => endpoint.requires === undefined)).toEqual([])
    expect([...ROLE_PERMISSIONS[Roles.DIRECTOR]]).toEqual([...PERMISSIONS])
    expect(PERMISSIONS.filter((p) => !can(Roles.ADMIN, p))).toEqual(["thresholds.manage", "staff.manage", "audit.export"])
    expect(PERMISSIONS.filter((p) => can(Roles.SUPPORT_ADMIN, p))).toEqual(["queues.read", "deposits.decide", "withdrawals.decide", "players.read", "players.note", "players.suspend", "markets.read"])
    for (const role of [Roles.PLAYER, Roles.CREDIT_PLAYER, Roles.AGENT, Roles.CREDIT_AGENT, Roles.WHITE_LABEL, Roles.SUPER_MASTER, Roles.MASTER]) {
      expect(PERMISSIONS.filter((p) => can(role, p)), `role ${role}`).toEqual([])
    }
  })

  it("answers every endpoint for a visitor (401), players and agents (403), and each staff role as its permissions say", async () => {
    const endpoints = deskEndpoints()
    const accounts = await Promise.all(ROLES.map(async (entry) => {
      const user = await accountOf(server, entry.role, `Matrix ${entry.name}`)
      return { ...entry, user, token: await sessionOf(server, user) }
    }))
    const outcomes: Array<string> = []
    for (const endpoint of endpoints) {
      const label = `${endpoint.method} ${endpoint.path}`
      const visitor = await call(endpoint.method, endpoint.path)
      expect(visitor.status, `visitor: ${label}`).toBe(401)
      for (const { name, role, user, token: kept } of accounts) {
        // Signing out ends the session: that call gets one of its own.
        const token = endpoint.path.endsWith("/sign-out") ? await sessionOf(server, user) : kept
        const answer = await call(endpoint.method, endpoint.path, token)
        const allowed = endpoint.requires === "staff" ? ROLES.slice(5).some((r) => r.role === role) : endpoint.requires !== undefined && can(role, endpoint.requires)
        if (role === Roles.PLAYER || role === Roles.CREDIT_PLAYER || role === Roles.AGENT || role === Roles.WHITE_LABEL || role === Roles.MASTER) {
          expect([answer.status, answer.body.meta.message], `${name}: ${label}`).toEqual([403, NOT_STAFF])
        } else if (allowed) {
          // Let through: whatever the call then says of its (empty) input, it is not about who is asking.
          expect(answer.status, `${name}: ${label}`).not.toBe(401)
          expect(answer.body?.meta?.message, `${name}: ${label}`).not.toBe(NOT_PERMITTED)
          outcomes.push(`${name} may ${label}`)
        } else {
          expect([answer.status, answer.body.meta.message], `${name}: ${label}`).toEqual([403, NOT_PERMITTED])
        }
      }
    }
    // The matrix did let staff through somewhere (it is not a wall of 403s).
    expect(outcomes.filter((line) => line.startsWith("SUPPORT_ADMIN")).length).toBeGreaterThan(3)
    expect(outcomes.filter((line) => line.startsWith("DIRECTOR")).length).toBe(endpoints.length)
    // Hundreds of calls: a deadline for a loaded machine, not a speed.
  }, 300_000)
})

const signIn = (json: Record<string, unknown>) => request(server.url, "/api/v1/desk/sign-in", { method: "POST", json })
const admin = DEMO_STAFF.find((staff) => staff.username === "admin")!

describe("signing in on the desk", () => {
  it("asks the admin for a code, refuses a wrong one and accepts a right one once", async () => {
    expect((await signIn({ username: "admin", password: "Wrong@1234" })).body.meta).toMatchObject({ code: 422, error: "InvalidCredentials", message: "Invalid username or password" })
    const asked = await signIn({ username: "admin", password: admin.password })
    expect(asked.status).toBe(200)
    expect(asked.body.data).toEqual({ step: "code" })
    expect(asked.body.meta.token).toBeUndefined()
    expect((await signIn({ username: "admin", password: admin.password, code: "000000" })).body.meta.error).toBe("InvalidCredentials")
    // The step after next: never one a test helper used, and not accepted (one step of drift only).
    const far = codeAt(admin.totpSecret, Date.now() + 120_000)
    expect((await signIn({ username: "admin", password: admin.password, code: far })).body.meta.error).toBe("InvalidCredentials")
    const code = codeAt(admin.totpSecret, Date.now() + 30_000)
    const signed = await signIn({ username: "admin", password: admin.password, code })
    expect(signed.status).toBe(200)
    expect(signed.body.data).toMatchObject({ step: "signedIn", staff: { username: "admin", role: 101, secondFactor: true } })
    expect(signed.body.data.staff.permissions).toContain("markets.settle")
    expect(signed.body.data.staff.permissions).not.toContain("staff.manage")
    const token = signed.body.meta.token as string
    expect((await request(server.url, "/api/v1/desk/me", { token })).body.data.username).toBe("admin")
    // The same code again (a replay) is refused.
    expect((await signIn({ username: "admin", password: admin.password, code })).body.meta.error).toBe("InvalidCredentials")
  })

  it("signs support in without a code, and refuses players on the desk and staff on the player site", async () => {
    const support = await signIn({ username: "support", password: "Support@1234" })
    expect(support.body.data).toMatchObject({ step: "signedIn", staff: { role: 2, secondFactor: false } })
    expect((await signIn({ username: "demo", password: "Demo@1234" })).body.meta).toMatchObject({ code: 403, message: "This account cannot sign in to the desk." })
    const site = await request(server.url, "/identity/user/login", { method: "POST", json: { username: "support", password: "Support@1234" } })
    expect(site.body.meta).toMatchObject({ code: 403, message: "Staff accounts sign in on the desk at /admin." })
    // A player's token opens nothing on the desk, and a desk token is not a player's session.
    const player = await request(server.url, "/identity/user/login", { method: "POST", json: { username: "demo", password: "Demo@1234" } })
    expect((await request(server.url, "/api/v1/desk/me", { token: player.body.meta.token })).status).toBe(403)
    expect((await request(server.url, "/api/v1/getUserData", { token: support.body.meta.token })).status).toBe(401)
  })

  it("enrols a new admin's authenticator on the first sign-in, then asks for its code", async () => {
    const director = await deskSignIn(server.url, "director")
    const created = await request(server.url, "/api/v1/desk/staff", {
      method: "POST",
      token: director.token,
      json: { name: "Asha Rao", username: "asha.rao", mobileNo: "9123456780", role: 101, password: "Ledger-Kite-92!" }
    })
    expect(created.status).toBe(200)
    expect(created.body.data).toMatchObject({ username: "asha.rao", role: 101, status: "active", secondFactor: false })
    const first = await signIn({ username: "asha.rao", password: "Ledger-Kite-92!" })
    expect(first.body.data.step).toBe("enrol")
    const { secret, uri, qr } = first.body.data.enrolment as { secret: string; uri: string; qr: string }
    expect(uri).toBe(`otpauth://totp/Khel%20desk:asha.rao?issuer=Khel%20desk&secret=${secret}&algorithm=SHA1&digits=6&period=30`)
    expect(qr).toMatch(/^data:image\/png;base64,/)
    // Asked again before a code: the same secret (the one the app has scanned).
    expect((await signIn({ username: "asha.rao", password: "Ledger-Kite-92!" })).body.data.enrolment.secret).toBe(secret)
    const enrolled = await signIn({ username: "asha.rao", password: "Ledger-Kite-92!", code: codeAt(secret, Date.now()) })
    expect(enrolled.body.data).toMatchObject({ step: "signedIn", staff: { secondFactor: true } })
    expect((await signIn({ username: "asha.rao", password: "Ledger-Kite-92!" })).body.data).toEqual({ step: "code" })
    // The director sees it, suspends it: its session ends and it cannot sign in.
    const listed = await request(server.url, "/api/v1/desk/staff", { token: director.token })
    expect(listed.body.data.find((s: { username: string }) => s.username === "asha.rao")).toMatchObject({ secondFactor: true })
    const suspended = await request(server.url, `/api/v1/desk/staff/${created.body.data.id}`, { method: "PUT", token: director.token, json: { status: "suspended" } })
    expect(suspended.body.data.status).toBe("suspended")
    expect((await request(server.url, "/api/v1/desk/me", { token: enrolled.body.meta.token })).status).toBe(401)
    expect((await signIn({ username: "asha.rao", password: "Ledger-Kite-92!" })).body.meta.code).toBe(403)
    // Taken names and weak passwords are refused, nothing is made.
    expect((await request(server.url, "/api/v1/desk/staff", { method: "POST", token: director.token, json: { name: "Again", username: "asha.rao", mobileNo: "9123456781", role: 2, password: "Ledger-Kite-92!" } })).body.meta.code).toBe(409)
    expect((await request(server.url, "/api/v1/desk/staff", { method: "POST", token: director.token, json: { name: "Weak", username: "weak.one", mobileNo: "9123456782", role: 2, password: "password1" } })).body.meta.error).toBe("WeakPassword")
  })
})

describe("desk sessions", () => {
  it("lists one's own sessions, ends one, and ends a session idle for 30 minutes or older than 12 hours", async () => {
    const first = (await signIn({ username: "support", password: "Support@1234" })).body.meta.token as string
    const second = (await signIn({ username: "support", password: "Support@1234" })).body.meta.token as string
    const sessions = await request(server.url, "/api/v1/desk/sessions", { token: first })
    const mine = sessions.body.data as Array<{ id: string; current: boolean }>
    expect(mine.filter((s) => s.current)).toHaveLength(1)
    const other = mine.find((s) => !s.current)!
    // Another staff member's session is not one's own to end.
    const director = await deskSignIn(server.url, "director")
    expect((await request(server.url, `/api/v1/desk/sessions/${other.id}`, { method: "DELETE", token: director.token })).status).toBe(404)
    expect((await request(server.url, `/api/v1/desk/sessions/${other.id}`, { method: "DELETE", token: first })).status).toBe(200)
    const stillOne = await request(server.url, "/api/v1/desk/me", { token: first })
    const otherOne = await request(server.url, "/api/v1/desk/me", { token: second })
    expect([stillOne.status, otherOne.status].sort()).toEqual([200, 401])

    // Idle: the session was last seen 31 minutes ago (PostgreSQL's clock does not move: the row does).
    const idle = (await signIn({ username: "support", password: "Support@1234" })).body.meta.token as string
    await server.sql((sql) => sql`UPDATE sessions SET last_seen_at = now() - interval '31 minutes' WHERE scope = 'desk' AND id = (SELECT id FROM sessions WHERE scope = 'desk' ORDER BY created_at DESC LIMIT 1)`)
    expect((await request(server.url, "/api/v1/desk/me", { token: idle })).status).toBe(401)
    const old = (await signIn({ username: "support", password: "Support@1234" })).body.meta.token as string
    const [created] = await server.sql((sql) => sql<{ expiresAt: Date; createdAt: Date }>`SELECT expires_at, created_at FROM sessions WHERE scope = 'desk' ORDER BY created_at DESC LIMIT 1`)
    expect(created!.expiresAt.getTime() - created!.createdAt.getTime()).toBe(12 * 3600_000)
    await server.sql((sql) => sql`UPDATE sessions SET expires_at = now() - interval '1 second' WHERE scope = 'desk' AND id = (SELECT id FROM sessions WHERE scope = 'desk' ORDER BY created_at DESC LIMIT 1)`)
    expect((await request(server.url, "/api/v1/desk/me", { token: old })).status).toBe(401)
  })

  it("signs out: the token opens nothing after", async () => {
    const token = (await signIn({ username: "support", password: "Support@1234" })).body.meta.token as string
    expect((await request(server.url, "/api/v1/desk/sign-out", { method: "POST", token })).status).toBe(200)
    expect((await request(server.url, "/api/v1/desk/me", { token })).status).toBe(401)
  })
})

describe("the audit trail", () => {
  it("records sign-ins and staff changes, is searchable and exports CSV, and refuses UPDATE and DELETE", async () => {
    const director = await deskSignIn(server.url, "director")
    const search = await request(server.url, "/api/v1/desk/audit?action=staff.create", { token: director.token })
    expect(search.status).toBe(200)
    expect(search.body.data.items[0]).toMatchObject({ actor: "director", actorRole: 1, action: "staff.create", subjectKind: "staff", ip: "127.0.0.1" })
    expect(search.body.data.items[0].after).toMatchObject({ username: expect.any(String), role: expect.any(Number) })
    const signIns = await request(server.url, "/api/v1/desk/audit?actor=support&action=staff.sign-in&limit=2", { token: director.token })
    expect(signIns.body.data.items).toHaveLength(2)
    expect(signIns.body.data.total).toBeGreaterThanOrEqual(4)
    const next = await request(server.url, `/api/v1/desk/audit?actor=support&action=staff.sign-in&limit=2&after=${signIns.body.data.next}`, { token: director.token })
    // Newest first by the number of the line (not as text: line 10 is newer than line 9).
    const ids = ((await request(server.url, "/api/v1/desk/audit?limit=200", { token: director.token })).body.data.items as Array<{ id: string }>).map((line) => Number(line.id))
    expect(ids.length).toBeGreaterThan(10)
    expect(ids).toEqual([...ids].sort((a, b) => b - a))
    expect(Number(next.body.data.items[0].id)).toBeLessThan(Number(signIns.body.data.items[1].id))
    const csv = await request(server.url, "/api/v1/desk/audit.csv?q=asha", { token: director.token })
    expect(csv.headers.get("content-type")).toMatch(/^text\/csv/)
    const lines = (csv.body as string).trim().split("\r\n")
    expect(lines[0]).toBe("id,at,actor,actorRole,ip,action,subjectKind,subjectId,before,after")
    expect(lines.length).toBeGreaterThan(1)
    expect(lines.slice(1).every((line) => line.includes("asha"))).toBe(true)
    expect((await request(server.url, "/api/v1/desk/audit?start_date=yesterday", { token: director.token })).status).toBe(400)

    for (const statement of ["UPDATE staff_audit SET actor = 'nobody'", "DELETE FROM staff_audit", "TRUNCATE staff_audit"]) {
      await expect(server.sql((sql) => sql.unsafe(statement)), statement).rejects.toThrow()
    }
    expect((await request(server.url, "/api/v1/desk/audit?actor=nobody", { token: director.token })).body.data.total).toBe(0)
  })
})
