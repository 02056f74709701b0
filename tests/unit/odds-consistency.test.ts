import { Effect } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { checkEventBooks, claimOf, problemText } from "../../src/domain/eventBook.ts"
import type { MarketBook } from "../../src/schema/betting.ts"
import type { OpenMarket } from "../../server/odds/Fixtures.ts"
import { fixtures, simulatorHarness } from "./odds-harness.ts"

const START = Date.UTC(2026, 0, 1, 12)
const MINUTE = 60_000

describe("an event's combined book", () => {
  it("flags what the review found: Match Odds India 1.37 / Australia 3.45 beside a bookmaker at 237 / 37", () => {
    const exchange: MarketBook = {
      marketId: "mo", eventId: "e", marketType: "EXCHANGE", status: "OPEN", inPlay: false, version: 1,
      runners: [
        { selectionId: "a", back: [{ price: 1.37, size: 100 }], lay: [{ price: 1.4, size: 100 }] },
        { selectionId: "b", back: [{ price: 3.45, size: 100 }], lay: [{ price: 3.55, size: 100 }] }
      ]
    }
    const bookmaker: MarketBook = {
      marketId: "bm", eventId: "e", marketType: "BOOKMAKER", status: "OPEN", inPlay: false, version: 1,
      runners: [
        { selectionId: "x", back: [{ price: 237, size: 100 }], lay: [{ price: 250, size: 100 }] },
        { selectionId: "y", back: [{ price: 37, size: 100 }], lay: [{ price: 42, size: 100 }] }
      ]
    }
    const runners = [{ name: "India" }, { name: "Australia" }]
    const claims = { mo: claimOf({ name: "Match Odds", marketType: "EXCHANGE", runners }), bm: claimOf({ name: "Bookmaker", marketType: "BOOKMAKER", runners }) }
    // Each market alone is a fair book; together, Australia at 3.45 and India at 3.37 sum to 0.59.
    expect(checkEventBooks([{ claim: claims.mo, book: exchange }]).problems).toEqual([])
    expect(checkEventBooks([{ claim: claims.bm, book: bookmaker }]).problems).toEqual([])
    const both = checkEventBooks([{ claim: claims.mo, book: exchange }, { claim: claims.bm, book: bookmaker }])
    expect(both.spaces[0]!.backs).toBeCloseTo(1 / 3.37 + 1 / 3.45, 6)
    expect(both.problems.map((p) => p.kind)).toEqual(expect.arrayContaining(["backs", "crossed"]))
    // Suspended, the bookmaker offers nothing.
    expect(checkEventBooks([{ claim: claims.mo, book: exchange }, { claim: claims.bm, book: { ...bookmaker, status: "SUSPENDED" } }]).problems).toEqual([])
  })

  it("flags laying every outcome for less than the stake back, and a Yes and No on nested counts that cannot both lose", () => {
    const runners = [{ name: "A" }, { name: "B" }]
    const claim = claimOf({ name: "Match Odds", marketType: "EXCHANGE", runners })
    const layBoth: MarketBook = {
      marketId: "mo", eventId: "e", marketType: "EXCHANGE", status: "OPEN", inPlay: false, version: 1,
      runners: [
        { selectionId: "a", back: [{ price: 1.97, size: 10 }], lay: [{ price: 1.98, size: 10 }] },
        { selectionId: "b", back: [{ price: 1.97, size: 10 }], lay: [{ price: 1.98, size: 10 }] }
      ]
    }
    expect(checkEventBooks([{ claim, book: layBoth }]).problems.map((p) => p.kind)).toEqual(["lays"])
    const fancy = (name: string, yes: number, no: number): { claim: ReturnType<typeof claimOf>; book: MarketBook } => ({
      claim: claimOf({ name, marketType: "FANCY", runners: [{ name }] }),
      book: {
        marketId: name, eventId: "e", marketType: "FANCY", status: "OPEN", inPlay: true, version: 1,
        runners: [{ selectionId: name, back: [{ price: yes, size: 100 }], lay: [{ price: no, size: 100 }] }]
      }
    })
    // Yes 40 on 20 overs and No 44 on the first wicket: whatever the runs, one of them wins.
    expect(checkEventBooks([fancy("20 Over Runs MI", 40, 39), fancy("Fall of 1st Wkt MI", 45, 44)]).problems).toEqual([])
    const late = checkEventBooks([fancy("20 Over Runs MI", 40, 39), fancy("Fall of 1st Wkt MI", 45, 44)].map((m, i) =>
      i === 0 ? { ...m, book: { ...m.book, runners: [{ ...m.book.runners[0]!, back: [{ price: 40, size: 110 }] }] } } : m))
    expect(late.problems.map(problemText)).toEqual(["Yes 40 on MI:overs:20 and No 44 on MI:wicket:1 cannot both lose"])
    // Unrelated counts (another side's innings) never are.
    expect(checkEventBooks([fancy("6 Over Runs MI", 60, 59), fancy("6 Over Runs CSK", 30, 29)]).problems).toEqual([])
  })
})

type Step =
  | { readonly kind: "tick"; readonly ms: number }
  | { readonly kind: "scores"; readonly ms: number }
  | { readonly kind: "price"; readonly market: number; readonly runner: number; readonly back?: number; readonly lay?: number; readonly size: number }

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant("tick" as const), ms: fc.integer({ min: 20, max: 2000 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("scores" as const), ms: fc.integer({ min: 500, max: 120_000 }) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("price" as const),
      market: fc.nat(),
      runner: fc.nat(),
      back: fc.option(fc.integer({ min: 102, max: 2000 }).map((h) => h / 100), { nil: undefined }),
      lay: fc.option(fc.integer({ min: 102, max: 2000 }).map((h) => h / 100), { nil: undefined }),
      size: fc.integer({ min: 80, max: 120 })
    }, { requiredKeys: ["kind", "market", "runner", "size"] })
  }
)

/** An operator's price in the market's own terms: exchange odds, a bookmaker rate, a fancy line. */
const operatorPrice = (row: OpenMarket, s: Extract<Step, { kind: "price" }>) => {
  const level = (decimal: number | undefined) => {
    if (decimal === undefined) return undefined
    if (row.marketType === "EXCHANGE") return { price: decimal, size: 500 }
    if (row.marketType === "BOOKMAKER") return { price: Math.round((decimal - 1) * 100), size: 500 }
    return { price: Math.round(decimal * 10), size: s.size }
  }
  const runners = row.runners ?? []
  return {
    marketId: row.externalId,
    selectionId: runners[s.runner % runners.length]!.selectionId,
    ...(s.back === undefined ? {} : { back: level(s.back)! }),
    ...(s.lay === undefined ? {} : { lay: level(s.lay)! })
  }
}

describe("the simulator's books", () => {
  it("never give a combined book under 1 across an event's markets: pre-match and in play, after drift, jumps, play and operators' prices", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer(),
        fc.constantFrom(-1, 0.05, 0.3, 0.6, 0.9),
        fc.array(step, { minLength: 5, maxLength: 40 }),
        async (seed, fraction, steps) => {
          // fraction -1: an hour before the start; otherwise that far through the match.
          const live = fraction >= 0
          const startsAt = live ? START - fraction * 120 * MINUTE : START + 60 * MINUTE
          const rows = fixtures(startsAt, live)
          const harness = simulatorHarness(rows, { seed, secret: `secret ${seed}` })
          let now = START
          await Effect.runPromise(harness.simulator.load(now))
          const check = (after: string) => {
            for (const eventId of new Set(rows.map((row) => row.eventId))) {
              // With the lines play opened (the next wicket's fall).
              const markets = harness.listed.filter((row) => row.eventId === eventId).flatMap((row) => {
                const book = harness.latest.get(row.externalId)
                return book ? [{ claim: claimOf({ ...row, runners: row.runners ?? [] }), book }] : []
              })
              const { problems } = checkEventBooks(markets)
              expect(problems.map(problemText), `${eventId} after ${after}`).toEqual([])
            }
          }
          check("load")
          for (const s of steps) {
            if (s.kind === "tick") {
              for (let t = 20; t <= s.ms; t += 20) harness.simulator.tick(now + t)
              now += s.ms
            } else if (s.kind === "scores") {
              now += s.ms
              await Effect.runPromise(harness.simulator.scores(now))
            } else {
              const row = rows[s.market % rows.length]!
              // Refused or taken: either way, what is published stays safe.
              await Effect.runPromise(Effect.result(harness.simulator.setPrice(operatorPrice(row, s), now)))
            }
            check(JSON.stringify(s))
          }
          expect(harness.contradictions()).toBe(0)
        }
      ),
      { numRuns: 60 }
    )
  })
})
