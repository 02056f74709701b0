import { expect } from "@playwright/test"
import { type FlowAdapter, type FlowWorld, networkDown } from "../adapter.ts"
import { createPlayer, openSignedIn } from "../../support.ts"

/** The walk's stand-in for the user the start-up pipeline loads (only its id and wallet matter to the machine). */
const USER = { id: "player", wallet: 1 }

const signedOut = ({ page }: FlowWorld) => expect(page.getByRole("banner").getByRole("button", { name: "Login" })).toBeVisible()
const bonusWallet = ({ page }: FlowWorld) => page.getByRole("radiogroup", { name: "Play from wallet" }).getByRole("radio", { name: "Bonus" })

/** A fresh player, signed in (a stored token), on the Bonus page (its wallet switch makes the session reload the user). */
export const session: FlowAdapter = {
  machine: "session",
  input: { token: "token" },
  prefix: [{ type: "session.loaded", user: USER }],
  start: async (world) => {
    const player = await createPlayer(world.request, "Session Player")
    world.data.token = player.token
    await openSignedIn(world.page, player.token, "/bonus")
    await expect(bonusWallet(world)).toBeVisible()
  },
  events: {
    // The wallet switch succeeds and tells the session to reload the user.
    "user.changed": {
      step: async (world) => {
        await bonusWallet(world).click()
        await expect(world.page.getByText("Wallet Changed")).toBeVisible()
      }
    },
    "xstate.error.actor.fetchUser": {
      samples: [{ type: "xstate.error.actor.fetchUser", actorId: "fetchUser", error: { code: 0, message: "Network error", reason: "Unreachable" } }],
      arrange: networkDown("**/getUserData"),
      step: async (world) => expect(bonusWallet(world)).toHaveAttribute("aria-checked", "true")
    },
    // The session was ended on the server (signed out on another device): the next call is refused with 401.
    "session.expired": {
      step: async (world) => {
        const res = await world.request.post("/identity/user/logout", { headers: { authorization: `Bearer ${world.data.token}` }, data: {} })
        expect(res.status()).toBe(200)
        await bonusWallet(world).click()
        await signedOut(world)
      }
    },
    "session.logout": {
      step: async ({ page }) => {
        await page.getByRole("button", { name: /Account menu/ }).click()
        await page.getByRole("menuitem", { name: "Logout" }).click()
      }
    }
  },
  states: {
    "session.LoggedIn": async ({ page }) => expect(page.getByRole("button", { name: /Account menu/ })).toBeVisible(),
    "session.LoggedOut": signedOut
  }
}
