import { chmodSync, lstatSync, mkdirSync, readdirSync, writeFileSync } from "node:fs"
import { createHash } from "node:crypto"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { launch, mainBalance, walletCall } from "./casino-support.ts"
import { expectLedgerVerifies, loginAs, request, SERVER_START_TIMEOUT, signUpPlayer, startServer, tempDir, type TestServer, useServer, waitForCode } from "./helpers.ts"
import { freshDatabase } from "./payments-support.ts"

/** What the server puts right when it starts: its data folder, and rounds a crash left half-way. */


const cleanups: Array<() => Promise<unknown>> = []
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
})

/** Every mode under a folder that is not private: [path, mode]. */
const notPrivate = (dir: string): Array<[string, string]> =>
  readdirSync(dir, { recursive: true, withFileTypes: false }).map(String).flatMap((entry) => {
    const path = join(dir, entry)
    const stat = lstatSync(path)
    const mode = stat.mode & 0o777
    return (stat.isDirectory() ? mode !== 0o700 : mode !== 0o600) ? [[entry, mode.toString(8)] as [string, string]] : []
  })

/** A database that outlives one server, on either engine: a data folder, and on PostgreSQL a database of its own. */
const lastingData = async () => {
  const dataDir = tempDir("lasting")
  const database = process.env.DATABASE_URL ? await freshDatabase() : undefined
  if (database) cleanups.push(database.drop)
  return { dataDir, ...(database ? { databaseUrl: database.url } : {}) }
}

describe("the data folder", () => {
  let data: Awaited<ReturnType<typeof lastingData>>
  beforeAll(async () => {
    data = await lastingData()
    // An existing folder left open by an earlier install.
    mkdirSync(join(data.dataDir, "uploads", "old"), { recursive: true })
    writeFileSync(join(data.dataDir, "uploads", "old", "screenshot.png"), "x")
    chmodSync(join(data.dataDir, "uploads", "old", "screenshot.png"), 0o666)
    chmodSync(join(data.dataDir, "uploads", "old"), 0o777)
    chmodSync(data.dataDir, 0o777)
  })
  const server = useServer({ config: () => data })

  it("is made private at start (folders 0700, files 0600), and what the server writes later is private too", async () => {
    expect(lstatSync(data.dataDir).mode & 0o777).toBe(0o700)
    // PGlite's own files (unpacked world-writable) included.
    expect(notPrivate(data.dataDir)).toEqual([])
    const player = await signUpPlayer(server)
    await waitForCode(server.dataDir, player.mobileNo, "signup")
    expect(lstatSync(join(data.dataDir, "sms-outbox.jsonl")).mode & 0o777).toBe(0o600)
  })
})

describe("Khel Originals after a crash", () => {
  // Two servers one after the other on the same data, the first left as a crash leaves it: started here.
  let second: TestServer
  let tokenHash: string
  let playerId: string
  const rounds: { won?: string; unconfirmed?: string } = {}

  // A server leaves two rounds half-way, as a crash would, and stops; a new one starts on the same data.
  beforeAll(async () => {
    const data = await lastingData()
    const first = await startServer(data)
    const admin = (await loginAs(first, "admin")).token
    const player = await signUpPlayer(first)
    playerId = player.user.id
    expect((await request(first.url, "/api/v1/admin/credit", { method: "POST", token: admin, json: { user: player.user.username, amount: 1000 } })).status).toBe(200)
    const { token } = await launch(first, player.token)
    expect((await request(first.url, "/games/khel/api/table", { method: "POST", json: { token, game: "dragon-tiger" } })).status).toBe(200)
    tokenHash = createHash("sha256").update(token).digest("hex")
    // A round whose win never reached the wallet, and one whose debit was never confirmed.
    const stuck = async (status: "pending" | "settling", win: number) => {
      const id = crypto.randomUUID()
      expect((await walletCall(first, "debit", { token, transactionId: `${id}-bet`, roundId: id, amount: 100 })).status).toBe(200)
      await first.sql((sql) => sql`
        INSERT INTO khel_rounds (id, token_hash, player_id, game, bets, stake, client_seed, server_seed, commit_hash, nonce, outcome, win, status, created_at)
        VALUES (${id}, ${tokenHash}, ${player.user.id}, 'dragon-tiger', '{"dragon": 10000}'::jsonb, 10000, 'seed', ${"0".repeat(64)}, ${"0".repeat(64)}, 0,
                '{"game": "dragon-tiger", "dragon": 12, "tiger": 1, "winner": "dragon"}'::jsonb, ${win}, ${status}, now() - interval '2 minutes')
      `)
      return id
    }
    rounds.won = await stuck("settling", 200_00)
    rounds.unconfirmed = await stuck("pending", 0)
    expect(await mainBalance(first, player.user.id)).toBe(800_00)
    await first.close()
    second = await startServer({ ...data, seedDemo: false })
    cleanups.push(() => second.close())
  }, 2 * SERVER_START_TIMEOUT)

  it("finishes rounds left half-way as soon as the server starts, before any player opens a table", async () => {
    // Nobody opens a table: the start-up sweep alone brings both rounds to their end.
    const statuses = async () =>
      Object.fromEntries((await second.sql((sql) => sql<{ id: string; status: string }>`SELECT id, status FROM khel_rounds WHERE token_hash = ${tokenHash}`)).map((row) => [row.id, row.status]))
    await expect.poll(statuses, { timeout: 30_000, interval: 50 }).toEqual({ [rounds.won!]: "settled", [rounds.unconfirmed!]: "cancelled" })
    expect(await mainBalance(second, playerId)).toBe(1_100_00)
    await expectLedgerVerifies(second)
  })
})
