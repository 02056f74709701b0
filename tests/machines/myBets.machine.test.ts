import { describe, expect, it, vi } from "vitest"
import { createActor, createMachine, fromCallback, fromPromise } from "xstate"
import { type BetsQuery, myBetsMachine } from "../../src/machines/myBets.machine.ts"
import { racingMachine } from "../../src/machines/racing.machine.ts"
import type { Bet } from "../../src/schema/bets.ts"
import type { RacingSport } from "../../src/schema/sports.ts"
import { player, quietSession } from "./fixtures.ts"
import { expectFullCoverage, recordFlows, replayPaths } from "./harness.ts"

describe("myBets machine (model-based)", () => {
  it("reaches every state and takes every transition", () => {
    const coverage = replayPaths(myBetsMachine as never, { input: { eventId: "e1" }, outputs: { loadBets: [[]] } })
    expectFullCoverage(coverage)
    recordFlows("myBets", "The player's open bets (all: the My Bets modal; one event's: the flow bets.<eventId> the event page and the right sidebar share): load, refresh after a bet or when money moves, failure and retry.", coverage)
  })

  it("asks for one event's bets, and loads them again when the player's money moves", async () => {
    const queries: Array<BetsQuery> = []
    // The session in the system, signed in: a balance change reaches the list through watchBalances.
    const root = createMachine({
      invoke: [
        { src: "session", systemId: "session", input: { token: undefined } },
        { src: "bets", input: { eventId: "e1" } }
      ]
    }).provide({
      actors: {
        // The user's socket event reloads a user whose balance moved (a bet settled).
        session: quietSession.provide({ actors: { fetchUser: fromPromise(async () => ({ ...player, balance: player.balance + 250 })) } }),
        bets: myBetsMachine.provide({ actors: { loadBets: fromPromise(async ({ input }: { input: BetsQuery }): Promise<ReadonlyArray<Bet>> => (queries.push(input), [])) } })
      }
    })
    const app = createActor(root).start()
    const session = app.system.get("session")
    session.send({ type: "session.signedIn", token: "t", user: player, remember: true })
    await vi.waitFor(() => expect(queries).toHaveLength(1))
    session.send({ type: "user.changed" })
    await vi.waitFor(() => expect(queries).toEqual([{ eventId: "e1" }, { eventId: "e1" }]))
    app.stop()
  })
})

describe("racing machine (model-based)", () => {
  it("reaches every state and takes every transition", () => {
    const coverage = replayPaths(racingMachine as never, { outputs: { loadRacing: [[]] } })
    expectFullCoverage(coverage)
    recordFlows("racing", "Racing hierarchy for /racing: load, failure, reload (also when the odds channel says races started, finished or were scheduled).", coverage)
  })

  it("reloads when the odds channel says the catalogue changed", async () => {
    let changed = () => {}
    let loads = 0
    const actor = createActor(racingMachine.provide({
      actors: {
        loadRacing: fromPromise(async (): Promise<ReadonlyArray<RacingSport>> => (loads++, [])),
        watchCatalogue: fromCallback(({ sendBack }) => {
          changed = () => sendBack({ type: "racing.reload" })
          return () => {}
        })
      }
    })).start()
    await vi.waitFor(() => expect(actor.getSnapshot().matches("Ready")).toBe(true))
    changed()
    await vi.waitFor(() => expect(loads).toBe(2))
  })
})
