import { describe, expect, it } from "vitest"
import { Roles } from "../../src/schema/user.ts"
import { accountOf, sessionOf } from "./desk-support.ts"
import { connectSocket, countStatuses, expectLedgerVerifies, request, signUpPlayer, useServer } from "./helpers.ts"
import { balancesOf, createDeposit, freshKey } from "./payments-support.ts"
import { bet, catalogue, eventsOf, fund, fundedPlayer, marketOf, setPrice } from "./betting-support.ts"
import { freshId, launch, walletCall } from "./casino-support.ts"

/**
 * The players screen on the real server: search, a player's page, notes,
 * suspension, ending sessions and manual adjustments (one ledger transaction,
 * idempotent), each audited.
 */
// Prices move only when a test sets them (a bet waiting unmatched stays so).
process.env.ODDS_SIMULATOR = "off"
const server = useServer({ signIn: ["director", "admin", "support"], afterEach: expectLedgerVerifies })

const get = (path: string, token = server.support) => request(server.url, path, { token })
const send = (method: string, path: string, token: string, json?: unknown, key?: string) =>
  request(server.url, path, { method, token, ...(json === undefined ? {} : { json }), ...(key ? { headers: { "idempotency-key": key } } : {}) })
const auditOf = async (id: string) => (await get(`/api/v1/desk/audit?subject=${id}`, server.director)).body.data.items as Array<{ action: string; actor: string; before: unknown; after: unknown }>

describe("finding players", () => {
  it("searches by part of a name, a username, a mobile number or an id, a page at a time, players only", async () => {
    const tag = `Zephyr${Date.now().toString(36)}`
    const first = await signUpPlayer(server, { name: `${tag} Anand` })
    const second = await signUpPlayer(server, { name: `${tag} Bose` })
    const byName = await get(`/api/v1/desk/players?q=${tag.toLowerCase()}&limit=1`)
    expect(byName.status).toBe(200)
    expect(byName.body.data.total).toBe(2)
    const [a, b] = [first, second].sort((x, y) => x.user.username.localeCompare(y.user.username))
    expect(byName.body.data.items.map((p: { id: string }) => p.id)).toEqual([a!.user.id])
    expect(byName.body.data.items[0]).toMatchObject({ role: Roles.PLAYER, status: "active", main: 0 })
    const next = await get(`/api/v1/desk/players?q=${tag}&limit=1&after=${byName.body.data.next}`)
    expect(next.body.data.items.map((p: { id: string }) => p.id)).toEqual([b!.user.id])
    expect(next.body.data.next).toBeNull()
    for (const q of [first.user.username, first.mobileNo.slice(-8), first.user.id]) {
      expect((await get(`/api/v1/desk/players?q=${encodeURIComponent(q)}`)).body.data.items.map((p: { id: string }) => p.id), q).toContain(first.user.id)
    }
    // Staff are not players; a made-up cursor is refused.
    expect((await get("/api/v1/desk/players?q=support")).body.data.items.map((p: { username: string }) => p.username)).not.toContain("support")
    expect((await get("/api/v1/desk/players?after=%27;drop")).status).toBe(400)
    expect((await get("/api/v1/desk/players/nobody")).body.meta).toMatchObject({ code: 404, error: "NotFound" })
  })
})

describe("a player's page", () => {
  it("shows balances, requests, payout accounts, protection and sessions; support adds notes", async () => {
    const player = await signUpPlayer(server, { name: "Page Player" })
    const deposit = (await createDeposit(server, player.token, 400)).body.data
    const page = await get(`/api/v1/desk/players/${player.user.id}`)
    expect(page.status).toBe(200)
    expect(page.body.data).toMatchObject({
      player: { id: player.user.id, name: "Page Player", status: "active" },
      balances: { main: 0, bonus: 0, exposure: 0, withdrawalHold: 0 },
      deposits: [{ _id: deposit._id, amount: 400, status: "pending" }],
      protection: { timeOut: null, selfExclusion: null },
      notes: []
    })
    expect(page.body.data.sessions.length).toBeGreaterThanOrEqual(1)

    expect((await send("POST", `/api/v1/desk/players/${player.user.id}/notes`, server.support, { body: "   " })).body.meta).toMatchObject({ code: 400, message: "Write the note first." })
    const noted = await send("POST", `/api/v1/desk/players/${player.user.id}/notes`, server.support, { body: "Called about a late deposit." })
    expect(noted.body.meta.message).toBe("Note added")
    expect((await get(`/api/v1/desk/players/${player.user.id}`)).body.data.notes).toMatchObject([{ author: "support", body: "Called about a late deposit." }])
    expect((await auditOf(player.user.id))[0]).toMatchObject({ action: "player.note", actor: "support" })
  })

  it("tells every open desk of each audit line once it is committed, and nothing of a refused write", async () => {
    const player = await signUpPlayer(server)
    const socket = await connectSocket(server.url, server.director)
    try {
      const heard: Array<{ topic: string; id: string }> = []
      socket.on("desk", (change: { topic: string; id: string }) => void (change.topic === "audit" && heard.push(change)))
      expect((await send("POST", `/api/v1/desk/players/${player.user.id}/notes`, server.support, { body: " " })).status).toBe(400)
      expect((await send("POST", `/api/v1/desk/players/${player.user.id}/notes`, server.support, { body: "Live audit" })).status).toBe(200)
      const line = (await get(`/api/v1/desk/audit?subject=${player.user.id}`, server.director)).body.data.items[0] as { id: string }
      await expect.poll(() => heard.map((change) => change.id)).toContain(line.id)
      expect(heard.map((change) => change.id)).toEqual([line.id])
    } finally {
      socket.close()
    }
  })
})

describe("a player's bets", () => {
  it("shows what waits unmatched of an open bet, and a bet cancelled whole among the closed ones", async () => {
    const event = eventsOf(await catalogue(server), "cricket", false)[0]!
    const market = marketOf(event, "EXCHANGE")
    const selectionId = market.runners[0]!.selectionId
    expect((await setPrice(server, server.admin, { marketId: market.marketId, selectionId, back: { price: 1.8, size: 100 }, lay: { price: 5, size: 100 }, status: "OPEN" })).status).toBe(200)
    const p = await fundedPlayer(server, 1000)
    // Backed above the ladder: nothing matches, it all waits.
    const waiting = await bet(server, p.token, "bet-sport", { marketId: market.marketId, selectionId, selectionType: "back", odds: 3, stake: 200 })
    const gone = await bet(server, p.token, "bet-sport", { marketId: market.marketId, selectionId, selectionType: "back", odds: 3.5, stake: 100 })
    expect((await request(server.url, "/api/v1/cancel-bet", { method: "POST", token: p.token, json: { betId: gone.body.data.bet._id } })).status).toBe(200)
    const page = (await get(`/api/v1/desk/players/${p.user.id}`)).body.data
    expect(page.openBets).toMatchObject([{ id: waiting.body.data.bet._id, status: "open", stake: 200, unmatched: 200, cancelled: 0, odds: 3 }])
    expect(page.settledBets).toMatchObject([{ id: gone.body.data.bet._id, status: "cancelled", stake: 100, unmatched: 0, cancelled: 100 }])
  })
})

describe("a player's casino rounds", () => {
  it("lists a day's rounds (today unless a day is given) for support, newest first", async () => {
    const player = await signUpPlayer(server)
    await fund(server, player.user.id, 1000_00)
    const { token } = await launch(server, player.token)
    const roundId = freshId("desk-round")
    expect((await walletCall(server, "debit", { token, transactionId: freshId("desk-tx"), roundId, amount: 50 })).status).toBe(200)
    const path = `/api/v1/desk/players/${player.user.id}/casino-rounds`
    expect((await get(path)).body.data).toMatchObject([{ roundId, stake: 50, win: 0, status: "open" }])
    expect((await get(`${path}?date=2020-01-01`)).body.data).toEqual([])
    expect((await get(`${path}?date=junk`)).body.meta.code).toBe(400)
    expect((await get("/api/v1/desk/players/nobody/casino-rounds")).body.meta).toMatchObject({ code: 404, error: "NotFound" })
  })
})

describe("suspending players and ending their sessions", () => {
  it("suspends with a reason (their sessions end, they cannot sign in), refuses it twice, reactivates", async () => {
    const player = await signUpPlayer(server, { name: "Suspended Player" })
    const path = `/api/v1/desk/players/${player.user.id}/status`
    expect((await send("PUT", path, server.support, { status: "suspended", reason: "" })).body.meta.code).toBe(400)
    expect((await request(server.url, "/api/v1/getUserData", { token: player.token })).status).toBe(200)
    const suspended = await send("PUT", path, server.support, { status: "suspended", reason: "Chargeback from the bank" })
    expect(suspended.body.data.status).toBe("suspended")
    expect((await request(server.url, "/api/v1/getUserData", { token: player.token })).status).toBe(401)
    const login = await request(server.url, "/identity/user/login", { method: "POST", json: { username: player.user.username, password: player.password } })
    expect(login.body.meta.message).toBe("This account is suspended. Please contact support.")
    expect((await send("PUT", path, server.support, { status: "suspended", reason: "Again" })).body.meta).toMatchObject({ code: 409, message: "This player is already suspended." })
    expect((await send("PUT", path, server.support, { status: "active", reason: "Bank cleared it" })).body.data.status).toBe("active")
    const again = await request(server.url, "/identity/user/login", { method: "POST", json: { username: player.user.username, password: player.password } })
    expect(again.status).toBe(200)
    expect((await auditOf(player.user.id)).slice(0, 2)).toMatchObject([
      { action: "player.reactivate", before: { status: "suspended" }, after: { status: "active", reason: "Bank cleared it" } },
      { action: "player.suspend", before: { status: "active" }, after: { status: "suspended", reason: "Chargeback from the bank" } }
    ])
  })

  it("ends a player's sessions: their token opens nothing after", async () => {
    const player = await signUpPlayer(server)
    const ended = await send("DELETE", `/api/v1/desk/players/${player.user.id}/sessions`, server.support)
    expect(ended.body.data.ended).toBeGreaterThanOrEqual(1)
    expect((await request(server.url, "/api/v1/getUserData", { token: player.token })).status).toBe(401)
    expect((await auditOf(player.user.id))[0]).toMatchObject({ action: "player.end-sessions", after: { ended: ended.body.data.ended } })
  })
})

describe("manual adjustments", () => {
  it("credits and debits the main balance in one ledger transaction each, once per key, never below zero", async () => {
    const player = await signUpPlayer(server, { name: "Adjusted Player" })
    const path = `/api/v1/desk/players/${player.user.id}/adjustments`
    const key = freshKey()
    const credit = { direction: "credit", amount: 250.5, reason: "Goodwill for a late payout" }
    const first = await send("POST", path, server.admin, credit, key)
    expect(first.body).toMatchObject({ meta: { code: 200, message: "Credited: the main balance is now ₹250.50" }, data: { main: 250.5 } })
    // A retry with the same key answers the same transaction and moves nothing.
    const replay = await send("POST", path, server.admin, credit, key)
    expect(replay.body.data.transactionId).toBe(first.body.data.transactionId)
    expect((await balancesOf(server, player.user.id)).main).toBe(25_050)

    for (const [payload, message] of [
      [{ direction: "debit", amount: 0, reason: "x" }, "Enter an amount in rupees, at most two decimals."],
      [{ direction: "debit", amount: 1.005, reason: "x" }, "Enter an amount in rupees, at most two decimals."],
      [{ direction: "debit", amount: 10, reason: " " }, "Give the reason: the player's statement shows it."]
    ] as const) {
      expect((await send("POST", path, server.admin, payload, freshKey())).body.meta, message).toMatchObject({ code: 400, message })
    }
    const over = await send("POST", path, server.director, { direction: "debit", amount: 300, reason: "Reversal" }, freshKey())
    expect(over.body.meta).toMatchObject({ code: 422, error: "InsufficientBalance" })
    expect((await balancesOf(server, player.user.id)).main).toBe(25_050)
    const debit = await send("POST", path, server.director, { direction: "debit", amount: 50.5, reason: "Bonus paid twice" }, freshKey())
    expect(debit.body.data.main).toBe(200)
    // Support may not move money: the server refuses, whatever the desk shows.
    expect((await send("POST", path, server.support, credit, freshKey())).status).toBe(403)

    const statement = (await get(`/api/v1/desk/players/${player.user.id}`)).body.data.statement as Array<{ title: string; description: string; amount: number }>
    expect(statement.slice(0, 2)).toMatchObject([
      { title: "Debit", description: "Bonus paid twice", amount: -50.5 },
      { title: "Credit", description: "Goodwill for a late payout", amount: 250.5 }
    ])
    const audit = await auditOf(player.user.id)
    expect(audit.map((line) => line.action)).toEqual(["player.debit", "player.credit"])
    expect(audit[0]).toMatchObject({ actor: "director", before: { main: 250.5 }, after: { main: 200, amount: 50.5, reason: "Bonus paid twice" } })
  })
})

describe("four eyes on large adjustments", () => {
  const adjust = (playerId: string, token: string, json: unknown) => send("POST", `/api/v1/desk/players/${playerId}/adjustments`, token, json, freshKey())
  const decide = (id: string, verb: "approve" | "decline", token: string, json: unknown = {}) => send("POST", `/api/v1/desk/adjustment-approvals/${id}/${verb}`, token, json, freshKey())
  const credits = async (playerId: string) =>
    ((await get(`/api/v1/desk/players/${playerId}`)).body.data.statement as Array<{ title: string }>).filter((row) => row.title === "Credit").length

  it("posts up to the threshold at once; above it waits for another ADMIN or DIRECTOR, never the one who asked", async () => {
    expect((await send("PUT", "/api/v1/desk/thresholds", server.director, { adjustment: 1000, liability: 50_000 })).status).toBe(200)
    const player = await signUpPlayer(server, { name: "Four Eyes Player" })
    const id = player.user.id
    const at = await adjust(id, server.admin, { direction: "credit", amount: 1000, reason: "At the threshold" })
    expect(at.body.data).toMatchObject({ main: 1000, approval: null })

    const asked = await adjust(id, server.admin, { direction: "credit", amount: 1500.25, reason: "Lost deposit found" })
    expect(asked.body.meta.message).toBe("Waiting for a second approver: the adjustment is above the threshold")
    expect(asked.body.data).toMatchObject({ transactionId: null, main: 1000, approval: { direction: "credit", amount: 1500.25, requestedBy: "admin", status: "pending", mine: true, player: { id } } })
    expect((await balancesOf(server, id)).main).toBe(1000_00)
    const approval = asked.body.data.approval._id as string
    const listed = await get(`/api/v1/desk/adjustment-approvals?player=${id}`, server.director)
    expect(listed.body.data).toMatchObject({ total: 1, items: [{ _id: approval, mine: false }] })
    // Support may not see or decide them; the one who asked may not approve.
    expect((await get("/api/v1/desk/adjustment-approvals")).status).toBe(403)
    expect((await decide(approval, "approve", server.support)).status).toBe(403)
    expect((await decide(approval, "approve", server.admin)).body.meta).toMatchObject({ code: 403, error: "OwnProposal" })
    expect((await balancesOf(server, id)).main).toBe(1000_00)

    const approved = await decide(approval, "approve", server.director, { remark: "Bank statement checked" })
    expect(approved.body.meta.message).toBe("Approved. Credited: the main balance is now ₹2,500.25")
    expect(approved.body.data).toMatchObject({ main: 2500.25, approval: { status: "approved", decidedBy: "director", remark: "Bank statement checked" } })
    expect(approved.body.data.transactionId).toEqual(expect.any(String))
    expect((await balancesOf(server, id)).main).toBe(2500_25)
    expect((await decide(approval, "decline", server.admin)).body.meta).toMatchObject({ code: 409, error: "AlreadyDecided", message: expect.stringMatching(/^This credit of ₹1,500.25 was already approved by director at /) })
    expect((await auditOf(id)).map((line) => `${line.actor} ${line.action}`)).toEqual([
      "director player.credit.approve",
      "director player.credit",
      "admin player.credit.request",
      "admin player.credit"
    ])
    expect((await get(`/api/v1/desk/adjustment-approvals?player=${id}`, server.director)).body.data.total).toBe(0)
  })

  it("refuses a large debit the balance cannot cover; the one who asked withdraws, another declines: nothing moves", async () => {
    const player = await signUpPlayer(server)
    const id = player.user.id
    expect((await adjust(id, server.director, { direction: "debit", amount: 5000, reason: "Chargeback" })).body.meta).toMatchObject({ code: 422, error: "InsufficientBalance" })
    const first = (await adjust(id, server.admin, { direction: "credit", amount: 2000, reason: "Promo" })).body.data.approval._id as string
    expect((await decide(first, "decline", server.admin)).body.data.approval).toMatchObject({ status: "cancelled", decidedBy: "admin" })
    const second = (await adjust(id, server.admin, { direction: "credit", amount: 2000, reason: "Promo again" })).body.data.approval._id as string
    expect((await decide(second, "decline", server.director, { remark: "No promo runs" })).body.data.approval).toMatchObject({ status: "rejected", decidedBy: "director" })
    expect((await balancesOf(server, id)).main).toBe(0)
    expect((await auditOf(id)).map((line) => line.action)).toEqual(["player.credit.decline", "player.credit.request", "player.credit.withdraw", "player.credit.request"])
  })

  it("runs the ledger transaction once when two staff decide at once", async () => {
    const admin2 = await sessionOf(server, await accountOf(server, Roles.ADMIN, "Second Admin"))
    for (let round = 0; round < 4; round++) {
      const player = await signUpPlayer(server)
      const id = (await adjust(player.user.id, server.admin, { direction: "credit", amount: 3000, reason: `Round ${round}` })).body.data.approval._id as string
      const answers = await Promise.all([decide(id, "approve", server.director), decide(id, round % 2 === 0 ? "approve" : "decline", admin2)])
      expect(countStatuses(answers.map((a) => a.status))).toEqual({ 200: 1, 409: 1 })
      expect(answers.find((a) => a.status === 409)!.body.meta.error).toBe("AlreadyDecided")
      const won = answers.find((a) => a.status === 200)!.body.data
      const approved = won.approval.status === "approved"
      expect((await balancesOf(server, player.user.id)).main).toBe(approved ? 3000_00 : 0)
      expect(await credits(player.user.id)).toBe(approved ? 1 : 0)
    }
  })
})
