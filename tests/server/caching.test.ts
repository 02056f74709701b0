import { describe, expect, it } from "vitest"
import { matchesEtag } from "../../server/edge/caching.ts"
import { loginAs, request, useServer } from "./helpers.ts"

const server = useServer()

describe("answers the same for everyone", () => {
  const policy = "public, no-cache"
  for (const path of ["/api/v1/get-sports-data", "/api/v1/app-settings", "/api/v1/get-all-app-settings", "/api/v1/advertisement"]) {
    it(`${path} carries an ETag and answers 304 to it`, async () => {
      // The sports tree moves with the live simulation (statuses, in play): a changed tree is a new tag, never a
      // 304; a few tries find two answers in a row that are the same.
      let first = await request(server.url, path)
      let again = await fetch(`${server.url}${path}`, { headers: { "if-none-match": first.headers.get("etag")! } })
      for (let i = 0; i < 20 && again.status !== 304; i++) {
        expect(again.status).toBe(200)
        expect(again.headers.get("etag")).not.toBe(first.headers.get("etag"))
        first = await request(server.url, path)
        again = await fetch(`${server.url}${path}`, { headers: { "if-none-match": first.headers.get("etag")! } })
      }
      expect(first.status).toBe(200)
      expect(first.body.meta).toEqual({ code: 200, message: "Success" })
      expect(first.headers.get("cache-control")).toBe(policy)
      const etag = first.headers.get("etag")!
      // fetch takes gzip: the tag of a compressed answer is weak (compression.test.ts).
      expect(etag).toMatch(/^W\/"[\w-]{32}"$/)
      expect(again.status).toBe(304)
      expect(await again.text()).toBe("")
      expect(again.headers.get("etag")).toBe(etag)
      // Another tag gets the whole envelope.
      const stale = await request(server.url, path, { headers: { "if-none-match": '"something-else"' } })
      expect(stale.status).toBe(200)
      expect(stale.body.meta).toEqual(first.body.meta)
    })
  }

  it("changes the sports tree's ETag when the catalogue changes", async () => {
    const before = (await request(server.url, "/api/v1/get-sports-data")).headers.get("etag")
    await server.sql((sql) => sql`UPDATE sports SET name = name || ' ' WHERE slug = 'kabaddi'`)
    // The tree is read from the database on each request: the next answer has another tag.
    const after = (await request(server.url, "/api/v1/get-sports-data")).headers.get("etag")
    expect(after).not.toBe(before)
  })

  it("keeps a signed-in player's answer private (offers are not shown to a self-excluded player)", async () => {
    const { token } = await loginAs(server, "demo")
    const banners = await request(server.url, "/api/v1/advertisement", { token })
    expect(banners.status).toBe(200)
    expect(banners.headers.get("cache-control")).toBe("private, no-cache")
  })

  it("reads If-None-Match as a list, with weak tags and *", () => {
    expect(matchesEtag('"a", W/"b"', '"b"')).toBe(true)
    expect(matchesEtag("*", '"b"')).toBe(true)
    expect(matchesEtag('"a"', '"b"')).toBe(false)
    expect(matchesEtag(undefined, '"b"')).toBe(false)
  })

  it("never lets a writing call be cached", async () => {
    const bet = await request(server.url, "/api/v1/bet-sport", { method: "POST", json: {} })
    expect(bet.headers.get("etag")).toBeNull()
    expect(bet.headers.get("cache-control")).toBe("no-store")
  })
})
