import { expect } from "@playwright/test"
import type { AnyMachineSnapshot } from "xstate"
import type { BonusContext, bonusMachine } from "../../../../src/machines/bonus.machine.ts"
import { answerOf, type FlowAdapter, type FlowWorld } from "../adapter.ts"
import { freshUtr } from "../../../http.ts"
import { openSignedIn } from "../../support.ts"
import { asOperator, asPlayer, dialog, dropped, fileDeposit, player, restored, toast } from "./money.ts"

const done = answerOf<typeof bonusMachine>()

const BONUS_DATA = "**/api/v1/bonus-data"
/** The walk's stand-in for the player's welcome bonus (the only one they have). */
const bonusData = (status: "available" | "completed") => ({
  bonusBalance: 0,
  bonuses: [{ _id: "bonus", code: "WELCOME", title: "Welcome bonus", amount: 100, wageringRequired: 500, wagered: 0, wageringLeft: 500, status, createdAt: "2026-01-01T00:00:00.000Z", activatedAt: null, finishedAt: null }],
  welcome: { percent: 10, cap: 1_000, wagerTimes: 5 }
})

const card = ({ page }: FlowWorld) => page.getByTestId("bonus-card")
const pendingAction = (snapshot: AnyMachineSnapshot) => (snapshot.context as BonusContext).pending?.action

/** The welcome bonus, once: a first deposit of ₹100 the operator approves offers ₹100 to wager five times. */
const welcomeBonus = async (world: FlowWorld) => {
  if (world.data.bonusId) return world.data.bonusId
  await player(world)
  const filed = await fileDeposit(world, 100, { txnRef: freshUtr() })
  await asOperator(world, "put", `/api/v1/admin/deposit-requests/${filed._id}/approve`)
  const data: { bonuses: Array<{ _id: string }> } = await asPlayer(world, "get", "/api/v1/bonus-data")
  world.data.bonusId = data.bonuses[0]!._id
  return world.data.bonusId
}

/** A football match no other test bets on: its markets are settled here. */
const EVENT = "Valencia v Real Betis"

type Market = { marketId: string; name: string; marketType: string; runners: Array<{ selectionId: string }> }

/**
 * The welcome bonus (₹100, ₹500 to wager) with its wagering met from the bonus wallet, on markets the operator
 * prices and settles: ₹100 backed at 5.00 on Over/Under (a market alone) counts ₹100 and wins ₹400; ₹400 of that
 * backed at 2.00 on Match Odds counts ₹400 once the match's Bookmaker market is settled too.
 */
const wageringMet = async (world: FlowWorld) => {
  const bonusId = await welcomeBonus(world)
  await asPlayer(world, "put", "/api/v1/activate-bonus", { bonusId })
  await asPlayer(world, "put", "/api/v1/wallet", { selectedWallet: 2 })
  const sports: Array<{ leagues: Array<{ events: Array<{ name: string; markets: Array<Market> }> }> }> =
    (await (await world.request.get("/api/v1/get-sports-data")).json()).data
  const event = sports.flatMap((sport) => sport.leagues.flatMap((league) => league.events)).find((e) => e.name === EVENT)!
  const market = (name: string) => event.markets.find((m) => m.name.startsWith(name))!
  const backAndWin = async (on: Market, odds: number, stake: number) => {
    const runner = on.runners[0]!
    await asOperator(world, "post", "/api/v1/admin/market-price", { marketId: on.marketId, selectionId: runner.selectionId, back: { price: odds, size: 5000 }, lay: { price: odds + 0.1, size: 5000 }, status: "OPEN" })
    await asPlayer(world, "post", "/api/v1/bet-sport", { marketId: on.marketId, selectionId: runner.selectionId, selectionType: "back", odds, stake })
    await asOperator(world, "post", "/api/v1/admin/settle-market", { marketId: on.marketId, result: runner.selectionId })
  }
  await backAndWin(market("Over/Under"), 5, 100)
  await backAndWin(market("Match Odds"), 2, 400)
  const bookmaker = market("Bookmaker")
  await asOperator(world, "post", "/api/v1/admin/settle-market", { marketId: bookmaker.marketId, result: bookmaker.runners[0]!.selectionId })
  world.data.wageringMet = "yes"
}

/**
 * /bonus for a player whose first deposit brought the welcome bonus (made through the API): the list and the
 * actions on it. What the server makes of a path is arranged before the page opens (`arrangeFirst`): a claim needs
 * the wagering met first.
 */
export const bonus: FlowAdapter = {
  machine: "bonus",
  arrangeFirst: true,
  start: async (world) => {
    await welcomeBonus(world)
    await openSignedIn(world.page, await player(world), "/bonus")
    await expect(world.page.getByTestId("wagering-rule")).toBeVisible()
  },
  events: {
    "bonus.reload": {
      // Offered on screen only when the bonuses could not be loaded at all.
      samples: (snapshot) => (snapshot.matches({ List: "Failed" }) && (snapshot.context as BonusContext).data === undefined ? [{ type: "bonus.reload" }] : []),
      step: async (world) => {
        await restored(world, BONUS_DATA)
        await world.page.getByRole("button", { name: "Try again" }).click()
      }
    },
    "bonus.activate": {
      samples: [{ type: "bonus.activate", bonusId: "bonus" }],
      step: async (world) => card(world).getByRole("button", { name: "Activate" }).click()
    },
    "bonus.claim": {
      samples: [{ type: "bonus.claim", bonusId: "bonus" }],
      arrange: wageringMet,
      step: async (world) => card(world).getByRole("button", { name: "Claim" }).click()
    },
    // The real server's answers: what was arranged decides which.
    "xstate.done.actor.loadBonuses": {
      samples: [done("loadBonuses", bonusData("available")), done("loadBonuses", bonusData("completed"))],
      step: async (world) => expect(card(world)).toContainText(world.data.wageringMet ? "completed" : "available")
    },
    // The server lists a player's own bonuses: only a dropped network fails the read.
    "xstate.error.actor.loadBonuses": {
      samples: [{ type: "xstate.error.actor.loadBonuses", actorId: "loadBonuses", error: { code: 0, message: "Network error", reason: "Unreachable" } }],
      arrange: dropped("GET", BONUS_DATA),
      step: async (world) => expect(world.page.getByText("Your bonuses could not be loaded.")).toBeVisible()
    },
    /**
     * An activation whose answer never comes (the network dropped it): its outcome is unknown, so the list loads
     * again. A claim refused because the player took a break (a time-out, from another tab): the list stands.
     */
    "xstate.error.actor.act": {
      samples: (snapshot) =>
        pendingAction(snapshot) === "activate"
          ? [{ type: "xstate.error.actor.act", actorId: "act", error: { code: 0, message: "Network error", reason: "Unreachable" } }]
          : pendingAction(snapshot) === "claim"
            ? [{ type: "xstate.error.actor.act", actorId: "act", error: { code: 403, message: "break", reason: "TimedOut" } }]
            : [],
      arrange: async (world) => {
        if (world.data.wageringMet) await asPlayer(world, "post", "/api/v1/protection/time-out", { days: 1 })
        else await dropped("PUT", "**/api/v1/activate-bonus")(world)
      },
      step: async (world) => {
        if (world.data.wageringMet) {
          await expect(toast(world, "warning", "You are taking a break")).toBeVisible()
          await expect(card(world)).toContainText("completed")
        } else {
          await expect(toast(world, "error", "could not reach the server")).toBeVisible()
          await expect(card(world)).toContainText("available")
        }
      }
    }
  },
  states: {
    "bonus.Action.Idle": async (world) => expect(dialog(world).filter({ hasText: "Forfeit this bonus?" })).toBeHidden()
  }
}
