import { describe, expect, it } from "vitest"
import { expectLedgerVerifies, request, signUpPlayer, useServer } from "./helpers.ts"
import { balancesOf, fund, post, settleStake, user } from "./payments-support.ts"
import { bet, freshMatch as freshMatchOf, priceAtEvens, setPrice, settleMarket } from "./betting-support.ts"

const server = useServer({ signIn: ["admin"], afterEach: expectLedgerVerifies })

const data = async (token: string) => (await request(server.url, "/api/v1/bonus-data", { token })).body.data as {
  bonusBalance: number
  bonuses: Array<{ _id: string; status: string; amount: number; wageringRequired: number; wagered: number; wageringLeft: number }>
}
const act = (token: string, action: "activate-bonus" | "claim-bonus" | "forfeit-bonus", bonusId: string) =>
  request(server.url, `/api/v1/${action}`, { method: "PUT", token, json: { bonusId } })

describe("bonuses", () => {
  it("offers the welcome bonus on the first approved deposit only: 100 %, capped at ₹10,000, wagered 5 times", async () => {
    const { token } = await signUpPlayer(server)
    expect((await data(token)).bonuses).toEqual([])
    await fund(server, token, 2000, server.admin)
    await fund(server, token, 3000, server.admin)
    const { bonuses, bonusBalance } = await data(token)
    expect(bonuses).toHaveLength(1)
    expect(bonuses[0]).toMatchObject({ status: "available", amount: 2000, wageringRequired: 10000, wagered: 0 })
    expect(bonusBalance).toBe(0)

    const big = await signUpPlayer(server)
    await fund(server, big.token, 50_000, server.admin)
    expect((await data(big.token)).bonuses[0]).toMatchObject({ amount: 10_000, wageringRequired: 50_000 })
  })

  it("activates into the bonus wallet, counts settled stakes, claims to main once wagering is met", async () => {
    const { token, user: player } = await signUpPlayer(server)
    await fund(server, token, 500, server.admin)
    const [offer] = (await data(token)).bonuses
    const activated = await act(token, "activate-bonus", offer!._id)
    expect(activated.status).toBe(200)
    expect(activated.body.data.bonuses[0].status).toBe("active")
    expect(activated.body.data.bonusBalance).toBe(500)
    expect((await user(server, token)).bonus).toBe(500)
    expect((await act(token, "activate-bonus", offer!._id)).status).toBe(409)

    const early = await act(token, "claim-bonus", offer!._id)
    expect(early.status).toBe(409)
    expect(early.body.meta.message).toMatch(/Wager ₹2,500.00 more/)

    // Bets from the bonus wallet win a little; stakes settle.
    await post(server, { kind: "bet_settle", userId: player.id, description: "won on bonus", legs: [{ account: { operator: "house" }, amount: -120_00 }, { account: { user: player.id, kind: "bonus" }, amount: 120_00 }] })
    await settleStake(server, player.id, 1000_00)
    expect((await data(token)).bonuses[0]).toMatchObject({ status: "active", wagered: 1000 })
    await settleStake(server, player.id, 1500_00)
    expect((await data(token)).bonuses[0]).toMatchObject({ status: "completed", wagered: 2500 })

    await request(server.url, "/api/v1/wallet", { method: "PUT", token, json: { selectedWallet: 2 } })
    const claimed = await act(token, "claim-bonus", offer!._id)
    expect(claimed.status).toBe(200)
    expect(claimed.body.data.bonuses[0].status).toBe("claimed")
    const after = await user(server, token)
    expect(after.balance).toBe(500 + 620)
    expect(after.bonus).toBe(0)
    expect(after.wallet).toBe(1)
    expect((await act(token, "claim-bonus", offer!._id)).status).toBe(409)
    expect((await act(token, "forfeit-bonus", offer!._id)).status).toBe(409)
  })

  it("forfeit removes the bonus wallet; a forfeited offer cannot be activated", async () => {
    const { token, user: player } = await signUpPlayer(server)
    await fund(server, token, 300, server.admin)
    const [offer] = (await data(token)).bonuses
    await act(token, "activate-bonus", offer!._id)
    expect((await balancesOf(server, player.id)).bonus).toBe(300_00)
    const forfeited = await act(token, "forfeit-bonus", offer!._id)
    expect(forfeited.body.data.bonuses[0].status).toBe("forfeited")
    expect(forfeited.body.data.bonusBalance).toBe(0)
    expect((await user(server, token)).balance).toBe(300)
    expect((await act(token, "activate-bonus", offer!._id)).status).toBe(409)
    // Stakes settled after that count for nothing.
    await settleStake(server, player.id, 100_00)
    expect((await data(token)).bonuses[0]!.wagered).toBe(0)
  })

  it("refuses another player's bonus and an unknown one", async () => {
    const a = await signUpPlayer(server)
    const b = await signUpPlayer(server)
    await fund(server, a.token, 200, server.admin)
    const [offer] = (await data(a.token)).bonuses
    expect((await act(b.token, "activate-bonus", offer!._id)).status).toBe(404)
    expect((await act(a.token, "forfeit-bonus", "nope")).status).toBe(404)
  })
})

/** A player with the welcome bonus active and the bonus wallet selected. */
const bonusPlayer = async (deposit: number) => {
  const player = await signUpPlayer(server)
  await fund(server, player.token, deposit, server.admin)
  const [offer] = (await data(player.token)).bonuses
  expect((await act(player.token, "activate-bonus", offer!._id)).status).toBe(200)
  expect((await request(server.url, "/api/v1/wallet", { method: "PUT", token: player.token, json: { selectedWallet: 2 } })).status).toBe(200)
  return player
}

const used = new Set<string>()
const freshMatch = () => freshMatchOf(server, used)
/** A runner's best back price now, priced by hand so the bet is taken at it. */
const price = (market: { marketId: string; runners: Array<{ selectionId: string }> }) => priceAtEvens(server, server.admin, market)
const rate = async (market: { marketId: string; runners: Array<{ selectionId: string }> }) => {
  expect((await setPrice(server, server.admin, { marketId: market.marketId, selectionId: market.runners[0]!.selectionId, back: { price: 96, size: 50_000 }, lay: { price: 104, size: 50_000 }, status: "OPEN" })).status).toBe(200)
  return 96
}

const settle = (marketId: string, result: string) => settleMarket(server, server.admin, marketId, result)
const voidMarket = (marketId: string) => request(server.url, "/api/v1/admin/void-market", { method: "POST", token: server.admin, json: { marketId, reason: "test" } })

describe("wagering counts what is really at risk", () => {
  it("counts a back and a lay on the same runner at neighbouring prices as the ₹20 they risk, not the ₹2,000 they stake", async () => {
    const { token } = await bonusPlayer(5000)
    // A match that has not started, its first runner priced by hand: back at 2.00, lay at 2.02.
    const { matchOdds: market, bookmaker } = await freshMatch()
    const [home, away] = market.runners
    expect((await setPrice(server, server.admin, { marketId: market.marketId, selectionId: home!.selectionId, back: { price: 2, size: 5000 }, lay: { price: 2.02, size: 5000 }, status: "OPEN" })).status).toBe(200)
    for (let round = 0; round < 3; round++) {
      expect((await bet(server, token, "bet-sport", { marketId: market.marketId, selectionId: home!.selectionId, selectionType: "back", odds: 2, stake: 1000 })).status).toBe(200)
      expect((await bet(server, token, "bet-sport", { marketId: market.marketId, selectionId: home!.selectionId, selectionType: "lay", odds: 2.02, stake: 1000 })).status).toBe(200)
    }
    expect((await settle(market.marketId, away!.selectionId)).status).toBe(200)
    // The match's Bookmaker market is still open: nothing counts until it closes too.
    expect((await data(token)).bonuses[0]!.wagered).toBe(0)
    expect((await settle(bookmaker.marketId, bookmaker.runners[1]!.selectionId)).status).toBe(200)
    // Staked ₹6,000 in all; the most the player could lose was ₹60 (if the home side had won).
    const [bonus] = (await data(token)).bonuses
    expect(bonus).toMatchObject({ status: "active", wagered: 60, wageringRequired: 25_000, wageringLeft: 24_940 })
  })

  it("counts the few rupees at risk, not ₹1,508 staked, for backing both sides across Match Odds and the Bookmaker market", async () => {
    const { token } = await bonusPlayer(5000)
    const { matchOdds, bookmaker, home, away } = await freshMatch()
    // India backed at 1.50 on Match Odds, Australia at 195 per 100 in the Bookmaker market: prices the model takes.
    expect((await setPrice(server, server.admin, { marketId: matchOdds.marketId, selectionId: matchOdds.runners[home]!.selectionId, back: { price: 1.5, size: 50_000 }, lay: { price: 1.52, size: 50_000 }, status: "OPEN" })).status).toBe(200)
    expect((await setPrice(server, server.admin, { marketId: bookmaker.marketId, selectionId: bookmaker.runners[away]!.selectionId, back: { price: 195, size: 50_000 }, lay: { price: 197, size: 50_000 }, status: "OPEN" })).status).toBe(200)
    expect((await bet(server, token, "bet-sport", { marketId: matchOdds.marketId, selectionId: matchOdds.runners[home]!.selectionId, selectionType: "back", odds: 1.5, stake: 1000 })).status).toBe(200)
    expect((await bet(server, token, "bet-sport", { marketId: bookmaker.marketId, selectionId: bookmaker.runners[away]!.selectionId, selectionType: "back", odds: 195, stake: 508 })).status).toBe(200)
    expect((await settle(matchOdds.marketId, matchOdds.runners[home]!.selectionId)).status).toBe(200)
    expect((await settle(bookmaker.marketId, bookmaker.runners[home]!.selectionId)).status).toBe(200)
    // India winning left the player ₹8 down, Australia winning ₹9.40 down: ₹9.40 was at risk, and that counts.
    expect((await data(token)).bonuses[0]).toMatchObject({ status: "active", wagered: 9.4 })
    expect((await user(server, token)).bonus).toBe(5000 - 1508 + 1500)
  })

  it("counts only bonus-wallet bets; a back alone counts its stake once the match's last market closes, even voided", async () => {
    const player = await bonusPlayer(4000)
    const first = await freshMatch()
    // From the main wallet: the bonus's terms do not cover it.
    expect((await request(server.url, "/api/v1/wallet", { method: "PUT", token: player.token, json: { selectedWallet: 1 } })).status).toBe(200)
    await fund(server, player.token, 1000, server.admin)
    expect((await bet(server, player.token, "bet-sport", { marketId: first.bookmaker.marketId, selectionId: first.bookmaker.runners[0]!.selectionId, selectionType: "back", odds: await rate(first.bookmaker), stake: 1000 })).status).toBe(200)
    expect((await settle(first.matchOdds.marketId, first.matchOdds.runners[1]!.selectionId)).status).toBe(200)
    expect((await settle(first.bookmaker.marketId, first.bookmaker.runners[1]!.selectionId)).status).toBe(200)
    expect((await data(player.token)).bonuses[0]!.wagered).toBe(0)

    // From the bonus wallet: a back on Match Odds, and one on the Bookmaker market that is then voided.
    expect((await request(server.url, "/api/v1/wallet", { method: "PUT", token: player.token, json: { selectedWallet: 2 } })).status).toBe(200)
    const second = await freshMatch()
    expect((await bet(server, player.token, "bet-sport", { marketId: second.matchOdds.marketId, selectionId: second.matchOdds.runners[0]!.selectionId, selectionType: "back", odds: await price(second.matchOdds), stake: 1000 })).status).toBe(200)
    expect((await bet(server, player.token, "bet-sport", { marketId: second.bookmaker.marketId, selectionId: second.bookmaker.runners[0]!.selectionId, selectionType: "back", odds: await rate(second.bookmaker), stake: 500 })).status).toBe(200)
    expect((await settle(second.matchOdds.marketId, second.matchOdds.runners[1]!.selectionId)).status).toBe(200)
    expect((await data(player.token)).bonuses[0]!.wagered).toBe(0)
    expect((await voidMarket(second.bookmaker.marketId)).status).toBe(200)
    expect((await data(player.token)).bonuses[0]!.wagered).toBe(1000)
  })

  it("counts a match once when its two markets are settled at the same moment", async () => {
    const player = await bonusPlayer(5000)
    for (let round = 0; round < 3; round++) {
      const { matchOdds, bookmaker } = await freshMatch()
      expect((await bet(server, player.token, "bet-sport", { marketId: matchOdds.marketId, selectionId: matchOdds.runners[0]!.selectionId, selectionType: "back", odds: await price(matchOdds), stake: 500 })).status).toBe(200)
      const answers = await Promise.all([settle(matchOdds.marketId, matchOdds.runners[1]!.selectionId), settle(bookmaker.marketId, bookmaker.runners[1]!.selectionId)])
      expect(answers.map((a) => a.status)).toEqual([200, 200])
      expect((await data(player.token)).bonuses[0]!.wagered).toBe(500 * (round + 1))
    }
  })
})
