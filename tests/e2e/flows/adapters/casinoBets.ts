import { expect } from "@playwright/test"
import type { casinoBetsMachine } from "../../../../src/machines/casinoBets.machine.ts"
import { answerOf, type FlowAdapter, type FlowWorld, nextCallDropped } from "../adapter.ts"
import { openSignedIn } from "../../support.ts"
import { credit, player } from "./money.ts"

const done = answerOf<typeof casinoBetsMachine>()

const BETS = "**/api/v1/casino-bets-by-date?*"
const panel = ({ page }: FlowWorld) => page.getByRole("region", { name: "My casino bets" })
const provider = (world: FlowWorld) => panel(world).getByLabel("Provider")

/** "My casino bets" under the live casino lobby, for a fresh player: by provider and day, reloaded when money moves. */
export const casinoBets: FlowAdapter = {
  machine: "casinoBets",
  input: { query: { provider: "all", date: "2026-01-01" } },
  start: async (world) => {
    await openSignedIn(world.page, await player(world, "Casino Bets Player"), "/live-casino")
  },
  events: {
    // Another provider than the one chosen.
    "bets.query": {
      samples: (snapshot) => [{ type: "bets.query", query: { ...snapshot.context.query, provider: snapshot.context.query.provider === "khel" ? "all" : "khel" } }],
      step: async (world, event) => {
        await provider(world).selectOption(event.query.provider)
      }
    },
    // Money moves: the operator credits the player, whose rounds load again.
    "balances.changed": { step: async (world) => credit(world, 100) },
    "xstate.done.actor.loadBets": {
      samples: [done("loadBets", [])],
      step: async (world) => expect(panel(world).getByText("No Data Available")).toBeVisible()
    },
    "xstate.error.actor.loadBets": {
      samples: [{ type: "xstate.error.actor.loadBets", actorId: "loadBets", error: { code: 0, message: "Network error", reason: "Unreachable" } }],
      arrange: nextCallDropped(BETS),
      step: async (world) => expect(panel(world).getByRole("alert")).toBeVisible()
    }
  },
  states: {
    "casinoBets.Ready": async (world) => expect(panel(world).getByText("No Data Available")).toBeVisible(),
    "casinoBets.Failed": async (world) => expect(panel(world).getByRole("alert")).toBeVisible()
  }
}
