import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { protectionUpdate, settingsRules } from "../../src/domain/deskSettings.ts"
import { bannerProblem, MAX_LOGO_CHARS, moved, orderProblem, siteOf, siteProblem } from "../../src/domain/siteSettings.ts"

const PNG = "data:image/png;base64,iVBORw0KGgo="
const site = { siteTitle: "Khel", color: "#f5b301", logoImg: PNG, faviconImg: "" }

describe("site settings (src/domain/siteSettings.ts)", () => {
  it("takes a title, a hex colour and image data URLs (or none), and nothing else", () => {
    expect(siteProblem(site)).toBeUndefined()
    expect(siteProblem({ ...site, siteTitle: "  " })).toBe("Give the site a title.")
    expect(siteProblem({ ...site, siteTitle: "x".repeat(61) })).toBe("The title is at most 60 characters.")
    for (const color of ["teal", "#fff", "#12345g", ""]) expect(siteProblem({ ...site, color }), color).toBe("The colour is a hex colour such as #0f766e.")
    for (const logoImg of ["https://evil.example/x.png", "data:text/html;base64,PGgxPg==", "data:image/png;base64,<script>", "javascript:alert(1)"]) {
      expect(siteProblem({ ...site, logoImg }), logoImg).toBe("The logo must be a PNG, JPEG, WebP, GIF, SVG or ICO image.")
    }
    expect(siteProblem({ ...site, logoImg: `data:image/png;base64,${"A".repeat(MAX_LOGO_CHARS)}` })).toMatch(/^The logo is too large/)
    expect(siteOf({ ...site, siteTitle: "  Khel  ", color: "#F5B301" })).toEqual({ ...site, siteTitle: "Khel", color: "#f5b301" })
  })

  it("keeps every valid title as typed, trimmed", () => {
    fc.assert(fc.property(fc.string({ minLength: 1, maxLength: 60 }).filter((title) => title.trim() !== ""), (title) => {
      expect(siteProblem({ ...site, siteTitle: title })).toBeUndefined()
      expect(siteOf({ ...site, siteTitle: title }).siteTitle).toBe(title.trim())
    }))
  })
})

describe("protection settings from the desk (src/domain/deskSettings.ts)", () => {
  const current = { blockedRegions: ["TS" as const], depositsOpen: true, defaultLimits: [{ kind: "deposit" as const, period: "day" as const, amount: 5000 }] }

  it("blocks and unblocks a state, switches deposits, sets and removes a default limit as the command line does", () => {
    expect(protectionUpdate("block", { region: "KA" }, current)).toEqual({ blockedRegions: ["TS", "KA"] })
    expect(protectionUpdate("unblock", { region: "TS" }, current)).toEqual({ blockedRegions: [] })
    expect(protectionUpdate("deposits", { depositsOpen: "closed" }, current)).toEqual({ depositsOpen: false })
    expect(protectionUpdate("limit", { kind: "deposit", period: "day", amount: "2000" }, current)).toEqual({ defaultLimits: [{ kind: "deposit", period: "day", amount: 2000 }] })
    expect(protectionUpdate("limit", { kind: "loss", period: "week", amount: "100" }, current).defaultLimits).toHaveLength(2)
    expect(protectionUpdate("limit", { kind: "deposit", period: "day", amount: "" }, current)).toEqual({ defaultLimits: [] })
  })

  it("refuses what the server would", () => {
    const rules = settingsRules.protection
    expect(rules.block({ region: "XX" }, current)).toBe("Choose a state.")
    expect(rules.block({ region: "TS" }, current)).toBe("That state is already blocked.")
    expect(rules.unblock({ region: "KA" }, current)).toBe("That state is not blocked.")
    expect(rules.limit({ kind: "deposit" })).toBe("Choose the kind and the period.")
    expect(rules.limit({ kind: "deposit", period: "day", amount: "-5" })).toBeDefined()
    expect(rules.limit({ kind: "deposit", period: "day", amount: "500" })).toBeUndefined()
    expect(settingsRules.staff.create({ name: "A", username: "a", mobileNo: "9", role: "3", password: "p" })).toBe("Choose a role.")
    expect(settingsRules.staff.role({ staff: "nobody", role: "1" }, [{ id: "s1" }])).toBe("Choose a staff account.")
  })
})

describe("banners (src/domain/siteSettings.ts)", () => {
  it("needs a title and an image; an order names every banner once; a move swaps neighbours", () => {
    expect(bannerProblem({ title: "Offer", image: PNG })).toBeUndefined()
    expect(bannerProblem({ title: " ", image: PNG })).toBe("Give the banner a title (screen readers read it).")
    expect(bannerProblem({ title: "Offer", image: "" })).toBe("Choose the banner's image.")
    expect(orderProblem(["a", "b"], ["b", "a"])).toBeUndefined()
    for (const order of [["a"], ["a", "a"], ["a", "c"], ["a", "b", "c"]]) expect(orderProblem(["a", "b"], order), order.join()).toBeDefined()
    expect(moved(["a", "b", "c"], "b", -1)).toEqual(["b", "a", "c"])
    expect(moved(["a", "b", "c"], "c", 1)).toEqual(["a", "b", "c"])
  })

  it("keeps every move a permutation of the order", () => {
    fc.assert(fc.property(fc.uniqueArray(fc.string(), { minLength: 1, maxLength: 8 }), fc.nat(), fc.boolean(), (order, pick, up) => {
      const next = moved(order, order[pick % order.length]!, up ? -1 : 1)
      expect(orderProblem(order, next)).toBeUndefined()
    }))
  })
})
