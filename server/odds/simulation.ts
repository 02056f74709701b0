/**
 * The demo feed's matches, free of I/O: each played once from its event's
 * seed (server/odds/fair.ts), so the score is a pure function of (event,
 * elapsed time): a restarted server, or another one on the same database,
 * shows the same match where it left off. The simulator's own moves (prices
 * drifting, sizes) use `rng`, a small fast seeded generator that decides
 * nothing that settles.
 */
import { INNINGS_OVERS, runCountOf } from "../../src/domain/eventBook.ts"
import { drawsOf } from "./fair.ts"
import { type MatchState, type Played, SPORTS } from "./sports.ts"

export type { MatchState } from "./sports.ts"

/** A small fast seeded generator (mulberry32). */
export const rng = (seed: number) => {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}
export type Rng = ReturnType<typeof rng>

export const hash = (text: string) => {
  let h = 2166136261
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619)
  return h >>> 0
}

export const gaussian = (random: Rng) => {
  const u = Math.max(random(), 1e-12)
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random())
}

export const normalise = (probs: ReadonlyArray<number>) => {
  const total = probs.reduce((a, b) => a + b, 0)
  return probs.map((p) => p / total)
}

// Sports by feed code.
export const SPORT = { cricket: "4", football: "1", tennis: "2", kabaddi: "99994", basketball: "7522", horse: "7", greyhound: "4339" } as const

const MINUTE = 60_000

const DURATIONS: Readonly<Record<string, number>> = {
  // Long enough that the demo's fixtures seeded in play (started 40 minutes before) still have a while to run.
  [SPORT.cricket]: 120 * MINUTE,
  [SPORT.football]: 95 * MINUTE,
  [SPORT.tennis]: 90 * MINUTE,
  [SPORT.kabaddi]: 60 * MINUTE,
  [SPORT.basketball]: 75 * MINUTE,
  [SPORT.horse]: 2 * MINUTE,
  [SPORT.greyhound]: MINUTE
}

/** How long a demo match lasts on the wall clock, by sport code. */
export const matchDuration = (sportCode: string) => DURATIONS[sportCode] ?? 90 * MINUTE

export const isRacingCode = (sportCode: string) => sportCode === SPORT.horse || sportCode === SPORT.greyhound

/** A match played out from the event's seed, kept for the events asked about lately (a match is played once). */
const played = new Map<string, Played | undefined>()
const KEEP_PLAYED = 500

/** The event's match played from its seed, or undefined for a race (or a sport with no match simulated). */
export const playedOf = (event: { readonly id: string; readonly name: string; readonly sportCode: string; readonly seed: string }) => {
  const key = `${event.seed}:${event.sportCode}:${event.name}`
  if (played.has(key)) return played.get(key)
  const play = SPORTS[event.sportCode]
  const match = play?.(drawsOf(event.seed, "match"), event.name, event.id)
  if (played.size >= KEEP_PLAYED) played.delete(played.keys().next().value!)
  played.set(key, match)
  return match
}

/** What matchAt needs of an event. */
export interface SeededEvent {
  readonly id: string
  readonly name: string
  readonly sportCode: string
  readonly startsAt: number
  /** Its seed (server/odds/fair.ts): the match is played from it. */
  readonly seed: string
}

/** The match at `now`, or undefined for racing (a race has no running score). */
export const matchAt = (event: SeededEvent, now: number): MatchState | undefined =>
  playedOf(event)?.at((now - event.startsAt) / matchDuration(event.sportCode))

const races = new Map<string, ReadonlyArray<number>>()
/** A race's chances, runner by runner: the first draws of its seed, as weights. */
export const raceChances = (seed: string, runners: number): ReadonlyArray<number> => {
  const key = `${seed}:${runners}`
  let chances = races.get(key)
  if (!chances) {
    const random = drawsOf(seed, "race")
    chances = normalise(Array.from({ length: runners }, () => 0.4 + random() * 1.6))
    if (races.size >= KEEP_PLAYED) races.delete(races.keys().next().value!)
    races.set(key, chances)
  }
  return chances
}

/** A race's winner (a runner's index): drawn by its chances, from the draw after them. */
export const raceWinner = (seed: string, runners: number) => {
  const random = drawsOf(seed, "race")
  const weights = Array.from({ length: runners }, () => 0.4 + random() * 1.6)
  const total = weights.reduce((a, b) => a + b, 0)
  const draw = random() * total
  let sum = 0
  for (const [i, w] of weights.entries()) if ((sum += w) > draw) return i
  return runners - 1
}

/** A side's innings total once its innings is over (all out, its overs bowled, the chase ended); undefined before. */
const inningsTotal = (side: string, match: MatchState) => {
  const { progress } = match
  if (progress.kind !== "cricket") return undefined
  if (side === progress.sides[0]) return match.innings?.complete ? match.home : undefined
  // A second innings that never began (abandoned) has no total to settle on.
  return side === progress.sides[1] && match.finished && progress.innings === 2 && progress.balls > 0 ? match.away : undefined
}

/** Whether a side's innings total is odd or even, once its innings is over. */
const parityOf = (side: string, match: MatchState) => {
  const total = inningsTotal(side, match)
  return total === undefined ? undefined : total % 2 === 1 ? "odd" : "even"
}

/**
 * The outcome a space settles on from the final match (claimOf's spaces and
 * outcomes): the result, a total's over or under, both teams to score,
 * the half-time result, the first set, a tie, an innings' odd or even;
 * undefined when there is none (a space this match does not have, an innings
 * not played: void).
 */
export const outcomeOf = (space: string, match: MatchState): string | undefined => {
  const side = (home: number, away: number) => (home > away ? "0" : away > home ? "1" : "2")
  const oddEven = /^odd-even (.+)$/.exec(space)?.[1]
  if (oddEven !== undefined) return parityOf(oddEven, match)
  const total = /^total (.+)$/.exec(space)?.[1]
  if (total !== undefined) return (match.goals ?? match.home + match.away) > Number(total) ? "over" : "under"
  const { progress } = match
  switch (space) {
    case "result":
      return side(match.home, match.away)
    case "btts":
      return match.home > 0 && match.away > 0 ? "yes" : "no"
    case "tie":
      return match.home === match.away ? "yes" : "no"
    case "half-time":
      return progress.kind === "minutes" && progress.halfTime ? side(...progress.halfTime) : undefined
    case "set 1":
      return progress.kind === "games" && progress.firstSet !== undefined ? String(progress.firstSet) : undefined
    default:
      return undefined
  }
}

/**
 * The outcome a space has settled on while the match still runs, once no
 * play can change it: the half-time result after half-time, the first set
 * once it is over, both teams to score once both have, a total's over once
 * it is passed, an innings' odd or even once it is over; anything at the end.
 */
export const settledOutcomeOf = (space: string, match: MatchState): string | undefined => {
  if (match.finished) return outcomeOf(space, match)
  const oddEven = /^odd-even (.+)$/.exec(space)?.[1]
  if (oddEven !== undefined) return parityOf(oddEven, match)
  const total = /^total (.+)$/.exec(space)?.[1]
  if (total !== undefined) return (match.goals ?? match.home + match.away) > Number(total) ? "over" : undefined
  if (space === "btts") return match.home > 0 && match.away > 0 ? "yes" : undefined
  return space === "half-time" || space === "set 1" ? outcomeOf(space, match) : undefined
}

/** A side's innings so far: the first for the side batting first, the second once it has begun; undefined before. */
export const inningsOf = (match: MatchState | undefined, side: string) => {
  const progress = match?.progress
  if (progress?.kind !== "cricket") return undefined
  return side === progress.sides[0] ? match!.innings : side === progress.sides[1] ? match!.second : undefined
}

/** The side batting now (or about to: the first before the match, until the second innings begins). */
export const battingSide = (match: MatchState | undefined) =>
  match?.progress.kind === "cricket" ? match.progress.sides[match.progress.innings - 1] : undefined

/**
 * A fancy market against its side's innings so far: its current line, or
 * its result once decided (void: an over the innings ended before, an
 * innings never played).
 */
export const fancyState = (name: string, match: MatchState | undefined): { line: number; result?: number; void?: true } => {
  const count = runCountOf(name)
  // A line named for no side of this match counts the first innings.
  const sides: ReadonlyArray<string> = match?.progress.kind === "cricket" ? match.progress.sides : []
  const innings = sides.includes(count.side) ? inningsOf(match, count.side) : match?.innings
  if (!innings && match?.finished) return { line: 0, void: true }
  const runsAfter = (balls: number) => (balls <= 0 ? 0 : innings?.runs[Math.min(balls, innings.runs.length) - 1] ?? 0)
  const rate = innings && innings.balls >= 6 ? runsAfter(innings.balls) / innings.balls : 1.35
  if (count.kind === "over") {
    const begins = (count.over - 1) * 6
    const ends = count.over * 6
    const balls = innings?.balls ?? 0
    const inOver = (at: number) => runsAfter(Math.min(ends, at)) - runsAfter(begins)
    if (innings?.complete && balls <= begins) return { line: 0, void: true }
    if (innings && (balls >= ends || innings.complete)) return { line: inOver(balls), result: inOver(balls) }
    return { line: Math.round((balls > begins ? inOver(balls) : 0) + (ends - Math.max(begins, balls)) * rate) }
  }
  if (count.kind === "batter") {
    const batter = innings?.batters[count.batter - 1]
    // Out, or not out at the innings' end: the score made. One who never came in did not bat: void.
    if (batter && (batter.out || innings!.complete)) return { line: batter.runs, result: batter.runs }
    if (!batter && innings?.complete) return { line: 0, void: true }
    return { line: Math.round((batter?.runs ?? 0) + 15 * rate) }
  }
  if (count.kind === "wicket") {
    const fell = innings?.wicketsAt[count.wicket - 1]
    if (fell !== undefined) return { line: runsAfter(fell + 1), result: runsAfter(fell + 1) }
    if (innings?.complete) return { line: runsAfter(innings.balls), result: runsAfter(innings.balls) }
    const now = innings ? runsAfter(innings.balls) : 0
    return { line: Math.round(now + 22 * rate) }
  }
  const overs = count.kind === "overs" ? count.overs : INNINGS_OVERS
  const target = overs * 6
  if (innings && (innings.balls >= target || innings.complete)) {
    const result = runsAfter(Math.min(target, innings.balls))
    return { line: result, result }
  }
  const balls = innings?.balls ?? 0
  return { line: Math.round(runsAfter(balls) + (target - balls) * rate) }
}
