import { expect } from "@playwright/test"
import type { FlowAdapter, FlowWorld } from "../adapter.ts"
import { createPlayer, openSignedIn } from "../../support.ts"

const panel = ({ page }: FlowWorld) => page.getByTestId("live-panel")
const toggle = (world: FlowWorld, name: "Score" | "Tv") => panel(world).getByRole("button", { name, exact: true })

/** The right sidebar's live panel of a cricket match, for a signed-in player (a visitor sees the promo video). */
export const livePanel: FlowAdapter = {
  machine: "livePanel",
  // The event's id only names the score to watch: no state depends on it.
  input: { eventId: "event" },
  start: async (world) => {
    const player = await createPlayer(world.request, "Panel Player")
    const sports = (await (await world.request.get("/api/v1/get-sports-data")).json()).data as Array<{
      slugName: string
      leagues: Array<{ slugName: string; events: Array<{ slugName: string; inPlay: boolean }> }>
    }>
    const cricket = sports.find((sport) => sport.slugName === "cricket")!
    const league = cricket.leagues.find((l) => l.events.some((e) => e.inPlay)) ?? cricket.leagues[0]!
    const event = league.events.find((e) => e.inPlay) ?? league.events[0]!
    await openSignedIn(world.page, player.token, `/event?sport=cricket&league=${league.slugName}&event=${event.slugName}`)
    await expect(panel(world)).toHaveAttribute("data-state", "score")
  },
  events: {
    "panel.score": { step: async (world) => toggle(world, "Score").click() },
    "panel.tv": { step: async (world) => toggle(world, "Tv").click() },
    "panel.collapse": { step: async (world) => panel(world).getByRole("button", { name: "Collapse live panel" }).click() }
  },
  states: {
    "livePanel.Score": async (world) => {
      await expect(panel(world)).toHaveAttribute("data-state", "score")
      await expect(toggle(world, "Score")).toHaveAttribute("aria-pressed", "true")
    },
    "livePanel.Tv": async (world) => {
      await expect(panel(world)).toHaveAttribute("data-state", "tv")
      await expect(panel(world).getByLabel("Live TV (demo stream)")).toBeVisible()
    },
    "livePanel.Closed": async (world) => {
      await expect(panel(world)).toHaveAttribute("data-state", "closed")
      await expect(panel(world).getByRole("button", { name: "Live panel collapsed" })).toBeDisabled()
    }
  }
}
