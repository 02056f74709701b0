import { describe, expect, it } from "vitest"
import { bet, catalogue, eventsOf, marketOf, setPrice } from "./betting-support.ts"
import { expectLedgerVerifies, request, signUpPlayer, useServer } from "./helpers.ts"
import { addUpi, fund, post } from "./payments-support.ts"

const server = useServer({ signIn: ["admin"], afterEach: expectLedgerVerifies })

type Row = { kind: string; title: string; description: string; reference: string | null; credit: number; debit: number; amount: number; balance: number }

describe("statements", () => {
  it("lists every movement of the main balance, newest first, with the running balance and totals", async () => {
    const { token, user: player } = await signUpPlayer(server)
    await fund(server, token, 1000, server.admin)
    const accountId = await addUpi(server, token)
    await request(server.url, "/api/v1/withdrawal-request", { method: "POST", token, json: { amount: 250.5, accountId } })
    // Other capabilities post their own kinds: a bet placed and settled, a casino round.
    await post(server, { kind: "bet_place", userId: player.id, description: "Back India @ 1.90, stake 100", legs: [{ account: { user: player.id, kind: "main" }, amount: -100_00 }, { account: { user: player.id, kind: "exposure" }, amount: 100_00 }] })
    await post(server, { kind: "bet_settle", userId: player.id, description: "India won: +90", legs: [{ account: { user: player.id, kind: "exposure" }, amount: -100_00 }, { account: { operator: "house" }, amount: -90_00 }, { account: { user: player.id, kind: "main" }, amount: 190_00 }] })
    await post(server, { kind: "casino_debit", userId: player.id, description: "Teen Patti round 42", legs: [{ account: { user: player.id, kind: "main" }, amount: -40_00 }, { account: { operator: "casino" }, amount: 40_00 }] })

    const res = await request(server.url, "/api/v1/account-statement", { token })
    expect(res.status).toBe(200)
    const statement = res.body.data as { rows: Array<Row>; openingBalance: number; closingBalance: number; totals: { credit: number; debit: number; net: number } }
    expect(statement.rows.map((r) => r.kind)).toEqual(["casino_debit", "bet_settle", "bet_place", "withdrawal_hold", "deposit"])
    expect(statement.rows.map((r) => r.balance)).toEqual([799.5, 839.5, 649.5, 749.5, 1000])
    expect(statement.rows[3]).toMatchObject({ debit: 250.5, credit: 0, amount: -250.5 })
    expect(statement.rows[0]!.description).toBe("Teen Patti round 42")
    // In plain words: what happened, and what it was about; a kind the site does not know is named by its kind.
    expect(statement.rows.map((r) => r.title)).toEqual(["Casino bet", "Bet settle", "Bet place", "Withdrawal requested", "Deposit"])
    expect(statement.openingBalance).toBe(0)
    expect(statement.closingBalance).toBe(799.5)
    expect(statement.totals).toEqual({ credit: 1190, debit: 390.5, net: 799.5 })

    // Money in and out only.
    const payments = (await request(server.url, "/api/v1/transaction", { token })).body.data as { rows: Array<Row> }
    expect(payments.rows.map((r) => r.kind)).toEqual(["withdrawal_hold", "deposit"])

    // Profit and loss: results only; a stake placed and held is not a result until settled.
    const pl = (await request(server.url, "/api/v1/result-transaction", { token })).body.data as { rows: Array<Row>; totals: { net: number } }
    expect(pl.rows.map((r) => [r.kind, r.amount])).toEqual([["casino_debit", -40], ["bet_settle", 90]])
    expect(pl.totals.net).toBe(50)
  })

  it("reads a date range with an opening balance, and the bonus wallets with isChecked", async () => {
    const { token, user: player } = await signUpPlayer(server)
    await fund(server, token, 600, server.admin)
    await post(server, { kind: "promo_credit", userId: player.id, description: "Diwali gift", legs: [{ account: { operator: "bonus_expense" }, amount: -50_00 }, { account: { user: player.id, kind: "bonus" }, amount: 50_00 }] })
    const later = new Date(Date.now() + 1000).toISOString()
    const empty = (await request(server.url, `/api/v1/account-statement?start_date=${later}&end_date=${new Date(Date.now() + 5000).toISOString()}`, { token })).body.data
    expect(empty.rows).toEqual([])
    expect(empty.openingBalance).toBe(600)
    expect(empty.closingBalance).toBe(600)

    const mainOnly = (await request(server.url, "/api/v1/account-statement?isChecked=false", { token })).body.data as { rows: Array<Row> }
    expect(mainOnly.rows.map((r) => r.kind)).toEqual(["deposit"])
    const all = (await request(server.url, "/api/v1/account-statement?isChecked=true", { token })).body.data as { rows: Array<Row>; closingBalance: number }
    expect(all.rows.map((r) => r.kind)).toEqual(["promo_credit", "deposit"])
    expect(all.closingBalance).toBe(650)
    expect((await request(server.url, "/api/v1/account-statement?isChecked=maybe", { token })).status).toBe(400)
    expect((await request(server.url, "/api/v1/account-statement?start_date=2020-01-01&end_date=2019-01-01", { token })).status).toBe(400)
  })

  it("shows a player only their own movements", async () => {
    const a = await signUpPlayer(server)
    const b = await signUpPlayer(server)
    await fund(server, a.token, 300, server.admin)
    const other = (await request(server.url, "/api/v1/account-statement", { token: b.token })).body.data
    expect(other.rows).toEqual([])
    expect((await request(server.url, "/api/v1/account-statement")).status).toBe(401)
  })

  it("says in plain words what each bet did, and lists every settled bet, lost ones too, so every change of balance is explained", async () => {
    const { token } = await signUpPlayer(server)
    await fund(server, token, 1000, server.admin)
    const event = eventsOf(await catalogue(server), "cricket", false)[1]!
    const market = marketOf(event, "EXCHANGE")
    const [home, away] = market.runners
    for (const runner of [home!, away!]) {
      const priced = await setPrice(server, server.admin, { marketId: market.marketId, selectionId: runner.selectionId, back: { price: 2, size: 1000 }, lay: { price: 2.02, size: 1000 }, status: "OPEN" })
      expect(priced.status).toBe(200)
    }
    // Backs the home side with 300, the away side with 100: the away bet loses.
    for (const [runner, stake] of [[home!, 300], [away!, 100]] as const) {
      expect((await bet(server, token, "bet-sport", { marketId: market.marketId, selectionId: runner.selectionId, selectionType: "back", odds: 2, stake })).status).toBe(200)
    }
    const settled = await request(server.url, "/api/v1/admin/settle-market", { method: "POST", token: server.admin, json: { marketId: market.marketId, result: home!.selectionId } })
    expect(settled.status).toBe(200)

    // The home bet held 300; the away bet lowered the worst case to 200 (100 released); the win pays 400 back.
    const rows = ((await request(server.url, "/api/v1/account-statement", { token })).body.data as { rows: Array<Row> }).rows
    expect(rows.map((r) => [r.title, r.description, r.amount, r.balance])).toEqual([
      ["Bet won", `${event.name} · ${market.name}`, 400, 1200],
      ["Exposure released", `${away!.name}, ${market.name}`, 100, 800],
      ["Bet placed", `${home!.name}, ${market.name}`, -300, 700],
      ["Deposit", expect.any(String), 1000, 1000]
    ])
  })

  it("shows a lost bet's settlement in the account statement: nothing in or out, its reference, the balance it leaves", async () => {
    const { token } = await signUpPlayer(server)
    await fund(server, token, 500, server.admin)
    const event = eventsOf(await catalogue(server), "cricket", false)[2]!
    const market = marketOf(event, "EXCHANGE")
    const [home, away] = market.runners
    const priced = await setPrice(server, server.admin, { marketId: market.marketId, selectionId: away!.selectionId, back: { price: 3, size: 1000 }, lay: { price: 3.05, size: 1000 }, status: "OPEN" })
    expect(priced.status).toBe(200)
    expect((await bet(server, token, "bet-sport", { marketId: market.marketId, selectionId: away!.selectionId, selectionType: "back", odds: 3, stake: 200 })).status).toBe(200)
    expect((await request(server.url, "/api/v1/admin/settle-market", { method: "POST", token: server.admin, json: { marketId: market.marketId, result: home!.selectionId } })).status).toBe(200)

    const statement = (await request(server.url, "/api/v1/account-statement", { token })).body.data as { rows: Array<Row>; closingBalance: number; totals: { net: number } }
    expect(statement.rows.map((r) => [r.title, r.description, r.credit, r.debit, r.balance])).toEqual([
      ["Bet lost", `${event.name} · ${market.name}`, 0, 0, 300],
      ["Bet placed", `${away!.name}, ${market.name}`, 0, 200, 300],
      ["Deposit", expect.any(String), 500, 0, 500]
    ])
    expect(statement.rows[0]!.kind).toBe("bet.settle")
    expect(statement.rows[0]!.reference).toMatch(/^market:/)
    expect(statement.closingBalance).toBe(300)
    expect(statement.totals.net).toBe(300)
    // Money in and out only: the bet is not a payment; profit and loss has the loss.
    expect(((await request(server.url, "/api/v1/transaction", { token })).body.data as { rows: Array<Row> }).rows.map((r) => r.title)).toEqual(["Deposit"])
    const pl = (await request(server.url, "/api/v1/result-transaction", { token })).body.data as { rows: Array<Row> }
    expect(pl.rows.map((r) => [r.title, r.amount])).toEqual([["Bet lost", -200]])
  })
})
