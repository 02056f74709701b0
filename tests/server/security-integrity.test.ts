import { describe, expect, it } from "vitest"
import { PAYMENT_MESSAGES } from "../../src/domain/payments.ts"
import type { IntegritySignal } from "../../src/schema/integrity.ts"
import { expectLedgerVerifies, freshUtr, request, signUpPlayer, useServer } from "./helpers.ts"
import { TAKEN_MESSAGE } from "../../server/payments/payoutAccounts.ts"
import { addUpi, approveDeposit, createDeposit, fund } from "./payments-support.ts"

/** Integrity: references (UTR) claimed once, and the signals the operator reads (docs/security.md). */
const server = useServer({ signIn: ["admin"], afterEach: expectLedgerVerifies })

const signals = async (query = "") => {
  const res = await request(server.url, `/api/v1/admin/signals${query}`, { token: server.admin })
  expect(res.status).toBe(200)
  return res.body.data as { signals: ReadonlyArray<IntegritySignal>; next: string | null }
}

const reject = (id: string) => request(server.url, `/api/v1/admin/deposit-requests/${id}/reject`, { method: "PUT", token: server.admin, json: {} })

describe("payment references (UTR)", () => {
  it("takes a UPI reference only as its 12 digits, and a bank one as IMPS, NEFT or RTGS shapes", async () => {
    const { token } = await signUpPlayer(server)
    for (const bad of ["UTR1", "99998888777", "9999888877771", "99998888777O"]) {
      expect((await createDeposit(server, token, 500, { txnRef: bad })).body.meta).toMatchObject({ code: 400, message: PAYMENT_MESSAGES.badUpiReference, error: "InvalidInput" })
    }
    const spaced = await createDeposit(server, token, 500, { txnRef: " 4123 4567 8912 " })
    expect(spaced.status).toBe(200)
    expect(spaced.body.data.txnRef).toBe("412345678912")
    const bank = await request(server.url, "/api/v1/admin-account-details", { token })
    const bankAccount = (bank.body.data as Array<{ _id: string; type: string }>).find((a) => a.type === "bank")!
    const neft = await createDeposit(server, token, 500, { accountId: bankAccount._id, type: "bank", txnRef: "hdfcn52024061712345" })
    expect(neft.body.data.txnRef).toBe("HDFCN52024061712345")
    expect((await createDeposit(server, token, 500, { accountId: bankAccount._id, type: "bank", txnRef: "NEFT-1" })).body.meta.message).toBe(PAYMENT_MESSAGES.badBankReference)
  })

  it("refuses a reference already on anyone's pending or approved deposit, records who tried, and frees it when rejected", async () => {
    const first = await signUpPlayer(server, { name: "First Filer" })
    const second = await signUpPlayer(server, { name: "Second Filer" })
    const ref = freshUtr()
    const filed = await createDeposit(server, first.token, 5000, { txnRef: ref })
    expect(filed.status).toBe(200)
    const again = await createDeposit(server, first.token, 5000, { txnRef: ref })
    expect(again.body.meta).toMatchObject({ code: 409, message: PAYMENT_MESSAGES.referenceUsed, error: "ReferenceUsed" })
    const other = await createDeposit(server, second.token, 5000, { txnRef: ref })
    expect(other.body.meta).toMatchObject({ code: 409, message: PAYMENT_MESSAGES.referenceUsed, error: "ReferenceUsed" })
    // Approved, it stays taken.
    expect((await approveDeposit(server, server.admin, filed.body.data._id)).status).toBe(200)
    expect((await createDeposit(server, second.token, 5000, { txnRef: ref })).status).toBe(409)
    const pending = (await request(server.url, "/api/v1/admin-deposit-request", { token: second.token })).body.data
    expect(pending).toEqual([])

    const [signal] = (await signals("?kind=duplicate_utr")).signals.filter((s) => s.subject === ref)
    expect(signal).toMatchObject({ kind: "duplicate_utr", subject: ref, context: { depositIds: [filed.body.data._id] } })
    expect(signal!.players.map((p) => p.id).sort()).toEqual([first.user.id, second.user.id].sort())

    // A rejected deposit frees its reference (the payment was not proved by it).
    const later = freshUtr()
    const wrong = await createDeposit(server, first.token, 1000, { txnRef: later })
    expect((await reject(wrong.body.data._id)).status).toBe(200)
    expect((await createDeposit(server, second.token, 1000, { txnRef: later })).status).toBe(200)
  })

  it("gives a reference filed by several players at once to one deposit only", async () => {
    const players = await Promise.all(Array.from({ length: 3 }, () => signUpPlayer(server)))
    for (let round = 0; round < 5; round++) {
      const ref = freshUtr()
      const answers = await Promise.all(players.map((p) => createDeposit(server, p.token, 1000, { txnRef: ref })))
      expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409])
      const holders = await server.sql((sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM deposit_requests WHERE txn_ref = ${ref}`)
      expect(holders[0]!.n).toBe(1)
      const winner = answers.find((a) => a.status === 200)!
      expect((await reject(winner.body.data._id)).status).toBe(200)
    }
  })

  it("accepts a reference one slip from another deposit's and signals both players; signals are the operator's only", async () => {
    const one = await signUpPlayer(server, { name: "Near One" })
    const two = await signUpPlayer(server, { name: "Near Two" })
    const ref = "999988887777"
    const first = await createDeposit(server, one.token, 5000, { txnRef: ref })
    expect(first.status).toBe(200)
    const typo = await createDeposit(server, two.token, 5000, { txnRef: "999988887778" })
    expect(typo.status).toBe(200)
    const swapped = await createDeposit(server, two.token, 5000, { txnRef: "999988878777" })
    expect(swapped.status).toBe(200)
    const near = (await signals("?kind=near_duplicate_utr")).signals
    const typoSignal = near.find((s) => s.subject === "999988887778")!
    expect(typoSignal.detail).toContain(ref)
    expect(typoSignal.context).toEqual({ depositIds: [typo.body.data._id, first.body.data._id] })
    expect(typoSignal.players.map((p) => p.username).sort()).toEqual([one.user.username, two.user.username].sort())
    expect(near.find((s) => s.subject === "999988878777")).toBeDefined()
    // Narrowed to a player, paged.
    const ofOne = await signals(`?user=${one.user.id}`)
    expect(ofOne.signals.every((s) => s.players.some((p) => p.id === one.user.id))).toBe(true)
    expect(ofOne.signals.length).toBeGreaterThanOrEqual(2)
    const page = await signals(`?before=${ofOne.signals[0]!._id}&user=${one.user.id}`)
    expect(page.signals[0]!._id).toBe(ofOne.signals[1]!._id)

    expect((await request(server.url, "/api/v1/admin/signals", { token: one.token })).status).toBe(403)
    expect((await request(server.url, "/api/v1/admin/signals")).status).toBe(401)
  })
})

describe("payout accounts", () => {
  const add = (token: string, json: Record<string, unknown>) => request(server.url, "/api/v1/account-details", { method: "POST", token, json })
  const bank = (accountNumber: string, ifscCode: string) =>
    ({ type: "bank", accountNumber, ifscCode, bankName: "HDFC Bank", accountHolderName: "Owner Name", accountType: "savings" })

  it("belong to the first player who adds one: another is refused, in any spelling or branch, also by editing; an account let go is free", async () => {
    const owner = await signUpPlayer(server, { name: "Account Owner" })
    const other = await signUpPlayer(server, { name: "Account Other" })
    const upi = `owner.${Date.now()}@okhdfcbank`
    await addUpi(server, owner.token, upi)
    expect((await add(other.token, { type: "upi", accountNumber: upi.toUpperCase(), accountHolderName: "Other" })).body.meta)
      .toMatchObject({ code: 409, message: TAKEN_MESSAGE.upi, error: "Conflict" })
    // The same bank and number at another branch is the same account.
    const number = String(Date.now()).slice(-12)
    expect((await add(owner.token, bank(number, "HDFC0001234"))).status).toBe(200)
    expect((await add(other.token, bank(number, "HDFC0009999"))).body.meta).toMatchObject({ code: 409, message: TAKEN_MESSAGE.bank, error: "Conflict" })
    expect((await add(other.token, bank(number, "ICIC0009999"))).status).toBe(200)
    // Editing one's own account into another player's is refused too, and leaves it as it was.
    const mine = await addUpi(server, other.token, `other.${Date.now()}@okaxis`)
    const edit = await request(server.url, "/api/v1/account-details", {
      method: "PUT", token: other.token, json: { accountId: mine, type: "upi", accountNumber: upi, accountHolderName: "Other" }
    })
    expect(edit.body.meta).toMatchObject({ code: 409, message: TAKEN_MESSAGE.upi, error: "Conflict" })
    const held = (await request(server.url, "/api/v1/account-details", { token: other.token })).body.data as Array<{ _id: string; accountNumber: string }>
    expect(held.find((a) => a._id === mine)!.accountNumber).toMatch(/^other\./)
    const [signal] = (await signals(`?kind=shared_payout_account&user=${other.user.id}`)).signals.filter((s) => s.subject === `upi:${upi}`)
    expect(signal!.players.map((p) => p.id).sort()).toEqual([owner.user.id, other.user.id].sort())

    // The owner edits it into another UPI id: theirs no longer, the other player may add it.
    const ownerAccounts = (await request(server.url, "/api/v1/account-details", { token: owner.token })).body.data as Array<{ _id: string; type: string }>
    const ownersUpi = ownerAccounts.find((a) => a.type === "upi")!._id
    expect((await request(server.url, "/api/v1/account-details", {
      method: "PUT", token: owner.token, json: { accountId: ownersUpi, type: "upi", accountNumber: `new.${upi}`, accountHolderName: "Account Owner" }
    })).status).toBe(200)
    expect((await add(other.token, { type: "upi", accountNumber: upi, accountHolderName: "Other" })).status).toBe(200)
  })

  it("refuses a withdrawal to an account another player owns, added before accounts were checked", async () => {
    const owner = await signUpPlayer(server)
    const late = await signUpPlayer(server)
    const upi = `early.${Date.now()}@okicici`
    await addUpi(server, owner.token, upi)
    // As migration 0122 found it: a second holder of the same UPI id.
    const [row] = await server.sql((sql) => sql<{ id: string }>`
      INSERT INTO payment_accounts (user_id, type, account_number, account_holder_name) VALUES (${late.user.id}, 'upi', ${upi}, 'Late Holder') RETURNING id
    `)
    await fund(server, late.token, 1000, server.admin)
    const refused = await request(server.url, "/api/v1/withdrawal-request", { method: "POST", token: late.token, json: { amount: 500, accountId: row!.id } })
    expect(refused.body.meta).toMatchObject({
      code: 409, message: "This payout account is registered to another player. Please withdraw to an account in your own name.", error: "Conflict"
    })
    expect((await request(server.url, "/api/v1/getUserData", { token: late.token })).body.data.balance).toBe(1000)
  })
})
