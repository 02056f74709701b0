import { execFileSync, spawn } from "node:child_process"
import { Agent, get } from "node:http"
import type { Socket } from "node:net"
import { existsSync, writeFileSync } from "node:fs"
import { brotliDecompressSync, gunzipSync } from "node:zlib"
import { join } from "node:path"
import { io } from "socket.io-client"
import { describe, expect, it } from "vitest"
import { fakeDist, rawRequest, request, SERVER_START_TIMEOUT, signUpPlayer, startServer, tempDir, type TestServer, useServer } from "./helpers.ts"

const server = useServer({ config: () => ({ distDir: compressedDist() }) })

/** Every failure envelope names its request's trace (32 hex digits, W3C trace context). */
const TRACE_ID = expect.stringMatching(/^[0-9a-f]{32}$/)

/** A script big enough to compress, with the twins the build writes (scripts/compress.ts, run as `npm run build` runs it). */
const BIG_SCRIPT = Array.from({ length: 300 }, (_, i) => `export const price${i} = (stake) => stake * ${1 + i / 100};`).join("\n")
const compressedDist = () => {
  const dir = fakeDist()
  writeFileSync(join(dir, "assets", "big-abc123.js"), BIG_SCRIPT)
  writeFileSync(join(dir, "first-chunks.json"), JSON.stringify({ "/event": ["/assets/big-abc123.js", "/assets/app-abc123.js", "/promo-poster.webp"] }))
  execFileSync(process.execPath, ["scripts/compress.ts", dir])
  return dir
}

const rawGet = (url: string, acceptEncoding: string) => rawRequest(url, { headers: { "accept-encoding": acceptEncoding } })

describe("foundation API", () => {
  it("answers health with the engine in use", async () => {
    const res = await request(server.url, "/api/v1/health")
    expect(res.status).toBe(200)
    expect(res.body.meta).toEqual({ code: 200, message: "Success" })
    expect(res.body.data.status).toBe("ok")
    expect(res.body.data.database).toBe(server.engine)
  })

  it("serves sports -> leagues -> events with Cricket, Football and Tennis first", async () => {
    const res = await request(server.url, "/api/v1/get-sports-data")
    expect(res.status).toBe(200)
    const sports = res.body.data as Array<{ name: string; slugName: string; leagues: Array<{ events: Array<{ date: string; inPlay: boolean; markets: Array<{ runners: unknown[] }> }> }> }>
    expect(sports.slice(0, 3).map((s) => s.name)).toEqual(["Cricket", "Football", "Tennis"])
    expect(sports.map((s) => s.slugName)).toEqual(expect.arrayContaining(["kabaddi", "basketball", "horse-racing", "greyhound-racing"]))
    const events = sports.flatMap((s) => s.leagues.flatMap((l) => l.events))
    expect(events.some((e) => e.inPlay)).toBe(true)
    const now = Date.now()
    const day = 24 * 3600_000
    expect(events.some((e) => !e.inPlay && Date.parse(e.date) - now < day)).toBe(true)
    expect(events.some((e) => Date.parse(e.date) - now > 2 * day)).toBe(true)
    for (const event of events) {
      expect(event.markets.length).toBeGreaterThan(0)
      for (const market of event.markets) expect(market.runners.length).toBeGreaterThan(0)
    }
  })

  it("serves site settings, contacts and socials", async () => {
    const site = await request(server.url, "/api/v1/app-settings")
    expect(site.body.data.siteTitle).toMatch(/Khel/)
    expect(site.body.data.logoImg).toMatch(/^data:image\//)
    expect(site.body.data.faviconImg).toMatch(/^data:image\//)
    expect(site.body.data.color).toMatch(/^#[0-9a-f]{6}$/i)
    const all = await request(server.url, "/api/v1/get-all-app-settings")
    expect(all.body.data.contacts.helpline).toBeTruthy()
    expect(all.body.data.socials.length).toBeGreaterThan(0)
  })

  it("serves banners in order with base64 images", async () => {
    const res = await request(server.url, "/api/v1/advertisement")
    const banners = res.body.data as Array<{ order: number; baseImage: string }>
    expect(banners.length).toBeGreaterThan(1)
    expect(banners.map((b) => b.order)).toEqual([...banners.map((b) => b.order)].sort((a, b) => a - b))
    for (const banner of banners) expect(banner.baseImage).toMatch(/^data:image\/webp;base64,/)
  })

  it("answers unknown API paths and methods with a 404 envelope", async () => {
    for (const [method, path] of [["GET", "/api/v1/nope"], ["POST", "/api/v1/get-sports-data"], ["DELETE", "/identity/user/whatever"]] as const) {
      const res = await request(server.url, path, { method })
      expect(res.status).toBe(404)
      expect(res.body).toEqual({ meta: { code: 404, message: expect.stringContaining(path), error: "NotFound", traceId: TRACE_ID }, data: null })
    }
  })

  it("answers malformed JSON and wrong types with a 400 envelope naming the problem, and keeps serving", async () => {
    const malformed = await fetch(`${server.url}/identity/user/login`, { method: "POST", headers: { "content-type": "application/json" }, body: "{not json" })
    expect(malformed.status).toBe(400)
    expect(await malformed.json()).toEqual({ meta: { code: 400, message: expect.stringMatching(/JSON/), error: "InvalidInput", traceId: TRACE_ID }, data: null })
    const wrong = await request(server.url, "/identity/user/login", { method: "POST", json: { username: ["demo"], password: 1 } })
    expect(wrong.status).toBe(400)
    expect(wrong.body.meta.message).toMatch(/username/)
    expect(JSON.stringify(wrong.body)).not.toMatch(/at .*\.ts:\d+/)
    const empty = await fetch(`${server.url}/identity/user/login`, { method: "POST" })
    expect(empty.status).toBe(400)
    expect((await request(server.url, "/api/v1/health")).status).toBe(200)
  })

  it("answers a bad query with a 400 envelope, never a stack trace", async () => {
    const res = await request(server.url, "/api/v1/get-sports-data?%E0%A4%A=1")
    expect(res.status).toBe(400)
    expect(res.body).toEqual({ meta: { code: 400, message: "The address is not valid: it has a broken %-escape.", error: "InvalidInput", traceId: TRACE_ID }, data: null })
  })

  it("serves the build's brotli twin to a client that takes it, else its gzip twin, else the file", async () => {
    const url = `${server.url}/assets/big-abc123.js`
    const br = await rawGet(url, "gzip, deflate, br, zstd")
    expect(br.headers["content-encoding"]).toBe("br")
    expect(br.headers.vary).toBe("accept-encoding")
    expect(brotliDecompressSync(br.bytes).toString()).toBe(BIG_SCRIPT)
    const gzip = await rawGet(url, "gzip, br;q=0")
    expect(gzip.headers["content-encoding"]).toBe("gzip")
    expect(gunzipSync(gzip.bytes).toString()).toBe(BIG_SCRIPT)
    expect(br.bytes.length).toBeLessThan(gzip.bytes.length)
    const plain = await rawGet(url, "identity")
    expect(plain.headers["content-encoding"]).toBeUndefined()
    expect(plain.bytes.toString()).toBe(BIG_SCRIPT)
    // A twin is never served by its own name.
    expect((await fetch(`${url}.br`)).status).toBe(404)
    expect((await fetch(`${url}.gz`)).status).toBe(404)
  })

  it("serves the site: SPA fallback without cache, hashed assets cached for a year", async () => {
    const page = await fetch(`${server.url}/event?sport=cricket`)
    expect(page.status).toBe(200)
    expect(page.headers.get("cache-control")).toBe("no-cache")
    expect(await page.text()).toContain("Khel test")
    // The scripts and the image the build names for a path go with its HTML (vite.config.ts `firstChunks`); other
    // paths get none.
    expect(page.headers.get("link")).toBe(
      "</promo-poster.webp>; rel=preload; as=image; fetchpriority=high, </assets/big-abc123.js>; rel=modulepreload, </assets/app-abc123.js>; rel=modulepreload"
    )
    expect((await fetch(`${server.url}/statements`)).headers.get("link")).toBeNull()
    const asset = await fetch(`${server.url}/assets/app-abc123.js`)
    expect(asset.headers.get("cache-control")).toContain("immutable")
    expect(asset.headers.get("content-type")).toContain("javascript")
    const missing = await fetch(`${server.url}/assets/missing.js`)
    expect(missing.status).toBe(404)
    const traversal = await fetch(`${server.url}/assets/..%2f..%2fetc%2fpasswd`)
    expect(await traversal.text()).not.toContain("root:")
  })

  it("carries socket.io on the same port, over polling and websocket", async () => {
    for (const transport of ["polling", "websocket"] as const) {
      const socket = io(server.url, { transports: [transport], reconnection: false })
      await new Promise<void>((resolve, reject) => {
        socket.on("connect", () => resolve())
        socket.on("connect_error", reject)
      })
      expect(socket.connected).toBe(true)
      socket.close()
    }
  })

  it("keeps an idle kept-alive connection open past a client's idle time, so reusing it is never reset", async () => {
    // Node closes idle connections after 5 s by default: a client (nginx, a browser, a test's request context)
    // reusing one just then gets ECONNRESET. One connection, used, idle for 6 s, used again: the same socket.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 })
    const socketOf = () =>
      new Promise<Socket>((resolve, reject) => {
        const req = get(`${server.url}/health`, { agent }, (res) => {
          res.resume()
          res.on("end", () => resolve(req.socket!))
        })
        req.on("error", reject)
      })
    const first = await socketOf()
    await new Promise((resolve) => setTimeout(resolve, 6_000))
    expect(await socketOf()).toBe(first)
    agent.destroy()
  })
})

/** Tests that start servers of their own: a start takes seconds on an idle machine and a minute or more on a loaded one. */

describe("the embedded database", () => {
  it.runIf(!process.env.DATABASE_URL)("refuses a second server on the same data folder", async () => {
    await expect(startServer({ dataDir: server.dataDir })).rejects.toThrow(/in use by another Khel server/)
  })

  it.runIf(!process.env.DATABASE_URL)("keeps its data across restarts and seeds only once", async () => {
    const dataDir = tempDir("restart")
    const first = await startServer({ dataDir })
    const player = await signUpPlayer(first)
    const counts = (server: TestServer) =>
      server.sql((sql) => sql<{ sports: number; seeds: number; users: number; banners: number }>`
        SELECT (SELECT count(*)::int FROM sports) AS sports, (SELECT count(*)::int FROM demo_seed) AS seeds,
               (SELECT count(*)::int FROM users) AS users, (SELECT count(*)::int FROM banners) AS banners
      `)
    const [before] = await counts(first)
    await first.close()
    const second = await startServer({ dataDir })
    // The odds simulator moves the catalogue on between starts; what was stored and seeded stays as it was.
    const [after] = await counts(second)
    expect(after).toEqual(before)
    expect(after!.sports).toBe(7)
    const profile = await request(second.url, "/api/v1/getUserData", { token: player.token })
    expect(profile.body.data.id).toBe(player.user.id)
    await second.close()
  }, SERVER_START_TIMEOUT)
})

describe("the server process", () => {
  it("stops cleanly on SIGTERM and releases the data folder", async () => {
    const dataDir = tempDir("sigterm")
    const child = spawn(process.execPath, ["server/main.ts"], {
      env: { ...process.env, PORT: "0", METRICS_PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, DATABASE_URL: "", LOG_FORMAT: "json" },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    const port = await new Promise<number>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        output += chunk.toString()
        const match = /Listening on http:\/\/[^:]+:(\d+)/.exec(output)
        if (match) resolve(Number(match[1]))
      }
      child.stdout.on("data", onData)
      child.stderr.on("data", onData)
      child.on("exit", () => reject(new Error(`server exited early: ${output}`)))
    })
    const health = await request(`http://127.0.0.1:${port}`, "/api/v1/health")
    expect(health.status).toBe(200)
    // Logs are structured: one JSON object per line.
    const firstLine = output.split("\n").find((line) => line.trim())!
    expect(() => JSON.parse(firstLine)).not.toThrow()
    expect(existsSync(join(dataDir, "khel.lock"))).toBe(true)
    child.kill("SIGTERM")
    const code = await new Promise<number | null>((resolve) => child.on("exit", (c) => resolve(c)))
    expect(code).toBe(0)
    expect(existsSync(join(dataDir, "khel.lock"))).toBe(false)
  }, SERVER_START_TIMEOUT)
})

