import { describe, expect, it } from "vitest"
import { shortName } from "../../server/settings/manifest.ts"
import { neverFromCache } from "../../src/domain/pwa.ts"

describe("the installable app's rules", () => {
  it("shortens a title to what fits under an icon", () => {
    expect(shortName("Khel - Sports Exchange & Live Casino")).toBe("Khel")
    expect(shortName("Khel")).toBe("Khel")
    expect(shortName("A very long site name without a dash")).toBe("A very long")
    expect(shortName("   ")).toBe("Khel")
  })

  it("never lets the worker answer a navigation to the API, sign-in, sockets, uploads, games or the desk from its cache", () => {
    for (const path of ["/api/v1/getUserData", "/api", "/identity/user/login", "/socket.io/?EIO=4", "/uploads/a.png", "/games/khel/dragon-tiger?token=t", "/images/khel/x/y.png", "/admin", "/admin/queue", "/admin.html"]) {
      expect(neverFromCache(path), path).toBe(true)
    }
    for (const path of ["/", "/event?sport=cricket", "/inplay", "/deposit", "/administrator-faq", "/apis"]) {
      expect(neverFromCache(path), path).toBe(false)
    }
  })
})
