import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test"
import { eventHref } from "../../src/domain/catalogue.ts"
import { freshUtr } from "../http.ts"
import { type Cluster, type ClusterServer, startCluster, until } from "./harness.ts"
import { deskSignIn } from "../http.ts"
import { call, type CatalogueEvent, events, type Market, newPlayer, streamBets } from "./support.ts"

/**
 * Three servers on one PostgreSQL behind nginx (deploy/nginx.conf), as
 * docs/deploy.md describes, with the odds simulator running. Players are in
 * Chromium through nginx; the khel_server cookie pins a browser's sockets to
 * a chosen server, the way nginx keeps a long-polling client on its server.
 * Nothing waits on time passing: each step waits for its real condition with
 * a generous deadline; the takeover figure comes from the database's clock.
 */

let cluster: Cluster
let admin = ""
const contexts: Array<BrowserContext> = []

test.describe.configure({ mode: "serial" })

test.beforeAll(async () => {
  cluster = await startCluster({ count: 3 })
  admin = (await deskSignIn(cluster.url, "admin")).token
})

test.afterAll(async () => {
  for (const context of contexts) await context.close()
  await cluster?.stop()
})

/** A browser signed in as `token`, whose socket.io connections go to `server` (s1, s2, s3). */
const openOn = async (browser: Browser, server: string, token: string, path: string) => {
  const context = await browser.newContext({ baseURL: cluster.url })
  contexts.push(context)
  await context.addCookies([{ name: "khel_server", value: server, url: `${cluster.url}/socket.io/` }])
  await context.addInitScript((t) => localStorage.setItem("token", t), token)
  const page = await context.newPage()
  const books: Array<{ marketId: string; version: number; json: string }> = []
  // The odds channel's frames as they arrive: socket.io packets "42[event, data]" (with an ack id: "421[…]").
  page.on("websocket", (socket) => {
    socket.on("framereceived", ({ payload }) => {
      const text = typeof payload === "string" ? payload : payload.toString("utf8")
      const match = /^42\d*(\[.*)$/s.exec(text)
      if (!match) return
      const [event, data] = JSON.parse(match[1]!) as [string, { markets?: Array<{ marketId: string; version: number }> }]
      if (event !== "odds" && event !== "odds.snapshot") return
      for (const book of data.markets ?? []) books.push({ marketId: book.marketId, version: book.version, json: JSON.stringify(book) })
    })
  })
  await page.goto(path)
  await expect(page.getByTestId("preloader")).toBeHidden({ timeout: 60_000 })
  return { page, context, books }
}

/** Which server a browser's sockets are on: the one that answered its handshake sets the cookie to its name. */
const socketServer = async (context: BrowserContext) => (await context.cookies(`${cluster.url}/socket.io/`)).find((c) => c.name === "khel_server")?.value

const leader = async () => {
  const [row] = await cluster.query<{ epoch: string; holder: string }>("SELECT epoch::text AS epoch, holder FROM odds_leaders ORDER BY epoch DESC LIMIT 1")
  return { epoch: Number(row!.epoch), server: cluster.servers.find((s) => s.id === row!.holder)! }
}

const preMatch = async () => (await events(cluster.url)).filter((e) => !e.inPlay && !e.sport.slugName.includes("racing") && e.markets.some((m) => m.marketType === "EXCHANGE"))

let shown: {
  event: CatalogueEvent
  market: Market
  pageA: Page
  pageB: Page
  booksA: ReadonlyArray<{ marketId: string; version: number }>
  playerA: { token: string }
  playerB: { token: string }
}

test("two players connected to different servers get the same prices from the one simulator", async ({ browser }) => {
  const event = (await preMatch()).find((e) => e.sport.slugName === "cricket") ?? (await preMatch())[0]!
  const market = event.markets.find((m) => m.marketType === "EXCHANGE")!
  const playerA = await newPlayer(cluster, admin)
  const playerB = await newPlayer(cluster, admin)
  const path = eventHref(event.sport, event.league, event)
  const a = await openOn(browser, "s1", playerA.token, path)
  const b = await openOn(browser, "s2", playerB.token, path)
  await expect(a.page.getByRole("heading", { level: 1, name: event.name })).toBeVisible()
  await expect(b.page.getByRole("heading", { level: 1, name: event.name })).toBeVisible()
  expect(await socketServer(a.context)).toBe("s1")
  expect(await socketServer(b.context)).toBe("s2")

  // Watched on two servers, the event's prices move; both browsers get the very same books, version by version.
  await until("both browsers to receive the same moving books", async () => {
    const seenByB = new Map(b.books.map((book) => [`${book.marketId}@${book.version}`, book.json]))
    const common = a.books.filter((book) => seenByB.has(`${book.marketId}@${book.version}`) && book.version > 1)
    return new Set(common.map((book) => `${book.marketId}@${book.version}`)).size >= 5
  }, 90_000)
  const seenByB = new Map(b.books.map((book) => [`${book.marketId}@${book.version}`, book.json]))
  let compared = 0
  for (const book of a.books) {
    const other = seenByB.get(`${book.marketId}@${book.version}`)
    if (other === undefined) continue
    expect(JSON.parse(other)).toEqual(JSON.parse(book.json))
    compared++
  }
  console.log(`same books on s1 and s2: ${compared} book versions compared (${a.books.length} and ${b.books.length} received)`)

  // An operator's price, set through nginx (whichever server takes it, the leader prices it), shows on both.
  const home = market.runners[0]!
  const priced = await call(cluster.url, "/api/v1/admin/market-price", { token: admin, json: { marketId: market.marketId, selectionId: home.selectionId, back: { price: 3.45, size: 5000 }, lay: { price: 3.5, size: 5000 }, status: "OPEN" } })
  expect(priced.status).toBe(200)
  await expect(a.page.getByRole("button", { name: `Back ${home.name} at 3.45` })).toBeVisible()
  await expect(b.page.getByRole("button", { name: `Back ${home.name} at 3.45` })).toBeVisible()
  shown = { event, market, pageA: a.page, pageB: b.page, booksA: a.books, playerA, playerB }
})

test("a bet at the price shown is accepted whichever server takes it", async () => {
  const { market, pageA, playerA } = shown
  const home = market.runners[0]!
  // In the browser: through nginx, to whichever server it picks.
  await pageA.getByRole("button", { name: `Back ${home.name} at 3.45` }).click()
  const slip = pageA.getByTestId("bet-slip")
  await slip.getByLabel("Stake (₹)").fill("100")
  const answered = pageA.waitForResponse((response) => response.url().endsWith("/api/v1/bet-sport"))
  await slip.getByRole("button", { name: "Place Bet" }).click()
  const answer = await answered
  expect(answer.status()).toBe(200)
  expect((await answer.json()).data.bet.odds).toBe(3.45)
  // The slip says so and closes itself.
  await expect(slip).toBeHidden()
  // And straight to each server: every one checks against the same book.
  for (const server of cluster.servers) {
    const placed = await call(server.url, "/api/v1/bet-sport", { token: playerA.token, json: { marketId: market.marketId, selectionId: home.selectionId, selectionType: "back", odds: 3.45, stake: 100 } })
    expect(placed.status, `${server.id}: ${JSON.stringify(placed.body)}`).toBe(200)
    expect(placed.body.data.bet.odds).toBe(3.45)
  }
})

test("a deposit approved with npm run admin reaches the player's browser on whichever server holds its socket", async () => {
  const { pageB, playerB } = shown
  const balance = pageB.getByTestId("balance-balance")
  const before = await balance.textContent()
  const accounts = await call(cluster.url, "/api/v1/admin-account-details", { token: playerB.token })
  const upi = (accounts.body.data as Array<{ _id: string; type: string }>).find((a) => a.type === "upi")!
  const deposit = await call(cluster.url, "/api/v1/admin-deposit-request", { token: playerB.token, json: { amount: 2500, accountId: upi._id, type: "upi", txnRef: freshUtr() } })
  expect(deposit.status).toBe(200)
  // The CLI is no server: its event reaches s2 through PostgreSQL (the socket.io adapter).
  const approved = cluster.admin(["approve-deposit", deposit.body.data._id])
  expect(approved.code, approved.stderr).toBe(0)
  const rupees = (text: string | null) => Number((text ?? "").replace(/[^\d.]/g, ""))
  await expect.poll(async () => rupees(await balance.textContent()) - rupees(before), { timeout: 60_000 }).toBe(2500)
})

const streamPlayers = async (count: number) => {
  const players = await Promise.all(Array.from({ length: count }, () => newPlayer(cluster, admin)))
  for (const player of players) expect((await call(cluster.url, "/api/v1/setting", { method: "PUT", token: player.token, json: { oddsChange: "any" } })).status).toBe(200)
  return players
}

/** What every test of a stream checks: each acknowledged bet is there once, nothing stayed unanswered, the ledger verifies. */
const expectStreamIntact = async (stream: ReturnType<typeof streamBets>, players: ReadonlyArray<{ id: string }>) => {
  expect([...stream.unanswered]).toEqual([])
  const ids = [...stream.placed.values()]
  const stored = await cluster.query<{ id: string }>("SELECT id FROM bets WHERE id = ANY($1)", [ids])
  expect(stored.length).toBe(ids.length)
  // Exactly once: these players' bets are the acknowledged ones, no more (a retried key placed nothing twice).
  const [count] = await cluster.query<{ n: number }>("SELECT count(*)::int AS n FROM bets WHERE user_id = ANY($1)", [players.map((p) => p.id)])
  expect(count!.n).toBe(ids.length)
  const verify = cluster.admin(["verify-ledger"])
  expect(verify.code, verify.stdout + verify.stderr).toBe(0)
  expect(verify.stdout).toContain("ledger OK")
}

test("kill -9 of the server running the simulator, in the middle of a stream of bets", async () => {
  const before = await leader()
  // Not the event the browsers show: the next test still watches it.
  const others = (await preMatch()).filter((e) => e._id !== shown.event._id)
  // One event the stream bets on is left the way a leader killed half-way through settling it leaves it:
  // claimed ('settling'), one market settled, the others (with the stream's bets) not. Only a new leader can finish it.
  const due = others.find((e) => e.markets.some((m) => m.marketType === "BOOKMAKER"))!
  const markets = [due, ...others.filter((e) => e !== due).slice(0, 5)].map((e) => e.markets.find((m) => m.marketType === "EXCHANGE")!)
  const players = await streamPlayers(6)
  const bookmaker = due.markets.find((m) => m.marketType === "BOOKMAKER")!
  const settledFirst = await call(cluster.url, "/api/v1/admin/settle-market", { token: admin, json: { marketId: bookmaker.marketId, result: bookmaker.runners[0]!.selectionId } })
  expect(settledFirst.status, JSON.stringify(settledFirst.body)).toBe(200)
  const stream = streamBets(cluster.url, players, markets, "kill")
  await until("the stream to be flowing", async () => stream.placed.size >= 30, 60_000, 100)
  await before.server.kill()
  await cluster.query("UPDATE events SET status = 'settling', starts_at = now() - interval '1 day' WHERE id = $1", [due._id])
  await until("a new odds leader", async () => (await leader()).epoch > before.epoch, 60_000, 100)
  const placedAtKill = stream.placed.size
  await until("bets to flow again", async () => stream.placed.size >= placedAtKill + 30, 120_000, 100)
  await stream.stop()

  // Prices resumed: the new leader wrote its first books; the gap, measured on the database's clock.
  const [old, next] = await cluster.query<{ last: Date; first: Date | null; holder: string }>(
    "SELECT last_write_at AS last, first_write_at AS first, holder FROM odds_leaders WHERE epoch IN ($1, $2) ORDER BY epoch",
    [before.epoch, before.epoch + 1]
  )
  await until("the new leader's first write", async () => {
    const [row] = await cluster.query<{ first: Date | null }>("SELECT first_write_at AS first FROM odds_leaders WHERE epoch = $1", [before.epoch + 1])
    return row?.first !== null
  }, 60_000)
  const [row] = await cluster.query<{ first: Date }>("SELECT first_write_at AS first FROM odds_leaders WHERE epoch = $1", [before.epoch + 1])
  const gap = row!.first.getTime() - old!.last.getTime()
  console.log(`kill -9 of ${before.server.id}: ${next?.holder ?? "?"} wrote prices ${gap} ms after the old leader's last write (database clock); ${stream.placed.size} bets placed, ${stream.retried.size} needed a retry (failed tries by status: ${JSON.stringify(Object.fromEntries(stream.failed))})`)
  expect(gap).toBeLessThan(5000)

  await expectStreamIntact(stream, players)
  // No market settled twice, none left to settle: the half-settled event's markets all settled, once.
  await until("the half-settled event to be settled and finished", async () => {
    const [event] = await cluster.query<{ status: string }>("SELECT status FROM events WHERE id = $1", [due._id])
    return event?.status === "finished"
  }, 120_000, 250)
  expect(await cluster.query("SELECT id FROM markets WHERE event_id = $1 AND status NOT IN ('SETTLED', 'VOID')", [due._id])).toEqual([])
  expect(await cluster.query("SELECT id FROM bets WHERE event_id = $1 AND status = 'open'", [due._id])).toEqual([])
  expect(await cluster.query(`SELECT e.id FROM events e WHERE e.status = 'finished'
    AND EXISTS (SELECT 1 FROM markets m WHERE m.event_id = e.id AND m.status IN ('OPEN', 'SUSPENDED', 'CLOSED'))`)).toEqual([])
  await until("no event left settling", async () => (await cluster.query("SELECT id FROM events WHERE status = 'settling'")).length === 0, 120_000, 250)
  expect(await cluster.query("SELECT market_id FROM market_results GROUP BY market_id HAVING count(*) > 1")).toEqual([])
  const [results] = await cluster.query<{ n: number }>("SELECT count(*)::int AS n FROM market_results r JOIN markets m ON m.id = r.market_id WHERE m.event_id = $1", [due._id])
  const [all] = await cluster.query<{ n: number }>("SELECT count(*)::int AS n FROM markets WHERE event_id = $1", [due._id])
  expect(results!.n).toBe(all!.n)
  await before.server.start()
})

test("rolling restart: SIGTERM each server in turn under a steady stream of bets; every retry completes exactly once", async () => {
  const markets = (await preMatch()).filter((e) => e._id !== shown.event._id).slice(0, 6).map((e) => e.markets.find((m) => m.marketType === "EXCHANGE")!)
  const players = await streamPlayers(6)
  const stream = streamBets(cluster.url, players, markets, "roll")
  const restart = async (server: ClusterServer) => {
    const placed = stream.placed.size
    expect(await server.stop()).toBe(0)
    await server.start()
    await until(`bets to flow after ${server.id} came back`, async () => stream.placed.size >= placed + 20, 120_000, 100)
  }
  await until("the stream to be flowing", async () => stream.placed.size >= 20, 60_000, 100)
  for (const server of cluster.servers) await restart(server)
  await stream.stop()
  console.log(`rolling restart of ${cluster.servers.length} servers: ${stream.placed.size} bets placed, ${stream.refused.size} refused, ${stream.retried.size} answered only on a retry with the same key (failed tries by status: ${JSON.stringify(Object.fromEntries(stream.failed))})`)
  await expectStreamIntact(stream, players)
  // The browser still gets prices: its socket found a server again (its own, once back) and watches the event anew.
  const received = shown.booksA.length
  await until("the browser to receive prices after the restarts", async () => shown.booksA.length > received, 120_000)
  await expect(shown.pageA.getByRole("heading", { level: 1, name: shown.event.name })).toBeVisible()
})
