import { expect } from "@playwright/test"
import type { AnyMachineSnapshot } from "xstate"
import type { ReferralContext, referralMachine } from "../../../../src/machines/referral.machine.ts"
import { freshUtr } from "../../../http.ts"
import { createPlayer, openSignedIn, sportsData } from "../../support.ts"
import { answerOf, type FlowAdapter, type FlowWorld, nextCallDropped } from "../adapter.ts"
import { asOperator, asPlayer, credit, dropped, player, toast } from "./money.ts"

const LISTS = /\/api\/v1\/get-refferal-users$/
const CLAIM = "**/api/v1/claim-ref-bonus"

/** Football matches no other test uses: each reward settles one of their goals lines. */
const MATCHES = ["Mohun Bagan v East Bengal", "Bengaluru FC v Mumbai City", "Atletico Madrid v Sevilla"]

const done = answerOf<typeof referralMachine>()
/** The walk's stand-in for the code and bonus: with the reward to claim, or none. */
const users = (refBonus: number) => ({ referralCode: "CODE", refBonus, users: [], rule: { percent: 10, cap: 1_000, wagerTimes: 1 } })
/** The walk's stand-in for the referral lists. */
const lists = (refBonus: number) => done("loadReferrals", { users: users(refBonus), weeks: [], transactions: [] })

const bonus = ({ page }: FlowWorld) => page.getByTestId("ref-bonus")
const claimButton = ({ page }: FlowWorld) => page.getByRole("button", { name: "Claim to main balance" })
const refBonusOf = (snapshot: AnyMachineSnapshot) => (snapshot.context as ReferralContext).referrals?.users.refBonus ?? 0

/** A goals line of a match in `MATCHES` still open to bets: the first one not settled yet. */
const openLine = async (world: FlowWorld) => {
  const events = (await sportsData(world.request)).flatMap((sport) => sport.leagues.flatMap((league) => league.events))
  for (const name of MATCHES) {
    const line = events.find((e) => e.name === name)?.markets.find((m) => m.name.startsWith("Over/Under") && m.status !== "SETTLED" && m.status !== "CLOSED")
    if (line) return line
  }
  throw new Error("every goals line the referral walk may use is settled")
}

/**
 * The test's player earns the referral reward (₹100): a friend joins with their code, deposits ₹1,000 (approved) and
 * loses it backed at 2.00 on a goals line the operator prices and settles (a market alone, so it counts at once).
 */
const rewarded = async (world: FlowWorld) => {
  if (world.data.rewarded) return
  const { referralCode } = await asPlayer(world, "get", "/api/v1/get-refferal-users")
  const friend = await createPlayer(world.request, "Referred Friend", referralCode)
  const asFriend = { authorization: `Bearer ${friend.token}` }
  const accounts: Array<{ _id: string; type: string }> = (await (await world.request.get("/api/v1/admin-account-details", { headers: asFriend })).json()).data
  const upi = accounts.find((a) => a.type === "upi")!
  const filed = await world.request.post("/api/v1/admin-deposit-request", { headers: asFriend, data: { accountId: upi._id, type: "upi", amount: 1000, txnRef: freshUtr() } })
  expect(filed.status()).toBe(200)
  await asOperator(world, "put", `/api/v1/admin/deposit-requests/${(await filed.json()).data._id}/approve`)
  const line = await openLine(world)
  const [under, over] = line.runners
  await asOperator(world, "post", "/api/v1/admin/market-price", { marketId: line.marketId, selectionId: under!.selectionId, back: { price: 2, size: 5000 }, lay: { price: 2.02, size: 5000 }, status: "OPEN" })
  const bet = await world.request.post("/api/v1/bet-sport", { headers: asFriend, data: { marketId: line.marketId, selectionId: under!.selectionId, selectionType: "back", odds: 2, stake: 1000 } })
  expect(bet.status(), await bet.text()).toBe(200)
  await asOperator(world, "post", "/api/v1/admin/settle-market", { marketId: line.marketId, result: over!.selectionId })
  world.data.rewarded = "yes"
}

/**
 * /referral-bonus for a fresh player: the lists and the claim of the referral bonus. A claim needs a reward first,
 * arranged through the real API before the page opens (`arrangeFirst`).
 */
export const referral: FlowAdapter = {
  machine: "referral",
  input: { weekly: { startDate: "2026-01-04T00:00:00.000Z", endDate: "2026-03-01T00:00:00.000Z" } },
  arrangeFirst: true,
  start: async (world) => {
    await openSignedIn(world.page, await player(world, "Referral Player"), "/referral-bonus")
  },
  events: {
    // Money moves: the operator credits the player, whose lists load again.
    "balances.changed": { step: async (world) => credit(world, 100) },
    "referral.claim": {
      arrange: async (world) => {
        await player(world, "Referral Player")
        await rewarded(world)
      },
      step: async (world) => claimButton(world).click()
    },
    "xstate.done.actor.loadReferrals": {
      samples: [lists(0), lists(100)],
      step: async (world) => expect(bonus(world)).toHaveText(world.data.rewarded && !world.data.claimed ? "₹100.00" : "₹0.00")
    },
    "xstate.error.actor.loadReferrals": {
      samples: [{ type: "xstate.error.actor.loadReferrals", actorId: "loadReferrals", error: { code: 0, message: "Network error", reason: "Unreachable" } }],
      arrange: nextCallDropped(LISTS),
      step: async (world) => expect(toast(world, "error")).toBeVisible()
    },
    "xstate.done.actor.claim": {
      // The claim answers as a write does: the bonus as it now is, and the server's message.
      samples: [done("claim", { data: users(0), message: "Referral bonus claimed to your main balance" })],
      step: async (world) => {
        world.data.claimed = "yes"
        await expect(toast(world, "success", "Referral bonus claimed to your main balance")).toBeVisible()
      }
    },
    /**
     * A claim whose answer never comes (the network dropped it): the bonus stays on screen and another click is
     * the same claim. A claim refused because the player took a break (a time-out, from another tab).
     */
    "xstate.error.actor.claim": {
      samples: (snapshot) =>
        refBonusOf(snapshot) > 0
          ? [
            { type: "xstate.error.actor.claim", actorId: "claim", error: { code: 0, message: "Network error", reason: "Unreachable" } },
            { type: "xstate.error.actor.claim", actorId: "claim", error: { code: 403, message: "break", reason: "TimedOut" } }
          ]
          : [],
      arrange: async (world, event) => {
        if ((event.error as { reason: string }).reason === "TimedOut") await asPlayer(world, "post", "/api/v1/protection/time-out", { days: 1 })
        else await dropped("PUT", CLAIM)(world)
      },
      step: async (world, event) => {
        if ((event.error as { reason: string }).reason === "TimedOut") await expect(toast(world, "warning", "You are taking a break")).toBeVisible()
        else await expect(toast(world, "error", "could not reach the server")).toBeVisible()
        await expect(bonus(world)).toHaveText("₹100.00")
      }
    }
  },
  states: {
    "referral.Lists.Ready": async (world) => expect(world.page.getByTestId("referral-link")).toContainText("referral_code="),
    "referral.Claim.Idle": async (world) => expect(claimButton(world)).toBeVisible()
  }
}
