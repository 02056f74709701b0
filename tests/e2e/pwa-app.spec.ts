import { INSTALL } from "../../src/machines/install.machine.ts"
import type { PushMessage } from "../../src/schema/push.ts"
import { freshUtr } from "../http.ts"
import { browserKeys, pushService, type PushService, readPush } from "../push.ts"
import { expect, type Page, test } from "./coverage.ts"
import { controlled, openPrices } from "./pwa-support.ts"
import { apiLogin, createPlayer, fundedPlayer, openSignedIn, waitForApp } from "./support.ts"

/**
 * The app on the home screen and its notifications, in Chromium with the
 * service worker. Chromium here has no install prompt of its own (the test
 * profile is incognito) and no push service (none can be reached from this
 * machine), so the page is handed a `beforeinstallprompt` the way Chromium
 * hands it one, and `pushManager.subscribe` returns a subscription at the push
 * service these specs run (tests/push.ts, the only one the server may POST to:
 * playwright.config.ts). The rest is real: the server encrypts and signs for
 * that subscription, and the worker shows what it is delivered.
 */
test.use({ serviceWorkers: "allow" })

/**
 * Chromium finds the site installable: the page gets a `beforeinstallprompt`; `prompted` counts the prompts shown.
 * The player's answer to the prompt, or "refused": Chromium refuses to show it (as it does when it was shown already).
 */
const offerInstall = (page: Page, answer: "accepted" | "dismissed" | "refused" = "accepted") =>
  page.evaluate((answer) => {
    const event = Object.assign(new Event("beforeinstallprompt", { cancelable: true }), {
      prompt: async () => {
        if (answer === "refused") throw new DOMException("The prompt() method must be called with a user gesture", "NotAllowedError")
        ;(window as unknown as { prompted: number }).prompted++
      },
      userChoice: Promise.resolve({ outcome: answer === "dismissed" ? "dismissed" : "accepted", platform: "web" })
    })
    ;(window as unknown as { prompted: number }).prompted = 0
    dispatchEvent(event)
  }, answer)

const prompted = (page: Page) => page.evaluate(() => (window as unknown as { prompted: number }).prompted)

const accountMenu = async (page: Page) => {
  await page.getByRole("button", { name: /Account menu/ }).click()
  return page.getByRole("menu", { name: "Account" })
}

const placeBet = async (page: Page, stake: string) => {
  await page.getByRole("button", { name: /^Back .* at / }).and(page.locator(":enabled")).first().click()
  const slip = page.getByTestId("bet-slip")
  await slip.getByLabel("Stake (₹)").fill(stake)
  await slip.getByRole("button", { name: "Place Bet" }).click()
  // Backed at the best price shown: matched at once (src/domain/matching.ts betOutcome).
  await expect(slip.getByRole("status")).toHaveText(/^Matched ₹[\d,]+\.00 at /)
  await expect(slip).toBeHidden()
}

test("the install offer waits for a first bet, comes once, and Install shows the browser's prompt", async ({ page, request }) => {
  const { path } = await openPrices(request)
  const player = await fundedPlayer(request, 2000, "Install Player")
  await openSignedIn(page, player.token, path)
  await offerInstall(page)
  // Installable, but nothing offered on first paint: only the menu entry.
  const menu = await accountMenu(page)
  await expect(menu.getByRole("menuitem", { name: "Install app" })).toBeVisible()
  await page.keyboard.press("Escape")
  await expect(menu).toBeHidden()
  await expect(page.getByTestId("install-offer")).toHaveCount(0)

  // A first bet is the moment: the offer, then Not now.
  await placeBet(page, "100")
  const offer = page.getByTestId("install-offer")
  await expect(offer).toContainText(INSTALL.offer)
  await offer.getByRole("button", { name: INSTALL.dismiss }).click()
  await expect(offer).toHaveCount(0)
  // Once per browser: the next bet, and the next visit, offer nothing more.
  await placeBet(page, "100")
  await page.reload()
  await offerInstall(page)
  await placeBet(page, "100")
  await expect(offer).toHaveCount(0)
  expect(await prompted(page)).toBe(0)

  // The menu's entry shows the browser's prompt; accepted, the site is installed and the entry goes.
  await (await accountMenu(page)).getByRole("menuitem", { name: "Install app" }).click()
  await expect.poll(() => prompted(page)).toBe(1)
  const after = await accountMenu(page)
  await expect(after.getByRole("menuitem", { name: "Logout" })).toBeVisible()
  await expect(after.getByRole("menuitem", { name: "Install app" })).toHaveCount(0)
})

test("the offer's Install or the menu's shows the browser's prompt; a prompt turned down or refused, or the site installed, leaves nothing to offer", async ({ page, request }) => {
  const { path } = await openPrices(request)
  const player = await fundedPlayer(request, 2000, "Undecided Player")
  await openSignedIn(page, player.token, path)
  const offer = page.getByTestId("install-offer")
  const installItem = async () => (await accountMenu(page)).getByRole("menuitem", { name: "Install app" })

  // The offer on a first bet; the menu's entry while it shows: the prompt, turned down; nothing more to offer.
  await offerInstall(page, "dismissed")
  await placeBet(page, "100")
  await expect(offer).toContainText(INSTALL.offer)
  await (await installItem()).click()
  await expect.poll(() => prompted(page)).toBe(1)
  await expect(offer).toHaveCount(0)
  await expect(await installItem()).toHaveCount(0)
  await page.keyboard.press("Escape")

  // A browser that has not offered it yet (its memory of the offer gone): the offer's Install, the prompt refused.
  await page.evaluate(() => localStorage.removeItem("installOffered"))
  await page.reload()
  await waitForApp(page)
  await offerInstall(page, "refused")
  await placeBet(page, "100")
  await offer.getByRole("button", { name: INSTALL.accept }).click()
  await expect(offer).toHaveCount(0)
  await expect(await installItem()).toHaveCount(0)
  await page.keyboard.press("Escape")
  expect(await prompted(page)).toBe(0)

  // Installable again, then installed from the browser's own menu: the entry goes.
  await offerInstall(page)
  await expect(await installItem()).toBeVisible()
  await page.keyboard.press("Escape")
  await page.evaluate(() => dispatchEvent(new Event("appinstalled")))
  await expect(await installItem()).toHaveCount(0)
})

test.describe("on an iPhone", () => {
  test.use({ userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1" })

  test("a first bet brings the hint: Share, then Add to Home Screen", async ({ page, request }) => {
    const { path } = await openPrices(request)
    const player = await fundedPlayer(request, 1000, "Iphone Player")
    await openSignedIn(page, player.token, path)
    await expect(page.getByTestId("ios-install-hint")).toHaveCount(0)
    await placeBet(page, "100")
    const hint = page.getByRole("dialog", { name: "Install Khel" })
    await expect(hint.getByTestId("ios-install-hint")).toContainText(INSTALL.iosHint)
    await hint.getByRole("button", { name: "Got it" }).click()
    await expect(hint).toHaveCount(0)
  })

  test("the menu's Install app brings the hint", async ({ page, request }) => {
    const player = await createPlayer(request, "Menu Iphone Player")
    await openSignedIn(page, player.token, "/")
    await (await accountMenu(page)).getByRole("menuitem", { name: "Install app" }).click()
    const hint = page.getByRole("dialog", { name: "Install Khel" })
    await expect(hint.getByTestId("ios-install-hint")).toContainText(INSTALL.iosHint)
    await hint.getByRole("button", { name: "Got it" }).click()
    await expect(hint).toHaveCount(0)
  })

  test("Safari outside the home screen has no Web Push: the menu offers no notifications", async ({ page, request }) => {
    // As on iOS before the site is added to the home screen: no PushManager.
    await page.addInitScript(() => delete (window as { PushManager?: unknown }).PushManager)
    const player = await createPlayer(request, "Safari Player")
    await openSignedIn(page, player.token, "/")
    await controlled(page)
    const menu = await accountMenu(page)
    await expect(menu.getByRole("menuitem", { name: "Logout" })).toBeVisible()
    await expect(menu.getByRole("menuitem", { name: /notifications/ })).toHaveCount(0)
  })
})

/** This browser's push service is the local one: pushManager hands out `subscription` (kept per page's origin). */
const useLocalPushService = (page: Page, subscription: ReturnType<ReturnType<typeof browserKeys>["subscription"]>) =>
  page.addInitScript((sub) => {
    const KEY = "e2e-push-subscription"
    const make = () => ({
      endpoint: sub.endpoint,
      expirationTime: null,
      toJSON: () => ({ endpoint: sub.endpoint, expirationTime: null, keys: sub.keys }),
      unsubscribe: async () => (localStorage.removeItem(KEY), true)
    })
    PushManager.prototype.subscribe = async () => (localStorage.setItem(KEY, "1"), make() as unknown as PushSubscription)
    PushManager.prototype.getSubscription = async () => (localStorage.getItem(KEY) ? make() as unknown as PushSubscription : null)
  }, subscription)

test.describe("notifications", () => {
  let service: PushService
  test.beforeAll(async () => {
    service = await pushService(Number(process.env.E2E_PUSH_PORT))
  })
  test.afterAll(async () => {
    await service?.close()
  })

  test("turned on from the menu: an approved deposit reaches this player's browser only, encrypted, and the worker shows it; logout ends them", async ({ page, request, context }) => {
    const keys = browserKeys()
    const subscription = keys.subscription(service.endpoint())
    await useLocalPushService(page, subscription)
    await context.grantPermissions(["notifications"])

    const player = await createPlayer(request, "Push Player")
    // Another player, subscribed elsewhere: hears nothing of this player's money.
    const other = await createPlayer(request, "Other Push Player")
    const otherKeys = browserKeys()
    const otherEndpoint = service.endpoint()
    expect((await request.post("/api/v1/push-subscription", { headers: { authorization: `Bearer ${other.token}` }, data: otherKeys.subscription(otherEndpoint) })).status()).toBe(200)

    await openSignedIn(page, player.token, "/")
    await controlled(page)
    await (await accountMenu(page)).getByRole("menuitem", { name: "Turn on notifications" }).click()
    await expect(page.getByRole("status").filter({ hasText: "Notifications are on" })).toBeVisible()

    // Two deposits filed; the operator approves the first.
    const admin = await apiLogin(request, "admin")
    const accounts = await (await request.get("/api/v1/admin-account-details", { headers: { authorization: `Bearer ${player.token}` } })).json()
    const upi = (accounts.data as Array<{ _id: string; type: string }>).find((a) => a.type === "upi")!
    const deposit = async (token: string, amount: number) => {
      const res = await request.post("/api/v1/admin-deposit-request", {
        headers: { authorization: `Bearer ${token}` },
        data: { amount, accountId: upi._id, type: "upi", txnRef: freshUtr() }
      })
      expect(res.status()).toBe(200)
      return (await res.json()).data._id as string
    }
    const first = await deposit(player.token, 500)
    const second = await deposit(player.token, 700)
    const approve = async (id: string) =>
      expect((await request.put(`/api/v1/admin/deposit-requests/${id}/approve`, { headers: { authorization: `Bearer ${admin.token}`, "idempotency-key": `e2e-push-${id}` }, data: {} })).status()).toBe(200)
    await approve(first)

    // One message for this browser, signed with the server's key and readable only with the browser's.
    await expect.poll(() => service.to(subscription.endpoint).length).toBe(1)
    const publicKey = (await (await request.get("/api/v1/push-key", { headers: { authorization: `Bearer ${player.token}` } })).json()).data.publicKey as string
    const message = readPush(service.to(subscription.endpoint)[0]!, keys, service, publicKey) as PushMessage
    expect(message).toEqual({ kind: "deposit.approved", title: "Deposit approved", body: "₹500.00 is in your balance.", url: "/deposit", tag: `deposit:${first}` })
    expect(service.to(otherEndpoint)).toEqual([])

    // The push service delivers it to the worker (Chromium's own delivery, through DevTools), which shows it.
    const cdp = await context.newCDPSession(page)
    // Every live registration of the site as DevTools lists them on enable: one replaced a moment ago may still be
    // listed beside the one that controls the page, and a push delivered to it alone would show nothing.
    const registrations = new Promise<Array<string>>((resolve) =>
      cdp.on("ServiceWorker.workerRegistrationUpdated", ({ registrations }) => {
        const ours = registrations.filter((r) => !r.isDeleted && new URL(r.scopeURL).origin === new URL(page.url()).origin)
        if (ours.length > 0) resolve(ours.map((r) => r.registrationId))
      }))
    await cdp.send("ServiceWorker.enable")
    for (const registrationId of await registrations) {
      await cdp.send("ServiceWorker.deliverPushMessage", { origin: new URL(page.url()).origin, registrationId, data: JSON.stringify(message) })
    }
    await expect.poll(() =>
      page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag })))
    ).toEqual([{ title: message.title, body: message.body, tag: message.tag }])

    // Logout: the server forgets the subscription and the browser drops it; the second approval goes nowhere.
    await (await accountMenu(page)).getByRole("menuitem", { name: "Logout" }).click()
    await expect(page.getByRole("status").filter({ hasText: "Logged Out" })).toBeVisible()
    await expect.poll(() => page.evaluate(() => localStorage.getItem("e2e-push-subscription"))).toBeNull()
    await approve(second)
    // The other player's browser still hears its own news: the server sends pushes and this one is not among them.
    await approve(await deposit(other.token, 300))
    await expect.poll(() => service.to(otherEndpoint).length).toBe(1)
    expect(service.to(subscription.endpoint)).toHaveLength(1)
  })

  test("off and on from the menu, as the page finds them on each load; a lost call leaves them as they were; refused by the browser, they stay blocked", async ({ page, request, context }) => {
    await useLocalPushService(page, browserKeys().subscription(service.endpoint()))
    await context.grantPermissions(["notifications"])
    const player = await createPlayer(request, "Switching Player")
    // The browser aborts the next call to `path`: a failure the page must handle, the server untouched.
    const dropNextCall = (path: string) => page.route(`**${path}`, (route) => route.abort("internetdisconnected"), { times: 1 })
    const item = async (name: string) => (await accountMenu(page)).getByRole("menuitem", { name })
    const said = (type: "success" | "warning", text: string) => page.getByTestId(`toast-${type}`).filter({ hasText: text })
    const reload = async () => {
      await page.reload()
      await waitForApp(page)
      await controlled(page)
    }
    await openSignedIn(page, player.token, "/")
    await controlled(page)

    // Turning on, the server's call lost: a warning, and they are still off.
    await dropNextCall("/api/v1/push-subscription")
    await (await item("Turn on notifications")).click()
    await expect(page.getByTestId("toast-warning")).toBeVisible()
    await expect(await item("Turn on notifications")).toBeVisible()
    await page.keyboard.press("Escape")
    await (await item("Turn on notifications")).click()
    await expect(said("success", "Notifications are on")).toBeVisible()

    // The next load finds them on; turning off, the call lost, leaves them on; then off.
    await reload()
    await dropNextCall("/api/v1/push-subscription/remove")
    await (await item("Turn off notifications")).click()
    await expect(page.getByTestId("toast-warning")).toBeVisible()
    await expect(await item("Turn off notifications")).toBeVisible()
    await page.keyboard.press("Escape")
    await (await item("Turn off notifications")).click()
    await expect(said("success", "Notifications are off")).toBeVisible()
    await expect(await item("Turn on notifications")).toBeVisible()
    await page.keyboard.press("Escape")

    // On again, and the next load cannot reach the server to keep them: the menu offers nothing it cannot do.
    await (await item("Turn on notifications")).click()
    await expect(said("success", "Notifications are on")).toBeVisible()
    await dropNextCall("/api/v1/push-subscription")
    await reload()
    const menu = await accountMenu(page)
    await expect(menu.getByRole("menuitem", { name: "Logout" })).toBeVisible()
    await expect(menu.getByRole("menuitem", { name: /notifications/ })).toHaveCount(0)
    await page.keyboard.press("Escape")

    // The browser refuses permission (Chromium here denies what was not granted): blocked, and the menu says how to allow them.
    await context.clearPermissions()
    await reload()
    await (await item("Turn on notifications")).click()
    await expect(said("warning", "Notifications are blocked")).toBeVisible()
    await page.getByTestId("toasts").getByRole("button", { name: "Dismiss" }).first().click()
    await (await item("Notifications blocked")).click()
    await expect(said("warning", "Notifications are blocked")).toContainText("Allow them for this site in your browser's settings")
    await reload()
    await expect(await item("Notifications blocked")).toBeVisible()
    await page.keyboard.press("Escape")
  })
})
