import { expect } from "@playwright/test"
import type { FlowAdapter, FlowWorld } from "../adapter.ts"
import { freshNational, pauseClockAhead, waitForApp } from "../../support.ts"

const dialog = ({ page }: FlowWorld) => page.getByRole("dialog")
const resend = (world: FlowWorld) => dialog(world).getByRole("button", { name: /Resend OTP/ })

/**
 * The resend countdown of the sign-up code: a visitor registers a fresh number and reaches the code step, where
 * the countdown has started (`countdown.start`). Playwright's clock is paused just before the form is sent, so each
 * second of the countdown is a step of the path.
 */
export const otpCountdown: FlowAdapter = {
  machine: "otpCountdown",
  prefix: [{ type: "countdown.start" }],
  clock: true,
  start: async (world) => {
    const { page } = world
    await page.clock.install()
    await page.goto("/")
    await waitForApp(page)
    await page.getByRole("banner").getByRole("button", { name: "Register" }).click()
    await dialog(world).getByLabel("Name").fill("Countdown Player")
    await dialog(world).getByLabel("Mobile number").fill(freshNational())
    await dialog(world).getByLabel("Password", { exact: true }).fill("Monsoon#Tiffin42")
    await dialog(world).getByLabel("Confirm password").fill("Monsoon#Tiffin42")
    await pauseClockAhead(page)
    await dialog(world).getByRole("button", { name: "Create account", exact: true }).click()
    await expect(resend(world)).toHaveText("Resend OTP in 10s")
  },
  events: {
    // The countdown starts again when a new code has been sent: the resend button, once enabled.
    "countdown.start": { step: async (world) => resend(world).click() }
  },
  states: {
    "otpCountdown.Counting": async (world) => {
      await expect(resend(world)).toHaveText(/^Resend OTP in \d+s$/)
      await expect(resend(world)).toBeDisabled()
    },
    "otpCountdown.Idle": async (world) => {
      await expect(resend(world)).toHaveText("Resend OTP")
      await expect(resend(world)).toBeEnabled()
    }
  }
}
