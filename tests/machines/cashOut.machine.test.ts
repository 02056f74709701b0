import { describe, expect, it, vi } from "vitest"
import { createActor, fromPromise, type SnapshotFrom } from "xstate"
import type { Position } from "../../src/domain/betting.ts"
import { type CashOutMarket, type CashOutRequest, cashOutMachine, clampPercent, liveCashOut, type Quote, quoteCovers, validAuto } from "../../src/machines/cashOut.machine.ts"
import { autoCashOutPayload, cashOutPayload, cashOutQuoteQuery } from "../../src/root/requests.ts"
import type { BetSetting, MarketBook } from "../../src/schema/betting.ts"
import type { CashOutAnswer } from "../../src/schema/cashOut.ts"
import type { Failure } from "../../src/schema/errors.ts"
import { recordFlows, replayPaths, type ModelOptions } from "./harness.ts"
import { type Effect, hosted, listener, must, recorder, settled, type WalkStep } from "./walk.ts"

const matchOdds: CashOutMarket = { eventId: "e1", marketId: "1.1", marketName: "Match Odds", marketType: "EXCHANGE" }
const bookmaker: CashOutMarket = { eventId: "e1", marketId: "1.2", marketName: "Bookmaker", marketType: "BOOKMAKER" }

const setting: BetSetting = { minStake: 100, maxStake: 500000, betDelay: 0, oddsChange: "better", oneClick: null }
/** A quote of `fraction` of India +1,500 / Australia −1,000 that locks `full` on all of it (the kept part stays as it was). */
const quoteOf = (fraction: number, full: number, quoteId = "q1"): Quote => {
  const after = (before: number) => Math.round(((1 - fraction) * before + fraction * full) * 100) / 100
  return {
    marketId: "1.1",
    fraction,
    // The part cashed out locks that part of the full value (the kept part stays as it was).
    value: Math.round(fraction * full * 100) / 100,
    perRunner: [{ selectionId: "a", before: 1500, after: after(1500) }, { selectionId: "b", before: -1000, after: after(-1000) }],
    quoteId,
    expiresAt: "2026-11-28T12:00:10.000Z"
  }
}
const quote = quoteOf(1, 373.62)
const cashedOutOf = (fraction: number, value: number): CashOutAnswer => ({ outcome: "cashedOut", marketId: "1.1", fraction, value, bets: [], marketExposure: 0, balance: 10_373.62 })
const cashedOut = cashedOutOf(1, 373.62)
const requoted: CashOutAnswer = { outcome: "requoted", quote: quoteOf(1, 360, "q2") }
const suspended: Failure = { code: 422, reason: "MarketSuspended", message: "This market is suspended." }
const unreachable: Failure = { code: 0, reason: "Unreachable", message: "We could not reach the server." }

type CashOut = SnapshotFrom<typeof cashOutMachine>

/**
 * Open exactly with a market; the per cent is whole, 1 to 100; a quoted or confirming flow has a quote for it; a cash
 * out in flight has its key and the quote it accepts; a refusal says why; a done cash out locked the quote's value.
 */
const invariants = (s: CashOut) => {
  const c = s.context
  must(s.hasTag("closed") === !s.matches("Open"), "closed exactly when not open", s.value)
  if (s.matches("Open")) must(c.market !== undefined, "an open flow has its market")
  must(Number.isInteger(c.percent) && c.percent >= 1 && c.percent <= 100, "a whole per cent, 1 to 100", c.percent)
  if (s.hasTag("quoted")) must(c.quote !== undefined && c.error === undefined, "a quote shows, and no refusal", c)
  must(s.hasTag("busy") === s.matches({ Open: "Submitting" }), "busy exactly while submitting", s.value)
  if (s.hasTag("busy")) must(c.key?.startsWith("cash-out-") === true && c.quote !== undefined, "a cash out in flight has its key and its quote", c.key)
  if (s.hasTag("refused")) must(Boolean(c.error), "a refusal says why")
  if (s.hasTag("done")) must(c.locked !== undefined && c.key === undefined, "a done cash out says what it locked, its key spent", c)
}

/** GET /api/v1/cash-out/quote with the market and the fraction (as text, a query); POST /api/v1/cash-out with the quote's id and a key. */
const quoteCall = (c: CashOut["context"]): Effect => ({ kind: "call", endpoint: "GET /api/v1/cash-out/quote", body: { marketId: c.market!.marketId, fraction: String(c.percent / 100) } })
const cashOutCall = (c: CashOut["context"]): Effect => ({
  kind: "call",
  endpoint: "POST /api/v1/cash-out",
  body: { payload: { marketId: c.market!.marketId, fraction: c.percent / 100, quoteId: c.quote!.quoteId }, idempotencyKey: c.key }
})

const effects = (step: WalkStep<CashOut>): Array<Effect> => {
  const { before, event, after } = step
  if (event.type === "xstate.init") return []
  const submitting = before!.matches({ Open: "Submitting" })
  const out: Array<Effect> = []
  // Opening (or another market) loads the betting setting and quotes the whole position.
  if (event.type === "cashOut.open" && !submitting) {
    expect(after.context.percent).toBe(100)
    out.push({ kind: "call", endpoint: "GET /api/v1/setting", body: { eventId: event.market.eventId } }, { kind: "call", endpoint: "GET /api/v1/cash-out/auto" })
    expect(after.context.auto).toEqual({ target: null, floor: null })
  }
  // An auto cash out is saved while open, if its amounts make sense (a floor below the target); the form shows it.
  if (event.type === "cashOut.auto") {
    const saved = before!.matches("Open") && validAuto({ target: event.target, floor: event.floor })
    expect(after.context.auto).toEqual(saved ? { target: event.target, floor: event.floor } : before!.context.auto)
    if (saved) out.push({ kind: "call", endpoint: "PUT /api/v1/cash-out/auto", body: { marketId: before!.context.market!.marketId, target: event.target, floor: event.floor } })
    // One that does not is not sent, and the form says why.
    if (before!.matches("Open")) expect(after.context.autoError).toBe(saved ? undefined : "The stop-loss floor must be below the take-profit target.")
  }
  // The auto cash out's answer, or why not, is a toast, once (SPEC sections 7 and 8).
  if (settled(step, "saveAutoRule") === "done") out.push({ kind: "toast", level: "success", message: event.output.message })
  if (settled(step, "saveAutoRule") === "error") out.push({ kind: "toast", level: "warning", message: event.error.message })
  if (settled(step, "loadAutoRule") === "done") expect(after.context.auto).toEqual(event.output ? { target: event.output.target, floor: event.output.floor } : { target: null, floor: null })
  if (after.matches({ Open: "Quoting" }) && (!before!.matches({ Open: "Quoting" }) || event.type === "cashOut.percent" || event.type === "cashOut.open")) out.push(quoteCall(after.context))
  if (after.matches({ Open: "Submitting" }) && !submitting) {
    // A retry after a lost answer is the same cash out: the same key; anything else is a new one.
    if (event.type === "cashOut.retry") expect(after.context.key).toBe(before!.context.key)
    else expect(after.context.key).not.toBe(before!.context.key)
    out.push(cashOutCall(after.context))
  }
  if (event.type === "cashOut.request" && before!.matches({ Open: "Quoted" })) {
    // A confirmation unless the player turned them off (one-click betting), and always for a changed value.
    expect(after.matches({ Open: "Confirming" })).toBe(before!.context.confirm || before!.context.changed)
  }
  if (settled(step, "cashOut") === "done") {
    expect(after.context.key).toBeUndefined()
    if (event.output.outcome === "requoted") {
      // The value fell beyond the tolerance: nothing was written; the new quote shows, to confirm.
      expect(after.context.quote).toEqual(event.output.quote)
      expect(after.context.changed).toBe(true)
    } else {
      // The event's open bets load again; the dialog says what was locked (no toast besides).
      expect(after.context.locked).toBe(event.output.value)
      out.push({ kind: "do", name: "tell bets.e1", params: { type: "bets.refresh" } })
    }
  }
  // A lost answer keeps the key (the retry is the same cash out); a refusal spends it.
  if (settled(step, "cashOut") === "error") expect(after.context.key).toBe(event.error.reason === "Unreachable" ? before!.context.key : undefined)
  if (settled(step, "loadSetting") === "done") expect(after.context.confirm).toBe(event.output.oneClick === null)
  return out
}

const world = recorder()

const model = {
  world,
  host: hosted(world, () => ({ "bets.e1": { src: listener(world, "bets.e1") } })),
  actors: {
    loadSetting: world.call("GET /api/v1/setting", (query: { eventId: string }) => query),
    quote: world.call("GET /api/v1/cash-out/quote", cashOutQuoteQuery),
    cashOut: world.call("POST /api/v1/cash-out", (request: CashOutRequest) => ({ payload: cashOutPayload(request), idempotencyKey: request.key })),
    loadAutoRule: world.call("GET /api/v1/cash-out/auto"),
    saveAutoRule: world.call("PUT /api/v1/cash-out/auto", autoCashOutPayload)
  },
  actions: { toastSuccess: world.toastSuccess, toastFailure: world.toastFailure },
  invariants,
  effects,
  outputs: { loadSetting: [setting, { ...setting, oneClick: 500 }], quote: [quote], cashOut: [cashedOut, requoted], loadAutoRule: [{ marketId: "1.1", target: 400, floor: null }], saveAutoRule: [{ data: [], message: "Auto cash out set" }] },
  errors: { quote: [suspended], cashOut: [unreachable, suspended], loadSetting: [unreachable], loadAutoRule: [unreachable], saveAutoRule: [suspended] },
  events: {
    "cashOut.open": [{ type: "cashOut.open", market: matchOdds }, { type: "cashOut.open", market: bookmaker }],
    "cashOut.percent": [{ type: "cashOut.percent", percent: 50 }],
    "cashOut.auto": [{ type: "cashOut.auto", target: 450, floor: -200 }, { type: "cashOut.auto", target: 100, floor: 200 }]
  },
  // The state, the part, whether the player confirms, a changed value, a key kept.
  serialize: (s: CashOut) => JSON.stringify([s.value, s.context.market?.marketId, s.context.percent, s.context.confirm, s.context.changed, s.context.key !== undefined, s.context.auto.target, s.context.autoError])
} satisfies ModelOptions<typeof cashOutMachine>

describe("cashOut machine (model-based)", () => {
  it("reaches every state and takes every transition, checking the quote and cash-out calls (fraction, quote id, key) at every step", () => {
    const coverage = replayPaths(cashOutMachine, { ...model, invariants, effects })
    expect(coverage.states.missing, "state nodes never reached").toEqual([])
    expect(coverage.transitions.missing, "transitions never taken").toEqual([])
    recordFlows(
      "cashOut",
      "A market's Cash Out: the server quotes the position, a part (25–100 %) quotes again; confirmed unless one-click is on, sent with the quote's id and an Idempotency-Key (kept for a retry after a lost answer); a fallen value comes back requoted to confirm; a refusal says why; the market's auto cash out (target, floor) loads and saves with it.",
      coverage
    )
  })
})

describe("cashOut machine (behaviour)", () => {
  const run = (answers: ReadonlyArray<Quote>, outcomes: ReadonlyArray<Failure | CashOutAnswer>, oneClick: number | null = null) => {
    const quotes = [...answers]
    const results = [...outcomes]
    const sent: Array<CashOutRequest> = []
    const actor = createActor(
      cashOutMachine.provide({
        actors: {
          loadSetting: fromPromise(async () => ({ ...setting, oneClick })),
          quote: fromPromise(async ({ input }: { input: { marketId: string; fraction: number } }) => ({ ...quotes.shift()!, fraction: input.fraction })),
          cashOut: fromPromise(async ({ input }: { input: CashOutRequest }) => {
            sent.push(input)
            const result = results.shift()!
            if (!("outcome" in result)) throw result
            return result
          })
        }
      })
    ).start()
    return { actor, sent }
  }

  it("quotes half, confirms, and sends the quote's id with a key", async () => {
    const { actor, sent } = run([quote, quoteOf(0.5, 373.62, "q2")], [cashedOutOf(0.5, 186.81)])
    actor.send({ type: "cashOut.open", market: matchOdds })
    await vi.waitFor(() => expect(actor.getSnapshot().hasTag("quoted")).toBe(true))
    actor.send({ type: "cashOut.percent", percent: 50 })
    await vi.waitFor(() => expect(actor.getSnapshot().context.quote?.quoteId).toBe("q2"))
    // Half locks half the value whatever wins.
    expect(actor.getSnapshot().context.quote!.value).toBe(186.81)
    actor.send({ type: "cashOut.request" })
    expect(actor.getSnapshot().hasTag("confirm")).toBe(true)
    actor.send({ type: "cashOut.confirm" })
    await vi.waitFor(() => expect(actor.getSnapshot().hasTag("done")).toBe(true))
    expect(sent).toEqual([{ marketId: "1.1", fraction: 0.5, quoteId: "q2", key: expect.stringMatching(/^cash-out-/) }])
    expect(actor.getSnapshot().context.locked).toBe(186.81)
  })

  it("with one-click betting on, cashes out without a confirmation; a changed value is confirmed again", async () => {
    const { actor, sent } = run([quote], [requoted, cashedOut], 500)
    actor.send({ type: "cashOut.open", market: matchOdds })
    await vi.waitFor(() => expect(actor.getSnapshot().context.confirm).toBe(false))
    await vi.waitFor(() => expect(actor.getSnapshot().hasTag("quoted")).toBe(true))
    actor.send({ type: "cashOut.request" })
    await vi.waitFor(() => expect(actor.getSnapshot().context.quote?.quoteId).toBe("q2"))
    expect(actor.getSnapshot().context.changed).toBe(true)
    actor.send({ type: "cashOut.request" })
    expect(actor.getSnapshot().hasTag("confirm")).toBe(true)
    actor.send({ type: "cashOut.confirm" })
    await vi.waitFor(() => expect(actor.getSnapshot().hasTag("done")).toBe(true))
    expect(sent.map((r) => r.quoteId)).toEqual(["q1", "q2"])
    expect(sent[0]!.key).not.toBe(sent[1]!.key)
  })

  it("a lost answer is retried with the same key and quote", async () => {
    const { actor, sent } = run([quote], [unreachable, cashedOut])
    actor.send({ type: "cashOut.open", market: matchOdds })
    await vi.waitFor(() => expect(actor.getSnapshot().hasTag("quoted")).toBe(true))
    actor.send({ type: "cashOut.request" })
    actor.send({ type: "cashOut.confirm" })
    await vi.waitFor(() => expect(actor.getSnapshot().hasTag("refused")).toBe(true))
    actor.send({ type: "cashOut.retry" })
    await vi.waitFor(() => expect(actor.getSnapshot().hasTag("done")).toBe(true))
    expect(sent[1]).toEqual(sent[0])
  })

  it("takes a whole per cent from 1 to 100", () => {
    expect([0, 0.4, 33.3, 250, Number.NaN].map(clampPercent)).toEqual([1, 1, 33, 100, 100])
  })
})

describe("quoteCovers", () => {
  it("says a quote is of the whole position, with what an earlier cash out locked when all of it is cashed out", () => {
    expect(quoteCovers(100, undefined)).toBe("Covers your whole position on this market: every matched bet on it.")
    expect(quoteCovers(50, undefined)).toBe("Covers 50 % of your whole position on this market: every matched bet on it.")
    // A fresh ₹100 back after a full cash out that lost ₹140: its quote of −₹144.52 is mostly that loss.
    expect(quoteCovers(100, -14_000)).toBe("Covers your whole position on this market: every matched bet on it, with a loss of ₹140.00 already locked by your earlier cash out.")
    expect(quoteCovers(100, 37_362)).toBe("Covers your whole position on this market: every matched bet on it, with a profit of ₹373.62 already locked by your earlier cash out.")
    // A part locks only that part of it; after a part cashed out, no single amount stands locked.
    expect(quoteCovers(25, -14_000)).toBe("Covers 25 % of your whole position on this market: every matched bet on it, earlier cash outs included.")
    expect(quoteCovers(100, "part")).toBe("Covers your whole position on this market: every matched bet on it, earlier cash outs included.")
  })
})

describe("liveCashOut", () => {
  const book = (lay: ReadonlyArray<{ price: number; size: number }>, status: MarketBook["status"] = "OPEN"): MarketBook => ({
    marketId: "1.1",
    eventId: "e1",
    marketType: "EXCHANGE",
    status,
    inPlay: false,
    version: 1,
    runners: [
      { selectionId: "a", back: [{ price: 1.8, size: 5000 }], lay },
      { selectionId: "b", back: [{ price: 2.2, size: 5000 }], lay: [{ price: 2.24, size: 5000 }] }
    ]
  })
  // Back India ₹1,000 @ 2.50 (issue 31's worked example).
  const position: ReadonlyArray<Position> = [{ selectionId: "a", side: "back", odds: 2.5, stake: 100_000 }]

  it("follows the ladder with its sizes, in rupees, and a part is that part", () => {
    const deep = liveCashOut(book([{ price: 1.82, size: 5000 }]), ["a", "b"], position)
    expect(typeof deep === "object" && deep.value).toBeCloseTo(373.62, 2)
    const thin = liveCashOut(book([{ price: 1.82, size: 800 }, { price: 1.84, size: 5000 }]), ["a", "b"], position)
    expect(typeof thin === "object" && thin.value).toBeCloseTo(367.39, 2)
    // Half of the hedge (68,682 paise at 1.82) locks half of the full value, to the paisa, rounded down.
    const half = liveCashOut(book([{ price: 1.82, size: 5000 }]), ["a", "b"], position, 50)
    expect(typeof half === "object" && half.value).toBe(186.81)
  })

  it("has no value without an open book or a position", () => {
    expect(liveCashOut(undefined, ["a", "b"], position)).toBe("noPrices")
    expect(liveCashOut(book([{ price: 1.82, size: 5000 }], "SUSPENDED"), ["a", "b"], position)).toBe("noPrices")
    expect(liveCashOut(book([{ price: 1.82, size: 5000 }]), ["a", "b"], [])).toBe("flat")
  })
})
