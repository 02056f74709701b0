import { expect } from "@playwright/test"
import type { FlowAdapter, FlowWorld } from "../adapter.ts"
import { apiLogin, createPlayer, openSignedIn } from "../../support.ts"

/** The walk's stand-in for the selection the player clicks (an exchange back price; no state depends on the ids). */
const SELECTION = {
  eventId: "event",
  sportId: "sport",
  leagueId: "league",
  marketId: "market",
  marketName: "Match Odds",
  marketType: "EXCHANGE",
  channel: "sport",
  selectionId: "runner",
  name: "Runner",
  side: "back",
  odds: 3,
  size: null,
  runners: [{ selectionId: "runner", name: "Runner" }]
}

const slip = ({ page }: FlowWorld) => page.getByTestId("bet-slip")

interface Market {
  marketId: string
  marketType: string
  runners: Array<{ selectionId: string; name: string }>
}

/** A match not in play, whose prices the simulator leaves alone once the operator has set them. */
const EVENT = "Delhi Capitals v Rajasthan Royals"

/**
 * The bet slip of a cricket match's exchange market, priced by the operator first (3.00 / 3.05) so the simulator
 * leaves it there: a signed-in player clicks the back price of its first runner.
 */
export const betSlip: FlowAdapter = {
  machine: "betSlip",
  prefix: [{ type: "slip.open", selection: SELECTION }],
  start: async (world) => {
    const { request } = world
    const player = await createPlayer(request, "Slip Player")
    const admin = await apiLogin(request, "admin")
    const sports = (await (await request.get("/api/v1/get-sports-data")).json()).data as Array<{
      leagues: Array<{ events: Array<{ name: string; slugName: string; markets: Array<Market> }> }>
    }>
    const event = sports.flatMap((sport) => sport.leagues.flatMap((league) => league.events)).find((e) => e.name === EVENT)!
    const market = event.markets.find((m) => m.marketType === "EXCHANGE")!
    const runner = market.runners[0]!
    const priced = await request.post("/api/v1/admin/market-price", {
      headers: { authorization: `Bearer ${admin.token}` },
      data: { marketId: market.marketId, selectionId: runner.selectionId, back: { price: 3, size: 5000 }, lay: { price: 3.05, size: 5000 }, status: "OPEN" }
    })
    expect(priced.status()).toBe(200)
    await openSignedIn(world.page, player.token, `/event?sport=cricket&league=indian-premier-league&event=${event.slugName}`)
    await world.page.getByRole("button", { name: `Back ${runner.name} at 3.00` }).click()
    await expect(slip(world)).toBeVisible()
  },
  events: {
    "slip.close": { step: async (world) => slip(world).getByRole("button", { name: "Close bet slip" }).click() },
    "slip.odds": {
      samples: [{ type: "slip.odds", value: 3.5 }],
      step: async (world) => {
        await slip(world).getByRole("textbox", { name: "Odds" }).fill("3.50")
        await slip(world).getByRole("textbox", { name: "Odds" }).press("Tab")
      }
    },
    "chips.edit": { step: async (world) => slip(world).getByRole("button", { name: "Edit chips" }).click() },
    "chips.change": {
      samples: [{ type: "chips.change", index: 0, value: "150" }],
      step: async (world) => slip(world).getByLabel("Chip 1").fill("150")
    },
    "chips.save": { step: async (world) => slip(world).getByRole("button", { name: "Save chips" }).click() },
    "chips.cancel": { step: async (world) => slip(world).getByRole("button", { name: "Cancel", exact: true }).first().click() },
    // The real server's answer with the market's settings: the odds-change rule shows.
    "xstate.done.actor.loadSetting": {
      samples: [{ type: "xstate.done.actor.loadSetting", actorId: "loadSetting", output: { oddsChange: "better" } }],
      step: async (world) => expect(slip(world).getByRole("checkbox", { name: "Accept any odds change" })).toBeVisible()
    },
    "slip.oddsRule": {
      samples: [{ type: "slip.oddsRule", rule: "any" }],
      step: async (world) => slip(world).getByRole("checkbox", { name: "Accept any odds change" }).check()
    }
  },
  states: {
    "betSlip.Open.Stake": async (world) => expect(slip(world).getByRole("button", { name: "Edit chips" })).toBeVisible(),
    "betSlip.Open.Chips": async (world) => expect(slip(world).getByRole("button", { name: "Save chips" })).toBeVisible(),
    "betSlip.Closed": async (world) => expect(slip(world)).toBeHidden()
  }
}
