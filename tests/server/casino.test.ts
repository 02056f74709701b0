import { createHash } from "node:crypto"
import sharp from "sharp"
import { describe, expect, it } from "vitest"
import { verifyRound } from "../../server/casino/khel/fair.js"
import { LIVE_CATEGORIES, OTHER, SLOT_CATEGORIES } from "../../src/domain/casino.ts"
import { launch, ledgerCount, mainBalance, today, walletCall } from "./casino-support.ts"
import { expectLedgerVerifies, loginAs, request, signUpPlayer, useServer } from "./helpers.ts"
import { agentToken } from "./desk-support.ts"

const server = useServer({ signIn: ["admin"] })

interface Game {
  _id: string
  table_id: string
  game_id: string
  provider: string
  provider_name: string
  game_category: string
  game_images: string
  title: string
}

const games = async (path: string) => {
  const res = await request(server.url, path)
  expect(res.status).toBe(200)
  return res.body.data as Array<Game>
}

const funded = async (rupees: number) => {
  const signed = await signUpPlayer(server)
  const res = await request(server.url, "/api/v1/admin/credit", { method: "POST", token: server.admin, json: { user: signed.user.username, amount: rupees } })
  expect(res.status).toBe(200)
  return signed
}

describe("lobbies", () => {
  it("lists live tables of Ezugi, Evolution and Khel Originals under the categories of SPEC section 9", async () => {
    const live = await games("/api/v1/casino-games")
    expect(new Set(live.map((g) => g.provider))).toEqual(new Set(["ezugi", "evolution", "khel"]))
    for (const game of live) {
      expect([...LIVE_CATEGORIES[game.provider]!, OTHER]).toContain(game.game_category)
      expect(game.table_id).not.toBe("")
      expect(game.game_images).toMatch(new RegExp(`^/images/${game.provider}/[a-z0-9-]+/[a-z0-9-]+\\.png$`))
    }
    // Categories a provider does not list fall back to Other.
    expect(live.find((g) => g.provider === "evolution" && g.title === "Lightning Lotto")!.game_category).toBe(OTHER)
    expect(live.find((g) => g.provider === "ezugi" && g.title === "Casino Hold'em")!.game_category).toBe(OTHER)
    expect(live.find((g) => g.provider === "evolution" && g.title === "Casino Hold'em")!.game_category).toBe("Poker")
    // The playable tables come first.
    expect(live.slice(0, 2).map((g) => g.provider)).toEqual(["khel", "khel"])
  })

  it("lists slots with ?slots=true, and SA Gaming on its own", async () => {
    const slots = await games("/api/v1/casino-games?slots=true")
    expect(slots.length).toBeGreaterThan(5)
    for (const game of slots) expect(SLOT_CATEGORIES).toContain(game.game_category)
    expect(slots[0]!.title).toBe("Lucky Lotus")
    const sa = await games("/api/v1/sa-casino-games")
    expect(sa.length).toBeGreaterThan(3)
    expect(new Set(sa.map((g) => g.provider))).toEqual(new Set(["sa"]))
    expect(sa.find((g) => g.title === "Fan Tan")!.game_category).toBe(OTHER)
    const bad = await request(server.url, "/api/v1/casino-games?slots=maybe")
    expect(bad.status).toBe(400)
  })

  it("serves every game's artwork as a 320x200 PNG, or WebP where taken, with long caching and an ETag", async () => {
    const all = [...(await games("/api/v1/casino-games")), ...(await games("/api/v1/casino-games?slots=true")), ...(await games("/api/v1/sa-casino-games"))]
    const seen = new Set<string>()
    for (const game of all.slice(0, 12)) {
      const res = await fetch(`${server.url}${game.game_images}`)
      expect(res.status).toBe(200)
      expect(res.headers.get("content-type")).toBe("image/png")
      expect(Number(/max-age=(\d+)/.exec(res.headers.get("cache-control") ?? "")?.[1])).toBeGreaterThanOrEqual(30 * 24 * 3600)
      const png = Buffer.from(await res.arrayBuffer())
      const meta = await sharp(png).metadata()
      expect([meta.format, meta.width, meta.height]).toEqual(["png", 320, 200])
      expect(png.length).toBeLessThan(20_000)
      seen.add(createHash("sha1").update(png).digest("hex"))
      const again = await fetch(`${server.url}${game.game_images}`, { headers: { "if-none-match": res.headers.get("etag")! } })
      expect(again.status).toBe(304)
    }
    expect(seen.size).toBe(12)
    // A browser that takes WebP (as Chromium's image requests say) gets the same artwork in about half the bytes.
    const accept = { accept: "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8" }
    let pngBytes = 0
    let webpBytes = 0
    for (const game of all.slice(0, 12)) {
      const png = Buffer.from(await (await fetch(`${server.url}${game.game_images}`)).arrayBuffer())
      const res = await fetch(`${server.url}${game.game_images}`, { headers: accept })
      expect(res.headers.get("content-type")).toBe("image/webp")
      expect(res.headers.get("vary")).toBe("accept")
      const webp = Buffer.from(await res.arrayBuffer())
      const meta = await sharp(webp).metadata()
      expect([meta.format, meta.width, meta.height]).toEqual(["webp", 320, 200])
      expect(webp.length).toBeLessThan(png.length)
      pngBytes += png.length
      webpBytes += webp.length
      const again = await fetch(`${server.url}${game.game_images}`, { headers: { ...accept, "if-none-match": res.headers.get("etag")! } })
      expect(again.status).toBe(304)
    }
    expect(webpBytes).toBeLessThan(pngBytes * 0.7)
    for (const path of ["/images/khel/roulette/khel-dragon-tiger.png", "/images/khel/dragon-tiger/nope.png", "/images/khel/dragon-tiger/khel-dragon-tiger.jpg"]) {
      expect((await fetch(`${server.url}${path}`)).status).toBe(404)
    }
  })

  it("names each lobby's first card's artwork with the lobby's page, so it loads beside the JavaScript", async () => {
    const pages = [["/live-casino", "/api/v1/casino-games"], ["/slots", "/api/v1/casino-games?slots=true"], ["/sa-casino", "/api/v1/sa-casino-games"]]
    for (const [page, api] of pages) {
      const [first] = await games(api!)
      const res = await fetch(`${server.url}${page}`)
      expect(res.status).toBe(200)
      expect(res.headers.get("link")).toBe(`<${first!.game_images}>; rel=preload; as=image; fetchpriority=high`)
    }
    // Other pages have nothing only the server could name.
    for (const page of ["/", "/sports", "/event"]) expect((await fetch(`${server.url}${page}`)).headers.get("link")).toBeNull()
  })
})

describe("launch rules", () => {
  it("asks a visitor to log in (401) and answers 404 for a game that does not exist", async () => {
    const visitor = await request(server.url, "/api/v1/live-casino-dcs/khel-dt-1")
    expect(visitor.status).toBe(401)
    const { token } = await signUpPlayer(server)
    const unknown = await request(server.url, "/api/v1/live-casino-dcs/no-such-table", { token })
    expect(unknown.status).toBe(404)
    expect(unknown.body.meta.message).toBe("There is no such game.")
    // SA Gaming games launch on their own path only.
    expect((await request(server.url, "/api/v1/live-casino-dcs/sa-baccarat-c01", { token })).status).toBe(404)
  })

  it("answers an empty URL for a game that cannot be played now (Game Not Available)", async () => {
    const { token } = await signUpPlayer(server)
    for (const path of ["/api/v1/live-casino-dcs/LightningTable01", "/api/v1/live-casino-dcs/netent-starburst", "/api/v1/sa-casino/sa-baccarat-c01"]) {
      const res = await request(server.url, path, { token })
      expect(res.status).toBe(200)
      expect(res.body).toEqual({ meta: { code: 200, message: "Game Not Available" }, data: "" })
    }
  })

  it("answers the game's URL, by table_id for live tables and by game_id for slots, with a one-off token", async () => {
    const { token } = await signUpPlayer(server)
    const table = await launch(server, token, "khel-dt-1")
    expect(table.url.pathname).toBe("/games/khel/dragon-tiger")
    expect(table.url.searchParams.get("lobby")).toBe("/live-casino")
    expect(table.token).toMatch(/^[0-9a-f]{48}$/)
    const slot = await launch(server, token, "lucky-lotus")
    expect(slot.url.pathname).toBe("/games/khel/lucky-lotus")
    expect(slot.url.searchParams.get("lobby")).toBe("/slots")
    expect(slot.token).not.toBe(table.token)
  })

  it("lets credit players play unless the operator disallows it; operators never play", async () => {
    const credit = (await loginAs(server, "credit")).token
    expect((await launch(server, credit)).token).toBeTruthy()
    expect((await request(server.url, "/api/v1/admin/casino-settings", { method: "PUT", token: server.admin, json: { creditPlayersAllowed: false } })).status).toBe(200)
    const refused = await request(server.url, "/api/v1/live-casino-dcs/khel-dt-1", { token: credit })
    expect(refused.status).toBe(403)
    expect(refused.body.meta.message).toBe("Casino games are not available on credit accounts.")
    const player = await signUpPlayer(server)
    expect((await launch(server, player.token)).token).toBeTruthy()
    expect((await request(server.url, "/api/v1/admin/casino-settings", { method: "PUT", token: server.admin, json: { creditPlayersAllowed: true } })).status).toBe(200)
    expect((await launch(server, credit)).token).toBeTruthy()
    expect((await request(server.url, "/api/v1/live-casino-dcs/khel-dt-1", { token: await agentToken(server) })).status).toBe(403)
    // Staff have no session on the player site at all.
    expect((await request(server.url, "/api/v1/live-casino-dcs/khel-dt-1", { token: server.admin })).status).toBe(401)
  })
})

describe("operators", () => {
  it("keep the catalogue: add, rename, recategorise, disable; players get 403", async () => {
    const { token } = await signUpPlayer(server)
    expect((await request(server.url, "/api/v1/admin/casino-games", { token })).status).toBe(403)
    const added = await request(server.url, "/api/v1/admin/casino-games", {
      method: "POST",
      token: server.admin,
      json: { provider: "ezugi", kind: "live", table_id: "999001", game_id: "ezugi-test-table", title: "Test Table", category: "Keno" }
    })
    expect(added.status).toBe(200)
    expect(added.body.data).toMatchObject({ game_category: OTHER, category: "Keno", enabled: true, game_images: "/images/ezugi/other/test-table.png" })
    const id = added.body.data._id as string
    expect((await games("/api/v1/casino-games")).some((g) => g._id === id)).toBe(true)

    const clash = await request(server.url, "/api/v1/admin/casino-games", {
      method: "POST",
      token: server.admin,
      json: { provider: "ezugi", kind: "live", table_id: "999001", game_id: "another", title: "Another", category: "Roulette" }
    })
    expect(clash.status).toBe(409)
    const noTable = await request(server.url, "/api/v1/admin/casino-games", {
      method: "POST",
      token: server.admin,
      json: { provider: "ezugi", kind: "live", game_id: "another", title: "Another", category: "Roulette" }
    })
    expect(noTable.status).toBe(400)

    const renamed = await request(server.url, `/api/v1/admin/casino-games/${id}`, { method: "PUT", token: server.admin, json: { title: "Keno Live", category: "Dice Games" } })
    expect(renamed.body.data).toMatchObject({ title: "Keno Live", game_category: "Dice Games", game_images: "/images/ezugi/dice-games/keno-live.png" })
    expect((await fetch(`${server.url}/images/ezugi/dice-games/keno-live.png`)).status).toBe(200)

    await request(server.url, `/api/v1/admin/casino-games/${id}`, { method: "PUT", token: server.admin, json: { enabled: false } })
    expect((await games("/api/v1/casino-games")).some((g) => g._id === id)).toBe(false)
    const closed = await request(server.url, "/api/v1/live-casino-dcs/999001", { token })
    expect(closed.body.data).toBe("")
    expect((await request(server.url, `/api/v1/admin/casino-games/nope`, { method: "PUT", token: server.admin, json: { enabled: true } })).status).toBe(404)
  })

  it("connect a partner: its launch URL template and a wallet secret shown once", async () => {
    const bad = await request(server.url, "/api/v1/admin/casino-providers/evolution", { method: "PUT", token: server.admin, json: { launchUrl: "javascript:alert(1)" } })
    expect(bad.status).toBe(400)
    const connected = await request(server.url, "/api/v1/admin/casino-providers/evolution", {
      method: "PUT",
      token: server.admin,
      json: { launchUrl: "https://play.evolution.example/launch?table={table_id}&token={token}", rotateSecret: true }
    })
    expect(connected.status).toBe(200)
    expect(connected.body.data).toMatchObject({ code: "evolution", hasWalletSecret: true, walletSecret: expect.stringMatching(/^[0-9a-f]{64}$/) })
    const listed = await request(server.url, "/api/v1/admin/casino-providers", { token: server.admin })
    expect(listed.body.data.find((p: { code: string }) => p.code === "evolution")).not.toHaveProperty("walletSecret")
    const { token } = await signUpPlayer(server)
    const res = await request(server.url, "/api/v1/live-casino-dcs/LightningTable01", { token })
    expect(res.body.data).toMatch(/^https:\/\/play\.evolution\.example\/launch\?table=LightningTable01&token=[0-9a-f]{48}$/)
    await request(server.url, "/api/v1/admin/casino-providers/evolution", { method: "PUT", token: server.admin, json: { launchUrl: null } })
    expect((await request(server.url, "/api/v1/live-casino-dcs/LightningTable01", { token })).body.data).toBe("")
    expect((await request(server.url, "/api/v1/admin/casino-providers/nobody", { method: "PUT", token: server.admin, json: { active: false } })).status).toBe(404)
  })
})

describe("Khel Originals, played through its pages' API", () => {
  const table = (token: string, game: string) => request(server.url, "/games/khel/api/table", { method: "POST", json: { token, game } })
  const play = (token: string, game: string, bets: Record<string, number>, commit: string, clientSeed = "player-seed") =>
    request(server.url, "/games/khel/api/play", { method: "POST", json: { token, game, bets, clientSeed, commit } })

  it("serves the game page with its security headers, and its files for a year", async () => {
    const { token } = await signUpPlayer(server)
    const { url } = await launch(server, token)
    const page = await fetch(`${server.url}${url.pathname}${url.search}`)
    expect(page.status).toBe(200)
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'")
    expect(page.headers.get("referrer-policy")).toBe("no-referrer")
    const html = await page.text()
    expect(html).toContain('href="/live-casino"')
    const assets = [...html.matchAll(/(?:href|src)="(\/games\/khel\/assets\/[^"]+)"/g)].map((m) => m[1]!)
    expect(assets).toHaveLength(2)
    for (const asset of [...assets, assets[1]!.replace("table.js", "fair.js")]) {
      const res = await fetch(`${server.url}${asset}`)
      expect(res.status).toBe(200)
      expect(res.headers.get("cache-control")).toContain("immutable")
    }
    expect((await fetch(`${server.url}/games/khel/dragon-tiger`)).status).toBe(400)
    expect((await fetch(`${server.url}/games/khel/poker?token=x`)).status).toBe(404)
    // The back link only ever leads to a lobby of this site.
    const evil = await (await fetch(`${server.url}/games/khel/dragon-tiger?token=x&lobby=https://evil.example`)).text()
    expect(evil).toContain('href="/"')
    expect(evil).not.toContain("evil.example")
  })

  it("plays a round: commits the seed first, debits the stake, credits the return, and the round verifies", async () => {
    const player = await funded(10_000)
    const { token } = await launch(server, player.token)
    const opened = await table(token, "dragon-tiger")
    expect(opened.status).toBe(200)
    expect(opened.body.data).toMatchObject({ game: "dragon-tiger", balance: 10_000, nonce: 0, history: [] })
    const commit = opened.body.data.commit as string

    const res = await play(token, "dragon-tiger", { dragon: 1000, tie: 100 }, commit)
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const { round, balance, next, settled } = res.body.data
    expect(settled).toBe(true)
    expect(round).toMatchObject({ game: "dragon-tiger", stake: 1100, commit, nonce: 0, clientSeed: "player-seed" })
    expect(createHash("sha256").update(round.serverSeed).digest("hex")).toBe(commit)
    expect(await verifyRound(round)).toMatchObject({ commitMatches: true, outcomeMatches: true })
    const expected = round.outcome.winner === "dragon" ? 2000 : round.outcome.winner === "tie" ? 500 + 1200 : 0
    expect(round.win).toBe(expected)
    expect(balance).toBe(10_000 - 1100 + expected)
    expect(await mainBalance(server, player.user.id)).toBe(balance * 100)
    expect(next.nonce).toBe(1)
    expect(next.commit).not.toBe(commit)

    // The same commitment cannot be used twice.
    const replay = await play(token, "dragon-tiger", { dragon: 1000 }, commit)
    expect(replay.status).toBe(409)

    const bets = await request(server.url, `/api/v1/casino-bets-by-date?provider=khel&date=${today()}`, { token: player.token })
    expect(bets.body.data).toHaveLength(1)
    expect(bets.body.data[0]).toMatchObject({ roundId: round.roundId, title: "Khel Dragon Tiger", stake: 1100, win: expected, profitLoss: expected - 1100, status: "settled" })
    const all = await request(server.url, `/api/v1/casino-bets-by-date?provider=all&date=${today()}`, { token: player.token })
    expect(all.body.data).toHaveLength(1)

    const statement = await request(server.url, "/api/v1/account-statement", { token: player.token })
    const kinds = (statement.body.data.rows as Array<{ kind: string; description: string }>).map((r) => r.kind)
    expect(kinds).toContain("casino_debit")
    if (expected > 0) expect(kinds).toContain("casino_credit")
    await expectLedgerVerifies(server)
  })

  it("plays Andar Bahar and Lucky Lotus, keeping a verifiable history", async () => {
    const player = await funded(5_000)
    for (const [game, id, spot] of [["andar-bahar", "khel-ab-1", "bahar"], ["lucky-lotus", "lucky-lotus", "spin"]] as const) {
      const { token } = await launch(server, player.token, id)
      let commit = (await table(token, game)).body.data.commit as string
      for (let i = 0; i < 3; i++) {
        const res = await play(token, game, { [spot]: 100 }, commit, `seed${i}`)
        expect(res.status, JSON.stringify(res.body)).toBe(200)
        expect(await verifyRound(res.body.data.round)).toMatchObject({ commitMatches: true, outcomeMatches: true })
        commit = res.body.data.next.commit
      }
      const history = (await table(token, game)).body.data.history as Array<{ nonce: number }>
      expect(history.map((r) => r.nonce)).toEqual([2, 1, 0])
      // A token opens its own game only.
      expect((await table(token, game === "andar-bahar" ? "lucky-lotus" : "andar-bahar")).status).toBe(403)
    }
    expect(await ledgerCount(server, player.user.id, "casino_debit")).toBe(6)
    await expectLedgerVerifies(server)
  })

  it("refuses bad bets before any money moves, and a bet beyond the balance with the wallet's message", async () => {
    const player = await funded(150)
    const { token } = await launch(server, player.token)
    const commit = (await table(token, "dragon-tiger")).body.data.commit as string
    const invalid: Array<Record<string, number>> = [{ dragon: 50 }, { dragon: 100.5 }, { banker: 100 }, {}, { dragon: 200_000 }]
    for (const bets of invalid) {
      const res = await play(token, "dragon-tiger", bets, commit)
      expect(res.status, JSON.stringify(bets)).toBe(400)
    }
    expect((await request(server.url, "/games/khel/api/play", { method: "POST", json: { token, game: "dragon-tiger" } })).status).toBe(400)
    const broke = await play(token, "dragon-tiger", { dragon: 100, tiger: 100 }, commit)
    expect(broke.status).toBe(422)
    expect(broke.body.meta.message).toBe("Insufficient balance.")
    expect(await mainBalance(server, player.user.id)).toBe(150_00)
    expect((await table("not-a-token", "dragon-tiger")).status).toBe(403)
    await expectLedgerVerifies(server)
  })
})

describe("Khel Originals, recovering rounds left half-way", () => {
  it("credits a win that did not reach the wallet, and returns a stake whose debit was never confirmed", async () => {
    const player = await funded(1_000)
    const { token } = await launch(server, player.token)
    const opened = await request(server.url, "/games/khel/api/table", { method: "POST", json: { token, game: "dragon-tiger" } })
    expect(opened.status).toBe(200)
    const tokenHash = createHash("sha256").update(token).digest("hex")
    const stuck = async (status: "pending" | "settling", debited: boolean, win: number) => {
      const id = crypto.randomUUID()
      if (debited) expect((await walletCall(server, "debit", { token, transactionId: `${id}-bet`, roundId: id, amount: 100 })).status).toBe(200)
      await server.sql((sql) => sql`
        INSERT INTO khel_rounds (id, token_hash, player_id, game, bets, stake, client_seed, server_seed, commit_hash, nonce, outcome, win, status, created_at)
        VALUES (${id}, ${tokenHash}, ${player.user.id}, 'dragon-tiger', '{"dragon": 10000}'::jsonb, 10000, 'seed', ${"0".repeat(64)}, ${"0".repeat(64)}, 0,
                '{"game": "dragon-tiger", "dragon": 12, "tiger": 1, "winner": "dragon"}'::jsonb, ${win}, ${status}, now() - interval '2 minutes')
      `)
      return id
    }
    const won = await stuck("settling", true, 200_00)
    const unconfirmed = await stuck("pending", true, 0)
    const lost = await stuck("pending", false, 0)
    expect(await mainBalance(server, player.user.id)).toBe(800_00)

    const reopened = await request(server.url, "/games/khel/api/table", { method: "POST", json: { token, game: "dragon-tiger" } })
    expect(reopened.body.data.balance).toBe(1_100)
    const statuses = await server.sql((sql) => sql<{ id: string; status: string }>`SELECT id, status FROM khel_rounds WHERE token_hash = ${tokenHash}`)
    const statusOf = Object.fromEntries(statuses.map((r) => [r.id, r.status]))
    expect([statusOf[won], statusOf[unconfirmed], statusOf[lost]]).toEqual(["settled", "cancelled", "cancelled"])
    // The debit that never arrived is refused if it turns up now.
    expect((await walletCall(server, "debit", { token, transactionId: `${lost}-bet`, roundId: lost, amount: 100 })).status).toBe(409)
    expect(await ledgerCount(server, player.user.id, "casino_rollback")).toBe(1)
    expect(await ledgerCount(server, player.user.id, "casino_credit")).toBe(1)
    await expectLedgerVerifies(server)
  })
})

describe("casino-bets-by-date", () => {
  it("checks the provider and the date, and shows each player only their rounds", async () => {
    const { token } = await signUpPlayer(server)
    expect((await request(server.url, "/api/v1/casino-bets-by-date?provider=khel&date=2026-02-30", { token })).status).toBe(400)
    expect((await request(server.url, `/api/v1/casino-bets-by-date?provider=nobody&date=${today()}`, { token })).status).toBe(400)
    expect((await request(server.url, `/api/v1/casino-bets-by-date?date=${today()}`, { token })).status).toBe(400)
    const mine = await request(server.url, `/api/v1/casino-bets-by-date?provider=all&date=${today()}`, { token })
    expect(mine.body).toEqual({ meta: { code: 200, message: "Success" }, data: [] })
    expect((await request(server.url, `/api/v1/casino-bets-by-date?provider=all&date=${today()}`)).status).toBe(401)
  })
})
