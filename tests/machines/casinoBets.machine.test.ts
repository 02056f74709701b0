import { Schema } from "effect"
import { describe, expect, it, vi } from "vitest"
import { createActor, fromPromise } from "xstate"
import { type CasinoBetsContext, casinoBetsMachine } from "../../src/machines/casinoBets.machine.ts"
import { type CasinoBet, CasinoBetsQuery } from "../../src/schema/casino.ts"
import { type Failure, messageOf } from "../../src/schema/errors.ts"
import { expectFullCoverage, invokedWith, isIn, recordFlows, replayPaths, type Step } from "./harness.ts"

const bet: CasinoBet = {
  _id: "r1",
  roundId: "round-1",
  provider: "khel",
  provider_name: "Khel Originals",
  game_id: "dragon-tiger",
  title: "Khel Dragon Tiger",
  stake: 100,
  win: 200,
  refunded: 0,
  profitLoss: 100,
  status: "settled",
  createdAt: "2026-01-01T10:00:00.000Z",
  settledAt: "2026-01-01T10:00:01.000Z"
}
const today: CasinoBetsQuery = { provider: "all", date: "2026-01-01" }
const unavailable: Failure = { code: 503, message: "Casino bets are not available right now.", reason: "Unavailable" }

const checkStep = (step: Step) => {
  const context: CasinoBetsContext = step.after.context
  // Ready shows the rounds answered; Failed shows none, with the server's message.
  if (step.event.type === "xstate.done.actor.loadBets") expect(context).toMatchObject({ bets: step.event.output, error: undefined })
  if (isIn(step.after, "Failed")) expect(context).toMatchObject({ bets: [], error: messageOf(unavailable) })
  // Each query, and money moving, asks for the rounds of the query in context (provider and date, SPEC section 7).
  const load = invokedWith(step, "loadBets")
  if (["xstate.init", "bets.query", "balances.changed"].includes(step.event.type)) {
    expect(load?.input).toEqual(context.query)
    expect(Schema.decodeUnknownSync(CasinoBetsQuery)(load?.input)).toEqual(context.query)
  } else expect(load).toBeUndefined()
  expect(step.actions).toEqual([])
}

describe("casinoBets machine (model-based)", () => {
  it("covers every state and transition", () => {
    const coverage = replayPaths(casinoBetsMachine, {
      input: { query: today },
      outputs: { loadBets: [[bet]] },
      errors: { loadBets: [unavailable] },
      events: { "bets.query": [{ type: "bets.query", query: { provider: "khel", date: "2026-01-02" } }] },
      serialize: (s) => JSON.stringify([s.value, s.context.query]),
      check: checkStep
    })
    expectFullCoverage(coverage)
    recordFlows("casinoBets", "The player's casino rounds of a day and provider under a lobby: load, a new query (from any state), failure with the server's message; the list loads again when the player's money moves.", coverage)
  })
})

describe("casinoBets machine behaviour", () => {
  it("asks for each query, keeps the server's message when it fails, and loads again when money moves", async () => {
    const queries: Array<CasinoBetsQuery> = []
    let fail = false
    const actor = createActor(
      casinoBetsMachine.provide({
        actors: {
          loadBets: fromPromise(async ({ input }: { input: CasinoBetsQuery }): Promise<ReadonlyArray<CasinoBet>> => {
            queries.push(input)
            if (fail) throw unavailable
            return [bet]
          })
        }
      }),
      { input: { query: today } }
    ).start()
    await vi.waitFor(() => expect(actor.getSnapshot().matches("Ready")).toBe(true))
    expect(actor.getSnapshot().context.bets).toEqual([bet])
    fail = true
    actor.send({ type: "bets.query", query: { provider: "khel", date: "2026-01-02" } })
    await vi.waitFor(() => expect(actor.getSnapshot().matches("Failed")).toBe(true))
    expect(actor.getSnapshot().context).toMatchObject({ bets: [], error: unavailable.message })
    fail = false
    actor.send({ type: "balances.changed" })
    await vi.waitFor(() => expect(actor.getSnapshot().matches("Ready")).toBe(true))
    expect(queries).toEqual([today, { provider: "khel", date: "2026-01-02" }, { provider: "khel", date: "2026-01-02" }])
  })
})
