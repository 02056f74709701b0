import { gunzipSync } from "node:zlib"
import { describe, expect, it } from "vitest"
import { loginAs, rawRequest, useServer } from "./helpers.ts"

const server = useServer()

const raw = (path: string, headers: Record<string, string> = {}, method = "GET", body?: string) =>
  rawRequest(`${server.url}${path}`, { method, headers, ...(body === undefined ? {} : { body }) })

const GZIP = { "accept-encoding": "gzip, deflate" }

/** Two answers in a row with the same tag (the sports tree moves with the live simulation). */
const steady = async (path: string) => {
  for (let i = 0; i < 20; i++) {
    const plain = await raw(path)
    const zipped = await raw(path, GZIP)
    if (zipped.headers.etag === `W/${plain.headers.etag}`) return { plain, zipped }
  }
  throw new Error(`${path} never answered the same twice`)
}

describe("compressed answers", () => {
  it("sends the sports tree gzip to a client that takes it, the same envelope in a fifth of the bytes", async () => {
    const { plain, zipped } = await steady("/api/v1/get-sports-data")
    expect(plain.headers["content-encoding"]).toBeUndefined()
    expect(zipped.headers["content-encoding"]).toBe("gzip")
    expect(zipped.headers.vary).toBe("accept-encoding")
    expect(Number(zipped.headers["content-length"])).toBe(zipped.bytes.length)
    expect(gunzipSync(zipped.bytes).equals(plain.bytes)).toBe(true)
    expect(zipped.bytes.length).toBeLessThan(plain.bytes.length / 3)
    expect(JSON.parse(plain.bytes.toString()).meta).toEqual({ code: 200, message: "Success" })
  })

  it("keeps one tag per answer: the gzip body's is the same value, weak, and either form gets 304", async () => {
    const { plain, zipped } = await steady("/api/v1/advertisement")
    const strong = plain.headers.etag!
    expect(strong).toMatch(/^"[\w-]{32}"$/)
    expect(zipped.headers.etag).toBe(`W/${strong}`)
    for (const tag of [strong, `W/${strong}`]) {
      const zippedAgain = await raw("/api/v1/advertisement", { ...GZIP, "if-none-match": tag })
      expect(zippedAgain.status).toBe(304)
      expect(zippedAgain.bytes.length).toBe(0)
      expect(zippedAgain.headers.etag).toBe(`W/${strong}`)
      const plainAgain = await raw("/api/v1/advertisement", { "if-none-match": tag })
      expect(plainAgain.status).toBe(304)
      expect(plainAgain.headers.etag).toBe(strong)
    }
  })

  it("compresses a player's own answers too (the game lists, no tag)", async () => {
    const { token } = await loginAs(server, "demo")
    const auth = { authorization: `Bearer ${token}` }
    const plain = await raw("/api/v1/casino-games", auth)
    const zipped = await raw("/api/v1/casino-games", { ...auth, ...GZIP })
    expect(plain.status).toBe(200)
    expect(zipped.headers["content-encoding"]).toBe("gzip")
    expect(zipped.headers.etag).toBeUndefined()
    expect(JSON.parse(gunzipSync(zipped.bytes).toString())).toEqual(JSON.parse(plain.bytes.toString()))
  })

  it("honours the client's weights: gzip;q=0 or no gzip at all gets the plain answer, `*` covers gzip", async () => {
    for (const [acceptEncoding, coding] of [["gzip;q=0, br", undefined], ["br", undefined], ["identity", undefined], ["*", "gzip"], ["GZIP;q=0.5", "gzip"]] as const) {
      const answer = await raw("/api/v1/get-sports-data", { "accept-encoding": acceptEncoding })
      expect(answer.headers["content-encoding"], acceptEncoding).toBe(coding)
    }
  })

  it("leaves small answers, writing calls and errors as they are", async () => {
    const health = await raw("/api/v1/health", GZIP)
    expect(health.status).toBe(200)
    expect(health.bytes.length).toBeLessThan(1024)
    expect(health.headers["content-encoding"]).toBeUndefined()
    const bet = await raw("/api/v1/bet-sport", { ...GZIP, "content-type": "application/json" }, "POST", JSON.stringify({}))
    expect(bet.status).not.toBe(200)
    expect(bet.headers["content-encoding"]).toBeUndefined()
    expect(JSON.parse(bet.bytes.toString()).meta.code).toBe(bet.status)
  })
})
