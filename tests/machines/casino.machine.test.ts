import { describe, expect, it, vi } from "vitest"
import { createActor, fromPromise } from "xstate"
import { ALL_CATEGORY, type Lobby } from "../../src/domain/casino.ts"
import { casinoMachine, NAVIGATION_GRACE_MS } from "../../src/machines/casino.machine.ts"
import type { CasinoGame } from "../../src/schema/casino.ts"
import { expectFullCoverage, recordFlows, replayPaths } from "./harness.ts"

const game: CasinoGame = {
  _id: "g1",
  table_id: "khel-dt-1",
  game_id: "dragon-tiger",
  provider: "khel",
  provider_name: "Khel Originals",
  game_category: "Dragon Tiger",
  game_images: "/images/khel/dragon-tiger/khel-dragon-tiger.png",
  title: "Khel Dragon Tiger"
}

const quiet = { notifyLoginRequired: vi.fn(), notifyUnavailable: vi.fn(), openGame: vi.fn() }

describe("casino machine (model-based)", () => {
  it("reaches every state and takes every transition, and the real actor agrees with the graph at each step", () => {
    const coverage = replayPaths(casinoMachine as never, {
      input: { lobby: "live" },
      actions: quiet,
      outputs: { loadGames: [[game]], launchGame: ["", "/games/khel/dragon-tiger?token=t&lobby=%2Flive-casino"] },
      events: {
        "category.select": [{ type: "category.select", category: "Dragon Tiger" }],
        "game.launch": [{ type: "game.launch", game, signedIn: false }, { type: "game.launch", game, signedIn: true }]
      },
      // The category on show does not change what the lobby can do next.
      serialize: ((s: { value: unknown; context: { games: ReadonlyArray<unknown> } }) => JSON.stringify([s.value, s.context.games.length])) as never
    })
    expectFullCoverage(coverage)
    recordFlows(
      "casino",
      "A casino lobby (live casino, slots, SA Gaming, Top Casino): loading the games, retry after a failure, choosing a category, and the launch flow: a visitor is told to log in, an empty URL is 'Game Not Available', otherwise the game opens in the same window.",
      coverage
    )
  })
})

describe("casino machine launches", () => {
  type LaunchInput = { lobby: Lobby; game: CasinoGame }
  const settle = (url: string) => fromPromise<string, LaunchInput>(async () => url)
  const games = fromPromise<ReadonlyArray<CasinoGame>, { lobby: Lobby }>(async () => [game])

  const start = (launch: ReturnType<typeof settle>) => {
    const actions = { notifyLoginRequired: vi.fn(), notifyUnavailable: vi.fn(), openGame: vi.fn() }
    const actor = createActor(casinoMachine.provide({ actors: { loadGames: games, launchGame: launch }, actions }), {
      input: { lobby: "live" }
    }).start()
    return { actor, actions }
  }

  it("tells a visitor to log in and never asks the server", async () => {
    const launch = vi.fn(async () => "/x")
    const { actor, actions } = start(fromPromise<string, LaunchInput>(launch))
    await vi.waitFor(() => expect(actor.getSnapshot().matches({ Ready: "Idle" })).toBe(true))
    actor.send({ type: "game.launch", game, signedIn: false })
    expect(actions.notifyLoginRequired).toHaveBeenCalledTimes(1)
    expect(launch).not.toHaveBeenCalled()
    expect(actor.getSnapshot().matches({ Ready: "Idle" })).toBe(true)
  })

  it("opens the URL the server answers, and says 'Game Not Available' for an empty one", async () => {
    const opened = start(settle("/games/khel/dragon-tiger?token=t"))
    await vi.waitFor(() => expect(opened.actor.getSnapshot().matches({ Ready: "Idle" })).toBe(true))
    opened.actor.send({ type: "game.launch", game, signedIn: true })
    await vi.waitFor(() => expect(opened.actions.openGame).toHaveBeenCalledTimes(1))
    expect(opened.actions.openGame.mock.calls[0]![1]).toEqual({ url: "/games/khel/dragon-tiger?token=t" })
    expect(opened.actor.getSnapshot().hasTag("launching")).toBe(true)
    // A second click while the page is leaving does nothing.
    opened.actor.send({ type: "game.launch", game, signedIn: true })
    expect(opened.actions.openGame).toHaveBeenCalledTimes(1)

    const empty = start(settle(""))
    await vi.waitFor(() => expect(empty.actor.getSnapshot().matches({ Ready: "Idle" })).toBe(true))
    empty.actor.send({ type: "game.launch", game, signedIn: true })
    await vi.waitFor(() => expect(empty.actions.notifyUnavailable).toHaveBeenCalledTimes(1))
    expect(empty.actions.openGame).not.toHaveBeenCalled()
    expect(empty.actor.getSnapshot().matches({ Ready: "Idle" })).toBe(true)
  })

  it("takes launches again if the browser has not left after the grace period", async () => {
    vi.useFakeTimers()
    const { actor } = start(settle("/games/khel/dragon-tiger?token=t"))
    await vi.advanceTimersByTimeAsync(1)
    actor.send({ type: "game.launch", game, signedIn: true })
    await vi.advanceTimersByTimeAsync(1)
    expect(actor.getSnapshot().matches({ Ready: "Opening" })).toBe(true)
    await vi.advanceTimersByTimeAsync(NAVIGATION_GRACE_MS)
    expect(actor.getSnapshot().matches({ Ready: "Idle" })).toBe(true)
    vi.useRealTimers()
  })

  it("keeps the chosen category and starts on All Category", async () => {
    const { actor } = start(settle(""))
    expect(actor.getSnapshot().context.category).toBe(ALL_CATEGORY)
    await vi.waitFor(() => expect(actor.getSnapshot().matches("Ready")).toBe(true))
    actor.send({ type: "category.select", category: "Dragon Tiger" })
    expect(actor.getSnapshot().context.category).toBe("Dragon Tiger")
  })
})
