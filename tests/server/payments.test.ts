import sharp from "sharp"
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"
import { expectLedgerVerifies, freshUtr, loginAs, request, SERVER_START_TIMEOUT, signUpPlayer, startServer, tempDir, useServer } from "./helpers.ts"
import { addUpi, approveDeposit, createDeposit, depositAccount, freshKey, fund, pngDataUrl, user } from "./payments-support.ts"
import { agentToken } from "./desk-support.ts"

const server = useServer({ signIn: ["admin"], afterEach: expectLedgerVerifies })

describe("deposit accounts", () => {
  it("shows the operator's UPI accounts with a QR image and the bank account with its details", async () => {
    const { token } = await signUpPlayer(server)
    const res = await request(server.url, "/api/v1/admin-account-details", { token })
    expect(res.status).toBe(200)
    const accounts = res.body.data as Array<Record<string, string>>
    const upi = accounts.filter((a) => a.type === "upi")
    expect(upi.length).toBeGreaterThan(0)
    for (const account of upi) {
      expect(account.accountNumber).toMatch(/@/)
      expect(account.accountHolderName).toBeTruthy()
      expect(account.image).toMatch(/^data:image\/png;base64,/)
    }
    const bank = accounts.find((a) => a.type === "bank")!
    expect(bank).toMatchObject({ bankName: expect.any(String), ifscCode: expect.stringMatching(/^[A-Z]{4}0/), accountType: expect.any(String) })
  })

  it("needs a session", async () => {
    const res = await request(server.url, "/api/v1/admin-account-details")
    expect(res.status).toBe(401)
  })
})

describe("deposits", () => {
  it("refuses a missing amount, an amount under 100 and a request with neither reference nor screenshot", async () => {
    const { token } = await signUpPlayer(server)
    const account = await depositAccount(server, token)
    const send = (json: Record<string, unknown>) =>
      request(server.url, "/api/v1/admin-deposit-request", { method: "POST", token, json: { accountId: account._id, type: "upi", ...json } })
    expect((await send({ amount: 0, txnRef: "412345678901" })).body.meta).toMatchObject({ code: 400, message: "Please enter amount", error: "InvalidInput" })
    expect((await send({ amount: 99, txnRef: "412345678901" })).body.meta).toMatchObject({ code: 400, message: "Min Deposit amount is 100", error: "InvalidInput" })
    expect((await send({ amount: 100.123, txnRef: "412345678901" })).status).toBe(400)
    expect((await send({ amount: 500 })).body.meta).toMatchObject({ code: 400, message: "Please provide reference-id or upload a screenshot.", error: "InvalidInput" })
    expect((await send({ amount: 500, txnRef: "  " })).body.meta.message).toBe("Please provide reference-id or upload a screenshot.")
    expect((await send({ amount: 500, txnRef: "412345678901", type: "bank" })).status).toBe(400)
    expect((await send({ amount: 500, txnRef: "412345678901", accountId: "nope" })).status).toBe(404)
  })

  it("creates a pending request that moves no money until an operator approves it, exactly once", async () => {
    const { token, user: player } = await signUpPlayer(server)
    const created = await createDeposit(server, token, 1500)
    expect(created.status).toBe(200)
    expect(created.body.data).toMatchObject({ amount: 1500, status: "pending", type: "upi", screenshot: null })
    expect((await user(server, token)).balance).toBe(0)

    const list = await request(server.url, "/api/v1/admin-deposit-request", { token })
    expect(list.body.data.map((d: { _id: string }) => d._id)).toContain(created.body.data._id)

    const approved = await approveDeposit(server, server.admin, created.body.data._id)
    expect(approved.status).toBe(200)
    expect(approved.body.data.status).toBe("approved")
    expect((await user(server, token)).balance).toBe(1500)

    const again = await approveDeposit(server, server.admin, created.body.data._id)
    expect(again.status).toBe(409)
    const rejectLater = await request(server.url, `/api/v1/admin/deposit-requests/${created.body.data._id}/reject`, { method: "PUT", token: server.admin, json: {} })
    expect(rejectLater.status).toBe(409)
    expect((await user(server, token)).balance).toBe(1500)
    const credits = await server.sql((sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM ledger_transactions WHERE kind = 'deposit' AND user_id = ${player.id}`)
    expect(credits[0]!.n).toBe(1)
  })

  it("answers a replayed approval (same Idempotency-Key) with the first response and moves nothing", async () => {
    const { token } = await signUpPlayer(server)
    const created = await createDeposit(server, token, 700)
    const key = freshKey()
    const first = await approveDeposit(server, server.admin, created.body.data._id, key)
    const second = await approveDeposit(server, server.admin, created.body.data._id, key)
    expect(first.status).toBe(200)
    expect(second.status).toBe(200)
    expect(second.body.data).toEqual(first.body.data)
    expect((await user(server, token)).balance).toBe(700)
  })

  it("keeps a key's record writable by the release before (a rolling restart runs both on one schema)", async () => {
    const key = freshKey()
    // That release claims through the shared database function, then sets the answer with its status.
    const [claim] = await server.sql((sql) => sql<{ claimed: boolean }>`SELECT claimed FROM idempotency_record('previous-release', ${key}, 'hash', NULL)`)
    expect(claim!.claimed).toBe(true)
    await server.sql((sql) => sql`UPDATE idempotency_keys SET status = 200, response = '{"data":1}'::jsonb WHERE user_id = 'previous-release' AND key = ${key}`)
    const [replay] = await server.sql((sql) => sql<{ claimed: boolean; storedResponse: unknown }>`SELECT claimed, stored_response FROM idempotency_record('previous-release', ${key}, 'hash', NULL)`)
    expect(replay).toEqual({ claimed: false, storedResponse: { data: 1 } })
  })

  it("refuses one Idempotency-Key reused for a different request", async () => {
    const { token } = await signUpPlayer(server)
    const account = await depositAccount(server, token)
    const key = freshKey()
    const txnRef = freshUtr()
    const send = (amount: number) =>
      request(server.url, "/api/v1/admin-deposit-request", { method: "POST", token, headers: { "idempotency-key": key }, json: { amount, accountId: account._id, type: "upi", txnRef } })
    const first = await send(200)
    const replay = await send(200)
    expect(replay.body.data._id).toBe(first.body.data._id)
    expect((await send(300)).status).toBe(409)
    const list = await request(server.url, "/api/v1/admin-deposit-request", { token })
    expect(list.body.data).toHaveLength(1)
  })

  it("rejecting moves nothing", async () => {
    const { token } = await signUpPlayer(server)
    const created = await createDeposit(server, token, 400)
    const rejected = await request(server.url, `/api/v1/admin/deposit-requests/${created.body.data._id}/reject`, { method: "PUT", token: server.admin, json: { remark: "No such payment" } })
    expect(rejected.body.data).toMatchObject({ status: "rejected", remark: "No such payment" })
    expect((await user(server, token)).balance).toBe(0)
  })

  it("lists by date range (calendar days or ISO instants)", async () => {
    const { token } = await signUpPlayer(server)
    await createDeposit(server, token, 250)
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10)
    const today = day(0)
    const inRange = await request(server.url, `/api/v1/admin-deposit-request?start_date=${day(-2)}&end_date=${day(2)}`, { token })
    expect(inRange.body.data).toHaveLength(1)
    const before = await request(server.url, `/api/v1/admin-deposit-request?start_date=2000-01-01&end_date=2000-01-02`, { token })
    expect(before.body.data).toHaveLength(0)
    const iso = await request(server.url, `/api/v1/admin-deposit-request?start_date=${new Date(Date.now() - 60_000).toISOString()}&end_date=${new Date(Date.now() + 60_000).toISOString()}`, { token })
    expect(iso.body.data).toHaveLength(1)
    const backwards = await request(server.url, `/api/v1/admin-deposit-request?start_date=${today}&end_date=2000-01-01`, { token })
    expect(backwards.status).toBe(400)
    expect((await request(server.url, `/api/v1/admin-deposit-request?start_date=yesterday`, { token })).status).toBe(400)
  })
})

describe("screenshots", () => {
  it("stores a PNG re-encoded under a server-made name, without its metadata, readable by the owner and operators only", async () => {
    const { token } = await signUpPlayer(server)
    const { dataUrl } = await pngDataUrl({ exif: true })
    expect((await sharp(Buffer.from(dataUrl.split(",")[1]!, "base64")).metadata()).exif).toBeDefined()
    const created = await createDeposit(server, token, 1000, { txnRef: undefined, baseImage: dataUrl })
    expect(created.status).toBe(200)
    const id = created.body.data.screenshot as string
    expect(id).toMatch(/^[0-9a-f]{32}$/)

    const [row] = await server.sql((sql) => sql<{ file: string | null; stored: number | null }>`SELECT file, octet_length(data) AS stored FROM uploads WHERE id = ${id}`)
    if (server.engine === "postgres") {
      // In the database, so every server serves it; nothing on this server's disk.
      expect(row).toMatchObject({ file: null, stored: expect.any(Number) })
      expect(readdirSync(join(server.dataDir, "uploads"))).toEqual([])
    } else {
      expect(row).toMatchObject({ file: `${id}.png`, stored: null })
      expect(readdirSync(join(server.dataDir, "uploads"))).toContain(`${id}.png`)
      expect(statSync(join(server.dataDir, "uploads", `${id}.png`)).mode & 0o077).toBe(0)
    }

    const mine = await request(server.url, `/api/v1/uploaded-screenshot/${id}`, { token })
    expect(mine.status).toBe(200)
    const stored = Buffer.from((mine.body.data.image as string).split(",")[1]!, "base64")
    const meta = await sharp(stored).metadata()
    expect(meta.format).toBe("png")
    expect(meta.width).toBe(64)
    expect(meta.exif).toBeUndefined()
    expect(stored.includes(Buffer.from("secret-location"))).toBe(false)

    // Staff read it on the desk; another player, or an agent, may not.
    const operator = await request(server.url, `/api/v1/desk/screenshots/${id}`, { token: server.admin })
    expect(operator.body.data.image).toBe(mine.body.data.image)
    const other = await signUpPlayer(server)
    expect((await request(server.url, `/api/v1/uploaded-screenshot/${id}`, { token: other.token })).status).toBe(403)
    expect((await request(server.url, `/api/v1/uploaded-screenshot/${id}`, { token: await agentToken(server) })).status).toBe(403)
    expect((await request(server.url, `/api/v1/uploaded-screenshot/${id}`)).status).toBe(401)
  })

  it.runIf(process.env.DATABASE_URL)("moves screenshots a server kept on its disk into the database when it starts on PostgreSQL", async () => {
    const { token, user: player } = await signUpPlayer(server)
    // A screenshot filed while this data folder's server ran on the embedded database.
    const dataDir = tempDir("uploads-move")
    mkdirSync(join(dataDir, "uploads"))
    const { buffer } = await pngDataUrl()
    const id = "0123456789abcdef0123456789abcdef"
    writeFileSync(join(dataDir, "uploads", `${id}.png`), buffer, { mode: 0o600 })
    await server.sql((sql) => sql`INSERT INTO uploads (id, user_id, file, mime, bytes) VALUES (${id}, ${player.id}, ${`${id}.png`}, 'image/png', ${buffer.length})`)

    const second = await startServer({ databaseUrl: server.databaseUrl, dataDir, seedDemo: false })
    try {
      const [row] = await server.sql((sql) => sql<{ file: string | null; stored: number | null }>`SELECT file, octet_length(data) AS stored FROM uploads WHERE id = ${id}`)
      expect(row).toEqual({ file: null, stored: buffer.length })
      expect(existsSync(join(dataDir, "uploads", `${id}.png`))).toBe(false)
      // Any server serves it now.
      for (const any of [server, second]) {
        const read = await request(any.url, `/api/v1/uploaded-screenshot/${id}`, { token })
        expect(read.status).toBe(200)
        expect(Buffer.from((read.body.data.image as string).split(",")[1]!, "base64").equals(buffer)).toBe(true)
      }
    } finally {
      await second.close()
    }
  }, SERVER_START_TIMEOUT)

  it("takes JPEG and WebP, and the bank modal's `screenshot` field", async () => {
    const { token } = await signUpPlayer(server)
    const bank = await depositAccount(server, token, "bank")
    for (const format of ["jpeg", "webp"] as const) {
      const { dataUrl } = await pngDataUrl({ format })
      const res = await request(server.url, "/api/v1/admin-deposit-request", { method: "POST", token, json: { amount: 300, accountId: bank._id, type: "bank", screenshot: dataUrl } })
      expect(res.status).toBe(200)
      expect(res.body.data.screenshot).toMatch(/^[0-9a-f]{32}$/)
    }
  })

  it("takes a screenshot-only deposit as the site sends it, txnRef empty (SPEC section 3), and files it with no reference", async () => {
    const { token } = await signUpPlayer(server)
    const { dataUrl } = await pngDataUrl()
    const res = await createDeposit(server, token, 400, { txnRef: "", baseImage: dataUrl })
    expect(res.status).toBe(200)
    expect(res.body.data).toMatchObject({ amount: 400, txnRef: null, status: "pending", screenshot: expect.stringMatching(/^[0-9a-f]{32}$/) })
    // Without the screenshot the empty reference proves nothing: refused, nothing filed.
    const refused = await createDeposit(server, token, 400, { txnRef: "" })
    expect(refused.body.meta).toMatchObject({ code: 400, message: "Please provide reference-id or upload a screenshot.", error: "InvalidInput" })
    const listed = await request(server.url, `/api/v1/admin-deposit-request?start_date=${new Date(Date.now() - 60_000).toISOString()}&end_date=${new Date(Date.now() + 60_000).toISOString()}`, { token })
    expect(listed.body.data).toHaveLength(1)
  })

  it("judges by content, not by name: a text file called image/png is refused, so is an oversized or broken image", async () => {
    const { token } = await signUpPlayer(server)
    const fake = `data:image/png;base64,${Buffer.from("<script>alert(1)</script>").toString("base64")}`
    const refused = await createDeposit(server, token, 1000, { baseImage: fake })
    expect(refused.body.meta).toMatchObject({ code: 400, message: "The screenshot must be a PNG, JPEG or WebP image.", error: "InvalidInput" })
    const gif = `data:image/png;base64,${Buffer.from("GIF89a\x01\x00\x01\x00").toString("base64")}`
    expect((await createDeposit(server, token, 1000, { baseImage: gif })).status).toBe(400)
    const { buffer } = await pngDataUrl()
    const big = Buffer.concat([buffer, Buffer.alloc(5 * 1024 * 1024)])
    const tooLarge = await createDeposit(server, token, 1000, { baseImage: `data:image/png;base64,${big.toString("base64")}` })
    expect(tooLarge.body.meta.message).toMatch(/at most 5 MB/)
    const truncated = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(100, 7)])
    const broken = await createDeposit(server, token, 1000, { baseImage: `data:image/png;base64,${truncated.toString("base64")}` })
    expect(broken.body.meta.message).toMatch(/could not be read/)
    const list = await request(server.url, "/api/v1/admin-deposit-request", { token })
    expect(list.body.data).toHaveLength(0)
  })
})

describe("payout accounts", () => {
  it("adds and edits a UPI id and a bank account with the toasts of SPEC section 8", async () => {
    const { token } = await signUpPlayer(server)
    const add = await request(server.url, "/api/v1/account-details", { method: "POST", token, json: { type: "upi", accountNumber: "ravi@okaxis", accountHolderName: "Ravi" } })
    expect(add.body.meta).toEqual({ code: 200, message: "Your UPI has been added" })
    const edit = await request(server.url, "/api/v1/account-details", { method: "PUT", token, json: { accountId: add.body.data._id, type: "upi", accountNumber: "ravi.k@okaxis", accountHolderName: "Ravi K" } })
    expect(edit.body.meta.message).toBe("Your UPI has been updated")
    expect(edit.body.data.accountNumber).toBe("ravi.k@okaxis")

    const bank = await request(server.url, "/api/v1/account-details", {
      method: "POST",
      token,
      json: { type: "bank", accountNumber: "123456789012", accountHolderName: "Ravi Kumar", bankName: "State Bank of India", ifscCode: "sbin0001234" }
    })
    expect(bank.body.meta.message).toBe("Bank Account has been added")
    expect(bank.body.data).toMatchObject({ ifscCode: "SBIN0001234", accountType: "savings" })
    const editBank = await request(server.url, "/api/v1/account-details", {
      method: "PUT",
      token,
      json: { accountId: bank.body.data._id, type: "bank", accountNumber: "123456789012", accountHolderName: "Ravi Kumar", bankName: "SBI", ifscCode: "SBIN0001234", accountType: "current" }
    })
    expect(editBank.body.data.accountType).toBe("current")
    const list = await request(server.url, "/api/v1/account-details", { token })
    expect(list.body.data).toHaveLength(2)
  })

  it("refuses blank fields, a malformed IFSC or UPI id, a duplicate, and someone else's account", async () => {
    const { token } = await signUpPlayer(server)
    const send = (json: Record<string, unknown>, method = "POST") => request(server.url, "/api/v1/account-details", { method, token, json })
    expect((await send({ type: "upi", accountNumber: "", accountHolderName: "Ravi" })).body.meta.message).toBe("Please fill all Fields")
    expect((await send({ type: "bank", accountNumber: "123456789", accountHolderName: "Ravi", bankName: " ", ifscCode: "SBIN0001234" })).body.meta.message).toBe("Please fill all Fields")
    expect((await send({ type: "bank", accountNumber: "123456789", accountHolderName: "Ravi", bankName: "SBI", ifscCode: "SBIN123" })).body.meta.message).toMatch(/IFSC/)
    expect((await send({ type: "upi", accountNumber: "not-a-upi", accountHolderName: "Ravi" })).body.meta.message).toMatch(/UPI id/)
    const id = await addUpi(server, token, "dup@ybl")
    expect((await send({ type: "upi", accountNumber: "DUP@ybl", accountHolderName: "Ravi" })).status).toBe(409)
    const other = await signUpPlayer(server)
    const stolen = await request(server.url, "/api/v1/account-details", { method: "PUT", token: other.token, json: { accountId: id, type: "upi", accountNumber: "xx@ybl", accountHolderName: "X" } })
    expect(stolen.status).toBe(404)
  })
})

describe("withdrawals", () => {
  it("holds the amount at once, then pays it out or gives it back", async () => {
    const { token, user: player } = await signUpPlayer(server)
    await fund(server, token, 5000, server.admin)
    const accountId = await addUpi(server, token)
    const first = await request(server.url, "/api/v1/withdrawal-request", { method: "POST", token, json: { amount: 1200, accountId } })
    expect(first.status).toBe(200)
    expect(first.body.data).toMatchObject({ amount: 1200, status: "pending", account: { type: "upi", accountNumber: expect.stringMatching(/^ravi\.kumar\.\d+\.\d+@okhdfcbank$/) } })
    expect((await user(server, token)).balance).toBe(3800)

    const paid = await request(server.url, `/api/v1/admin/withdrawal-requests/${first.body.data._id}/approve`, { method: "PUT", token: server.admin, json: {} })
    expect(paid.body.data.status).toBe("approved")
    expect((await user(server, token)).balance).toBe(3800)
    expect((await request(server.url, `/api/v1/admin/withdrawal-requests/${first.body.data._id}/reject`, { method: "PUT", token: server.admin, json: {} })).status).toBe(409)

    const second = await request(server.url, "/api/v1/withdrawal-request", { method: "POST", token, json: { amount: 800, accountId } })
    expect((await user(server, token)).balance).toBe(3000)
    const rejected = await request(server.url, `/api/v1/admin/withdrawal-requests/${second.body.data._id}/reject`, { method: "PUT", token: server.admin, json: { remark: "Account closed" } })
    expect(rejected.body.data.status).toBe("rejected")
    expect((await user(server, token)).balance).toBe(3800)

    const list = await request(server.url, "/api/v1/withdrawal-request", { token })
    expect(list.body.data.map((w: { status: string }) => w.status).sort()).toEqual(["approved", "rejected"])
    const held = await server.sql((sql) => sql<{ balance: bigint }>`SELECT balance FROM ledger_accounts WHERE user_id = ${player.id} AND kind = 'withdrawal_hold'`)
    expect(Number(held[0]!.balance)).toBe(0)
  })

  it("refuses more than the balance, under the minimum, or to an account that is not the player's", async () => {
    const { token } = await signUpPlayer(server)
    await fund(server, token, 500, server.admin)
    const accountId = await addUpi(server, token)
    const over = await request(server.url, "/api/v1/withdrawal-request", { method: "POST", token, json: { amount: 500.01, accountId } })
    expect(over.status).toBe(422)
    expect(over.body.meta.message).toMatch(/Insufficient balance/)
    expect((await request(server.url, "/api/v1/withdrawal-request", { method: "POST", token, json: { amount: 50, accountId } })).body.meta.message).toBe("Min Withdrawal amount is 100")
    const other = await signUpPlayer(server)
    const foreign = await request(server.url, "/api/v1/withdrawal-request", { method: "POST", token: other.token, json: { amount: 100, accountId } })
    expect(foreign.status).toBe(404)
    expect((await user(server, token)).balance).toBe(500)
    // The whole balance can go.
    expect((await request(server.url, "/api/v1/withdrawal-request", { method: "POST", token, json: { amount: 500, accountId } })).status).toBe(200)
    expect((await user(server, token)).balance).toBe(0)
  })

  it("a replayed request with the same Idempotency-Key holds once", async () => {
    const { token } = await signUpPlayer(server)
    await fund(server, token, 1000, server.admin)
    const accountId = await addUpi(server, token)
    const key = freshKey()
    const send = () => request(server.url, "/api/v1/withdrawal-request", { method: "POST", token, headers: { "idempotency-key": key }, json: { amount: 300, accountId } })
    const [a, b] = [await send(), await send()]
    expect(b.body.data._id).toBe(a.body.data._id)
    expect((await user(server, token)).balance).toBe(700)
    expect((await request(server.url, "/api/v1/withdrawal-request", { method: "POST", token, headers: { "idempotency-key": "bad key!" }, json: { amount: 300, accountId } })).status).toBe(400)
  })
})

describe("credit players", () => {
  it("have no deposits, withdrawals, payout accounts, bonuses, referrals or wallet switch (403)", async () => {
    const { token } = await loginAs(server, "credit")
    const calls: Array<[string, string, unknown?]> = [
      ["GET", "/api/v1/admin-account-details"],
      ["GET", "/api/v1/account-details"],
      ["POST", "/api/v1/account-details", { type: "upi", accountNumber: "c@ybl", accountHolderName: "C" }],
      ["GET", "/api/v1/admin-deposit-request"],
      ["POST", "/api/v1/admin-deposit-request", { amount: 500, accountId: "x", type: "upi", txnRef: "1" }],
      ["GET", "/api/v1/withdrawal-request"],
      ["POST", "/api/v1/withdrawal-request", { amount: 500, accountId: "x" }],
      ["GET", "/api/v1/bonus-data"],
      ["PUT", "/api/v1/activate-bonus", { bonusId: "x" }],
      ["GET", "/api/v1/get-refferal-users"],
      ["GET", "/api/v1/get-refferal-transactions"],
      ["GET", "/api/v1/get-weekly-refferal-transactions"],
      ["PUT", "/api/v1/claim-ref-bonus", {}],
      ["PUT", "/api/v1/wallet", { selectedWallet: 2 }]
    ]
    for (const [method, path, json] of calls) {
      const res = await request(server.url, path, { method, token, ...(json !== undefined ? { json } : {}) })
      expect(res.status, `${method} ${path}`).toBe(403)
      expect(res.body.meta.message).toMatch(/Credit accounts/)
    }
    // Statements are theirs to read.
    expect((await request(server.url, "/api/v1/account-statement", { token })).status).toBe(200)
  })
})
