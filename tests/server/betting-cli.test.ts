import { afterAll, describe, expect, it } from "vitest"
import { balances, bet, catalogue, eventsOf, expectLedgerClean, fund, marketOf, setPrice } from "./betting-support.ts"
import { loginAs, runAdmin as admin, signUpPlayer, startServer, tempDir, type TestServer } from "./helpers.ts"

process.env.ODDS_SIMULATOR = "off"

const servers: Array<TestServer> = []
afterAll(async () => {
  for (const server of servers.reverse()) await server.close()
})

describe("npm run admin -- settle / void-market / markets", () => {
  it("settles a market once from the command line, and says so the second time", async () => {
    const dataDir = tempDir("cli")
    const server = await startServer({ dataDir })
    servers.push(server)
    const adminToken = (await loginAs(server, "admin")).token
    const event = eventsOf(await catalogue(server), "basketball", false)[0]!
    const market = marketOf(event, "EXCHANGE")
    const [winner, loser] = market.runners.map((r) => r.selectionId) as [string, string]
    await setPrice(server, adminToken, { marketId: market.marketId, selectionId: winner, back: { price: 1.5, size: 100 }, lay: { price: 1.52, size: 100 }, status: "OPEN" })
    const player = await signUpPlayer(server)
    await fund(server, player.user.id, 100_000)
    expect((await bet(server, player.token, "bet-sport", { marketId: market.marketId, selectionId: winner, selectionType: "back", odds: 1.5, stake: 200 })).status).toBe(200)

    // PGlite: the server lets go of the folder first.
    let checker = server
    if (server.engine === "pglite") {
      await server.close()
      servers.pop()
    }
    const listed = await admin(server, ["markets", event.name.split(" ")[0]!])
    expect(listed.code).toBe(0)
    expect(listed.stdout).toContain(market.marketId)
    const settled = await admin(server, ["settle", market.marketId, winner])
    expect(settled.code, settled.stderr).toBe(0)
    expect(settled.stdout).toContain(`market ${market.marketId}: settled, result ${winner}; 1 bets of 1 players`)
    const again = await admin(server, ["settle", market.marketId, loser])
    expect(again.code).toBe(1)
    expect(again.stderr).toContain("This market was already settled.")
    const usage = await admin(server, ["void-market"])
    expect(usage.code).toBe(2)
    // The ledger's own check (Ledger.verify) passes after the bet and its settlement.
    const verified = await admin(server, ["verify-ledger"])
    expect(verified.code, verified.stdout + verified.stderr).toBe(0)

    if (server.engine === "pglite") {
      checker = await startServer({ dataDir })
      servers.push(checker)
    }
    expect(await balances(checker, player.token)).toMatchObject({ balance: 1100, exposure: 0 })
    await expectLedgerClean(checker)
  })
})
