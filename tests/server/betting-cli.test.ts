import { execFile } from "node:child_process"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { balances, bet, catalogue, eventsOf, expectLedgerClean, fund, marketOf, setPrice } from "./betting-support.ts"
import { loginAs, signUpPlayer, startServer, tempDir, type TestServer } from "./helpers.ts"

process.env.ODDS_SIMULATOR = "off"
const run = promisify(execFile)

/** `npm run admin -- …` against the test's database (PGlite needs its server stopped: one process owns a data folder). */
const admin = (server: TestServer, args: ReadonlyArray<string>) =>
  run(process.execPath, ["server/admin.ts", ...args], {
    env: { ...process.env, DATA_DIR: server.dataDir, DATABASE_URL: server.databaseUrl ?? "" }
  }).then(
    ({ stdout }) => ({ code: 0, stdout, stderr: "" }),
    (error: { code: number; stdout: string; stderr: string }) => ({ code: error.code, stdout: error.stdout, stderr: error.stderr })
  )

/**
 * Each step runs `npm run admin` as its own process (a Node start and, on
 * PGlite, the embedded database opened): seconds on an idle machine, many
 * more on a loaded one. Every step gets its own generous deadline, so how
 * fast the machine is never decides the result; what the processes print
 * and the money they move do.
 */
const STEP_TIMEOUT = 300_000

describe("npm run admin -- settle / void-market / markets", () => {
  // Started and stopped here: on PGlite the server lets go of its folder before the CLI runs.
  const servers: Array<TestServer> = []
  let server: TestServer
  let player: { token: string }
  let market: { marketId: string }
  let eventName = ""
  let winner = ""
  let loser = ""

  beforeAll(async () => {
    server = await startServer({ dataDir: tempDir("cli") })
    servers.push(server)
    const adminToken = (await loginAs(server, "admin")).token
    const event = eventsOf(await catalogue(server), "basketball", false)[0]!
    eventName = event.name
    market = marketOf(event, "EXCHANGE")
    ;[winner, loser] = marketOf(event, "EXCHANGE").runners.map((r) => r.selectionId) as [string, string]
    await setPrice(server, adminToken, { marketId: market.marketId, selectionId: winner, back: { price: 1.5, size: 1000 }, lay: { price: 1.52, size: 1000 }, status: "OPEN" })
    const signedUp = await signUpPlayer(server)
    player = signedUp
    await fund(server, signedUp.user.id, 100_000)
    expect((await bet(server, signedUp.token, "bet-sport", { marketId: market.marketId, selectionId: winner, selectionType: "back", odds: 1.5, stake: 200 })).status).toBe(200)
    // PGlite: the server lets go of the folder first (one process owns it).
    if (server.engine === "pglite") {
      await server.close()
      servers.pop()
    }
  }, STEP_TIMEOUT)

  afterAll(async () => {
    for (const running of servers.reverse()) await running.close()
  })

  it("lists the markets still to settle with their open bets", async () => {
    const listed = await admin(server, ["markets", eventName.split(" ")[0]!])
    expect(listed.code, listed.stderr).toBe(0)
    expect(listed.stdout).toContain(market.marketId)
  }, STEP_TIMEOUT)

  it("settles a market once from the command line, and says so the second time", async () => {
    const settled = await admin(server, ["settle", market.marketId, winner])
    expect(settled.code, settled.stderr).toBe(0)
    expect(settled.stdout).toContain(`market ${market.marketId}: settled, result ${winner}; 1 bets of 1 players`)
    const again = await admin(server, ["settle", market.marketId, loser])
    expect(again.code).toBe(1)
    expect(again.stderr).toContain("This market was already settled.")
  }, STEP_TIMEOUT)

  it("answers a command without its arguments with its usage (exit 2)", async () => {
    const usage = await admin(server, ["void-market"])
    expect(usage.code).toBe(2)
    expect(usage.stderr).toContain("Usage: npm run admin -- void-market <marketId> [reason]")
  }, STEP_TIMEOUT)

  it("leaves a ledger its own check passes, and the player paid", async () => {
    // The ledger's own check (Ledger.verify) passes after the bet and its settlement.
    const verified = await admin(server, ["verify-ledger"])
    expect(verified.code, verified.stdout + verified.stderr).toBe(0)
    let checker = server
    if (server.engine === "pglite") {
      checker = await startServer({ dataDir: server.dataDir })
      servers.push(checker)
    }
    expect(await balances(checker, player.token)).toMatchObject({ balance: 1100, exposure: 0 })
    await expectLedgerClean(checker)
  }, STEP_TIMEOUT)
})
