import { expect, type APIRequestContext, type Page } from "@playwright/test"
import { OTP_RESEND_SECONDS } from "../../server/identity/Otp.ts"
import type { SportsData } from "../../src/schema/sports.ts"
import { deskSignIn, outboxCodes as outboxCodesIn, waitForCode as waitForCodeIn } from "../http.ts"

/** The server Playwright started (playwright.config.ts). */
export const baseUrl = () => `http://127.0.0.1:${process.env.E2E_PORT}`

/** The data folder of the server Playwright started (playwright.config.ts). */
export const dataDir = () => process.env.E2E_DATA_DIR!

/** OTP codes the console SMS provider wrote for a number, newest last. */
export const outboxCodes = (mobileNo: string, purpose?: "signup" | "reset") => outboxCodesIn(dataDir(), mobileNo, purpose)

/** The newest code sent to a number, once it is there (messages go out just after the answer). */
export const waitForCode = (mobileNo: string, purpose: "signup" | "reset", after = 0) => waitForCodeIn(dataDir(), mobileNo, purpose, after)

/**
 * Waits out the server's spacing of codes to one number (OTP_RESEND_SECONDS) from `sentBy`, a `Date.now()`
 * taken after the answer that sent the last code. The spacing runs on real time, not on the server's
 * movable clock: its limiter (rate-limiter-flexible) reads the machine's clock itself.
 */
export const waitOutCodeSpacing = async (page: Page, sentBy: number) => {
  const left = sentBy + OTP_RESEND_SECONDS * 1000 + 500 - Date.now()
  if (left > 0) await page.waitForTimeout(left)
}

let counter = 0
/** A fresh Indian mobile number: the ten national digits. */
export const freshNational = () => `8${String(Date.now() % 1e6).padStart(6, "0")}${String(++counter % 1000).padStart(3, "0")}`

/** A new verified player, created through the API (each test gets its own money and history); `referralCode` signs up through a friend's link. */
export const createPlayer = async (request: APIRequestContext, name = "E2E Player", referralCode?: string) => {
  const national = freshNational()
  const mobileNo = `+91${national}`
  const password = "Monsoon#Tiffin42"
  const signUp = await request.post("/identity/user/sign-up", {
    data: { name, mobile_no: mobileNo, password, confirmPassword: password, ageConfirmed: true, region: "MH", ...(referralCode ? { affiliateCode: referralCode } : {}) }
  })
  expect(signUp.status()).toBe(200)
  const otp = await waitForCode(mobileNo, "signup")
  const verified = await request.post("/identity/user/verify-otp", { data: { mobile_no: mobileNo, otp } })
  expect(verified.status()).toBe(200)
  const body = await verified.json()
  return { token: body.meta.token as string, user: body.data as { id: string; username: string; referralCode: string }, mobileNo, national, password }
}

/** A new player with `rupees` credited by the operator (one ledger transaction), and the operator's token. */
export const fundedPlayer = async (request: APIRequestContext, rupees: number, name = "Betting Player") => {
  const player = await createPlayer(request, name)
  const admin = await apiLogin(request, "admin")
  const credit = await request.post("/api/v1/admin/credit", {
    headers: { authorization: `Bearer ${admin.token}` },
    data: { user: player.user.username, amount: rupees }
  })
  expect(credit.status()).toBe(200)
  return { ...player, admin: admin.token }
}

export const DEMO = {
  demo: { username: "demo", password: "Demo@1234" },
  credit: { username: "credit", password: "Credit@1234" },
  admin: { username: "admin", password: "Admin@1234" }
} as const

export const apiLogin = async (request: APIRequestContext, who: keyof typeof DEMO) => {
  // Staff sign in on the desk, with their second factor (tests/http.ts).
  if (who === "admin") {
    const { token, staff } = await deskSignIn(baseUrl(), "admin")
    return { token, user: { id: staff.id } }
  }
  const res = await request.post("/identity/user/login", { data: DEMO[who] })
  expect(res.status()).toBe(200)
  const body = await res.json()
  return { token: body.meta.token as string, user: body.data as { id: string } }
}

/** Opens the site already signed in with `token` (as if the player had logged in before). */
export const openSignedIn = async (page: Page, token: string, path = "/") => {
  await page.addInitScript((t) => {
    if (!sessionStorage.getItem("e2e-signed-in")) {
      localStorage.setItem("token", t)
      sessionStorage.setItem("e2e-signed-in", "1")
    }
  }, token)
  await page.goto(path)
  await waitForApp(page)
}

/** The site has started: the preloader has gone (the layout that holds it has rendered, so a loader not yet drawn does not count). */
export const waitForApp = async (page: Page) => {
  await expect(page.locator("main#main")).toBeAttached({ timeout: 20_000 })
  await expect(page.getByTestId("preloader")).toBeHidden({ timeout: 20_000 })
}

/**
 * A login from the modal goes to / and reloads the site (SPEC section 4): it is back once the "Logged In" notice
 * flashed across the reload shows and the preloader has gone. A test that navigates before then races the reload.
 */
export const waitForLoginReload = async (page: Page) => {
  await expect(page.getByRole("status").filter({ hasText: "Logged In" })).toBeVisible({ timeout: 20_000 })
  await waitForApp(page)
}

/**
 * Pauses Playwright's clock a second ahead of the page's time, so a timer the next step starts fires only when a
 * test moves the clock. The page's time runs on while the call is sent: on a loaded machine it can pass that second
 * first (Playwright refuses to go back), so it reads the time again and retries.
 */
export const pauseClockAhead = (page: Page) =>
  expect(async () => page.clock.pauseAt(await page.evaluate(() => Math.ceil(Date.now()) + 1000))).toPass()

/** The catalogue as a visitor gets it (GET /api/v1/get-sports-data). */
export const sportsData = async (request: APIRequestContext): Promise<SportsData> => {
  const res = await request.get("/api/v1/get-sports-data")
  expect(res.status()).toBe(200)
  return (await res.json()).data as SportsData
}

/** An event of the demo catalogue by name, with the path of its page (/event?sport=&league=&event=). */
export const catalogueEvent = async (request: APIRequestContext, name: string) => {
  for (const sport of await sportsData(request)) {
    for (const league of sport.leagues) {
      const event = league.events.find((e) => e.name === name)
      if (event) return { event, path: `/event?sport=${sport.slugName}&league=${league.slugName}&event=${event.slugName}` }
    }
  }
  throw new Error(`no event '${name}' in the catalogue`)
}
