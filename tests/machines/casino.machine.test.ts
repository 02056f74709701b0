import { describe, expect, it, vi } from "vitest"
import { createActor, fromPromise, type SnapshotFrom } from "xstate"
import { ALL_CATEGORY, LAUNCH_NOTICES, type Lobby } from "../../src/domain/casino.ts"
import { casinoMachine, NAVIGATION_GRACE_MS } from "../../src/machines/casino.machine.ts"
import type { CasinoGame } from "../../src/schema/casino.ts"
import type { Failure } from "../../src/schema/errors.ts"
import { entered, expectFullCoverage, recordFlows, replayPaths } from "./harness.ts"
import { casinoGamesQuery, launchParams } from "../../src/root/requests.ts"
import { type Effect, recorder, settled, type WalkStep } from "./walk.ts"

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

type Casino = SnapshotFrom<typeof casinoMachine>

/** The lobby is fixed; a launch in progress knows its game; the tags follow the states. */
export const invariants = (lobby: Lobby) => (s: Casino) => {
  expect(s.context.lobby).toBe(lobby)
  expect(s.hasTag("loading")).toBe(s.matches("Loading"))
  expect(s.hasTag("launching")).toBe(s.matches({ Ready: "Launching" }) || s.matches({ Ready: "Opening" }))
  if (s.hasTag("launching")) expect(s.context.game).toEqual(game)
  if (s.matches("Ready")) expect(s.context.games).toEqual([game])
}

/** The games list each lobby asks for, and the launch call of SPEC section 7 (the table id in the live lobby, else the game id). */
const calls = {
  live: { games: { endpoint: "GET /casino-games", body: {} }, launch: { endpoint: "GET /api/v1/live-casino-dcs/{game_id}", body: { game_id: "khel-dt-1" } } },
  slots: { games: { endpoint: "GET /casino-games", body: { slots: "true" } }, launch: { endpoint: "GET /api/v1/live-casino-dcs/{game_id}", body: { game_id: "dragon-tiger" } } },
  sa: { games: { endpoint: "GET /sa-casino-games", body: {} }, launch: { endpoint: "GET /api/v1/sa-casino/{game_id}", body: { game_id: "dragon-tiger" } } }
} as const

const refused: Failure = { code: 422, message: "Your casino credit is used up.", reason: "Refused" }

/** SPEC sections 5, 7 and 8: a visitor is told to log in; a player's launch asks for the URL; empty is 'Game Not Available', else it opens. */
const effects = (lobby: Lobby) => (step: WalkStep<Casino>): Array<Effect> => {
  const { event } = step
  if (entered(step, "Loading")) return [{ kind: "call", ...calls[lobby].games }]
  if (event.type === "category.select") expect(step.after.context.category).toBe(event.category)
  if (event.type === "game.launch" && step.before?.matches({ Ready: "Idle" })) {
    return event.signedIn
      ? [{ kind: "call", ...calls[lobby].launch }]
      : [{ kind: "toast", level: "warning", message: "Please Login to Play", subMessage: "Hold up! You need to log in to play!" }]
  }
  if (settled(step, "launchGame") === "done") {
    return event.output === ""
      ? [{ kind: "toast", level: "warning", message: "Game Not Available", subMessage: "This game is currently unavailable. Check back soon!" }]
      : [{ kind: "do", name: "open game", params: { url: event.output } }]
  }
  // A refused launch shows the server's message, once.
  if (settled(step, "launchGame") === "error") return [{ kind: "toast", level: "warning", message: refused.message }]
  return []
}

describe("casino machine (model-based)", () => {
  it("reaches every state and takes every transition in each lobby, checking the calls, the notices and the game opened", () => {
    const world = recorder()
    const walk = (lobby: Lobby) =>
      replayPaths(casinoMachine, {
        input: { lobby },
        world,
        actors: {
          loadGames: world.call<{ lobby: Lobby }>(calls[lobby].games.endpoint, casinoGamesQuery),
          launchGame: world.call<{ lobby: Lobby; game: CasinoGame }>(calls[lobby].launch.endpoint, launchParams)
        },
        actions: {
          notifyLoginRequired: world.toast("warning", LAUNCH_NOTICES.loginRequired),
          notifyUnavailable: world.toast("warning", LAUNCH_NOTICES.unavailable),
          openGame: world.act("open game"),
          toastFailure: world.toastFailure
        },
        invariants: invariants(lobby),
        effects: effects(lobby),
      outputs: { loadGames: [[game]], launchGame: ["", "/games/khel/dragon-tiger?token=t&lobby=%2Flive-casino"] },
      errors: { launchGame: [refused] },
      events: {
        "category.select": [{ type: "category.select", category: "Dragon Tiger" }],
        "game.launch": [{ type: "game.launch", game, signedIn: false }, { type: "game.launch", game, signedIn: true }]
      },
        // The category on show does not change what the lobby can do next.
        serialize: (s) => JSON.stringify([s.value, s.context.games.length])
      })
    expectFullCoverage(walk("sa"))
    expectFullCoverage(walk("slots"))
    const coverage = walk("live")
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
