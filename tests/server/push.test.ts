import { readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import webpush from "web-push"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { REMINDER_MINUTES } from "../../src/domain/push.ts"
import { Push } from "../../server/push/Push.ts"
import { type BrowserKeys, browserKeys, pushService, type PushService, readPush } from "../push.ts"
import { bet, catalogue, type CatalogueEvent, eventsOf, fund, marketOf, setPrice } from "./betting-support.ts"
import { loginAs, request, signUpPlayer, tempDir, type TestServer, useServer } from "./helpers.ts"
import { addUpi, approveDeposit, createDeposit, freshDatabase } from "./payments-support.ts"

/**
 * Web Push from the real server to a push service on this machine that
 * records what it receives: each message is checked as a browser would
 * (VAPID signature, aes128gcm decrypted with the browser's private key).
 */
process.env.ODDS_SIMULATOR = "off"

let service: PushService
beforeAll(async () => {
  service = await pushService()
})
afterAll(async () => {
  await service?.close()
})
const server = useServer({ config: () => ({ push: { vapid: undefined, subject: "mailto:ops@khel.test", services: [service.origin] } }), signIn: ["admin"] })
/** A player's session: the push key is a player's to ask for (staff sign in on the desk). */
let keyReader: string

beforeAll(async () => {
  keyReader = (await loginAs(server, "demo")).token
})

const settled = (on: TestServer = server) => on.run(Push.use((push) => push.settled))

const publicKeyOf = async (on: TestServer, token: string) => {
  const res = await request(on.url, "/api/v1/push-key", { token })
  expect(res.status).toBe(200)
  return res.body.data.publicKey as string
}

/** A player whose browser subscribed to notifications. */
const subscribed = async (on: TestServer = server) => {
  const player = await signUpPlayer(on)
  const keys = browserKeys()
  const endpoint = service.endpoint()
  const res = await request(on.url, "/api/v1/push-subscription", { method: "POST", token: player.token, json: keys.subscription(endpoint) })
  expect(res.status).toBe(200)
  return { ...player, keys, endpoint }
}

/** The one message that reached `endpoint`, read as the browser would. */
const onlyMessage = async (endpoint: string, keys: BrowserKeys) => {
  const messages = service.to(endpoint)
  expect(messages).toHaveLength(1)
  return readPush(messages[0]!, keys, service, await publicKeyOf(server, keyReader))
}

describe("notifications of money", () => {
  it("sends a player one encrypted, signed message when their deposit is approved, and nothing to anyone else", async () => {
    const player = await subscribed()
    const other = await subscribed()
    const before = service.received.length
    const deposit = await createDeposit(server, player.token, 500)
    expect(deposit.status).toBe(200)
    // Filing the request tells nobody; the operator's approval does.
    await settled()
    expect(service.received.length).toBe(before)
    expect((await approveDeposit(server, server.admin, deposit.body.data._id)).status).toBe(200)
    await settled()
    expect(await onlyMessage(player.endpoint, player.keys)).toEqual({
      kind: "deposit.approved",
      title: "Deposit approved",
      body: "₹500.00 is in your balance.",
      url: "/deposit",
      tag: `deposit:${deposit.body.data._id}`
    })
    expect(service.to(other.endpoint)).toEqual([])
    expect(service.received.length).toBe(before + 1)
  })

  it("tells the player when a withdrawal is paid, not when it is rejected", async () => {
    const player = await subscribed()
    await fund(server, player.user.id, 5000 * 100)
    const accountId = await addUpi(server, player.token)
    const ask = async (amount: number) => {
      const res = await request(server.url, "/api/v1/withdrawal-request", { method: "POST", token: player.token, json: { amount, accountId } })
      expect(res.status).toBe(200)
      return res.body.data._id as string
    }
    const rejected = await ask(300)
    expect((await request(server.url, `/api/v1/admin/withdrawal-requests/${rejected}/reject`, { method: "PUT", token: server.admin, json: {} })).status).toBe(200)
    const paid = await ask(1200)
    expect((await request(server.url, `/api/v1/admin/withdrawal-requests/${paid}/approve`, { method: "PUT", token: server.admin, json: {} })).status).toBe(200)
    await settled()
    expect(await onlyMessage(player.endpoint, player.keys)).toMatchObject({ kind: "withdrawal.paid", title: "Withdrawal paid", body: "₹1,200.00 is on its way to your account.", tag: `withdrawal:${paid}` })
  })
})

describe("notifications of bets", () => {
  it("tells a winner their bet won when the market settles, and the loser nothing", async () => {
    const winner = await subscribed()
    const loser = await subscribed()
    for (const p of [winner, loser]) await fund(server, p.user.id, 1000 * 100)
    const event = eventsOf(await catalogue(server), "football", false)[1]!
    const market = marketOf(event, "EXCHANGE")
    const [home] = market.runners.map((r) => r.selectionId)
    expect((await setPrice(server, server.admin, { marketId: market.marketId, selectionId: home, back: { price: 3, size: 1000 }, lay: { price: 3.1, size: 1000 }, status: "OPEN" })).status).toBe(200)
    expect((await bet(server, winner.token, "bet-sport", { marketId: market.marketId, selectionId: home, selectionType: "back", odds: 3, stake: 100 })).status).toBe(200)
    expect((await bet(server, loser.token, "bet-sport", { marketId: market.marketId, selectionId: home, selectionType: "lay", odds: 3.1, stake: 100 })).status).toBe(200)
    expect((await request(server.url, "/api/v1/admin/settle-market", { method: "POST", token: server.admin, json: { marketId: market.marketId, result: home } })).status).toBe(200)
    await settled()
    expect(await onlyMessage(winner.endpoint, winner.keys)).toEqual({
      kind: "bet.won",
      title: "Your bet won",
      body: `${event.name} · ${market.name}: you won ₹200.00.`,
      url: "/profit-loss",
      tag: `won:${market.marketId}`
    })
    expect(service.to(loser.endpoint)).toEqual([])
  })
})

describe("subscriptions", () => {
  it("makes the development key pair once, keeps it in the data folder, and serves its public key", async () => {
    const file = join(server.dataDir, "vapid.json")
    const stored = JSON.parse(readFileSync(file, "utf8")) as { publicKey: string }
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(await publicKeyOf(server, keyReader)).toBe(stored.publicKey)
    // A browser subscribes with it: an uncompressed P-256 point.
    expect(Buffer.from(stored.publicKey, "base64url")).toHaveLength(65)
    expect((await request(server.url, "/api/v1/push-key")).status).toBe(401)
  })

  it("takes only a push service's address and the browser's keys", async () => {
    const player = await signUpPlayer(server)
    const keys = browserKeys()
    const refused = async (json: unknown) => {
      const res = await request(server.url, "/api/v1/push-subscription", { method: "POST", token: player.token, json })
      expect(res.status).toBe(400)
      expect(res.body.meta.error).toBe("InvalidInput")
    }
    // The server would POST wherever a subscription points: only the push services it knows.
    for (const endpoint of ["http://169.254.169.254/latest/meta-data", "http://127.0.0.1:1/x", `${service.origin.replace("127.0.0.1", "localhost")}/x`, "not a url", `http://user:pw@${service.origin.slice(7)}/x`]) {
      await refused(keys.subscription(endpoint))
    }
    await refused({ endpoint: service.endpoint(), keys: { p256dh: "not base64url!", auth: "x" } })
    await refused({ endpoint: service.endpoint() })
    const stored = await server.sql((sql) => sql`SELECT endpoint FROM push_subscriptions WHERE user_id = ${player.user.id}`)
    expect(stored).toEqual([])
  })

  it("sends to each browser a player subscribed, removes a subscription its service dropped (410), and one the player turned off", async () => {
    const player = await subscribed()
    const phone = { keys: browserKeys(), endpoint: service.endpoint() }
    expect((await request(server.url, "/api/v1/push-subscription", { method: "POST", token: player.token, json: phone.keys.subscription(phone.endpoint) })).status).toBe(200)
    const approve = async () => {
      const deposit = await createDeposit(server, player.token, 200)
      expect((await approveDeposit(server, server.admin, deposit.body.data._id)).status).toBe(200)
      await settled()
    }
    await approve()
    expect((await onlyMessage(phone.endpoint, phone.keys) as { kind: string }).kind).toBe("deposit.approved")
    expect(service.to(player.endpoint)).toHaveLength(1)
    service.drop(phone.endpoint)
    await approve()
    // Tried once more, answered 410: gone.
    expect(service.to(phone.endpoint)).toHaveLength(2)
    const endpoints = async () => (await server.sql((sql) => sql<{ endpoint: string }>`SELECT endpoint FROM push_subscriptions WHERE user_id = ${player.user.id}`)).map((row) => row.endpoint)
    expect(await endpoints()).toEqual([player.endpoint])
    expect((await request(server.url, "/api/v1/push-subscription/remove", { method: "POST", token: player.token, json: { endpoint: player.endpoint } })).status).toBe(200)
    expect(await endpoints()).toEqual([])
    await approve()
    expect(service.to(player.endpoint)).toHaveLength(2)
    expect(service.to(phone.endpoint)).toHaveLength(2)
  })

  it("removes a session's subscriptions when the player logs out, and never sends to a session that ended", async () => {
    const player = await subscribed()
    expect((await request(server.url, "/identity/user/logout", { method: "POST", token: player.token, json: { user_id: player.user.id } })).status).toBe(200)
    const left = await server.sql((sql) => sql`SELECT endpoint FROM push_subscriptions WHERE user_id = ${player.user.id}`)
    expect(left).toEqual([])
    // Signed in again elsewhere, money still moves for the player: this browser hears nothing.
    const again = await request(server.url, "/identity/user/login", { method: "POST", json: { username: player.user.username, password: player.password } })
    const deposit = await createDeposit(server, again.body.meta.token, 300)
    expect((await approveDeposit(server, server.admin, deposit.body.data._id)).status).toBe(200)
    await settled()
    expect(service.to(player.endpoint)).toEqual([])
  })
})

/** An event of the catalogue that starts in `minutes` (moved there in the database: the demo's are days apart). */
const startingIn = async (on: TestServer, event: CatalogueEvent, minutes: number) =>
  on.sql((sql) => sql`UPDATE events SET starts_at = now() + ${`${minutes} minutes`}::interval, status = 'scheduled' WHERE id = ${event._id}`)

/** A subscribed player with a back bet on `event`'s match odds. */
const bettor = async (on: TestServer, event: CatalogueEvent, token: string) => {
  const player = await subscribed(on)
  await fund(on, player.user.id, 1000 * 100)
  const market = marketOf(event, "EXCHANGE")
  const home = market.runners[0]!.selectionId
  expect((await setPrice(on, token, { marketId: market.marketId, selectionId: home, back: { price: 2, size: 1000 }, lay: { price: 2.02, size: 1000 }, status: "OPEN" })).status).toBe(200)
  expect((await bet(on, player.token, "bet-sport", { marketId: market.marketId, selectionId: home, selectionType: "back", odds: 2, stake: 100 })).status).toBe(200)
  return player
}

describe("a match you bet on starts soon", () => {
  it(`reminds a player ${REMINDER_MINUTES} minutes before a match they bet on, once however often the server looks`, async () => {
    const [later, soon] = eventsOf(await catalogue(server), "tennis", false)
    const early = await bettor(server, later!, server.admin)
    const due = await bettor(server, soon!, server.admin)
    await startingIn(server, later!, REMINDER_MINUTES + 5)
    await startingIn(server, soon!, REMINDER_MINUTES - 1)
    const scans = await Promise.all([1, 2, 3].map(() => server.run(Push.use((push) => push.remindStarts))))
    await settled()
    expect(scans.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(1)
    await expect.poll(() => service.to(due.endpoint).length).toBe(1)
    expect(await onlyMessage(due.endpoint, due.keys)).toMatchObject({
      kind: "match.starting",
      title: `${soon!.name} starts in ${REMINDER_MINUTES} minutes`,
      url: expect.stringMatching(/^\/event\?sport=tennis&league=.+&event=.+/)
    })
    expect(service.to(early.endpoint)).toEqual([])
    // Looking again sends nothing more.
    await server.run(Push.use((push) => push.remindStarts))
    await settled()
    expect(service.to(due.endpoint)).toHaveLength(1)
  })
})

describe.runIf(process.env.DATABASE_URL)("several servers on one PostgreSQL", () => {
  let database: { url: string; drop: () => Promise<unknown> }
  const vapid = webpush.generateVAPIDKeys()

  beforeAll(async () => {
    database = await freshDatabase()
  })
  afterAll(async () => {
    await database?.drop()
  })
  const servers = (["a", "b", "c"] as const).map((name) => useServer({
    config: () => ({
      databaseUrl: database.url,
      dataDir: tempDir(`push-${name}`),
      push: { vapid, subject: "mailto:ops@khel.test", services: [service.origin] },
      ...(name === "a" ? {} : { seedDemo: false })
    })
  }))

  it("sends a match's reminder exactly once when every server looks at the same moment", async () => {
    const [a] = servers
    const token = (await loginAs(a!, "admin")).token
    const event = eventsOf(await catalogue(a!), "basketball", false)[0]!
    const player = await bettor(a!, event, token)
    await startingIn(a!, event, REMINDER_MINUTES - 2)
    await Promise.all(servers.flatMap((s) => [1, 2].map(() => s.run(Push.use((push) => push.remindStarts)))))
    // Each server's own scan every 30 s may be the one that sends: whichever did, one message arrives.
    await expect.poll(() => service.to(player.endpoint).length).toBe(1)
    await Promise.all(servers.map((s) => s.run(Push.use((push) => push.remindStarts))))
    await Promise.all(servers.map((s) => settled(s)))
    expect(service.to(player.endpoint)).toHaveLength(1)
    expect(readPush(service.to(player.endpoint)[0]!, player.keys, service, vapid.publicKey)).toMatchObject({ kind: "match.starting" })
  })
})
