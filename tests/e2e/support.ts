import { expect, type APIRequestContext, type Page } from "@playwright/test"
import { OTP_RESEND_SECONDS } from "../../server/identity/Otp.ts"
import { outboxCodes as outboxCodesIn, waitForCode as waitForCodeIn } from "../http.ts"

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
  const password = "Secret@123"
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

export const DEMO = {
  demo: { username: "demo", password: "Demo@1234" },
  credit: { username: "credit", password: "Credit@1234" },
  admin: { username: "admin", password: "Admin@1234" }
} as const

export const apiLogin = async (request: APIRequestContext, who: keyof typeof DEMO) => {
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

export const waitForApp = async (page: Page) => {
  await expect(page.getByTestId("preloader")).toBeHidden({ timeout: 20_000 })
}
