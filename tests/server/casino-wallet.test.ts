import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { freshId, khelSecret, launch, ledgerCount, mainBalance, walletCall } from "./casino-support.ts"
import { expectLedgerVerifies, loginAs, request, signUpPlayer, useServer } from "./helpers.ts"

/**
 * The seamless wallet as a provider uses it: signed calls, idempotency by the
 * provider's transaction id, the rollback rules, and no overdraft under
 * concurrent debits (proven on PostgreSQL when DATABASE_URL is set).
 */

const server = useServer({ signIn: ["admin"] })

/** A new player with `rupees` in their main balance, and a launch token for Khel Dragon Tiger. */
const player = async (rupees: number) => {
  const signed = await signUpPlayer(server)
  if (rupees > 0) {
    const credit = await request(server.url, "/api/v1/admin/credit", { method: "POST", token: server.admin, json: { user: signed.user.username, amount: rupees } })
    expect(credit.status, JSON.stringify(credit.body)).toBe(200)
  }
  const launched = await launch(server, signed.token)
  return { id: signed.user.id, session: signed.token, token: launched.token }
}

const debit = (token: string, transactionId: string, roundId: string, amount: number) =>
  walletCall(server, "debit", { token, transactionId, roundId, amount })
const credit = (playerId: string, transactionId: string, roundId: string, amount: number) =>
  walletCall(server, "credit", { playerId, transactionId, roundId, amount })
const rollback = (playerId: string, transactionId: string, refTransactionId: string, roundId: string) =>
  walletCall(server, "rollback", { playerId, transactionId, refTransactionId, roundId })

describe("provider authentication", () => {
  it("refuses calls that are not signed by an active provider with its secret", async () => {
    const p = await player(0)
    const body = { token: p.token }
    const cases = [
      await walletCall(server, "balance", body, { secret: "not-the-secret" }),
      await walletCall(server, "balance", body, { provider: "nobody" }),
      // Partners have no secret until an operator sets one.
      await walletCall(server, "balance", body, { provider: "ezugi" }),
      await walletCall(server, "balance", body, { timestamp: String(Math.floor(Date.now() / 1000) - 3600) }),
      await walletCall(server, "balance", body, { signedBody: JSON.stringify({ token: "another" }) }),
      await request(server.url, "/api/v1/casino/wallet/balance", { method: "POST", json: body })
    ]
    for (const res of cases) {
      expect(res.status).toBe(401)
      expect(res.body.meta.code).toBe(401)
      expect(res.body.data).toBeNull()
    }
  })

  it("answers the balance and the session's game for a valid token, and 403 for any other", async () => {
    const p = await player(500)
    const ok = await walletCall(server, "balance", { token: p.token })
    expect(ok.status).toBe(200)
    expect(ok.body.data).toEqual({ playerId: p.id, currency: "INR", balance: 500, transactionId: null, gameId: "dragon-tiger" })
    const bad = await walletCall(server, "balance", { token: "no-such-token" })
    expect(bad.status).toBe(403)
    expect(bad.body.meta.message).toMatch(/session/)
  })

  it("checks the payload: a bad amount is 400 naming the field, nothing moves", async () => {
    const p = await player(500)
    const res = await walletCall(server, "debit", { token: p.token, transactionId: freshId("t"), roundId: freshId("r"), amount: "ten" })
    expect(res.status).toBe(400)
    expect(res.body.meta.message).toMatch(/amount/)
    const fraction = await debit(p.token, freshId("t"), freshId("r"), 1.005)
    expect(fraction.status).toBe(400)
    const zero = await debit(p.token, freshId("t"), freshId("r"), 0)
    expect(zero.status).toBe(400)
    expect(await mainBalance(server, p.id)).toBe(500_00)
    await expectLedgerVerifies(server)
  })
})

describe("debit, credit and rollback", () => {
  it("moves money once per transaction id: a repeated debit or credit answers the first response", async () => {
    const p = await player(1000)
    const round = freshId("round")
    const first = await debit(p.token, `${round}-bet`, round, 250)
    expect(first.status).toBe(200)
    expect(first.body.data.balance).toBe(750)
    const again = await debit(p.token, `${round}-bet`, round, 250)
    expect(again.status).toBe(200)
    expect(again.body).toEqual(first.body)
    expect(await ledgerCount(server, p.id, "casino_debit")).toBe(1)
    // The same id for a different request is a conflict, not a second bet.
    const other = await debit(p.token, `${round}-bet`, round, 300)
    expect(other.status).toBe(409)

    const win = await credit(p.id, `${round}-win`, round, 500)
    expect(win.status).toBe(200)
    expect(win.body.data.balance).toBe(1250)
    expect(await credit(p.id, `${round}-win`, round, 500)).toMatchObject({ status: 200, body: win.body })
    expect(await ledgerCount(server, p.id, "casino_credit")).toBe(1)
    expect(await mainBalance(server, p.id)).toBe(1250_00)
    await expectLedgerVerifies(server)
  })

  it("closes a round with its credit: more debits or credits on it are refused", async () => {
    const p = await player(1000)
    const round = freshId("round")
    expect((await debit(p.token, `${round}-a`, round, 100)).status).toBe(200)
    expect((await debit(p.token, `${round}-b`, round, 100)).status).toBe(200)
    expect((await credit(p.id, `${round}-win`, round, 0)).status).toBe(200)
    // A lost round closes with a credit of 0: no ledger transaction for it.
    expect(await ledgerCount(server, p.id, "casino_credit")).toBe(0)
    expect((await debit(p.token, `${round}-c`, round, 100)).status).toBe(409)
    expect((await credit(p.id, `${round}-win2`, round, 100)).status).toBe(409)
    expect((await credit(p.id, freshId("x"), freshId("unknown-round"), 100)).status).toBe(404)
    expect(await mainBalance(server, p.id)).toBe(800_00)
    await expectLedgerVerifies(server)
  })

  it("refuses a debit beyond the balance with 422, and records nothing", async () => {
    const p = await player(100)
    const round = freshId("round")
    const res = await debit(p.token, `${round}-bet`, round, 100.01)
    expect(res.status).toBe(422)
    expect(res.body.meta.message).toBe("Insufficient balance.")
    expect(await ledgerCount(server, p.id, "casino_debit")).toBe(0)
    // A failed debit leaves no record: the same id may be tried again.
    expect((await debit(p.token, `${round}-bet`, round, 100)).status).toBe(200)
    expect(await mainBalance(server, p.id)).toBe(0)
    await expectLedgerVerifies(server)
  })

  it("rolls back a debit once, and refuses a rollback after the credit", async () => {
    const p = await player(1000)
    const round = freshId("round")
    expect((await debit(p.token, `${round}-bet`, round, 400)).status).toBe(200)
    const back = await rollback(p.id, `${round}-rb`, `${round}-bet`, round)
    expect(back.status).toBe(200)
    expect(back.body.data.balance).toBe(1000)
    expect(await rollback(p.id, `${round}-rb`, `${round}-bet`, round)).toMatchObject({ status: 200, body: back.body })
    // Another rollback id for the same debit moves nothing more.
    const twice = await rollback(p.id, `${round}-rb2`, `${round}-bet`, round)
    expect(twice.status).toBe(200)
    expect(twice.body.data.balance).toBe(1000)
    expect(await ledgerCount(server, p.id, "casino_rollback")).toBe(1)
    // The whole stake came back: the round is cancelled and takes no credit.
    expect((await credit(p.id, `${round}-win`, round, 800)).status).toBe(409)

    const settled = freshId("round")
    expect((await debit(p.token, `${settled}-bet`, settled, 300)).status).toBe(200)
    expect((await credit(p.id, `${settled}-win`, settled, 600)).status).toBe(200)
    const late = await rollback(p.id, `${settled}-rb`, `${settled}-bet`, settled)
    expect(late.status).toBe(409)
    expect(late.body.meta.message).toMatch(/settled/)
    expect(await mainBalance(server, p.id)).toBe(1300_00)
    // Only debits roll back.
    expect((await rollback(p.id, freshId("rb"), `${settled}-win`, settled)).status).toBe(409)
    await expectLedgerVerifies(server)
  })

  it("remembers a rollback of a debit it never saw, and refuses that debit if it arrives late", async () => {
    const p = await player(1000)
    const round = freshId("round")
    const early = await rollback(p.id, `${round}-rb`, `${round}-bet`, round)
    expect(early.status).toBe(200)
    expect(early.body.data.balance).toBe(1000)
    const late = await debit(p.token, `${round}-bet`, round, 100)
    expect(late.status).toBe(409)
    expect(await mainBalance(server, p.id)).toBe(1000_00)
    expect((await rollback(freshId("nobody"), freshId("rb"), freshId("bet"), freshId("round"))).status).toBe(404)
    await expectLedgerVerifies(server)
  })

  it("takes no debit on an expired session, but still accepts the credit of a round in play", async () => {
    const p = await player(1000)
    const round = freshId("round")
    expect((await debit(p.token, `${round}-bet`, round, 100)).status).toBe(200)
    await server.sql((sql) => sql`UPDATE casino_sessions SET expires_at = now() - interval '1 minute' WHERE user_id = ${p.id}`)
    expect((await debit(p.token, `${round}-bet2`, round, 100)).status).toBe(403)
    expect((await credit(p.id, `${round}-win`, round, 150)).status).toBe(200)
    expect(await mainBalance(server, p.id)).toBe(1050_00)
    await expectLedgerVerifies(server)
  })

  it("keeps each round to its player: another player's round id is refused", async () => {
    const a = await player(1000)
    const b = await player(1000)
    const round = freshId("round")
    expect((await debit(a.token, `${round}-a`, round, 100)).status).toBe(200)
    expect((await debit(b.token, `${round}-b`, round, 100)).status).toBe(409)
    expect((await credit(b.id, `${round}-win`, round, 100)).status).toBe(404)
    expect((await rollback(b.id, `${round}-rb`, `${round}-a`, round)).status).toBe(409)
    await expectLedgerVerifies(server)
  })
})

describe("credit players", () => {
  it("bet against their credit limit, until the operator disallows the casino for them", async () => {
    const credit = await loginAs(server, "credit")
    const launched = await launch(server, credit.token)
    const round = freshId("round")
    expect((await walletCall(server, "balance", { token: launched.token })).body.data.balance).toBe(50_000)
    expect((await debit(launched.token, `${round}-bet`, round, 1000)).status).toBe(200)
    const off = await request(server.url, "/api/v1/admin/casino-settings", { method: "PUT", token: server.admin, json: { creditPlayersAllowed: false } })
    expect(off.status).toBe(200)
    const refused = await debit(launched.token, `${round}-bet2`, round, 1000)
    expect(refused.status).toBe(403)
    expect(refused.body.meta.message).toMatch(/credit/)
    await request(server.url, "/api/v1/admin/casino-settings", { method: "PUT", token: server.admin, json: { creditPlayersAllowed: true } })
    await expectLedgerVerifies(server)
  })
})

describe("concurrency", () => {
  it("never overdraws: of 20 debits at once for ₹100 each, exactly the 10 the balance covers go through", async () => {
    const p = await player(1000)
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => debit(p.token, freshId(`c${i}`), freshId(`round${i}`), 100)))
    const statuses = results.map((r) => r.status).sort()
    expect(statuses.filter((s) => s === 200)).toHaveLength(10)
    expect(statuses.filter((s) => s === 422)).toHaveLength(10)
    expect(await mainBalance(server, p.id)).toBe(0)
    expect(await ledgerCount(server, p.id, "casino_debit")).toBe(10)
    await expectLedgerVerifies(server)
  })

  it("moves money once when the same debit arrives many times at once", async () => {
    const p = await player(1000)
    const round = freshId("round")
    const results = await Promise.all(Array.from({ length: 8 }, () => debit(p.token, `${round}-bet`, round, 100)))
    for (const res of results) {
      expect(res.status).toBe(200)
      expect(res.body).toEqual(results[0]!.body)
    }
    expect(await ledgerCount(server, p.id, "casino_debit")).toBe(1)
    expect(await mainBalance(server, p.id)).toBe(900_00)
    await expectLedgerVerifies(server)
  })

  it("lets a credit and a rollback race on one round: exactly one of them wins", async () => {
    const p = await player(1000)
    for (let i = 0; i < 5; i++) {
      const round = freshId("race")
      expect((await debit(p.token, `${round}-bet`, round, 100)).status).toBe(200)
      const [won, back] = await Promise.all([credit(p.id, `${round}-win`, round, 200), rollback(p.id, `${round}-rb`, `${round}-bet`, round)])
      expect([won.status, back.status].sort()).toEqual([200, 409])
    }
    const credits = await ledgerCount(server, p.id, "casino_credit")
    const rollbacks = await ledgerCount(server, p.id, "casino_rollback")
    expect(credits + rollbacks).toBe(5)
    expect(await mainBalance(server, p.id)).toBe(1000_00 + credits * 100_00)
    const rounds = await server.sql((sql) =>
      sql<{ status: string; n: number }>`SELECT status, count(*)::int AS n FROM casino_rounds WHERE user_id = ${p.id} GROUP BY status`.pipe(Effect.map((rows) => rows))
    )
    expect(rounds.reduce((n, r) => n + r.n, 0)).toBe(5)
    await expectLedgerVerifies(server)
  })

  it("keeps the wallet secret private to the provider and the operator", async () => {
    const secret = await khelSecret(server)
    expect(secret).toMatch(/^[0-9a-f]{64}$/)
    const providers = await request(server.url, "/api/v1/admin/casino-providers", { token: server.admin })
    expect(JSON.stringify(providers.body)).not.toContain(secret)
  })
})
