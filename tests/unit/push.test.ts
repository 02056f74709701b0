import { describe, expect, it } from "vitest"
import { betWon, depositApproved, isPushService, matchStarting, PUSH_SERVICES, withdrawalPaid } from "../../src/domain/push.ts"
import { isPushMessage } from "../../src/schema/guards.ts"

describe("where the server may send a push", () => {
  it("takes the browsers' push services, over https, and nothing else", () => {
    for (const endpoint of [
      "https://fcm.googleapis.com/fcm/send/abc:def",
      "https://updates.push.services.mozilla.com/wpush/v2/gAAA",
      "https://wns2-bl2p.notify.windows.com/w/?token=x",
      "https://web.push.apple.com/QGx",
      "https://api.push.apple.com/3/device/x"
    ]) expect(isPushService(endpoint, PUSH_SERVICES), endpoint).toBe(true)
    for (const endpoint of [
      "http://fcm.googleapis.com/fcm/send/abc",
      "https://fcm.googleapis.com.evil.example/x",
      "https://evil.example/fcm.googleapis.com",
      "https://notify.windows.com/x",
      "https://x.notify.windows.com:8443/x",
      "https://user:pw@fcm.googleapis.com/x",
      "http://169.254.169.254/latest/meta-data",
      "fcm.googleapis.com/x",
      ""
    ]) expect(isPushService(endpoint, PUSH_SERVICES), endpoint).toBe(false)
  })

  it("takes an origin given with its port (a push service of the tests)", () => {
    expect(isPushService("http://127.0.0.1:4567/push/1", ["http://127.0.0.1:4567"])).toBe(true)
    expect(isPushService("http://127.0.0.1:4568/push/1", ["http://127.0.0.1:4567"])).toBe(false)
  })
})

describe("what a player is told", () => {
  it("says what happened with the money in the site's format, and opens the page about it", () => {
    expect(depositApproved({ id: "d1", rupees: 150000 })).toEqual({ kind: "deposit.approved", title: "Deposit approved", body: "₹1,50,000.00 is in your balance.", url: "/deposit", tag: "deposit:d1" })
    expect(withdrawalPaid({ id: "w1", rupees: 2500.5 }).body).toBe("₹2,500.50 is on its way to your account.")
    expect(betWon({ marketId: "1.2", event: "India v Australia", market: "Match Odds", rupees: 840 }).body).toBe("India v Australia · Match Odds: you won ₹840.00.")
    expect(matchStarting({ id: "e1", name: "India v Australia", url: "/event?sport=cricket" }).title).toBe("India v Australia starts in 15 minutes")
  })

  it("writes every notice as the contract's push message (the service worker's guard takes it)", () => {
    for (const notice of [
      depositApproved({ id: "d", rupees: 1 }),
      withdrawalPaid({ id: "w", rupees: 1 }),
      betWon({ marketId: "m", event: "e", market: "m", rupees: 1 }),
      matchStarting({ id: "e", name: "n", url: "/" })
    ]) expect(isPushMessage(notice)).toBe(true)
    expect(isPushMessage({ kind: "deposit.approved", title: "x" })).toBe(false)
  })
})
