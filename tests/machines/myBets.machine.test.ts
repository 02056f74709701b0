import { describe, expect, it, vi } from "vitest"
import { createActor, createMachine, fromCallback, fromPromise, type SnapshotFrom } from "xstate"
import { type BetsQuery, myBetsMachine } from "../../src/machines/myBets.machine.ts"
import { racingMachine } from "../../src/machines/racing.machine.ts"
import type { Bet } from "../../src/schema/bets.ts"
import type { Failure } from "../../src/schema/errors.ts"
import type { RacingSport } from "../../src/schema/sports.ts"
import { player, quietSession } from "./fixtures.ts"
import { entered, expectFullCoverage, recordFlows, replayPaths } from "./harness.ts"
import { cancelBetPayload, editBetPayload, myBetsQuery } from "../../src/root/requests.ts"
import { type Effect, recorder, settled, type WalkStep } from "./walk.ts"

const failure: Failure = { code: 500, message: "Something went wrong", reason: "ServerError" }
const notWaiting: Failure = { code: 422, message: "Nothing of this bet is waiting any more: it was matched, cancelled or settled.", reason: "NotWaiting" }
const unreachable: Failure = { code: 0, message: "We could not reach the server.", reason: "Unreachable" }

type MyBets = SnapshotFrom<typeof myBetsMachine>

/** The query is the one opened with; a failure has its message and a list has none; loading is tagged; a change in flight has its bet and key (a move its price). */
export const myBetsInvariants = (query: BetsQuery) => (s: MyBets) => {
  expect(s.context.query).toEqual(query)
  expect(s.hasTag("loading")).toBe(s.matches("Loading"))
  expect(s.hasTag("busy")).toBe(s.matches("Cancelling") || s.matches("Moving"))
  if (s.matches("Cancelling")) expect(s.context.change).toMatchObject({ key: expect.stringMatching(/^cancel-/), odds: undefined })
  if (s.matches("Moving")) expect(s.context.change).toMatchObject({ key: expect.stringMatching(/^move-/), odds: expect.any(Number) })
  if (s.matches("Failed")) expect(s.context.error).toBe(failure.message)
  if (s.matches("Ready")) expect(s.context.error).toBeUndefined()
}

/**
 * Every (re)load asks bet-sport-byMarket for the event's bets (or all); an answer replaces the list. Cancel asks
 * cancel-bet, a move edit-bet, for the bet under a key: a new key per change, the same one again for the same change
 * after a lost answer; the list loads again.
 */
const myBetsEffects = (body: unknown) => (step: WalkStep<MyBets>): Array<Effect> => {
  const { before, event, after } = step
  if (settled(step, "loadBets") === "done") expect(after.context.bets).toEqual(event.output)
  // A change's answer and its failure show as a toast, once (SPEC sections 7 and 8); the list loads again.
  const reload = { kind: "call", endpoint: "GET /api/v1/bet-sport-byMarket", body } as const
  for (const actor of ["cancelBet", "moveBet"]) {
    if (settled(step, actor) === "error") {
      expect(after.context.change).toEqual(event.error.reason === "Unreachable" ? before!.context.change : undefined)
      return [{ kind: "toast", level: event.error.reason === "Unreachable" ? "error" : "warning", message: event.error.message }, reload]
    }
    if (settled(step, actor) === "done") return [{ kind: "toast", level: "success", message: event.output.message }, reload]
  }
  if ((event.type === "bets.cancel" || event.type === "bets.move") && (entered(step, "Cancelling") || entered(step, "Moving"))) {
    const odds = event.type === "bets.move" ? event.odds : undefined
    const same = before!.context.change?.betId === event.betId && before!.context.change?.odds === odds
    if (same) expect(after.context.change).toBe(before!.context.change)
    else expect(after.context.change?.key).not.toBe(before!.context.change?.key)
    const key = after.context.change!.key
    return event.type === "bets.move"
      ? [{ kind: "call", endpoint: "POST /api/v1/edit-bet", body: { payload: { betId: event.betId, odds: event.odds }, idempotencyKey: key } }]
      : [{ kind: "call", endpoint: "POST /api/v1/cancel-bet", body: { payload: { betId: event.betId }, idempotencyKey: key } }]
  }
  return entered(step, "Loading") ? [{ kind: "call", endpoint: "GET /api/v1/bet-sport-byMarket", body }] : []
}

type Racing = SnapshotFrom<typeof racingMachine>

/** Horse racing with one race (`race1`). */
const horseRacing: RacingSport = {
  _id: "r", name: "Horse Racing", slugName: "horse-racing", sportsCode: "7",
  countries: [{ id: "GB", name: "United Kingdom", tracks: [{ _id: "t1", name: "Ascot", slugName: "ascot", events: [
    { _id: "race1", id: "1.race1", name: "Ascot R1", slugName: "ascot-r1", date: "2026-11-29T12:00:00.000Z", sportCode: "7", inPlay: false, markets: [] }
  ] }] }]
}

export const racingInvariants = (s: Racing) => expect(s.hasTag("loading")).toBe(s.matches("Loading"))

/** Opening loads the races and follows the catalogue; each reload asks again; an answer shows. */
const racingEffects = (step: WalkStep<Racing>): Array<Effect> => {
  if (settled(step, "loadRacing") === "done") expect(step.after.context.sports).toEqual(step.event.output)
  return racingEffectsOf(step)
}
const racingEffectsOf = (step: WalkStep<Racing>): Array<Effect> => [
  ...(step.event.type === "xstate.init" ? [{ kind: "watch", name: "catalogue" } as const] : []),
  ...(entered(step, "Loading") ? [{ kind: "call", endpoint: "GET /api/v1/racing" } as const] : [])
]

/**
 * The session in the system beside one event's bets, signed in, after the list's first load: a balance change or
 * the user's socket event reaches the list through watchBalances / watchBets. Each load's query is kept.
 */
const signedInWithBets = async (session: typeof quietSession) => {
  const queries: Array<BetsQuery> = []
  const root = createMachine({
    invoke: [
      { src: "session", systemId: "session", input: { token: undefined } },
      { src: "bets", input: { eventId: "e1" } }
    ]
  }).provide({
    actors: {
      session,
      bets: myBetsMachine.provide({ actors: { loadBets: fromPromise(async ({ input }: { input: BetsQuery }): Promise<ReadonlyArray<Bet>> => (queries.push(input), [])) } })
    }
  })
  const app = createActor(root).start()
  const signedIn = app.system.get("session")
  signedIn.send({ type: "session.signedIn", token: "t", user: player, remember: true })
  await vi.waitFor(() => expect(queries).toHaveLength(1))
  return { app, session: signedIn, queries }
}

describe("myBets machine (model-based)", () => {
  it("reaches every state and takes every transition, asking for one event's bets or all of them", () => {
    const world = recorder()
    const walk = (input: BetsQuery) =>
      replayPaths(myBetsMachine, {
        input,
        world,
        actors: {
          loadBets: world.call("GET /api/v1/bet-sport-byMarket", myBetsQuery),
          cancelBet: world.call("POST /api/v1/cancel-bet", (request: { betId: string; key: string }) => ({ payload: cancelBetPayload(request), idempotencyKey: request.key })),
          moveBet: world.call("POST /api/v1/edit-bet", (request: { betId: string; key: string; odds: number }) => ({ payload: editBetPayload(request), idempotencyKey: request.key }))
        },
        actions: { toastSuccess: world.toastSuccess, toastFailure: world.toastFailure },
        outputs: { loadBets: [[]], cancelBet: [{ data: {}, message: "Cancelled ₹100.00 waiting at 1.82" }], moveBet: [{ data: {}, message: "Waiting at 1.79" }] },
        errors: { loadBets: [failure], cancelBet: [notWaiting, unreachable], moveBet: [notWaiting, unreachable] },
        events: { "bets.cancel": [{ type: "bets.cancel", betId: "b1" }], "bets.move": [{ type: "bets.move", betId: "b1", odds: 1.79 }] },
        // A change's key is random: the walk tells states apart by which change is kept.
        serialize: (s: MyBets) => JSON.stringify([s.value, s.context.bets.length, s.context.error, s.context.change?.betId, s.context.change?.odds]),
        invariants: myBetsInvariants(input),
        effects: myBetsEffects(input.eventId ? { eventId: input.eventId } : {})
      })
    expectFullCoverage(walk({}))
    const coverage = walk({ eventId: "e1" })
    expectFullCoverage(coverage)
    recordFlows("myBets", "The player's open bets (all in the My Bets modal; one event's as bets.<eventId>): load, refresh after a bet, a money move or the socket's news, failure and retry; cancel or move what waits (one key per change, kept for its retry).", coverage)
  })

  it("asks for one event's bets, and loads them again when the player's money moves", async () => {
    // The user's socket event reloads a user whose balance moved (a bet settled).
    const { app, session, queries } = await signedInWithBets(quietSession.provide({ actors: { fetchUser: fromPromise(async () => ({ ...player, balance: player.balance + 250 })) } }))
    session.send({ type: "user.changed" })
    await vi.waitFor(() => expect(queries).toEqual([{ eventId: "e1" }, { eventId: "e1" }]))
    app.stop()
  })

  it("loads again when the socket says the player's bets changed, though no money moved (a waiting bet matched)", async () => {
    const { app, session, queries } = await signedInWithBets(quietSession)
    session.send({ type: "user.changed", reason: "deposit" })
    session.send({ type: "user.changed", reason: "bet.matched", message: "India: Matched ₹200.00 at 1.78" })
    await vi.waitFor(() => expect(queries).toHaveLength(2))
    app.stop()
  })
})

describe("racing machine (model-based)", () => {
  it("reaches every state and takes every transition, following the catalogue", () => {
    const world = recorder()
    const coverage = replayPaths(racingMachine, {
      world,
      actors: { loadRacing: world.call("GET /api/v1/racing"), watchCatalogue: world.watch("catalogue") },
      outputs: { loadRacing: [[horseRacing]] },
      // The whole catalogue, a race's markets (reloads), another event's markets (does not).
      events: { "racing.reload": [{ type: "racing.reload" }, { type: "racing.reload", eventId: "race1" }, { type: "racing.reload", eventId: "c1" }] },
      invariants: racingInvariants,
      effects: racingEffects
    })
    expectFullCoverage(coverage)
    recordFlows("racing", "Racing hierarchy for /racing: load, failure, reload (also when the odds channel says races started, finished or were scheduled).", coverage)
  })

  it("reloads when the odds channel says the catalogue or a listed race's markets changed, not another event's", async () => {
    let changed = (_eventId?: string) => {}
    let loads = 0
    const actor = createActor(racingMachine.provide({
      actors: {
        loadRacing: fromPromise(async (): Promise<ReadonlyArray<RacingSport>> => (loads++, [horseRacing])),
        watchCatalogue: fromCallback(({ sendBack }) => {
          changed = (eventId) => sendBack(eventId === undefined ? { type: "racing.reload" } : { type: "racing.reload", eventId })
          return () => {}
        })
      }
    })).start()
    const ready = () => vi.waitFor(() => expect(actor.getSnapshot().matches("Ready")).toBe(true))
    await ready()
    // A line opened on a cricket match: the races are as they were.
    changed("c1")
    expect(actor.getSnapshot().matches("Ready")).toBe(true)
    expect(loads).toBe(1)
    changed("race1")
    await vi.waitFor(() => expect(loads).toBe(2))
    await ready()
    changed()
    await vi.waitFor(() => expect(loads).toBe(3))
    actor.stop()
  })
})
