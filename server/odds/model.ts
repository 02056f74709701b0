/**
 * The price model of an event, free of I/O: one set of chances per outcome
 * space (the result, a goals total, a race's winner), which every market of
 * the event on that space is a view of, each with its own margin and ladder
 * (prices.ts). The chances are the match's own, worked out from where it is
 * (forecast.ts), shown with a small wobble the margins cover. An operator's
 * price pins a runner's side; the chances the views are priced from are then
 * moved as little as needed to stay within every pin, so the event's books
 * together never let a player win whatever happens (src/domain/eventBook.ts).
 */
import { countWithin, decimalOf, type MarketClaim, type RunCount } from "../../src/domain/eventBook.ts"
import type { PriceLevel } from "../../src/schema/betting.ts"
import type { MarketType } from "../../src/schema/sports.ts"
import type { Forecast } from "./forecast.ts"
import type { ChanceRange } from "./ladder.ts"

/** One outcome space of an event: its outcomes and the chances the house shows for them now (summing to 1). */
export interface Space {
  readonly outcomes: Array<string>
  chances: Array<number>
  /** How far each outcome's shown chance sits from the match's (a log factor within ±WOBBLE): the prices' drift. */
  wobble: Array<number>
  /** One outcome is certain (three goals are in: over 2.5): nothing is offered on it until it is settled. */
  decided: boolean
}

/** The most the shown chances drift from the match's, as a log factor: the margins cover twice this. */
export const WOBBLE = 0.005

/** What the simulator knows of an event: when it starts, whether it is in play, its markets, spaces and last score tick. */
export interface EventState {
  readonly id: string
  readonly name: string
  readonly sportCode: string
  /** Follows the database (an operator may move a start). */
  startsAt: number
  readonly leagueId: string
  status: "scheduled" | "live"
  /** Feed ids of its open markets. */
  readonly markets: Array<string>
  /** Its outcome spaces by name (claimOf's `space`). */
  readonly spaces: Map<string, Space>
  /** The match's last tick (a ball, a goal), -1 before the first score. */
  lastTick: number
  /** The match's last step (a ball, a minute, a game) the chances were shown for. */
  lastStep: number
  /** Its seed (server/odds/fair.ts): the match, or the race, is drawn from it. */
  readonly seed: string
  /** The chances last worked out, for the step of the match they were worked out at. */
  forecast: { readonly step: number; readonly value: Forecast | undefined } | undefined
  /** The result is known before the time is up (a chase over, the last game played): nothing is offered any more. */
  decided: boolean
  /** Cricket: the side whose innings has not begun (the second, until it does): its lines wait, suspended. */
  waiting: string | undefined
}

/** A runner's prices an operator set by hand, side by side: kept exactly as given. */
export interface Pin {
  readonly back?: ReadonlyArray<PriceLevel>
  readonly lay?: ReadonlyArray<PriceLevel>
}

/** What the model needs of a market: what it settles on, its runners and the pins on them. */
export interface View {
  readonly externalId: string
  readonly type: MarketType
  readonly claim: MarketClaim
  readonly runners: ReadonlyArray<{ readonly selectionId: string }>
  readonly pins: ReadonlyMap<string, Pin>
  readonly closed: boolean
}

/**
 * The chances nearest to `chances` (scaled by one factor, then held to the
 * bounds) that sum to 1 and sit within [low, high] outcome by outcome;
 * undefined when no chances can.
 */
export const project = (chances: ReadonlyArray<number>, low: ReadonlyArray<number>, high: ReadonlyArray<number>) => {
  const lowSum = low.reduce((a, b) => a + b, 0)
  const highSum = high.reduce((a, b) => a + b, 0)
  if (lowSum > 1 + 1e-9 || highSum < 1 - 1e-9 || low.some((l, i) => l > high[i]! + 1e-12)) return undefined
  if (chances.every((c, i) => c >= low[i]! && c <= high[i]!)) return chances
  const at = (factor: number) => chances.map((c, i) => Math.min(high[i]!, Math.max(low[i]!, c * factor)))
  const sum = (qs: ReadonlyArray<number>) => qs.reduce((a, b) => a + b, 0)
  // The sum grows with the factor: find where it reaches 1 (in logs, the factor spans many orders).
  let lo = -60
  let hi = 60
  for (let i = 0; i < 100; i++) {
    const mid = (lo + hi) / 2
    if (sum(at(Math.exp(mid))) < 1) lo = mid
    else hi = mid
  }
  return at(Math.exp(hi))
}

/** The chance bounds a runner's pin sets: its back no better than fair (chance at most 1/back), its lay no worse (at least 1/lay). */
const pinBounds = (type: MarketType, pin: Pin | undefined) => {
  let low = 0
  let high = 1
  for (const level of pin?.back ?? []) high = Math.min(high, 1 / decimalOf(type, level))
  for (const level of pin?.lay ?? []) low = Math.max(low, 1 / decimalOf(type, level))
  return { low, high }
}

/** Where an automated fancy's lines must stay so no pinned line on a nested count is contradicted. */
export interface LineBounds {
  /** The Yes line is at least this (one above every pinned No line on a count within it). */
  readonly yesAtLeast: number
  /** The No line is at most this (one below every pinned Yes line on a count containing it). */
  readonly noAtMost: number
}

/** How each market of an event is priced: each outcome's chance range, each fancy's line bounds. */
export interface Pricing {
  readonly ranges: ReadonlyMap<string, ReadonlyMap<string, ChanceRange>>
  readonly lines: (count: RunCount) => LineBounds
}

/**
 * The pricing of an event's markets from its spaces' chances and every pin
 * on them (`pins` replaces one market's pins, to try an operator's price
 * first); undefined when the pins contradict each other.
 */
export const pricingOf = (event: EventState, markets: ReadonlyArray<View>, replace?: { readonly marketId: string; readonly pins: ReadonlyMap<string, Pin> }): Pricing | undefined => {
  const open = markets.filter((m) => !m.closed)
  const pinsOf = (market: View) => (replace?.marketId === market.externalId ? replace.pins : market.pins)
  const ranges = new Map<string, Map<string, ChanceRange>>()
  for (const [name, space] of event.spaces) {
    const low = space.outcomes.map(() => 0)
    const high = space.outcomes.map(() => 1)
    for (const market of open) {
      if (market.claim.kind !== "outcomes" || market.claim.space !== name) continue
      for (const [i, runner] of market.runners.entries()) {
        const k = space.outcomes.indexOf(market.claim.outcomes[i] ?? "")
        if (k === -1) continue
        const bounds = pinBounds(market.type, pinsOf(market).get(runner.selectionId))
        low[k] = Math.max(low[k]!, bounds.low)
        high[k] = Math.min(high[k]!, bounds.high)
      }
    }
    const within = project(space.chances, low, high)
    if (!within) return undefined
    // Backs from the higher of the model's chance and the one within the pins, lays from the lower: never more
    // generous than either.
    ranges.set(name, new Map(space.outcomes.map((outcome, k) => [outcome, {
      high: Math.max(space.chances[k]!, within[k]!),
      low: Math.min(space.chances[k]!, within[k]!)
    }])))
  }
  const pinnedLines = open.flatMap((market) => {
    if (market.claim.kind !== "runs") return []
    const pin = pinsOf(market).get(market.runners[0]?.selectionId ?? "")
    return pin ? [{ count: market.claim.count, yes: pin.back ?? [], no: pin.lay ?? [] }] : []
  })
  const lines = (count: RunCount): LineBounds => {
    let yesAtLeast = 0
    let noAtMost = Infinity
    for (const pinned of pinnedLines) {
      if (countWithin(pinned.count, count)) for (const no of pinned.no) yesAtLeast = Math.max(yesAtLeast, no.price + 1)
      if (countWithin(count, pinned.count)) for (const yes of pinned.yes) noAtMost = Math.min(noAtMost, yes.price - 1)
    }
    return { yesAtLeast, noAtMost }
  }
  return { ranges, lines }
}

/** The space a market is a view of, made or widened to its outcomes (its chances are worked out before any pricing). */
export const spaceFor = (event: EventState, claim: MarketClaim) => {
  if (claim.kind !== "outcomes") return
  let space = event.spaces.get(claim.space)
  if (!space) event.spaces.set(claim.space, (space = { outcomes: [], chances: [], wobble: [], decided: false }))
  for (const outcome of claim.outcomes) {
    if (space.outcomes.includes(outcome)) continue
    space.outcomes.push(outcome)
    space.wobble.push(0)
    space.chances.push(0)
  }
  event.forecast = undefined
}

/**
 * The match's chances for a space: the result (home, away and the draw; with
 * no draw to back, a tie voids, so home and away share it out), a goals or
 * points total's under and over, a named space's outcomes (both teams to
 * score, half-time, the first set, a tie); a race (or a match not simulated)
 * by its runners' chances from its seed.
 */
const truthOf = (name: string, space: Space, forecast: Forecast | undefined, race: (runners: number) => ReadonlyArray<number>) => {
  const total = /^total (.+)$/.exec(name)?.[1]
  if (total !== undefined) {
    const over = forecast?.over?.(Number(total)) ?? 0.5
    return space.outcomes.map((o) => (o === "over" ? over : o === "under" ? 1 - over : 0))
  }
  const named = forecast?.spaces?.[name]
  if (named) return space.outcomes.map((o) => named[o] ?? 0)
  if (name !== "result") return space.outcomes.map(() => 1)
  if (!forecast) return [...race(space.outcomes.length)]
  const [home, away, draw] = forecast.result
  return space.outcomes.map((o) => (o === "0" ? home : o === "1" ? away : o === "2" ? draw : 0))
}

/** The chances shown for each space: the match's (worked out again when it has moved on), each wobbled. */
export const showChances = (event: EventState, step: number, forecast: () => Forecast | undefined, race: (runners: number) => ReadonlyArray<number>) => {
  if (event.forecast?.step !== step) event.forecast = { step, value: forecast() }
  for (const [name, space] of event.spaces) {
    const truth = truthOf(name, space, event.forecast.value, race)
    const total = truth.reduce((a, b) => a + b, 0)
    space.decided = truth.some((t) => t >= total * (1 - 1e-9))
    // An outcome that can no longer happen keeps no chance at all; the others are wobbled within the margin.
    const shown = truth.map((t, k) => (t <= 0 ? 0 : (t / total) * Math.exp(space.wobble[k]!)))
    const sum = shown.reduce((a, b) => a + b, 0)
    space.chances = sum > 0 ? shown.map((c) => c / sum) : truth.map(() => 1 / truth.length)
  }
}
