import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { DEFAULT_LIMITS } from "../../server/config.ts"
import { expectLedgerVerifies, request, signUpPlayer, useServer } from "./helpers.ts"
import { addUpi, balancesOf, createDeposit, settleStake, user } from "./payments-support.ts"

const server = useServer({ signIn: ["admin"] })

type Action =
  | { type: "deposit"; amount: number }
  | { type: "decideDeposit"; pick: number; approve: boolean }
  | { type: "withdraw"; amount: number }
  | { type: "decideWithdrawal"; pick: number; approve: boolean }
  | { type: "activateBonus" }
  | { type: "settleStake"; amount: number }
  | { type: "claimBonus" }
  | { type: "forfeitBonus" }
  | { type: "claimReferral" }

const rupees = (min: number, max: number) => fc.integer({ min: min * 100, max: max * 100 }).map((paise) => paise / 100)

const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({ type: fc.constant("deposit" as const), amount: rupees(100, 5000) }),
  fc.record({ type: fc.constant("decideDeposit" as const), pick: fc.nat(), approve: fc.boolean() }),
  fc.record({ type: fc.constant("decideDeposit" as const), pick: fc.nat(), approve: fc.constant(true) }),
  fc.record({ type: fc.constant("withdraw" as const), amount: rupees(100, 4000) }),
  fc.record({ type: fc.constant("decideWithdrawal" as const), pick: fc.nat(), approve: fc.boolean() }),
  fc.constant({ type: "activateBonus" as const }),
  fc.record({ type: fc.constant("settleStake" as const), amount: rupees(1, 20_000) }),
  fc.constant({ type: "claimBonus" as const }),
  fc.constant({ type: "forfeitBonus" as const }),
  fc.constant({ type: "claimReferral" as const })
)

const paise = (rupees: number) => Math.round(rupees * 100)

describe("ledger properties", () => {
  it("random sequences of deposits, decisions, withdrawals and bonus actions keep every invariant and match a simple model", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 4, maxLength: 14 }), async (actions) => {
        const { token, user: player } = await signUpPlayer(server)
        const accountId = await addUpi(server, token, `p${player.id.slice(0, 8)}@ybl`)
        const model = { main: 0, bonus: 0, hold: 0, pendingDeposits: [] as Array<{ id: string; amount: number }>, pendingWithdrawals: [] as Array<{ id: string; amount: number }>, approvedDeposits: 0 }
        let bonus: { id: string; status: string; amount: number; required: number; wagered: number } | undefined

        for (const step of actions) {
          switch (step.type) {
            case "deposit": {
              const res = await createDeposit(server, token, step.amount)
              // Past the cap of requests waiting for approval, a deposit is refused and stores nothing.
              if (model.pendingDeposits.length >= DEFAULT_LIMITS.pendingDepositsPerPlayer) {
                expect(res.status).toBe(429)
                break
              }
              expect(res.status).toBe(200)
              model.pendingDeposits.push({ id: res.body.data._id, amount: paise(step.amount) })
              break
            }
            case "decideDeposit": {
              if (model.pendingDeposits.length === 0) break
              const [deposit] = model.pendingDeposits.splice(step.pick % model.pendingDeposits.length, 1)
              const res = await request(server.url, `/api/v1/admin/deposit-requests/${deposit!.id}/${step.approve ? "approve" : "reject"}`, { method: "PUT", token: server.admin, json: {} })
              expect(res.status).toBe(200)
              if (step.approve) {
                model.main += deposit!.amount
                if (model.approvedDeposits++ === 0) {
                  const amount = Math.min(deposit!.amount, 10_000_00)
                  bonus = { id: "", status: "available", amount, required: amount * 5, wagered: 0 }
                }
              }
              break
            }
            case "withdraw": {
              const res = await request(server.url, "/api/v1/withdrawal-request", { method: "POST", token, json: { amount: step.amount, accountId } })
              if (paise(step.amount) <= model.main) {
                expect(res.status).toBe(200)
                model.main -= paise(step.amount)
                model.hold += paise(step.amount)
                model.pendingWithdrawals.push({ id: res.body.data._id, amount: paise(step.amount) })
              } else {
                expect(res.status).toBe(422)
              }
              break
            }
            case "decideWithdrawal": {
              if (model.pendingWithdrawals.length === 0) break
              const [withdrawal] = model.pendingWithdrawals.splice(step.pick % model.pendingWithdrawals.length, 1)
              const res = await request(server.url, `/api/v1/admin/withdrawal-requests/${withdrawal!.id}/${step.approve ? "approve" : "reject"}`, { method: "PUT", token: server.admin, json: {} })
              expect(res.status).toBe(200)
              model.hold -= withdrawal!.amount
              if (!step.approve) model.main += withdrawal!.amount
              break
            }
            case "settleStake": {
              await settleStake(server, player.id, paise(step.amount))
              if (bonus?.status === "active") {
                bonus.wagered += paise(step.amount)
                if (bonus.wagered >= bonus.required) bonus.status = "completed"
              }
              break
            }
            case "activateBonus":
            case "claimBonus":
            case "forfeitBonus": {
              const listed = (await request(server.url, "/api/v1/bonus-data", { token })).body.data.bonuses as Array<{ _id: string }>
              if (!bonus || listed.length === 0) break
              const path = { activateBonus: "activate-bonus", claimBonus: "claim-bonus", forfeitBonus: "forfeit-bonus" }[step.type]
              const res = await request(server.url, `/api/v1/${path}`, { method: "PUT", token, json: { bonusId: listed[0]!._id } })
              const allowed = {
                activateBonus: ["available"],
                claimBonus: ["completed"],
                forfeitBonus: ["available", "active", "completed"]
              }[step.type].includes(bonus.status)
              expect(res.status, `${step.type} on ${bonus.status}`).toBe(allowed ? 200 : 409)
              if (!allowed) break
              if (step.type === "activateBonus") {
                bonus.status = bonus.required === 0 ? "completed" : "active"
                model.bonus += bonus.amount
              } else if (step.type === "claimBonus") {
                bonus.status = "claimed"
                model.main += model.bonus
                model.bonus = 0
              } else {
                if (bonus.status !== "available") model.bonus = 0
                bonus.status = "forfeited"
              }
              break
            }
            case "claimReferral": {
              const res = await request(server.url, "/api/v1/claim-ref-bonus", { method: "PUT", token, json: {} })
              expect(res.status).toBe(422)
              break
            }
          }
          const balances = await balancesOf(server, player.id)
          expect({ main: balances.main, bonus: balances.bonus, hold: balances.withdrawalHold }).toEqual({ main: model.main, bonus: model.bonus, hold: model.hold })
          expect(balances.main).toBeGreaterThanOrEqual(0)
        }
        expect((await user(server, token)).balance).toBe(model.main / 100)
        await expectLedgerVerifies(server)
      }),
      { numRuns: 25 }
    )
  }, 300_000)

  it("the database refuses an overdraft and an unbalanced transaction, whatever the code does", async () => {
    const { user: player } = await signUpPlayer(server)
    const [main] = await server.sql((sql) => sql<{ id: string }>`
      INSERT INTO ledger_accounts (user_id, kind, floor) VALUES (${player.id}, 'main', 0)
      ON CONFLICT (user_id, kind) DO UPDATE SET floor = 0 RETURNING id`)
    await expect(server.sql((sql) => sql`UPDATE ledger_accounts SET balance = -1 WHERE id = ${main!.id}`)).rejects.toThrow()
    await expect(server.sql((sql) => sql.withTransaction(sql`
      WITH t AS (INSERT INTO ledger_transactions (kind, description) VALUES ('broken', 'one leg') RETURNING id)
      INSERT INTO ledger_entries (transaction_id, account_id, amount, balance_after) SELECT t.id, ${main!.id}, 100, 100 FROM t`))).rejects.toThrow()
    await expect(server.sql((sql) => sql`UPDATE ledger_entries SET amount = amount + 1 WHERE id = (SELECT min(id) FROM ledger_entries)`)).rejects.toThrow()
    await expectLedgerVerifies(server)
  })

  it("ledger_post moves each account once, by its key, and refuses a posting that names an account twice or one that does not exist", async () => {
    const { user: player } = await signUpPlayer(server)
    const accounts = await server.sql((sql) => sql<{ id: string; kind: string }>`
      SELECT id, kind FROM ledger_accounts WHERE user_id = ${player.id} OR (user_id IS NULL AND kind = 'deposits')`)
    const id = (kind: string) => accounts.find((a) => a.kind === kind)!.id
    const post = (legs: ReadonlyArray<{ account: string; amount: number }>) =>
      server.sql((sql) => sql<{ id: string }>`SELECT ledger_post('test', ${player.id}, NULL, 'ledger_post test', ${JSON.stringify(legs)}::jsonb) AS id`)
    const entriesOf = (tx: string) =>
      server.sql((sql) => sql<{ accountId: string; amount: string; balanceAfter: string }>`
        SELECT account_id, amount::text, balance_after::text FROM ledger_entries WHERE transaction_id = ${tx} ORDER BY id`)
    const transactions = () => server.sql((sql) => sql<{ n: number }>`SELECT count(*)::int AS n FROM ledger_transactions WHERE kind = 'test'`)

    // Legs in any order: one entry per account, in id order, each with the balance after it.
    const [{ id: tx }] = (await post([{ account: id("main"), amount: 2_500 }, { account: id("deposits"), amount: -2_500 }])) as [{ id: string }]
    const entries = await entriesOf(tx)
    expect(entries.map((e) => e.accountId)).toEqual([id("main"), id("deposits")].sort())
    expect(entries.find((e) => e.accountId === id("main"))).toMatchObject({ amount: "2500", balanceAfter: "2500" })

    // Refused whole: no transaction, no entry, no balance moved.
    await expect(post([{ account: id("main"), amount: 100 }, { account: id("main"), amount: -100 }])).rejects.toThrow()
    await expect(post([{ account: id("main"), amount: 100 }, { account: "no-such-account", amount: -100 }])).rejects.toThrow()
    await expect(post([{ account: id("main"), amount: -2_501 }, { account: id("deposits"), amount: 2_501 }])).rejects.toThrow()
    expect(await transactions()).toEqual([{ n: 1 }])
    expect(await balancesOf(server, player.id)).toMatchObject({ main: 2_500 })
    await expectLedgerVerifies(server)
  })
})
