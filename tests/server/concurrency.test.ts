import { Deferred, Effect, Fiber } from "effect"
import { describe, expect, it } from "vitest"
import { countStatuses as count, expectLedgerVerifies, request, signUpPlayer, useServer } from "./helpers.ts"
import { backAndLose } from "./betting-support.ts"
import { addUpi, approveDeposit, balancesOf, createDeposit, fund } from "./payments-support.ts"

/**
 * Races. On PostgreSQL (DATABASE_URL, as CI runs it) the requests really run
 * at once on separate connections, so row locks and constraints are what keep
 * the money right; on PGlite they queue on its one connection.
 */
const server = useServer({ signIn: ["admin"], afterEach: expectLedgerVerifies })

describe(`concurrency on ${process.env.DATABASE_URL ? "PostgreSQL" : "PGlite"}`, () => {
  // On PostgreSQL statements outside a transaction share connections (server/db/database.ts, `multiplex`); PGlite
  // has one connection, which an open transaction holds.
  it.runIf(process.env.DATABASE_URL)("statements that run at once share connections, never an open transaction's: none runs inside it or sees its writes", async () => {
    await server.sql((sql) => sql`CREATE TABLE multiplex_probe (n int)`)
    const { own, reads, after } = await server.sql((sql) =>
      Effect.gen(function*() {
        const written = yield* Deferred.make<string | null>()
        const release = yield* Deferred.make<void>()
        const transaction = yield* Effect.forkChild(sql.withTransaction(Effect.gen(function*() {
          yield* sql`INSERT INTO multiplex_probe VALUES (1)`
          const [row] = yield* sql<{ xid: string | null }>`SELECT pg_current_xact_id_if_assigned()::text AS xid`
          yield* Deferred.succeed(written, row!.xid)
          yield* Deferred.await(release)
        })))
        const own = yield* Deferred.await(written)
        const reads = yield* Effect.all(
          Array.from({ length: 40 }, () => sql<{ xid: string | null; rows: number }>`SELECT pg_current_xact_id_if_assigned()::text AS xid, (SELECT count(*) FROM multiplex_probe)::int AS rows`),
          { concurrency: "unbounded" }
        )
        yield* Deferred.succeed(release, undefined)
        yield* Fiber.join(transaction)
        const [after] = yield* sql<{ rows: number }>`SELECT count(*)::int AS rows FROM multiplex_probe`
        return { own, reads: reads.flat(), after: after!.rows }
      })
    )
    expect(own).not.toBeNull()
    expect(reads).toHaveLength(40)
    expect(reads.every((read) => read.xid === null && read.rows === 0)).toBe(true)
    expect(after).toBe(1)
  })

  it("200 parallel withdrawals against a balance that covers exactly one: one is accepted, none overdraws", async () => {
    const { token, user: player } = await signUpPlayer(server)
    await fund(server, token, 100, server.admin)
    const accountId = await addUpi(server, token)
    const results = await Promise.all(
      Array.from({ length: 200 }, () => request(server.url, "/api/v1/withdrawal-request", { method: "POST", token, json: { amount: 100, accountId } }))
    )
    expect(count(results.map((r) => r.status))).toEqual({ 200: 1, 422: 199 })
    const balances = await balancesOf(server, player.id)
    expect(balances.main).toBe(0)
    expect(balances.withdrawalHold).toBe(100_00)
    const list = await request(server.url, "/api/v1/withdrawal-request", { token })
    // Refused requests leave no row behind (each ran in one rolled-back transaction).
    expect(list.body.data).toHaveLength(1)
  }, 120_000)

  it("the same deposit approved 30 times at once credits the player once", async () => {
    const { token, user: player } = await signUpPlayer(server)
    const deposit = await createDeposit(server, token, 999)
    const results = await Promise.all(Array.from({ length: 30 }, () => approveDeposit(server, server.admin, deposit.body.data._id)))
    expect(count(results.map((r) => r.status))).toEqual({ 200: 1, 409: 29 })
    expect((await balancesOf(server, player.id)).main).toBe(999_00)
  }, 120_000)

  it("an approval retried at once with one Idempotency-Key answers the same to every copy and credits once", async () => {
    const { token, user: player } = await signUpPlayer(server)
    const deposit = await createDeposit(server, token, 450)
    const results = await Promise.all(Array.from({ length: 20 }, () => approveDeposit(server, server.admin, deposit.body.data._id, "approve-once")))
    expect(count(results.map((r) => r.status))).toEqual({ 200: 20 })
    expect(new Set(results.map((r) => JSON.stringify(r.body.data))).size).toBe(1)
    expect((await balancesOf(server, player.id)).main).toBe(450_00)
  }, 120_000)

  it("approving and rejecting one withdrawal at once: exactly one decision, and the hold leaves once", async () => {
    const { token, user: player } = await signUpPlayer(server)
    await fund(server, token, 1000, server.admin)
    const accountId = await addUpi(server, token)
    const created = await request(server.url, "/api/v1/withdrawal-request", { method: "POST", token, json: { amount: 600, accountId } })
    const id = created.body.data._id
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => request(server.url, `/api/v1/admin/withdrawal-requests/${id}/${i % 2 ? "approve" : "reject"}`, { method: "PUT", token: server.admin, json: {} }))
    )
    expect(count(results.map((r) => r.status))).toEqual({ 200: 1, 409: 19 })
    const winner = results.find((r) => r.status === 200)!.body.data.status
    const balances = await balancesOf(server, player.id)
    expect(balances.withdrawalHold).toBe(0)
    expect(balances.main).toBe(winner === "approved" ? 400_00 : 1000_00)
  }, 120_000)

  it("claims of the referral wallet at once move it once", async () => {
    const referrer = await signUpPlayer(server)
    const friend = await signUpPlayer(server, { affiliateCode: referrer.user.referralCode })
    await fund(server, friend.token, 5000, server.admin)
    // The reward waits for the friend's own play of the deposit.
    await backAndLose(server, server.admin, friend.token, 5000, new Set())
    const results = await Promise.all(Array.from({ length: 10 }, () => request(server.url, "/api/v1/claim-ref-bonus", { method: "PUT", token: referrer.token, json: {} })))
    expect(count(results.map((r) => r.status))).toEqual({ 200: 1, 422: 9 })
    const balances = await balancesOf(server, referrer.user.id)
    expect(balances).toMatchObject({ main: 500_00, refBonus: 0 })
  }, 120_000)
})
