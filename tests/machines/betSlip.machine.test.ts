import { describe, expect, it, vi } from "vitest"
import { assign, createActor, fromCallback, fromPromise, type SnapshotFrom } from "xstate"
import {
  betSlipMachine,
  figures,
  MAX_CHIPS,
  ODDS_CHANGED,
  type PlaceRequest,
  type PriceWatch,
  projection,
  proposed,
  type SlipSelection,
  stakeProblem,
  takesBestPrice
} from "../../src/machines/betSlip.machine.ts"
import { betEndpointOf, marketBetsQuery, oddsRulePayload, oneClickPayload, placeBetPayload } from "../../src/root/requests.ts"
import type { Bet } from "../../src/schema/bets.ts"
import type { BetSetting, PlacedBet } from "../../src/schema/betting.ts"
import type { Failure } from "../../src/schema/errors.ts"
import { recordFlows, replayPaths, type ModelOptions } from "./harness.ts"
import { type Effect, hosted, listener, must, recorder, settled, type WalkStep } from "./walk.ts"

const exchange: SlipSelection = {
  eventId: "e1",
  sportId: "s1",
  leagueId: "l1",
  marketId: "1.1",
  marketName: "Match Odds",
  marketType: "EXCHANGE",
  channel: "sport",
  selectionId: "a",
  name: "India",
  side: "back",
  odds: 2.5,
  size: null,
  runners: [{ selectionId: "a", name: "India" }, { selectionId: "b", name: "Australia" }],
  inPlay: false
}
const fancy: SlipSelection = { ...exchange, marketId: "1.2", marketName: "6 Over Runs IND", marketType: "FANCY", channel: "fancy", selectionId: "f", name: "6 Over Runs IND", side: "lay", odds: 45, size: 100, runners: [{ selectionId: "f", name: "6 Over Runs IND" }] }

const setting: BetSetting = { minStake: 100, maxStake: 500000, betDelay: 2, oddsChange: "better", oneClick: null }
const placed: PlacedBet = {
  bet: {
    _id: "b1", selection: "India", selectionId: "a", selectionType: "back", odds: 2.5, stake: 100, liability: 100, oddsSize: null,
    marketType: "EXCHANGE", marketId: "1.1", marketName: "Match Odds", status: "matched", matched: 100, matches: [{ odds: 2.5, stake: 100 }], unmatched: 0,
    persistence: "cancel", profitLoss: null, createdAt: "2026-01-01T00:00:00.000Z",
    eventId: { _id: "e1", name: "India v Australia", slugName: "india-v-australia" }, sportId: { slugName: "cricket" }, leagueId: { slugName: "t20" }
  },
  marketExposure: 100
}
const oddsChanged: Failure = { code: 422, reason: "OddsChanged", message: ODDS_CHANGED }
const unreachable: Failure = { code: 0, reason: "Unreachable", message: "We could not reach the server." }
const insufficient: Failure = { code: 422, reason: "InsufficientBalance", message: "Insufficient balance to place this bet." }

const quiet = { restoreChips: () => {}, storeChips: () => {}, tellOutcome: () => {} }

type Slip = SnapshotFrom<typeof betSlipMachine>

/** The chips the player kept, as local storage hands them back. */
const keptChips = [100, 500, 2500]

/**
 * An open slip has a selection and a price and follows it live; a bet in
 * flight has its key and a placeable stake; a placed bet is kept and its key
 * spent; a refusal says why; the chips are 1 to 8 positive amounts, rising.
 */
export const invariants = (s: Slip) => {
  const c = s.context
  must(/^[\d.]{0,12}$/.test(c.stake), "the stake is up to 12 digits and points", c.stake)
  must(c.chips.length > 0 && c.chips.length <= MAX_CHIPS, "1 to 8 chips", c.chips)
  must(c.chips.every((chip, i) => Number.isInteger(chip) && chip > 0 && (i === 0 || chip > c.chips[i - 1]!)), "chips are positive amounts, rising", c.chips)
  must((s.children.livePrice !== undefined) === s.matches("Open"), "the live price is followed exactly while open", s.value)
  if (s.matches("Open")) must(c.selection !== undefined && c.odds > 0, "an open slip has a selection and a price")
  must(s.hasTag("busy") === s.matches({ Open: "Placing" }), "busy exactly while placing", s.value)
  if (s.matches({ Open: "Placing" })) must(c.key !== undefined && stakeProblem(c) === undefined, "a bet in flight has its key and a placeable stake")
  if (s.matches({ Open: "Placed" })) must(c.placed !== undefined && c.key === undefined, "a placed bet is kept and its key spent")
  // Placed, the bet counts in the position once, and nothing more is proposed: the slip's "Now" is what the runners show.
  if (s.matches({ Open: "Placed" })) must(c.open.filter((bet) => bet._id === c.placed!.bet._id).length === 1 && proposed(c) === undefined, "a placed bet is in the position once, and proposes nothing")
  if (s.matches({ Open: "Rejected" })) must(Boolean(c.error), "a refusal says why")
  if (s.matches({ Open: "Stake" }) || s.matches({ Open: "Chips" })) must(c.error === undefined, "no refusal shows while editing", c.error)
}

/**
 * SPEC section 7 and docs/api.md: the endpoint for the market, the body `{ marketId, selectionId, selectionType, odds, stake }`
 * (plus `size` for a fancy line, `bestPrice` when taken, `persistence: "keep"` when an exchange bet before in-play keeps what waits).
 */
const betCall = (c: Slip["context"]): Effect => {
  const selection = c.selection!
  const endpoint = { sport: "POST /api/v1/bet-sport", fancy: "POST /api/v1/fancy-bet-sport", racing: "POST /api/v1/bet-racing" }[selection.channel]
  const payload = { marketId: selection.marketId, selectionId: selection.selectionId, selectionType: selection.side, odds: c.odds, stake: Number(c.stake) }
  const sized = selection.marketType === "FANCY" ? { ...payload, size: c.size } : payload
  // This bet takes the best available price: the player's choice for it, else their remembered default.
  const best = c.bestPrice ?? c.setting?.oddsChange === "any"
  const priced = best ? { ...sized, bestPrice: true } : sized
  const kept = c.keep && selection.marketType === "EXCHANGE" && !selection.inPlay ? { ...priced, persistence: "keep" } : priced
  return { kind: "call", endpoint, body: { payload: kept, idempotencyKey: c.key } }
}

/** Opening a selection loads its limits and the market's open bets and follows its live price. */
const opened = (selection: SlipSelection): Array<Effect> => [
  { kind: "call", endpoint: "GET /api/v1/setting", body: { sportsId: selection.sportId, leagueId: selection.leagueId, eventId: selection.eventId } },
  { kind: "call", endpoint: "GET /api/v1/bet-sport-byMarket", body: { marketId: selection.marketId } },
  { kind: "watch", name: "live price", input: { marketId: selection.marketId, selectionId: selection.selectionId, side: selection.side, withSize: selection.marketType === "FANCY" } }
]

const effects = (step: WalkStep<Slip>): Array<Effect> => {
  const { before, event, after } = step
  if (event.type === "xstate.init") return [{ kind: "store", what: "chips read" }]
  const wasOpen = before!.matches("Open")
  const placing = before!.matches({ Open: "Placing" })
  switch (event.type) {
    case "slip.open":
      if (placing) return []
      return wasOpen ? [{ kind: "unwatch", name: "live price" }, ...opened(event.selection)] : opened(event.selection)
    case "slip.close":
      return wasOpen && !placing ? [{ kind: "unwatch", name: "live price" }] : []
    case "slip.place":
      if (!after.matches({ Open: "Placing" }) || placing) return []
      // A retry after a lost answer is the same bet: the same key (a changed stake or price is a new bet, with a new key).
      if (before!.matches({ Open: "Rejected" }) && before!.context.key !== undefined) expect(after.context.key).toBe(before!.context.key)
      else expect(after.context.key).not.toBe(before!.context.key)
      return [betCall(after.context)]
    case "slip.price":
      if (wasOpen) expect(after.context.live).toEqual({ odds: event.odds, size: event.size })
      return []
    case "chips.save":
      return [{ kind: "store", what: "chips", value: { chips: after.context.chips } }]
    case "slip.oddsRule":
      // The default is saved only when the player changes it, never while a bet is in flight; the bet follows it.
      if (!before!.context.setting || before!.context.key !== undefined) return []
      expect(after.context.bestPrice).toBeUndefined()
      return [{ kind: "call", endpoint: "PUT /api/v1/setting", body: { oddsChange: event.rule } }]
    case "slip.oneClick": {
      // On at the stake typed (a placeable one), off when on; saved on the server.
      const c = before!.context
      if (!c.setting || (event.on ? !before!.matches("Open") || stakeProblem(c) !== undefined : c.setting.oneClick === null)) return []
      expect(after.context.setting?.oneClick).toBe(event.on ? Number(c.stake) : null)
      return [{ kind: "call", endpoint: "PUT /api/v1/setting", body: { oneClick: after.context.setting!.oneClick } }]
    }
    case "slip.bestPrice":
      // This bet only: nothing is saved; a bet in flight keeps what it was sent with.
      if (before!.context.key === undefined) expect(takesBestPrice(after.context)).toBe(event.value)
      else expect(after.context.bestPrice).toBe(before!.context.bestPrice)
      return []
  }
  // One-click betting: the click that opened the slip places the one-click stake as soon as the setting is in.
  if (settled(step, "loadSetting") === "done" && before!.matches({ Open: "Stake" })) {
    expect(after.matches({ Open: "Placing" })).toBe(event.output.oneClick !== null && before!.context.key === undefined)
    if (!after.matches({ Open: "Placing" })) return []
    expect(after.context.stake).toBe(String(event.output.oneClick))
    return [betCall(after.context)]
  }
  if (settled(step, "placeBet") === "done") {
    // A bet that went through leaves no refusal on the slip (a retry after "Odds changed" that was placed).
    expect(after.context.error).toBeUndefined()
    // The event's open bets load again after a bet went through; a one-click bet's outcome is a toast too.
    const told: Array<Effect> = after.context.oneClickBet ? [{ kind: "do", name: "tell outcome", params: { placed: event.output } }] : []
    return [{ kind: "do", name: "tell bets.e1", params: { type: "bets.refresh" } }, ...told]
  }
  // A saved setting's confirmation, or why it was not saved, is a toast, once (SPEC sections 7 and 8).
  if (settled(step, "saveSetting") === "done") return [{ kind: "toast", level: "success", message: event.output.message }]
  if (settled(step, "saveSetting") === "error") return [{ kind: "toast", level: "error", message: event.error.message }]
  if (settled(step, "placeBet") === "error" && event.error.reason === "OddsChanged") expect(after.context.odds).toBe(before!.context.live?.odds ?? before!.context.odds)
  if (event.type.startsWith("xstate.after.")) return [{ kind: "unwatch", name: "live price" }]
  return []
}

const world = recorder()

const model = {
  world,
  host: hosted(world, () => ({ "bets.e1": { src: listener(world, "bets.e1") } })),
  actors: {
    loadSetting: world.call("GET /api/v1/setting", (query: { sportsId: string; leagueId: string; eventId: string }) => query),
    loadOpenBets: world.call("GET /api/v1/bet-sport-byMarket", marketBetsQuery),
    saveOddsRule: world.call("PUT /api/v1/setting", oddsRulePayload),
    saveOneClick: world.call("PUT /api/v1/setting", oneClickPayload),
    placeBet: world.call(
      (request: PlaceRequest) => `POST /api/v1/${{ betSport: "bet-sport", fancyBetSport: "fancy-bet-sport", betRacing: "bet-racing" }[betEndpointOf(request.selection.channel)]}`,
      (request: PlaceRequest) => ({ payload: placeBetPayload(request), idempotencyKey: request.key })
    ),
    livePrice: world.watch("live price")
  },
  actions: {
    restoreChips: assign({ chips: () => (world.record({ kind: "store", what: "chips read" }), keptChips) }),
    storeChips: world.store("chips"),
    tellOutcome: world.act("tell outcome"),
    toastSuccess: world.toastSuccess,
    toastFailure: world.toastFailure
  },
  invariants,
  effects,
  outputs: { loadSetting: [setting], loadOpenBets: [[placed.bet]], placeBet: [placed], saveSetting: [{ data: setting, message: "Settings updated" }] },
  errors: { placeBet: [oddsChanged, unreachable, insufficient], saveSetting: [unreachable] },
  events: {
    "slip.open": [{ type: "slip.open", selection: exchange }, { type: "slip.open", selection: fancy }],
    "slip.stake": [{ type: "slip.stake", value: "250" }, { type: "slip.stake", value: "" }],
    "slip.chip": [{ type: "slip.chip", amount: 1000 }],
    "slip.odds": [{ type: "slip.odds", value: 2.6 }],
    "slip.price": [{ type: "slip.price", odds: 2.4, size: null }],
    "chips.change": [{ type: "chips.change", index: 0, value: "500" }],
    "slip.oddsRule": [{ type: "slip.oddsRule", rule: "any" }],
    "slip.bestPrice": [{ type: "slip.bestPrice", value: true }],
    "slip.keep": [{ type: "slip.keep", value: true }],
    // In the one-click walk below.
    "slip.oneClick": [] as Array<{ type: "slip.oneClick"; on: boolean }>
  },
  // What matters to the walk: the state, whether the slip can be placed, a live price and an attempt key.
  serialize: (s) =>
    JSON.stringify([s.value, stakeProblem(s.context) === undefined, s.context.live !== undefined, s.context.key !== undefined, s.context.selection?.marketType, s.context.setting?.oddsChange, takesBestPrice(s.context)])
} satisfies ModelOptions<typeof betSlipMachine>

describe("betSlip machine (model-based)", () => {
  it("reaches every state and takes every transition, checking the calls (the bet's spec payload and key), the live price and the chips at every step", () => {
    const walk = (overrides: Record<string, unknown>) =>
      replayPaths(betSlipMachine, { ...model, ...overrides, invariants, effects })
    const coverage = walk({})
    // With one-click betting on (a walk of its own, to keep each small): a click places at once; it can be turned off.
    const oneClick = walk({
      outputs: { ...model.outputs, loadSetting: [{ ...setting, oneClick: 500 }] },
      events: {
        ...(Object.fromEntries(Object.keys(model.events).map((type) => [type, []])) as Record<string, never>),
        "slip.open": [{ type: "slip.open", selection: exchange }],
        "slip.stake": [{ type: "slip.stake", value: "250" }],
        "slip.oneClick": [{ type: "slip.oneClick", on: false }, { type: "slip.oneClick", on: true }]
      }
    })
    const both = (which: "states" | "transitions") => coverage[which].missing.filter((name) => oneClick[which].missing.includes(name))
    expect(both("states"), "state nodes never reached").toEqual([])
    expect(both("transitions"), "transitions never taken").toEqual([])
    recordFlows("betSlip", "Bet slip: a price opens it, stake typed or from (editable) chips, placing with an idempotency key, placed (closes after 1.5 s) or rejected by reason; an OddsChanged refusal takes the live price the slip follows; an Unreachable answer keeps the key for the retry.", coverage)
  })
})

describe("betSlip machine (behaviour)", () => {
  /** A slip whose placement answers `outcome` (a bet, or a refusal thrown as plain Failure data). */
  const run = (outcome: PlacedBet | Failure) => {
    const placeBet = vi.fn(async (_: { input: PlaceRequest }) => {
      if ("reason" in outcome) throw outcome
      return outcome
    })
    let price: ((odds: number) => void) | undefined
    const watched: Array<PriceWatch> = []
    const actor = createActor(betSlipMachine.provide({
      actors: {
        loadSetting: fromPromise(async () => setting),
        loadOpenBets: fromPromise(async (): Promise<ReadonlyArray<Bet>> => []),
        placeBet: fromPromise(placeBet),
        livePrice: fromCallback(({ input, sendBack }: { input: PriceWatch; sendBack: (event: { type: "slip.price"; odds: number; size: null }) => void }) => {
          watched.push(input)
          price = (odds) => sendBack({ type: "slip.price", odds, size: null })
          return () => {
            price = undefined
          }
        })
      },
      actions: quiet
    })).start()
    return { actor, placeBet, watched, price: (odds: number) => price?.(odds) }
  }

  it("places with the typed stake and a fresh idempotency key, then closes itself", async () => {
    vi.useFakeTimers()
    try {
      const { actor, placeBet } = run(placed)
      actor.send({ type: "slip.open", selection: exchange })
      actor.send({ type: "slip.stake", value: "₹1,00" })
      expect(actor.getSnapshot().context.stake).toBe("100")
      actor.send({ type: "slip.place" })
      await vi.advanceTimersByTimeAsync(0)
      expect(placeBet.mock.calls[0]![0].input).toMatchObject({ stake: 100, odds: 2.5, key: expect.any(String) })
      expect(actor.getSnapshot().hasTag("placed")).toBe(true)
      await vi.advanceTimersByTimeAsync(1500)
      expect(actor.getSnapshot().value).toBe("Closed")
    } finally {
      vi.useRealTimers()
    }
  })

  it("placed, shows the position with the bet (as the runners do) and the bet as taken; it proposes nothing more", async () => {
    // Matched at 2.60, better than the 2.50 asked.
    const better: PlacedBet = { ...placed, bet: { ...placed.bet, matches: [{ odds: 2.6, stake: 100 }] } }
    const { actor } = run(better)
    actor.send({ type: "slip.open", selection: exchange })
    actor.send({ type: "slip.stake", value: "100" })
    expect(projection(actor.getSnapshot().context).runners).toEqual([
      { selectionId: "a", name: "India", now: 0, next: 150 },
      { selectionId: "b", name: "Australia", now: 0, next: -100 }
    ])
    actor.send({ type: "slip.place" })
    await vi.waitFor(() => expect(actor.getSnapshot().hasTag("placed")).toBe(true))
    const context = actor.getSnapshot().context
    expect(projection(context).runners).toEqual([
      { selectionId: "a", name: "India", now: 160, next: 160 },
      { selectionId: "b", name: "Australia", now: -100, next: -100 }
    ])
    expect(proposed(context)).toBeUndefined()
    expect(figures(context)).toEqual({ profit: 160, liability: 100 })
  })

  it("counts the placed bet once, whether the market's open bets answer after it with the bet or without", async () => {
    for (const late of [[placed.bet], []]) {
      let answer: (bets: ReadonlyArray<Bet>) => void = () => {}
      const actor = createActor(betSlipMachine.provide({
        actors: {
          loadSetting: fromPromise(async () => setting),
          loadOpenBets: fromPromise(() => new Promise<ReadonlyArray<Bet>>((resolve) => (answer = resolve))),
          livePrice: fromCallback(() => () => {}),
          placeBet: fromPromise(async () => placed)
        },
        actions: quiet
      })).start()
      actor.send({ type: "slip.open", selection: exchange })
      actor.send({ type: "slip.stake", value: "100" })
      actor.send({ type: "slip.place" })
      await vi.waitFor(() => expect(actor.getSnapshot().hasTag("placed")).toBe(true))
      const before = actor.getSnapshot().context.open
      answer(late)
      await vi.waitFor(() => expect(actor.getSnapshot().context.open).not.toBe(before))
      expect(projection(actor.getSnapshot().context).runners.map((r) => r.now)).toEqual([150, -100])
    }
  })

  it("follows the live price of its selection, and takes it after an odds-change refusal", async () => {
    const { actor, watched, price } = run(oddsChanged)
    actor.send({ type: "slip.open", selection: exchange })
    expect(watched).toEqual([{ marketId: "1.1", selectionId: "a", side: "back", withSize: false }])
    price(2.3)
    actor.send({ type: "slip.chip", amount: 1000 })
    actor.send({ type: "slip.place" })
    await vi.waitFor(() => expect(actor.getSnapshot().matches({ Open: "Rejected" })).toBe(true))
    expect(actor.getSnapshot().context).toMatchObject({ odds: 2.3, error: ODDS_CHANGED, stake: "1000" })
  })

  it("clears the odds-change refusal once the bet at the new price is placed", async () => {
    const { actor, placeBet, price } = run(placed)
    placeBet.mockImplementationOnce(async () => {
      throw oddsChanged
    })
    actor.send({ type: "slip.open", selection: exchange })
    price(2.3)
    actor.send({ type: "slip.chip", amount: 1000 })
    actor.send({ type: "slip.place" })
    await vi.waitFor(() => expect(actor.getSnapshot().context.error).toBe(ODDS_CHANGED))
    actor.send({ type: "slip.place" })
    await vi.waitFor(() => expect(actor.getSnapshot().hasTag("placed")).toBe(true))
    expect(actor.getSnapshot().context.error).toBeUndefined()
  })

  it("refuses to place below the minimum stake once the limits are in", async () => {
    const { actor, placeBet } = run(placed)
    actor.send({ type: "slip.open", selection: exchange })
    await vi.waitFor(() => expect(actor.getSnapshot().context.setting).toEqual(setting))
    actor.send({ type: "slip.stake", value: "50" })
    expect(stakeProblem(actor.getSnapshot().context)).toBe("Min stake ₹100.00")
    // Amounts in the hint are money like any other: Indian grouping, two decimals.
    actor.send({ type: "slip.stake", value: "600000" })
    expect(stakeProblem(actor.getSnapshot().context)).toBe("Max stake ₹5,00,000.00")
    actor.send({ type: "slip.stake", value: "50" })
    actor.send({ type: "slip.place" })
    expect(placeBet).not.toHaveBeenCalled()
  })

  it("shows profit, liability and the projected P/L of every runner as the stake is typed", () => {
    const { actor } = run(placed)
    actor.send({ type: "slip.open", selection: { ...exchange, side: "lay", odds: 3 } })
    actor.send({ type: "slip.stake", value: "200" })
    const context = actor.getSnapshot().context
    expect(figures(context)).toEqual({ profit: 200, liability: 400 })
    expect(projection(context).runners).toEqual([
      { selectionId: "a", name: "India", now: 0, next: -400 },
      { selectionId: "b", name: "Australia", now: 0, next: 200 }
    ])
    expect(projection(context).exposure).toBe(400)
  })

  it("starts from the kept chips, edits and keeps them", () => {
    const storeChips = vi.fn()
    const actor = createActor(betSlipMachine.provide({
      actions: { storeChips, restoreChips: assign({ chips: [100, 200] }) },
      actors: { loadSetting: fromPromise(async () => setting), loadOpenBets: fromPromise(async (): Promise<ReadonlyArray<Bet>> => []), livePrice: fromCallback(() => () => {}) }
    })).start()
    actor.send({ type: "slip.open", selection: exchange })
    actor.send({ type: "chips.edit" })
    actor.send({ type: "chips.change", index: 1, value: "2500" })
    actor.send({ type: "chips.save" })
    expect(actor.getSnapshot().context.chips).toEqual([100, 2500])
    expect(storeChips).toHaveBeenCalledWith(expect.anything(), { chips: [100, 2500] })
  })

  it("keeps the key after a lost answer, and tells the event's open bets about a placed bet", async () => {
    let attempt = 0
    const keys: Array<string> = []
    const actor = createActor(betSlipMachine.provide({
      actors: {
        loadSetting: fromPromise(async () => setting),
        loadOpenBets: fromPromise(async (): Promise<ReadonlyArray<Bet>> => []),
        livePrice: fromCallback(() => () => {}),
        placeBet: fromPromise(async ({ input }: { input: PlaceRequest }) => {
          keys.push(input.key)
          if (attempt++ === 0) throw unreachable
          return placed
        })
      },
      actions: quiet
    })).start()
    actor.send({ type: "slip.open", selection: exchange })
    actor.send({ type: "slip.chip", amount: 1000 })
    actor.send({ type: "slip.place" })
    await vi.waitFor(() => expect(actor.getSnapshot().matches({ Open: "Rejected" })).toBe(true))
    expect(actor.getSnapshot().context.error).toBe(unreachable.message)
    actor.send({ type: "slip.place" })
    await vi.waitFor(() => expect(actor.getSnapshot().hasTag("placed")).toBe(true))
    expect(keys[1]).toBe(keys[0])
  })
})
