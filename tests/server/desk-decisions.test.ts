import { describe, expect, it } from "vitest"
import { countStatuses, expectLedgerVerifies, request, signUpPlayer, useServer } from "./helpers.ts"
import { createDeposit, user } from "./payments-support.ts"

/**
 * Two staff deciding one request at once: exactly one decision wins and moves
 * money once; the other is told who decided it and when. Every decision is in
 * the audit trail. (PostgreSQL runs the calls truly at once; PGlite one after
 * the other, which must end the same way.)
 */
const server = useServer({ signIn: ["director", "admin", "support"], afterEach: expectLedgerVerifies })

const decide = (token: string, id: string, verb: "approve" | "reject", kind = "deposit-requests") =>
  request(server.url, `/api/v1/admin/${kind}/${id}/${verb}`, { method: "PUT", token, json: { remark: "checked" } })

describe("deciding requests at once", () => {
  it("credits a deposit once when support and admin approve it together; the loser is told who won", async () => {
    const player = await signUpPlayer(server)
    for (let round = 0; round < 5; round++) {
      const deposit = (await createDeposit(server, player.token, 500 + round)).body.data
      const answers = await Promise.all([decide(server.admin, deposit._id, "approve"), decide(server.support, deposit._id, round % 2 === 0 ? "approve" : "reject")])
      expect(countStatuses(answers.map((a) => a.status))).toEqual({ 200: 1, 409: 1 })
      const [won, lost] = answers[0]!.status === 200 ? [answers[0]!, answers[1]!] : [answers[1]!, answers[0]!]
      const winner = won === answers[0] ? "admin" : "support"
      expect(lost.body.meta.error).toBe("AlreadyDecided")
      expect(lost.body.meta.message).toMatch(new RegExp(`^This deposit request was already ${won.body.data.status} by ${winner} at \\d{1,2} \\w{3} \\d{2}:\\d{2}\\.$`))
      const audit = await request(server.url, `/api/v1/desk/audit?subject=${deposit._id}`, { token: server.admin })
      expect(audit.body.data.items.map((e: { action: string; actor: string }) => `${e.actor} ${e.action}`)).toEqual([`${winner} deposit.${won.body.data.status === "approved" ? "approve" : "reject"}`])
    }
    const approved = (await request(server.url, "/api/v1/admin/deposit-requests?status=approved", { token: server.admin })).body.data.filter((d: { user?: { id: string } }) => d.user?.id === player.user.id)
    const credited = approved.reduce((sum: number, d: { amount: number }) => sum + d.amount, 0)
    expect((await user(server, player.token)).balance).toBe(credited)
  })

  it("pays a withdrawal once when two staff mark it paid together", async () => {
    const player = await signUpPlayer(server)
    const deposit = (await createDeposit(server, player.token, 1000)).body.data
    expect((await decide(server.support, deposit._id, "approve")).status).toBe(200)
    const upi = await request(server.url, "/api/v1/account-details", { method: "POST", token: player.token, json: { type: "upi", accountNumber: "race@ybl", accountHolderName: "Race Player" } })
    const withdrawal = await request(server.url, "/api/v1/withdrawal-request", { method: "POST", token: player.token, json: { amount: 400, accountId: upi.body.data._id } })
    const answers = await Promise.all([decide(server.admin, withdrawal.body.data._id, "approve", "withdrawal-requests"), decide(server.support, withdrawal.body.data._id, "reject", "withdrawal-requests")])
    expect(countStatuses(answers.map((a) => a.status))).toEqual({ 200: 1, 409: 1 })
    const lost = answers.find((a) => a.status === 409)!
    expect(lost.body.meta.message).toMatch(/^This withdrawal request was already (paid|rejected) by (admin|support) at /)
    const balance = (await user(server, player.token)).balance
    expect(balance).toBe(answers.find((a) => a.status === 200)!.body.data.status === "approved" ? 600 : 1000)
  })
})
