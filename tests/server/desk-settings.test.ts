import { describe, expect, it } from "vitest"
import { expectLedgerVerifies, request, useServer } from "./helpers.ts"
import { freshKey } from "./payments-support.ts"

/**
 * The settings screen's calls on the real server: site settings (checked,
 * audited before and after, idempotent, read by the player site), deposit
 * accounts and protection settings as the desk drives them, and who may.
 */
const server = useServer({ signIn: ["director", "admin", "support"], afterEach: expectLedgerVerifies })

const get = (path: string, token = server.admin) => request(server.url, path, { token })
const send = (method: string, path: string, token: string, json?: unknown, key?: string) =>
  request(server.url, path, { method, token, ...(json === undefined ? {} : { json }), ...(key ? { headers: { "idempotency-key": key } } : {}) })
const auditOf = async (action: string) =>
  (await get(`/api/v1/desk/audit?action=${action}`, server.director)).body.data.items as Array<{ action: string; actor: string; subjectId: string | null; before: unknown; after: unknown }>

const PNG = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="

describe("site settings", () => {
  it("saves what the player site reads at its next load, audited with the settings before and after", async () => {
    const before = (await get("/api/v1/desk/site-settings")).body.data
    expect(before.siteTitle).toBe((await request(server.url, "/api/v1/app-settings")).body.data.siteTitle)
    const next = { siteTitle: "  Khel Prime  ", color: "#0F766E", logoImg: PNG, faviconImg: before.faviconImg }
    const saved = await send("PUT", "/api/v1/desk/site-settings", server.admin, next, freshKey())
    expect(saved.body.meta).toMatchObject({ code: 200 })
    expect(saved.body.data).toEqual({ siteTitle: "Khel Prime", color: "#0f766e", logoImg: PNG, faviconImg: before.faviconImg })
    expect((await request(server.url, "/api/v1/app-settings")).body.data).toEqual(saved.body.data)
    expect((await request(server.url, "/api/v1/get-all-app-settings")).body.data.settings.siteTitle).toBe("Khel Prime")
    const [line] = await auditOf("settings.site")
    expect(line).toMatchObject({ actor: "admin", subjectId: "site", before: { siteTitle: before.siteTitle, color: before.color }, after: { siteTitle: "Khel Prime", color: "#0f766e" } })
  })

  it("refuses bad input with the envelope and changes nothing", async () => {
    const current = (await get("/api/v1/desk/site-settings")).body.data
    const lines = (await auditOf("settings.site")).length
    const bad = [
      [{ ...current, siteTitle: "   " }, "Give the site a title."],
      [{ ...current, color: "teal" }, "The colour is a hex colour such as #0f766e."],
      [{ ...current, logoImg: "data:text/html;base64,PGgxPg==" }, "The logo must be a PNG, JPEG, WebP, GIF, SVG or ICO image."],
      [{ ...current, faviconImg: "javascript:alert(1)" }, "The favicon must be a PNG, JPEG, WebP, GIF, SVG or ICO image."]
    ] as const
    for (const [payload, message] of bad) {
      const answer = await send("PUT", "/api/v1/desk/site-settings", server.admin, payload, freshKey())
      expect(answer.status, message).toBe(400)
      expect(answer.body.meta).toMatchObject({ code: 400, message, error: "InvalidInput" })
    }
    const { siteTitle: _, ...missing } = current
    expect((await send("PUT", "/api/v1/desk/site-settings", server.admin, missing, freshKey())).body.meta).toMatchObject({ code: 400, error: "InvalidInput" })
    expect((await send("PUT", "/api/v1/desk/site-settings", server.admin, { ...current, siteTitle: "x".repeat(200) }, freshKey())).body.meta).toMatchObject({ code: 400 })
    expect((await get("/api/v1/desk/site-settings")).body.data).toEqual(current)
    expect(await auditOf("settings.site")).toHaveLength(lines)
  })

  it("answers a retry under the same key once: one change, one audit line", async () => {
    const current = (await get("/api/v1/desk/site-settings")).body.data
    const lines = (await auditOf("settings.site")).length
    const key = freshKey()
    const payload = { ...current, siteTitle: `Retry ${Date.now()}` }
    const [first, second] = await Promise.all([
      send("PUT", "/api/v1/desk/site-settings", server.director, payload, key),
      send("PUT", "/api/v1/desk/site-settings", server.director, payload, key)
    ])
    const third = await send("PUT", "/api/v1/desk/site-settings", server.director, payload, key)
    const answers = [first, second, third].filter((answer) => answer.status === 200)
    expect(answers.length).toBeGreaterThanOrEqual(2)
    for (const answer of answers) expect(answer.body.data.siteTitle).toBe(payload.siteTitle)
    expect(await auditOf("settings.site")).toHaveLength(lines + 1)
  })

  it("is refused to support (403), as every settings call is", async () => {
    const current = (await get("/api/v1/desk/site-settings")).body.data
    for (const [method, path, json] of [
      ["GET", "/api/v1/desk/site-settings", undefined],
      ["PUT", "/api/v1/desk/site-settings", { ...current, siteTitle: "Support's site" }],
      ["GET", "/api/v1/admin/deposit-accounts", undefined],
      ["GET", "/api/v1/admin/protection-settings", undefined],
      ["GET", "/api/v1/desk/staff", undefined]
    ] as const) {
      expect((await send(method, path, server.support, json, freshKey())).body.meta, `${method} ${path}`).toMatchObject({ code: 403 })
    }
    expect((await get("/api/v1/desk/site-settings")).body.data.siteTitle).toBe(current.siteTitle)
  })
})

describe("deposit accounts and protection settings from the desk", () => {
  it("adds a UPI account with a QR made for it, turns it off and on, audited; a bad one changes nothing", async () => {
    const upi = `desk${Date.now().toString(36)}@okaxis`
    const added = await send("POST", "/api/v1/admin/deposit-accounts", server.admin, { type: "upi", accountNumber: upi, accountHolderName: "Khel Gaming" })
    expect(added.body.data).toMatchObject({ type: "upi", accountNumber: upi, active: true })
    expect(added.body.data.image).toMatch(/^data:image\//)
    const { _id, active: _, ...fields } = added.body.data
    const off = await send("PUT", `/api/v1/admin/deposit-accounts/${_id}`, server.admin, { ...fields, active: false })
    expect(off.body.data).toMatchObject({ _id, active: false, image: added.body.data.image })
    const list = (await get("/api/v1/admin/deposit-accounts")).body.data as Array<{ _id: string; active: boolean }>
    expect(list.find((account) => account._id === _id)).toMatchObject({ active: false })
    expect((await auditOf("deposit-account")).slice(0, 2).map((line) => line.action)).toEqual(["deposit-account.update", "deposit-account.add"])

    const count = list.length
    const bad = await send("POST", "/api/v1/admin/deposit-accounts", server.admin, { type: "upi", accountNumber: "not a upi id", accountHolderName: "X" })
    expect(bad.body.meta.code).toBe(400)
    expect((await get("/api/v1/admin/deposit-accounts")).body.data).toHaveLength(count)
  })

  it("blocks and unblocks a region and sets a default limit as the command line does, audited", async () => {
    const before = (await get("/api/v1/admin/protection-settings")).body.data
    const blocked = await send("PUT", "/api/v1/admin/protection-settings", server.admin, { blockedRegions: [...before.blockedRegions, "TS"] })
    expect(blocked.body.data.blockedRegions).toContain("TS")
    expect((await request(server.url, "/api/v1/get-all-app-settings")).body.data.compliance.blockedRegions).toContain("TS")
    const bad = await send("PUT", "/api/v1/admin/protection-settings", server.admin, { blockedRegions: ["XX"] })
    expect(bad.body.meta).toMatchObject({ code: 400 })
    expect((await get("/api/v1/admin/protection-settings")).body.data.blockedRegions).toContain("TS")
    await send("PUT", "/api/v1/admin/protection-settings", server.admin, { blockedRegions: before.blockedRegions })
    const [line] = await auditOf("protection-settings.update")
    expect(line).toMatchObject({ actor: "admin", after: { blockedRegions: before.blockedRegions } })
  })
})

describe("banners", () => {
  it("uploads, orders and removes banners as /advertisement serves them, each audited; retries and bad input change nothing more", async () => {
    const ids = async () => ((await get("/api/v1/desk/banners")).body.data as Array<{ id: string }>).map((banner) => banner.id)
    const served = async () => ((await request(server.url, "/api/v1/advertisement")).body.data as Array<{ _id: string; baseImage: string }>).map((banner) => banner._id)
    const start = await ids()
    const key = freshKey()
    const payload = { title: "Diwali offer", image: PNG, marketing: true }
    const added = await send("POST", "/api/v1/desk/banners", server.admin, payload, key)
    expect(added.body.data).toMatchObject({ title: "Diwali offer", image: PNG, marketing: true, order: expect.any(Number) })
    expect((await send("POST", "/api/v1/desk/banners", server.admin, payload, key)).body.data.id).toBe(added.body.data.id)
    const id = added.body.data.id as string
    expect(await ids()).toEqual([...start, id])
    expect(await served()).toEqual([...start, id])
    expect((await request(server.url, "/api/v1/advertisement")).body.data.at(-1).baseImage).toBe(PNG)

    for (const [bad, message] of [
      [{ ...payload, title: " " }, "Give the banner a title (screen readers read it)."],
      [{ ...payload, image: "data:text/html;base64,PGgxPg==" }, "The banner must be a PNG, JPEG, WebP, GIF, SVG or ICO image."]
    ] as const) {
      expect((await send("POST", "/api/v1/desk/banners", server.admin, bad, freshKey())).body.meta).toMatchObject({ code: 400, message, error: "InvalidInput" })
    }
    expect((await send("PUT", "/api/v1/desk/banners/order", server.admin, { ids: [id] })).body.meta).toMatchObject({ code: 409, error: "Conflict" })
    expect(await ids()).toEqual([...start, id])

    const reordered = await send("PUT", "/api/v1/desk/banners/order", server.admin, { ids: [id, ...start] })
    expect(reordered.body.data.map((banner: { id: string }) => banner.id)).toEqual([id, ...start])
    expect(await served()).toEqual([id, ...start])

    const removeKey = freshKey()
    expect((await send("DELETE", `/api/v1/desk/banners/${id}`, server.admin, undefined, removeKey)).body.data.map((banner: { id: string }) => banner.id)).toEqual(start)
    expect((await send("DELETE", `/api/v1/desk/banners/${id}`, server.admin, undefined, removeKey)).status).toBe(200)
    expect((await send("DELETE", `/api/v1/desk/banners/${id}`, server.admin, undefined, freshKey())).body.meta).toMatchObject({ code: 404 })
    expect(await served()).toEqual(start)

    const lines = (await get(`/api/v1/desk/audit?action=banner.`, server.director)).body.data.items as Array<{ action: string; before: unknown; after: unknown }>
    expect(lines.slice(0, 3).map((line) => line.action)).toEqual(["banner.remove", "banner.order", "banner.add"])
    expect(lines[0]!.before).toMatchObject({ id, title: "Diwali offer" })
    expect(lines[1]).toMatchObject({ before: [...start, id], after: [id, ...start] })
    expect((await send("POST", "/api/v1/desk/banners", server.support, payload, freshKey())).body.meta).toMatchObject({ code: 403 })
  })
})
