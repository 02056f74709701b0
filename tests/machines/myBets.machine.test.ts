import { describe, it } from "vitest"
import { myBetsMachine } from "../../src/machines/myBets.machine.ts"
import { racingMachine } from "../../src/machines/racing.machine.ts"
import { expectFullCoverage, recordFlows, replayPaths } from "./harness.ts"

describe("myBets machine (model-based)", () => {
  it("reaches every state and takes every transition", () => {
    const coverage = replayPaths(myBetsMachine as never, {
      outputs: { loadBets: [[]] },
      events: { "bets.load": [{ type: "bets.load", query: { eventId: "e1" } }] }
    })
    expectFullCoverage(coverage)
    recordFlows("myBets", "The player's open bets (all, or one event's): load, refresh after a bet or settlement, failure and retry.", coverage)
  })
})

describe("racing machine (model-based)", () => {
  it("reaches every state and takes every transition", () => {
    const coverage = replayPaths(racingMachine as never, { outputs: { loadRacing: [[]] } })
    expectFullCoverage(coverage)
    recordFlows("racing", "Racing hierarchy for /racing: load, failure, reload.", coverage)
  })
})
