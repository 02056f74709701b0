import { createHash } from "node:crypto"
import { readFileSync, utimesSync, writeFileSync } from "node:fs"
import { request as httpRequest } from "node:http"
import { connect } from "node:net"
import { join } from "node:path"
import { beforeAll, describe, expect, it } from "vitest"
import { ErrorTag } from "../../src/schema/errors.ts"
import { Schema } from "effect"
import { fakeDist, request, signUpPlayer, useServer } from "./helpers.ts"

/** What arrives at the server before any handler: sizes, encodings, NUL, content types, headers. */
let dist: string
beforeAll(() => {
  dist = fakeDist()
  writeFileSync(join(dist, "assets", "app-abc123.js.map"), JSON.stringify({ version: 3, sources: ["src/secret.ts"] }))
})
const server = useServer({ config: () => ({ distDir: dist }), signIn: ["admin"] })
let player: Awaited<ReturnType<typeof signUpPlayer>>

beforeAll(async () => {
  player = await signUpPlayer(server)
})

const isTag = Schema.is(ErrorTag)

/** The failure envelope, with the HTTP status equal to meta.code and a known reason. */
const expectEnvelope = (res: { status: number; body: any }, status: number, tag?: string) => {
  expect(res.status).toBe(status)
  expect(res.body?.meta?.code, JSON.stringify(res.body)).toBe(status)
  expect(typeof res.body.meta.message).toBe("string")
  expect(isTag(res.body.meta.error)).toBe(true)
  if (tag) expect(res.body.meta.error).toBe(tag)
  expect(res.body.data).toBeNull()
}

/** A raw request whose body is written as we like: `declared` bytes announced, `sent` bytes written, or chunked. */
const rawPost = (path: string, options: { declared?: number; chunks: ReadonlyArray<Buffer>; contentType?: string }) =>
  new Promise<{ status: number; body: any; headers: Record<string, unknown> }>((resolve, reject) => {
    const url = new URL(path, server.url)
    const req = httpRequest(url, {
      method: "POST",
      headers: {
        "content-type": options.contentType ?? "application/json",
        ...(options.declared !== undefined ? { "content-length": String(options.declared) } : { "transfer-encoding": "chunked" })
      }
    }, (res) => {
      let text = ""
      res.on("data", (chunk) => (text += chunk))
      res.on("end", () => resolve({ status: res.statusCode!, body: JSON.parse(text), headers: res.headers }))
    })
    // The server may answer and close before the whole body is written.
    req.on("error", (error) => ((error as NodeJS.ErrnoException).code === "EPIPE" || (error as NodeJS.ErrnoException).code === "ECONNRESET" ? undefined : reject(error)))
    for (const chunk of options.chunks) req.write(chunk)
    if (options.declared === undefined) req.end()
  })

describe("body size", () => {
  it("answers 413 at once from Content-Length, without waiting for (or reading) a 200 MB body", async () => {
    const res = await rawPost("/identity/user/login", { declared: 200 * 1024 * 1024, chunks: [Buffer.from('{"username":"')] })
    expectEnvelope(res, 413, "PayloadTooLarge")
    expect(res.body.meta.message).toBe("The request is too large: at most 1 MB.")
    expect(res.headers.connection).toBe("close")
  })

  it("stops reading a chunked body past 1 MB and answers 413", async () => {
    const big = Buffer.alloc(1024 * 1024 + 10, "a")
    const res = await rawPost("/identity/user/login", { chunks: [Buffer.from('{"username":"'), big, Buffer.from('","password":"x"}')] })
    expectEnvelope(res, 413, "PayloadTooLarge")
  })

  it("lets a screenshot endpoint take up to 8 MB, and no more", async () => {
    const image = `data:image/png;base64,${"A".repeat(3 * 1024 * 1024)}`
    const fits = await request(server.url, "/api/v1/admin-deposit-request", {
      method: "POST",
      token: player.token,
      json: { amount: 500, accountId: "none", type: "upi", baseImage: image }
    })
    expect(fits.status).not.toBe(413)
    const tooBig = await request(server.url, "/api/v1/admin-deposit-request", {
      method: "POST",
      token: player.token,
      json: { amount: 500, accountId: "none", type: "upi", baseImage: `data:image/png;base64,${"A".repeat(9 * 1024 * 1024)}` }
    })
    expectEnvelope(tooBig, 413, "PayloadTooLarge")
    expect(tooBig.body.meta.message).toBe("The request is too large: at most 8 MB.")
    // Everywhere else 1 MB is the limit, signed in or not.
    const elsewhere = await request(server.url, "/api/v1/account-details", {
      method: "POST",
      token: player.token,
      json: { type: "upi", accountNumber: "a@ybl", accountHolderName: "x".repeat(2 * 1024 * 1024) }
    })
    expectEnvelope(elsewhere, 413)
  })
})

describe("NUL and invisible characters", () => {
  it("answers 400 to a NUL in any text of a body, never 500", async () => {
    const cases: Array<[string, string, unknown, string?]> = [
      ["POST", "/identity/user/login", { username: "de\u0000mo", password: "x" }],
      ["POST", "/identity/user/sign-up", { name: "A\u0000", mobile_no: "9876543210", password: "Monsoon#Tiffin42", confirmPassword: "Monsoon#Tiffin42", ageConfirmed: true, region: "MH" }],
      ["POST", "/identity/user/forgot-password", { mobile_no: "98765\u000043210" }],
      ["POST", "/api/v1/account-details", { type: "upi", accountNumber: "nul@ybl", accountHolderName: "Na\u0000me" }, player.token],
      ["POST", "/api/v1/bet-sport", { marketId: "1.\u0000", selectionId: "x", selectionType: "back", odds: 2, stake: 100 }, player.token],
      ["PUT", "/api/v1/claim-bonus", { bonusId: "\u0000" }, player.token],
      ["POST", "/api/v1/admin/credit", { user: "demo\u0000", amount: 1 }, server.admin]
    ]
    for (const [method, path, json, token] of cases) {
      const res = await request(server.url, path, { method, json, ...(token ? { token } : {}) })
      expectEnvelope(res, 400, "InvalidInput")
      expect(res.body.meta.message, path).toBe("Text must not contain the NUL character.")
    }
  })

  it("answers 400 to a NUL or a broken %-escape in the address, as the envelope on the API", async () => {
    for (const path of ["/api/v1/bet-sport-byMarket?marketId=%00", "/api/v1/live-casino-dcs/ab%00c", "/api/v1/casino-bets-by-date?provider=all&date=2026-01-0%001"]) {
      expectEnvelope(await request(server.url, path, { token: player.token }), 400, "InvalidInput")
    }
    expectEnvelope(await request(server.url, "/api/v1/%"), 400, "InvalidInput")
    expectEnvelope(await request(server.url, "/api/v1/get-sports-data?%E0%A4%A=1"), 400, "InvalidInput")
    // Outside the API: plain 400, still never a 500.
    const image = await fetch(`${server.url}/images/%00/x/y.png`)
    expect(image.status).toBe(400)
  })

  it("answers a NUL in a header, which Node's parser refuses, with the envelope", async () => {
    const url = new URL(server.url)
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => {
        socket.write("GET /api/v1/health HTTP/1.1\r\nHost: x\r\nIdempotency-Key: a\u0000b\r\n\r\n")
      })
      let text = ""
      socket.on("data", (chunk) => (text += chunk))
      socket.on("end", () => resolve(text))
      socket.on("error", reject)
    })
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/)
    expect(JSON.parse(answer.split("\r\n\r\n")[1]!)).toEqual({ meta: { code: 400, message: "The request could not be understood.", error: "InvalidInput" }, data: null })
  })

  it("strips bidirectional controls from names and account holder names", async () => {
    const someone = await signUpPlayer(server, { name: "Ravi\u202Etnuocca\u2066 Kumar\u2069" })
    const me = await request(server.url, "/api/v1/getUserData", { token: someone.token })
    expect(me.body.data.name).toBe("Ravitnuocca Kumar")
    const added = await request(server.url, "/api/v1/account-details", {
      method: "POST",
      token: someone.token,
      json: { type: "upi", accountNumber: "ravi@ybl", accountHolderName: "\u202ERavi\u202C Kumar" }
    })
    expect(added.status).toBe(200)
    expect(added.body.data.accountHolderName).toBe("Ravi Kumar")
    const onlyControls = await request(server.url, "/api/v1/account-details", {
      method: "POST",
      token: someone.token,
      json: { type: "upi", accountNumber: "ravi2@ybl", accountHolderName: "\u202E\u2066\u2069" }
    })
    expectEnvelope(onlyControls, 400)
    expect(onlyControls.body.meta.message).toBe("Please fill all Fields")
    const operator = await request(server.url, "/api/v1/admin/deposit-accounts", {
      method: "POST",
      token: server.admin,
      json: { type: "upi", accountNumber: "khel.bidi@okaxis", accountHolderName: "Khel\u202E Gaming" }
    })
    expect(operator.body.data.accountHolderName).toBe("Khel Gaming")
  })

  it("keeps every name in its plain form: no zero-width characters, soft hyphens or styled letters", async () => {
    const someone = await signUpPlayer(server, { name: "Ｓｉｔａ\u00AD Dev\u200Bi" })
    expect((await request(server.url, "/api/v1/getUserData", { token: someone.token })).body.data.name).toBe("Sita Devi")
    const added = await request(server.url, "/api/v1/account-details", {
      method: "POST",
      token: someone.token,
      json: { type: "bank", accountNumber: "50100012345678", accountHolderName: "Ram\u200BKumar\u2060", bankName: "HDFC\uFEFF Bank", ifscCode: "HDFC0001234" }
    })
    expect(added.status).toBe(200)
    expect(added.body.data).toMatchObject({ accountHolderName: "RamKumar", bankName: "HDFC Bank" })
    const invisible = await request(server.url, "/api/v1/account-details", {
      method: "POST",
      token: someone.token,
      json: { type: "upi", accountNumber: "sita.devi@ybl", accountHolderName: "\u200B\u00AD\u200D" }
    })
    expect(invisible.body.meta.message).toBe("Please fill all Fields")
  })
})

describe("every API answer is the envelope", () => {
  it("answers a body that is not JSON with 415", async () => {
    const res = await request(server.url, "/identity/user/login", { method: "POST", body: "username=demo&password=x", headers: { "content-type": "text/plain" } })
    expectEnvelope(res, 415, "UnsupportedMediaType")
    const gzip = await request(server.url, "/identity/user/login", { method: "POST", body: "{}", headers: { "content-type": "application/json", "content-encoding": "gzip" } })
    expectEnvelope(gzip, 415, "UnsupportedMediaType")
  })

  it("answers HEAD like GET without a body, and unknown paths and methods with a 404 envelope", async () => {
    const head = await fetch(`${server.url}/api/v1/health`, { method: "HEAD" })
    expect(head.status).toBe(200)
    expect(head.headers.get("content-type")).toContain("application/json")
    expect(await head.text()).toBe("")
    const missing = await fetch(`${server.url}/api/v1/no-such-thing`, { method: "HEAD" })
    expect(missing.status).toBe(404)
    for (const [method, path] of [["GET", "/api/v1/no-such-thing"], ["DELETE", "/api/v1/health"], ["PATCH", "/identity/user/login"], ["POST", "/api"]]) {
      expectEnvelope(await request(server.url, path!, { method }), 404, "NotFound")
    }
  })
})

describe("security headers", () => {
  it("gives the site a strict Content-Security-Policy and the usual protections", async () => {
    const page = await fetch(`${server.url}/event?sport=cricket`)
    const csp = page.headers.get("content-security-policy")!
    for (const directive of ["script-src 'self'", "object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'", "default-src 'self'"]) {
      expect(csp).toContain(directive)
    }
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/)
    expect(page.headers.get("x-content-type-options")).toBe("nosniff")
    expect(page.headers.get("referrer-policy")).toBe("no-referrer")
    expect(page.headers.get("x-frame-options")).toBe("DENY")
    expect(page.headers.get("strict-transport-security")).toBeNull()
  })

  it("allows index.html's inline stylesheet by its hash, and no other inline style; a new build's on the next request", async () => {
    const index = join(dist, "index.html")
    const built = readFileSync(index, "utf8")
    try {
      const hashOf = (css: string) => `'sha256-${createHash("sha256").update(css).digest("base64")}'`
      const styleSrc = async (path: string) => (await fetch(`${server.url}${path}`)).headers.get("content-security-policy")!.split("; ").find((d) => d.startsWith("style-src"))
      expect(await styleSrc("/")).toBe("style-src 'self'")
      // A build with the stylesheet inline (vite.config.ts): the page allows exactly that text, assets stay strict.
      writeFileSync(index, "<!doctype html><title>Khel</title><style>body{color:red}</style><div id=root></div>")
      utimesSync(index, new Date(), new Date(Date.now() + 5_000))
      expect(await styleSrc("/event")).toBe(`style-src 'self' ${hashOf("body{color:red}")}`)
      expect(await styleSrc("/assets/app-abc123.js")).toBe("style-src 'self'")
      writeFileSync(index, "<!doctype html><title>Khel</title><style>body{color:blue}</style><div id=root></div>")
      utimesSync(index, new Date(), new Date(Date.now() + 10_000))
      expect(await styleSrc("/")).toBe(`style-src 'self' ${hashOf("body{color:blue}")}`)
    } finally {
      writeFileSync(index, built)
      utimesSync(index, new Date(), new Date(Date.now() + 15_000))
    }
  })

  it("keeps every API answer out of caches and out of documents", async () => {
    const login = await request(server.url, "/identity/user/login", { method: "POST", json: { username: player.user.username, password: player.password } })
    expect(login.body.meta.token).toBeDefined()
    for (const res of [login, await request(server.url, "/api/v1/getUserData", { token: player.token }), await request(server.url, "/api/v1/nope")]) {
      expect(res.headers.get("cache-control")).toBe("no-store")
      expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
      expect(res.headers.get("x-content-type-options")).toBe("nosniff")
    }
  })

  it("sends no HSTS over plain HTTP, whatever an untrusted X-Forwarded-Proto says", async () => {
    const untrusted = await fetch(`${server.url}/api/v1/health`, { headers: { "x-forwarded-proto": "https" } })
    expect(untrusted.headers.get("strict-transport-security")).toBeNull()
  })

  it("gives the Khel Originals pages exactly what they use, framed by nobody", async () => {
    const page = await fetch(`${server.url}/games/khel/dragon-tiger?token=x`)
    expect(page.headers.get("content-security-policy")).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
    )
    expect(page.headers.get("referrer-policy")).toBe("no-referrer")
  })

  it("builds source maps but never serves them", async () => {
    expect((await fetch(`${server.url}/assets/app-abc123.js`)).status).toBe(200)
    const map = await fetch(`${server.url}/assets/app-abc123.js.map`)
    expect(map.status).toBe(404)
    expect(await map.text()).not.toContain("secret.ts")
  })
})

describe("behind a trusted proxy", () => {
  const proxied = useServer({ config: { trustProxy: 1 } })

  it("sends HSTS when the proxy says the client came over TLS, and only then", async () => {
    const secure = await fetch(`${proxied.url}/api/v1/health`, { headers: { "x-forwarded-proto": "https" } })
    expect(secure.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains")
    const plain = await fetch(`${proxied.url}/api/v1/health`, { headers: { "x-forwarded-proto": "http" } })
    expect(plain.headers.get("strict-transport-security")).toBeNull()
  })
})
