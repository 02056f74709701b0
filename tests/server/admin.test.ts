import { execFile } from "node:child_process"
import { promisify } from "node:util"
import { describe, expect, it } from "vitest"
import { deskSignIn } from "../http.ts"
import { connectSocket, expectLedgerVerifies, nextDeskChange, request, signUpPlayer, startServer, tempDir, useServer } from "./helpers.ts"
import { balancesOf, createDeposit, freshKey, user } from "./payments-support.ts"

const run = promisify(execFile)

const server = useServer({ signIn: ["admin"], afterEach: expectLedgerVerifies })

describe("admin API", () => {
  it("refuses players (403) and visitors (401) on every operator endpoint", async () => {
    const { token } = await signUpPlayer(server)
    const calls: Array<[string, string, unknown?]> = [
      ["GET", "/api/v1/admin/deposit-requests"],
      ["PUT", "/api/v1/admin/deposit-requests/x/approve", {}],
      ["PUT", "/api/v1/admin/deposit-requests/x/reject", {}],
      ["GET", "/api/v1/admin/withdrawal-requests"],
      ["PUT", "/api/v1/admin/withdrawal-requests/x/approve", {}],
      ["PUT", "/api/v1/admin/withdrawal-requests/x/reject", {}],
      ["GET", "/api/v1/admin/deposit-accounts"],
      ["POST", "/api/v1/admin/deposit-accounts", { type: "upi", accountNumber: "a@ybl", accountHolderName: "A" }],
      ["PUT", "/api/v1/admin/deposit-accounts/x", { type: "upi", accountNumber: "a@ybl", accountHolderName: "A" }],
      ["POST", "/api/v1/admin/credit", { user: "demo", amount: 100 }]
    ]
    for (const [method, path, json] of calls) {
      const asPlayer = await request(server.url, path, { method, token, ...(json !== undefined ? { json } : {}) })
      expect(asPlayer.status, `${method} ${path}`).toBe(403)
      const asVisitor = await request(server.url, path, { method, ...(json !== undefined ? { json } : {}) })
      expect(asVisitor.status, `${method} ${path}`).toBe(401)
    }
  })

  it("lists pending deposits of every player with who made them, filtered by status", async () => {
    const { token, user: player } = await signUpPlayer(server, { name: "Listed Player" })
    const created = await createDeposit(server, token, 321)
    const pending = await request(server.url, "/api/v1/admin/deposit-requests?status=pending", { token: server.admin })
    const mine = pending.body.data.find((d: { _id: string }) => d._id === created.body.data._id)
    expect(mine).toMatchObject({ amount: 321, user: { id: player.id, username: player.username, name: "Listed Player" } })
    const approved = await request(server.url, "/api/v1/admin/deposit-requests?status=approved", { token: server.admin })
    expect(approved.body.data.find((d: { _id: string }) => d._id === created.body.data._id)).toBeUndefined()
  })

  it("manages deposit accounts: a new UPI account gets a QR; a disabled one disappears for players", async () => {
    const added = await request(server.url, "/api/v1/admin/deposit-accounts", { method: "POST", token: server.admin, json: { type: "upi", accountNumber: "New.Desk@okicici", accountHolderName: "Khel Desk" } })
    expect(added.status).toBe(200)
    expect(added.body.data).toMatchObject({ accountNumber: "new.desk@okicici", active: true, image: expect.stringMatching(/^data:image\/png;base64,/) })
    const { token } = await signUpPlayer(server)
    const seen = async () => (await request(server.url, "/api/v1/admin-account-details", { token })).body.data.map((a: { _id: string }) => a._id)
    expect(await seen()).toContain(added.body.data._id)
    const disabled = await request(server.url, `/api/v1/admin/deposit-accounts/${added.body.data._id}`, { method: "PUT", token: server.admin, json: { type: "upi", accountNumber: "new.desk@okicici", accountHolderName: "Khel Desk", active: false } })
    expect(disabled.body.data.active).toBe(false)
    expect(await seen()).not.toContain(added.body.data._id)
    expect((await request(server.url, "/api/v1/admin/deposit-accounts", { method: "POST", token: server.admin, json: { type: "bank", accountNumber: "1234567", accountHolderName: "X", bankName: "Y", ifscCode: "bad" } })).status).toBe(400)
  })

  it("credits a player for demos, once per Idempotency-Key", async () => {
    const { token, user: player } = await signUpPlayer(server)
    const key = freshKey()
    const credit = () => request(server.url, "/api/v1/admin/credit", { method: "POST", token: server.admin, headers: { "idempotency-key": key }, json: { user: player.username, amount: 2500, note: "Demo money" } })
    const first = await credit()
    expect(first.status).toBe(200)
    expect(first.body.data).toMatchObject({ userId: player.id, balance: 2500 })
    expect((await credit()).body.data).toEqual(first.body.data)
    expect((await user(server, token)).balance).toBe(2500)
    expect((await request(server.url, "/api/v1/admin/credit", { method: "POST", token: server.admin, json: { user: "nobody-here", amount: 1 } })).status).toBe(404)
    const statement = (await request(server.url, "/api/v1/account-statement", { token })).body.data
    expect(statement.rows[0]).toMatchObject({ kind: "adjustment", description: "Demo money", credit: 2500 })
  })
})

/**
 * Each command is a process of its own (a Node start and, on PGlite, the embedded database opened): seconds on an
 * idle machine, a minute or more on a loaded one. No command has a deadline of its own; each test has one generous
 * enough for all of its commands, so how fast the machine is never decides the result.
 */
const CLI_TEST_TIMEOUT = 600_000

describe("admin CLI", () => {
  const admin = (args: Array<string>, env: Record<string, string>) =>
    run(process.execPath, ["server/admin.ts", ...args], { env: { ...process.env, ...env } }).then(
      (out) => ({ code: 0, stdout: out.stdout, stderr: out.stderr }),
      (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr })
    )

  it("lists its commands", async () => {
    const help = await admin(["help"], {})
    expect(help.code).toBe(0)
    for (const name of ["verify-ledger", "deposits", "approve-deposit", "reject-deposit", "withdrawals", "approve-withdrawal", "reject-withdrawal", "deposit-accounts", "add-deposit-account", "credit"]) {
      expect(help.stdout).toContain(name)
    }
    const unknown = await admin(["no-such-command"], {})
    expect(unknown.code).toBe(2)
  }, CLI_TEST_TIMEOUT)

  it("approves, credits and verifies the ledger on a database the server is not holding", async () => {
    // The embedded database has one owner: the CLI works on a stopped server's folder (or on PostgreSQL beside a running one).
    const dataDir = tempDir("cli")
    const own = await startServer({ dataDir })
    const { token, user: player } = await signUpPlayer(own)
    const deposit = await createDeposit(own, token, 800)
    if (!own.databaseUrl) await own.close()
    const env: Record<string, string> = own.databaseUrl ? { DATABASE_URL: own.databaseUrl } : { DATA_DIR: dataDir, DATABASE_URL: "" }
    try {
      const listed = await admin(["deposits"], env)
      expect(listed.stdout).toContain(deposit.body.data._id)
      expect((await admin(["approve-deposit", deposit.body.data._id], env)).stdout).toContain("approved")
      const twice = await admin(["approve-deposit", deposit.body.data._id], env)
      expect(twice.code).toBe(1)
      expect(twice.stderr).toMatch(/already approved/)
      expect((await admin(["credit", player.username, "200.50", "Welcome", "gift"], env)).stdout).toMatch(/main balance ₹1000.50/)
      expect((await admin(["credit", player.username, "abc"], env)).code).toBe(2)
      const verified = await admin(["verify-ledger"], env)
      expect(verified.code).toBe(0)
      expect(verified.stdout).toContain("ledger OK")
    } finally {
      if (own.databaseUrl) await own.close()
    }
  }, CLI_TEST_TIMEOUT)

  it("works beside a running server: on the embedded database the server runs the command, audited as the CLI's", async () => {
    const { token, user: player } = await signUpPlayer(server)
    const deposit = (await createDeposit(server, token, 650)).body.data
    const env: Record<string, string> = server.databaseUrl ? { DATABASE_URL: server.databaseUrl } : { DATA_DIR: server.dataDir, DATABASE_URL: "" }
    const approved = await admin(["approve-deposit", deposit._id], env)
    expect(approved).toMatchObject({ code: 0, stdout: `${deposit._id}: approved (₹650.00)\n` })
    expect((await balancesOf(server, player.id)).main).toBe(650_00)
    // Refusals and usage errors come back with their exit codes; tables keep their layout.
    const twice = await admin(["approve-deposit", deposit._id], env)
    expect(twice.code).toBe(1)
    expect(twice.stderr).toMatch(/already approved/)
    expect((await admin(["credit", player.username, "abc"], env)).code).toBe(2)
    expect((await admin(["deposits", "--status", "approved"], env)).stdout).toMatch(new RegExp(`│.*${deposit._id}.*│`))
    const audit = await server.sql((sql) => sql`SELECT actor, action FROM staff_audit WHERE subject_id = ${deposit._id} ORDER BY at`)
    expect(audit).toContainEqual({ actor: "cli", action: "deposit.approve" })
  }, CLI_TEST_TIMEOUT)

  it("tells every open desk what it changed in the settings, as the desk's own edits do", async () => {
    const env: Record<string, string> = server.databaseUrl ? { DATABASE_URL: server.databaseUrl } : { DATA_DIR: server.dataDir, DATABASE_URL: "" }
    const desk = await connectSocket(server.url, (await deskSignIn(server.url, "admin")).token)
    // What the open desk hears next of a settings record (its settings screen then reads it again).
    const heard = (id: string) => nextDeskChange(desk, "settings", id)
    try {
      const added = heard("deposit-accounts")
      const out = await admin(["add-deposit-account", "upi", `cli.desk.${process.pid}@okaxis`, "Khel", "Ops"], env)
      expect(out.code).toBe(0)
      expect(await added).toMatchObject({ topic: "settings", id: "deposit-accounts" })
      const disabled = heard("deposit-accounts")
      expect((await admin(["disable-deposit-account", out.stdout.split(" ")[1]!], env)).code).toBe(0)
      await disabled
      const protection = heard("protection")
      expect((await admin(["region-header", "none"], env)).code).toBe(0)
      expect(await protection).toMatchObject({ topic: "settings", id: "protection" })
    } finally {
      desk.close()
    }
  }, CLI_TEST_TIMEOUT)
})
