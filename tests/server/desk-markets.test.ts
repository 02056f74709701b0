import { beforeAll, describe, expect, it } from "vitest"
import { Roles } from "../../src/schema/user.ts"
import { OddsFeed } from "../../server/odds/OddsFeed.ts"
import { bet, catalogue, type CatalogueMarket, expectLedgerClean, fund, priceAtEvens } from "./betting-support.ts"
import { accountOf, sessionOf } from "./desk-support.ts"
import { connectSocket, countStatuses, request, signUpPlayer, useServer } from "./helpers.ts"

/**
 * Markets and risk on the desk: the house's book of a market from the
 * players' bets, settlement with four eyes above the liability threshold
 * (the one who asks never approves; of two decisions at once exactly one
 * wins, and money moves once), every step in the audit trail. PostgreSQL runs
 * the racing calls truly at once; PGlite one after the other, which must end
 * the same way.
 */
const server = useServer({ signIn: ["director", "admin", "support"], afterEach: expectLedgerClean })
/** A second ADMIN, so two staff besides the one who asks can race to decide. */
let admin2: string
const used = new Set<string>()

beforeAll(async () => {
  admin2 = await sessionOf(server, await accountOf(server, Roles.ADMIN, "Second Admin"))
  // Above ₹500 of liability a settlement needs a second approver.
  expect((await desk(server.director, "/thresholds", { method: "PUT", json: { adjustment: 10_000, liability: 500 } })).status).toBe(200)
})

const desk = (token: string, path: string, init: { method?: string; json?: unknown; headers?: Record<string, string> } = {}) =>
  request(server.url, `/api/v1/desk${path}`, { token, ...init })

const post = (token: string, path: string, json: unknown, key?: string) => desk(token, path, { method: "POST", json, ...(key ? { headers: { "idempotency-key": key } } : {}) })

/** A Match Odds market of any sport, not yet used by this file. */
const freshMarket = async () => {
  const markets = (await catalogue(server)).flatMap((sport) => sport.leagues.flatMap((l) => l.events.flatMap((e) => e.markets)))
  const market = markets.find((m: CatalogueMarket) => m.marketType === "EXCHANGE" && m.name === "Match Odds" && !used.has(m.marketId))!
  used.add(market.marketId)
  return market
}

/** A player with ₹10,000 who backs the match's first runner at 2.00 for `stake` rupees. */
const backed = async (stake: number) => {
  const player = await signUpPlayer(server)
  await fund(server, player.user.id, 10_000_00)
  const matchOdds = await freshMarket()
  const odds = await priceAtEvens(server, server.admin, matchOdds)
  const placed = await bet(server, player.token, "bet-sport", { marketId: matchOdds.marketId, selectionId: matchOdds.runners[0]!.selectionId, selectionType: "back", odds, stake })
  expect(placed.status).toBe(200)
  return { player, market: matchOdds }
}

const balance = async (token: string) => (await request(server.url, "/api/v1/getUserData", { token })).body.data.balance as number

/** The market's settlement steps in the audit trail, oldest first (its price set by hand for the test left out). */
const auditOf = async (marketId: string) =>
  ((await desk(server.director, `/audit?subject=${marketId}`)).body.data.items as Array<{ actor: string; action: string }>)
    .filter((e) => e.action !== "market.price").map((e) => `${e.actor} ${e.action}`).reverse()

describe("the house's book", () => {
  it("shows what the house wins or loses on each runner, its liability and the players at stake", async () => {
    const { player, market } = await backed(300)
    const risk = (await desk(server.support, `/markets/${market.marketId}`)).body.data
    // Backed at 2.00 for ₹300: the house loses ₹300 if the first runner wins, keeps the stake otherwise.
    expect(risk.runners.map((r: { house: number }) => r.house)).toEqual(market.runners.map((_, i) => (i === 0 ? -300 : 300)))
    expect(risk.market.liability).toBe(300)
    expect(risk.market.openBets).toBe(1)
    expect(risk.players).toEqual([{ player: expect.objectContaining({ id: player.user.id }), exposure: 300, bets: 1 }])
    expect(risk.threshold).toBe(500)
    const list = (await desk(server.support, `/markets?search=${encodeURIComponent(risk.market.event.name)}`)).body.data
    expect(list.items.map((m: { marketId: string }) => m.marketId)).toContain(market.marketId)
    const summary = (await desk(server.support, "/risk")).body.data
    expect(summary.liability).toBeGreaterThanOrEqual(300)
    expect(summary.topPlayers.map((p: { player: { id: string } }) => p.player.id)).toContain(player.user.id)
  })

  it("tells every desk that a market's book changed, gathered: one notification for bets placed together", async () => {
    const market = await freshMarket()
    const odds = await priceAtEvens(server, server.admin, market)
    const players = await Promise.all([0, 1, 2, 3].map(async () => {
      const player = await signUpPlayer(server)
      await fund(server, player.user.id, 10_000_00)
      return player
    }))
    const socket = await connectSocket(server.url, server.support)
    try {
      const heard: Array<number> = []
      socket.on("desk", (change: { topic: string; id: string }) => void (change.topic === "markets" && change.id === market.marketId && heard.push(Date.now())))
      const started = Date.now()
      const placed = await Promise.all(players.map((player) =>
        bet(server, player.token, "bet-sport", { marketId: market.marketId, selectionId: market.runners[0]!.selectionId, selectionType: "back", odds, stake: 100 })
      ))
      expect(placed.map((answer) => answer.status)).toEqual([200, 200, 200, 200])
      await expect.poll(() => heard.length).toBeGreaterThan(0)
      // At most one a second (four without gathering, unless the bets took seconds).
      expect(heard.length).toBeLessThanOrEqual(Math.floor((Date.now() - started) / 1000) + 1)
      expect((await desk(server.support, `/markets/${market.marketId}`)).body.data.market.openBets).toBe(4)
    } finally {
      socket.close()
    }
  })

  it("counts matched stakes only: a bet waiting unmatched puts nothing at risk", async () => {
    const player = await signUpPlayer(server)
    await fund(server, player.user.id, 10_000_00)
    const market = await freshMarket()
    await priceAtEvens(server, server.admin, market)
    // Backed at 5.00 while 2.00 is on offer: it waits, unmatched.
    const waiting = await bet(server, player.token, "bet-sport", { marketId: market.marketId, selectionId: market.runners[0]!.selectionId, selectionType: "back", odds: 5, stake: 300 })
    expect(waiting.status).toBe(200)
    const risk = (await desk(server.support, `/markets/${market.marketId}`)).body.data
    expect(risk.market.openBets).toBe(1)
    expect(risk.market.liability).toBe(0)
    expect(risk.runners.map((r: { house: number }) => r.house)).toEqual(market.runners.map(() => 0))
  })

  it("lets support read but not suspend, price, settle or set thresholds", async () => {
    const { market } = await backed(100)
    for (const [path, json] of [["/status", { status: "SUSPENDED" }], ["/price", { selectionId: market.runners[0]!.selectionId, back: { price: 2, size: 100 } }], ["/settle", { result: market.runners[0]!.selectionId }], ["/void", { reason: "x" }]] as const) {
      const res = await post(server.support, `/markets/${market.marketId}${path}`, json)
      expect(res.status, path).toBe(403)
    }
    expect((await desk(server.admin, "/thresholds", { method: "PUT", json: { adjustment: 1, liability: 1 } })).status).toBe(403)
    expect((await desk(server.support, `/markets/${market.marketId}`)).status).toBe(200)
  })
})

describe("suspending, pricing and settling on the desk", () => {
  it("suspends and resumes through the feed, audited", async () => {
    const { market } = await backed(100)
    expect((await post(server.admin, `/markets/${market.marketId}/status`, { status: "SUSPENDED" })).body.data.bookStatus).toBe("SUSPENDED")
    // The feed reads its markets again (an event starts or ends, every 30 s), then prices move: the suspension stays.
    await server.run(OddsFeed.use((feed) => feed.reload))
    const priced = await post(server.admin, `/markets/${market.marketId}/price`, { selectionId: market.runners[0]!.selectionId, back: { price: 2, size: 100 } })
    expect(priced.body.data.bookStatus).toBe("SUSPENDED")
    expect((await post(server.admin, `/markets/${market.marketId}/status`, { status: "OPEN" })).body.data.bookStatus).toBe("OPEN")
    expect(await auditOf(market.marketId)).toEqual(expect.arrayContaining(["admin market.suspend", "admin market.resume"]))
  })

  it("settles a market within the threshold at once", async () => {
    const { player, market } = await backed(200)
    const before = await balance(player.token)
    const res = await post(server.admin, `/markets/${market.marketId}/settle`, { result: market.runners[0]!.selectionId })
    expect(res.status).toBe(200)
    expect(res.body.data.approval).toBeNull()
    expect(res.body.data.settlement).toMatchObject({ outcome: "result", bets: 1, playersNet: 200 })
    expect(await balance(player.token)).toBe(before + 200)
    expect(await auditOf(market.marketId)).toEqual(["admin market.settle"])
  })

  it("refuses bad input with the envelope and changes nothing", async () => {
    const { market } = await backed(800)
    const wrong = await post(server.admin, `/markets/${market.marketId}/settle`, { result: "no-such-runner" })
    expect(wrong.status).toBe(422)
    expect(wrong.body.meta.message).toBe("The result must be a selection of this market.")
    expect((await post(server.admin, `/markets/${market.marketId}/void`, { reason: "  " })).status).toBe(400)
    expect((await post(server.admin, `/markets/${market.marketId}/settle`, { nope: 1 })).status).toBe(400)
    expect((await post(server.admin, "/markets/nothing-here/settle", { result: "1" })).status).toBe(404)
    const risk = (await desk(server.admin, `/markets/${market.marketId}`)).body.data
    expect(risk.market.approval).toBeNull()
    expect(risk.market.openBets).toBe(1)
    expect(await auditOf(market.marketId)).toEqual([])
  })
})

describe("four eyes", () => {
  it("asks for a second approver above the threshold; the one who asked cannot approve; another settles it once", async () => {
    const { player, market } = await backed(800)
    const before = await balance(player.token)
    const winner = market.runners[0]!.selectionId
    // The scripting endpoint refuses outright: it cannot wait for a second approver.
    const scripted = await request(server.url, "/api/v1/admin/settle-market", { method: "POST", token: server.admin, json: { marketId: market.marketId, result: winner } })
    expect(scripted.status).toBe(422)
    expect(scripted.body.meta.error).toBe("SecondApproverNeeded")

    const asked = await post(server.admin, `/markets/${market.marketId}/settle`, { result: winner }, "ask-1")
    expect(asked.status).toBe(200)
    expect(asked.body.data.settlement).toBeNull()
    expect(asked.body.data.approval).toMatchObject({ kind: "settle", result: winner, liability: 800, requestedBy: "admin", status: "pending", mine: true })
    // Asked again with the same key: the same answer, one request.
    expect((await post(server.admin, `/markets/${market.marketId}/settle`, { result: winner }, "ask-1")).body.data).toEqual(asked.body.data)
    // Another request for the market while one waits is refused.
    expect((await post(server.director, `/markets/${market.marketId}/void`, { reason: "Abandoned" })).status).toBe(409)
    expect(await balance(player.token)).toBe(before)

    const id = asked.body.data.approval._id as string
    const own = await post(server.admin, `/market-approvals/${id}/approve`, {})
    expect(own.status).toBe(403)
    expect(own.body.meta.error).toBe("OwnProposal")
    expect((await post(server.support, `/market-approvals/${id}/approve`, {})).status).toBe(403)

    const approved = await post(server.director, `/market-approvals/${id}/approve`, { remark: "Checked the scorecard" })
    expect(approved.status).toBe(200)
    expect(approved.body.data.approval).toMatchObject({ status: "approved", decidedBy: "director", requestedBy: "admin", mine: false })
    expect(approved.body.data.settlement).toMatchObject({ outcome: "result", result: winner, playersNet: 800 })
    expect(await balance(player.token)).toBe(before + 800)
    const again = await post(admin2, `/market-approvals/${id}/approve`, {})
    expect(again.status).toBe(409)
    expect(again.body.meta.error).toBe("AlreadyDecided")
    expect(again.body.meta.message).toMatch(/^This request to settle this market was already approved by director at /)
    expect(await auditOf(market.marketId)).toEqual(["admin market.settle.request", "director market.settle", "director market.settle.approve"])
  })

  it("lets the one who asked withdraw it, and another decline it; nothing moves", async () => {
    const { player, market } = await backed(700)
    const before = await balance(player.token)
    const first = (await post(server.admin, `/markets/${market.marketId}/void`, { reason: "Rain" })).body.data.approval
    expect((await post(server.admin, `/market-approvals/${first._id}/decline`, {})).body.data.approval.status).toBe("cancelled")
    const second = (await post(server.admin, `/markets/${market.marketId}/void`, { reason: "Rain again" })).body.data.approval
    expect((await post(server.director, `/market-approvals/${second._id}/decline`, { remark: "Play resumed" })).body.data.approval).toMatchObject({ status: "rejected", decidedBy: "director" })
    expect(await balance(player.token)).toBe(before)
    expect((await desk(server.admin, `/markets/${market.marketId}`)).body.data.market.openBets).toBe(1)
    expect(await auditOf(market.marketId)).toEqual(["admin market.void.request", "admin market.void.withdraw", "admin market.void.request", "director market.void.decline"])
  })

  it("decides a request once when two staff decide it at once", async () => {
    for (let round = 0; round < 4; round++) {
      const { player, market } = await backed(600)
      const before = await balance(player.token)
      const id = (await post(server.admin, `/markets/${market.marketId}/settle`, { result: market.runners[0]!.selectionId })).body.data.approval._id
      const answers = await Promise.all([
        post(server.director, `/market-approvals/${id}/approve`, {}),
        post(admin2, `/market-approvals/${id}/${round % 2 === 0 ? "approve" : "decline"}`, {})
      ])
      expect(countStatuses(answers.map((a) => a.status))).toEqual({ 200: 1, 409: 1 })
      const won = answers.find((a) => a.status === 200)!.body.data
      expect(answers.find((a) => a.status === 409)!.body.meta.error).toBe("AlreadyDecided")
      expect(await balance(player.token)).toBe(won.approval.status === "approved" ? before + 600 : before)
      const settled = (await auditOf(market.marketId)).filter((line) => line.endsWith(" market.settle"))
      expect(settled).toHaveLength(won.approval.status === "approved" ? 1 : 0)
    }
  })

  it("files one request when two staff ask at once", async () => {
    for (let round = 0; round < 3; round++) {
      const { market } = await backed(600)
      const answers = await Promise.all([
        post(server.admin, `/markets/${market.marketId}/settle`, { result: market.runners[0]!.selectionId }),
        post(server.director, `/markets/${market.marketId}/void`, { reason: "Abandoned" })
      ])
      expect(countStatuses(answers.map((a) => a.status))).toEqual({ 200: 1, 409: 1 })
      expect((await desk(server.support, "/risk")).body.data.approvals.filter((a: { marketId: string }) => a.marketId === market.marketId)).toHaveLength(1)
    }
  })
})
