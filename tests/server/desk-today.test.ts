import { describe, expect, it } from "vitest"
import { deskSignIn } from "../http.ts"
import { bet, catalogue, priceAtEvens } from "./betting-support.ts"
import { request, signUpPlayer, useServer } from "./helpers.ts"
import { approveDeposit, createDeposit } from "./payments-support.ts"

/**
 * The Today screen's figures move by exactly what happens: a sign-up, a
 * deposit approved, a bet placed and lost (turnover, then sports GGR), an
 * active player; support may not read them.
 */
const server = useServer({ signIn: ["admin"] })

const today = async () => {
  const res = await request(server.url, "/api/v1/desk/today", { token: server.admin })
  expect(res.status).toBe(200)
  return res.body.data
}

describe("the Today screen", () => {
  it("counts a player's sign-up, deposit, bet and loss in today, the week and the month", async () => {
    const before = await today()
    expect(before.days).toHaveLength(30)
    const player = await signUpPlayer(server)
    const deposit = (await createDeposit(server, player.token, 500)).body.data
    expect((await approveDeposit(server, server.admin, deposit._id)).status).toBe(200)
    const market = (await catalogue(server)).flatMap((s) => s.leagues.flatMap((l) => l.events.flatMap((e) => e.markets))).find((m) => m.marketType === "EXCHANGE" && m.name === "Match Odds")!
    const odds = await priceAtEvens(server, server.admin, market)
    expect((await bet(server, player.token, "bet-sport", { marketId: market.marketId, selectionId: market.runners[0]!.selectionId, selectionType: "back", odds, stake: 200 })).status).toBe(200)
    expect((await request(server.url, "/api/v1/admin/settle-market", { method: "POST", token: server.admin, json: { marketId: market.marketId, result: market.runners[1]!.selectionId } })).status).toBe(200)

    const after = await today()
    for (const period of ["today", "week", "month"] as const) {
      const [was, now] = [before[period], after[period]]
      expect({
        deposits: now.deposits - was.deposits,
        netCash: now.netCash - was.netCash,
        sports: now.turnover.sports - was.turnover.sports,
        ggr: now.ggr.sports - was.ggr.sports,
        bets: now.bets - was.bets,
        active: now.activePlayers - was.activePlayers,
        signUps: now.signUps - was.signUps
      }, period).toEqual({ deposits: 500, netCash: 500, sports: 200, ggr: 200, bets: 1, active: 1, signUps: 1 })
    }
    expect(after.days[29]).toMatchObject({ day: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/), deposits: after.today.deposits, bets: after.today.bets })
  })

  it("is not for support", async () => {
    const support = (await deskSignIn(server.url, "support")).token
    expect((await request(server.url, "/api/v1/desk/today", { token: support })).status).toBe(403)
  })
})
