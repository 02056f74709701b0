import { Effect } from "effect"
import { existsSync } from "node:fs"
import { join } from "node:path"
import { afterAll, describe, expect, it } from "vitest"
import { bet, catalogue, eventsOf, marketOf, priceOf } from "./betting-support.ts"
import { launch, walletCall } from "./casino-support.ts"
import { loginAs, request, runAdmin, SERVER_START_TIMEOUT, startServer, tempDir, type TestServer } from "./helpers.ts"
import { approveDeposit, createDeposit, freshDatabase, pngDataUrl } from "./payments-support.ts"

// Prices hold still and nothing settles by itself: the database changes only by what the test does.
process.env.ODDS_SIMULATOR = "off"

/**
 * `npm run admin -- backup <file>` and `restore <file>` (docs/operations.md#backups), as an operator runs them: a
 * database with bets, deposits (a screenshot among them) and casino rounds is backed up (PostgreSQL: while its
 * server runs; embedded: once it is stopped), restored into a fresh database, and there `verify-ledger` passes
 * and every balance, bet, deposit, upload and round is what it was.
 */
const cleanups: Array<() => Promise<unknown>> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

/** Everything money and play left in a database, as comparable rows. */
const contents = (server: TestServer) =>
  server.sql((sql) => Effect.all({
    accounts: sql`SELECT id, user_id, kind, balance::text AS balance FROM ledger_accounts ORDER BY id`,
    transactions: sql`SELECT count(*)::int AS n FROM ledger_transactions`,
    bets: sql`SELECT id, user_id, stake::text AS stake, status FROM bets ORDER BY id`,
    deposits: sql`SELECT id, amount::text AS amount, status, screenshot_id FROM deposit_requests ORDER BY id`,
    uploads: sql`SELECT id, mime, coalesce(length(data), 0) AS bytes, file FROM uploads ORDER BY id`,
    rounds: sql`SELECT id, status FROM casino_rounds ORDER BY id`,
    casinoTransactions: sql`SELECT count(*)::int AS n FROM casino_transactions`
  }))

describe("backups", () => {
  it("restores bets, deposits and casino rounds into a fresh database, where the ledger verifies and every balance is equal", async () => {
    const dataDir = tempDir("backup-source")
    const database = process.env.DATABASE_URL ? await freshDatabase() : undefined
    if (database) cleanups.push(database.drop)
    const server = await startServer({ dataDir, databaseUrl: database?.url })
    let running = true
    cleanups.push(() => (running ? server.close() : Promise.resolve()))

    // A bet, an approved deposit with its screenshot, a casino round won.
    const { token, user } = await loginAs(server, "demo")
    const event = eventsOf(await catalogue(server), "cricket", false)[0]!
    const market = marketOf(event, "EXCHANGE")
    const runner = market.runners[0]!
    const price = await priceOf(server, event._id, market.marketId, runner.selectionId)
    expect((await bet(server, token, "bet-sport", { marketId: market.marketId, selectionId: runner.selectionId, selectionType: "back", odds: price.back.price, stake: 250 })).status).toBe(200)
    const deposit = await createDeposit(server, token, 1200, { baseImage: (await pngDataUrl()).dataUrl })
    expect(deposit.status, JSON.stringify(deposit.body)).toBe(200)
    const admin = (await loginAs(server, "admin")).token
    expect((await approveDeposit(server, admin, deposit.body.data._id)).status).toBe(200)
    const game = await launch(server, token)
    expect((await walletCall(server, "debit", { token: game.token, transactionId: "backup-d1", roundId: "backup-r1", amount: 100 })).status).toBe(200)
    expect((await walletCall(server, "credit", { playerId: user.id, transactionId: "backup-c1", roundId: "backup-r1", amount: 195 })).status).toBe(200)

    const before = await contents(server)
    const shown = (await request(server.url, "/api/v1/getUserData", { token })).body.data
    expect(before.bets).toHaveLength(1)
    expect(before.deposits.some((d) => d.screenshotId !== null)).toBe(true)
    expect(before.rounds.length).toBeGreaterThanOrEqual(1)

    const file = join(tempDir("backup-files"), "khel.backup")
    if (!database) {
      // The embedded database belongs to one process: a backup while its server runs is refused, nothing written.
      const refused = await runAdmin({ dataDir, databaseUrl: undefined }, ["backup", file])
      expect(refused.code).toBe(1)
      expect(refused.stderr).toMatch(/needs the server stopped/)
      expect(existsSync(file)).toBe(false)
      await server.close()
      running = false
    }
    const backedUp = await runAdmin({ dataDir, databaseUrl: database?.url }, ["backup", file])
    expect(backedUp.code, backedUp.stderr).toBe(0)
    expect(backedUp.stdout).toMatch(/^backed up .* into /)
    expect(existsSync(file)).toBe(true)
    if (running) await server.close()

    // A fresh database: an empty DATA_DIR, or a new PostgreSQL database.
    const target = { dataDir: tempDir("backup-target"), databaseUrl: process.env.DATABASE_URL ? (await freshDatabase()) : undefined }
    if (target.databaseUrl) cleanups.push(target.databaseUrl.drop)
    const into = { dataDir: target.dataDir, databaseUrl: target.databaseUrl?.url }
    const restored = await runAdmin(into, ["restore", file])
    expect(restored.code, restored.stderr).toBe(0)
    // Restoring again over it is refused: a restore never mixes two databases.
    const again = await runAdmin(into, ["restore", file])
    expect(again.code).toBe(1)
    expect(again.stderr).toMatch(/not empty|already holds a database/)

    const verified = await runAdmin(into, ["verify-ledger"])
    expect(verified.code, verified.stdout).toBe(0)
    expect(verified.stdout).toContain("ledger OK")

    const copy = await startServer(into)
    cleanups.push(() => copy.close())
    expect(await contents(copy)).toEqual(before)
    // The restored server serves what was stored: the player's balance, and the screenshot to an operator.
    const me = await request(copy.url, "/api/v1/getUserData", { token: (await loginAs(copy, "demo")).token })
    expect(me.body.data).toMatchObject({ balance: shown.balance, exposure: shown.exposure, bonus: shown.bonus })
    const upload = before.deposits.find((d) => d.screenshotId !== null)!.screenshotId as string
    const screenshot = await request(copy.url, `/api/v1/desk/screenshots/${upload}`, { token: (await loginAs(copy, "admin")).token })
    expect(screenshot.status, JSON.stringify(screenshot.body)).toBe(200)
  }, SERVER_START_TIMEOUT * 2)
})
