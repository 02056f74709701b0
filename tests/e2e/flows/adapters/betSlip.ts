import { expect, type Page } from "@playwright/test"
import type { AnyEventObject } from "xstate"
import type { betSlipMachine } from "../../../../src/machines/betSlip.machine.ts"
import { answerOf, type FlowAdapter, type FlowWorld, networkDown } from "../adapter.ts"
import { apiLogin, createPlayer, openSignedIn } from "../../support.ts"

const done = answerOf<typeof betSlipMachine>()

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

/** No answer: the browser drops the request (the `Unreachable` reason). */
const UNREACHABLE = { code: 0, message: "We could not reach the server. Check your connection and try again.", reason: "Unreachable" }
/** The new player has no money: the server refuses any stake (Betting.ts). */
const NO_BALANCE = { code: 422, message: "Insufficient balance to place this bet.", reason: "InsufficientBalance" }

const failed = (actor: string, error: unknown): AnyEventObject => ({ type: `xstate.error.actor.${actor}`, actorId: actor, error })

/** Bets held on their way to the server (page by page), until the step that needs one in flight lets them go. */
const inFlight = new WeakMap<Page, Array<() => void>>()

const holdBets = async ({ page }: FlowWorld) => {
  const held: Array<() => void> = []
  inFlight.set(page, held)
  await page.route("**/api/v1/bet-sport", (route) => new Promise<void>((resolve) => held.push(() => resolve(route.continue()))))
}

const releaseBets = async ({ page }: FlowWorld) => {
  const held = inFlight.get(page) ?? []
  await expect.poll(() => held.length).toBeGreaterThan(0)
  for (const release of held.splice(0)) release()
}

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
    world.data.runner = runner.name
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
    // Another stake than the one typed (the same value typed again changes nothing, so sends nothing).
    "slip.stake": {
      samples: (snapshot) => [{ type: "slip.stake", value: snapshot.context.stake === "100" ? "200" : "100" }],
      step: async (world, event) => slip(world).getByRole("textbox", { name: "Stake (₹)" }).fill(String(event.value))
    },
    "slip.chip": {
      samples: [{ type: "slip.chip", amount: 100 }],
      step: async (world) => slip(world).getByRole("group", { name: "Stake chips" }).getByRole("button", { name: "100", exact: true }).click()
    },
    "slip.place": { step: async (world) => slip(world).getByRole("button", { name: /^Place (Bet|Again)$/ }).click() },
    // The server refuses the bet (the player has nothing to stake), or the network drops it: the slip shows why.
    "xstate.error.actor.placeBet": {
      samples: [failed("placeBet", NO_BALANCE), failed("placeBet", UNREACHABLE)],
      arrange: async (world, event) => {
        if ((event.error as { reason: string }).reason === "Unreachable") await networkDown("**/api/v1/bet-sport")(world)
      },
      step: async (world, event) => expect(slip(world).getByRole("alert")).toHaveText((event.error as { message: string }).message)
    },
    // Another price clicked while the bet is on its way (held by the network until then): the slip keeps the bet in flight.
    "slip.open": {
      samples: [{ type: "slip.open", selection: { ...SELECTION, side: "lay", odds: 3.05 } }],
      arrange: holdBets,
      step: async (world) => {
        await world.page.getByRole("button", { name: `Lay ${world.data.runner} at 3.05` }).click()
        await expect(slip(world).getByRole("button", { name: "Placing…" })).toBeDisabled()
        await releaseBets(world)
      }
    },
    // The limits and the open bets do not come (the network drops them): the slip still takes a bet.
    "xstate.error.actor.loadSetting": {
      samples: [failed("loadSetting", UNREACHABLE)],
      arrange: networkDown("**/api/v1/setting*"),
      step: async () => {}
    },
    "xstate.error.actor.loadOpenBets": {
      samples: [failed("loadOpenBets", UNREACHABLE)],
      arrange: networkDown("**/api/v1/bet-sport-byMarket*"),
      step: async () => {}
    },
    "chips.edit": { step: async (world) => slip(world).getByRole("button", { name: "Edit chips" }).click() },
    "chips.change": {
      samples: [{ type: "chips.change", index: 0, value: "150" }],
      step: async (world) => slip(world).getByLabel("Chip 1").fill("150")
    },
    "chips.save": { step: async (world) => slip(world).getByRole("button", { name: "Save chips" }).click() },
    "chips.cancel": { step: async (world) => slip(world).getByRole("button", { name: "Cancel", exact: true }).first().click() },
    // The real server's answer with the player's settings: the remembered default for the best price shows.
    "xstate.done.actor.loadSetting": {
      samples: [done("loadSetting", { minStake: 100, maxStake: 500_000, betDelay: 0, oddsChange: "better", oneClick: null })],
      step: async (world) => expect(slip(world).getByRole("checkbox", { name: "Always (remembered for your account)" })).toBeVisible()
    },
    "slip.oddsRule": {
      samples: [{ type: "slip.oddsRule", rule: "any" }],
      step: async (world) => slip(world).getByRole("checkbox", { name: "Always (remembered for your account)" }).check()
    }
  },
  states: {
    "betSlip.Open.Stake": async (world) => expect(slip(world).getByRole("button", { name: "Edit chips" })).toBeVisible(),
    "betSlip.Open.Chips": async (world) => expect(slip(world).getByRole("button", { name: "Save chips" })).toBeVisible(),
    "betSlip.Open.Rejected": async (world) => {
      await expect(slip(world).getByRole("alert")).toBeVisible()
      await expect(slip(world).getByRole("button", { name: "Place Again" })).toBeVisible()
    },
    "betSlip.Closed": async (world) => expect(slip(world)).toBeHidden()
  }
}
