/**
 * The demo feed's matches, free of I/O: seeded randomness and match scores
 * that are a pure function of (event, elapsed time), so a restarted server
 * shows the same match where it left off.
 */
import { INNINGS_OVERS, runCountOf } from "../../src/domain/eventBook.ts"
import type { Score } from "../../src/schema/betting.ts"

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

/** Starting chances: a favourite and the rest, with a modest draw where there is one. */
export const initialProbabilities = (count: number, random: Rng, draw: boolean) => {
  const weights = Array.from({ length: count }, () => 0.4 + random() * 1.6)
  if (draw && count === 3) weights[2] = (weights[0]! + weights[1]!) * 0.3
  return normalise(weights)
}

// Sports by feed code.
export const SPORT = { cricket: "4", football: "1", tennis: "2", kabaddi: "99994", basketball: "7522", horse: "7", greyhound: "4339" } as const

const MINUTE = 60_000

/** How long a demo match lasts on the wall clock, by sport code. */
export const matchDuration = (sportCode: string) =>
  ({
    // Long enough that the demo's fixtures seeded in play (started 40 minutes before) still have a while to run.
    [SPORT.cricket]: 120 * MINUTE,
    [SPORT.football]: 95 * MINUTE,
    [SPORT.tennis]: 90 * MINUTE,
    [SPORT.kabaddi]: 60 * MINUTE,
    [SPORT.basketball]: 75 * MINUTE,
    [SPORT.horse]: 2 * MINUTE,
    [SPORT.greyhound]: MINUTE
  } as Record<string, number>)[sportCode] ?? 90 * MINUTE

export const isRacingCode = (sportCode: string) => sportCode === SPORT.horse || sportCode === SPORT.greyhound

/** A simulated match at some moment: the score and what the feed needs to price and settle markets. */
export interface MatchState {
  readonly score: Score
  /** The result so far for each side (runs, goals, sets, points). */
  readonly home: number
  readonly away: number
  readonly finished: boolean
  /** Cricket: the first innings so far, for fancy lines and results. */
  readonly innings?: { readonly runs: ReadonlyArray<number>; readonly wicketAt: number | undefined; readonly balls: number; readonly complete: boolean }
  /** Football: total goals (over/under). */
  readonly goals?: number
  /** Changes whenever something happens (a ball, a goal, a game): markets suspend briefly. */
  readonly tick: number
}

interface CricketInnings {
  readonly balls: ReadonlyArray<{ runs: number; wicket: boolean }>
}

const playInnings = (random: Rng, target?: number): CricketInnings => {
  const balls: Array<{ runs: number; wicket: boolean }> = []
  let runs = 0
  let wickets = 0
  while (balls.length < 120 && wickets < 10 && (target === undefined || runs < target)) {
    const r = random()
    const ball = r < 0.045 ? { runs: 0, wicket: true }
      : r < 0.36 ? { runs: 0, wicket: false }
      : r < 0.72 ? { runs: 1, wicket: false }
      : r < 0.82 ? { runs: 2, wicket: false }
      : r < 0.835 ? { runs: 3, wicket: false }
      : r < 0.94 ? { runs: 4, wicket: false }
      : { runs: 6, wicket: false }
    if (ball.wicket) wickets++
    runs += ball.runs
    balls.push(ball)
  }
  return { balls }
}

const oversOf = (balls: number) => `${Math.floor(balls / 6)}.${balls % 6}`

const shortName = (team: string) => team.replace(/[^A-Z]/g, "").slice(0, 3) || team.slice(0, 3).toUpperCase()

const teams = (name: string) => {
  const [home = name, away = ""] = name.split(" v ")
  return { home, away }
}

const cricket = (seed: number, name: string, eventId: string, fraction: number): MatchState => {
  const random = rng(seed)
  const first = playInnings(random)
  const target = first.balls.reduce((sum, b) => sum + b.runs, 0) + 1
  const second = playInnings(random, target)
  const slot = Math.floor(Math.min(1, Math.max(0, fraction)) * 240)
  const firstBalls = Math.min(slot, first.balls.length)
  const secondBalls = Math.max(0, Math.min(slot - 120, second.balls.length))
  const sum = (inn: CricketInnings, n: number) => inn.balls.slice(0, n).reduce((s, b) => s + b.runs, 0)
  const wkts = (inn: CricketInnings, n: number) => inn.balls.slice(0, n).filter((b) => b.wicket).length
  const runs1 = sum(first, firstBalls)
  const runs2 = sum(second, secondBalls)
  const cumulative: Array<number> = []
  let total = 0
  for (const ball of first.balls.slice(0, firstBalls)) cumulative.push((total += ball.runs))
  const wicketIndex = first.balls.findIndex((b) => b.wicket)
  const finished = fraction >= 1 || (slot >= 120 && secondBalls === second.balls.length && second.balls.length > 0 && (runs2 >= target || second.balls.length < 120 || secondBalls >= 120))
  const { home, away } = teams(name)
  const live = fraction > 0 && !finished
  const summary = slot < 120
    ? `${shortName(home)} ${runs1}/${wkts(first, firstBalls)} (${oversOf(firstBalls)})`
    : `${shortName(away)} ${runs2}/${wkts(second, secondBalls)} (${oversOf(secondBalls)}) · need ${Math.max(0, target - runs2)}`
  return {
    score: {
      eventId,
      sportCode: SPORT.cricket,
      home: `${shortName(home)} ${runs1}/${wkts(first, firstBalls)}${slot < 120 ? ` (${oversOf(firstBalls)})` : ""}`,
      away: slot >= 120 ? `${shortName(away)} ${runs2}/${wkts(second, secondBalls)} (${oversOf(secondBalls)})` : `${shortName(away)} yet to bat`,
      summary: finished ? (runs2 >= target ? `${away} won` : `${home} won`) : summary,
      clock: slot < 120 ? `1st inns, over ${oversOf(firstBalls)}` : `2nd inns, over ${oversOf(secondBalls)}`,
      status: finished ? "finished" : live ? "live" : "scheduled"
    },
    home: runs1,
    away: runs2,
    finished,
    innings: {
      runs: cumulative,
      wicketAt: wicketIndex >= 0 && wicketIndex < firstBalls ? wicketIndex : undefined,
      balls: firstBalls,
      complete: firstBalls === first.balls.length && (first.balls.length < 120 || firstBalls >= 120)
    },
    tick: slot
  }
}

const football = (seed: number, name: string, eventId: string, fraction: number): MatchState => {
  const random = rng(seed)
  const minute = Math.floor(Math.min(1, Math.max(0, fraction)) * 90)
  let h = 0
  let a = 0
  for (let m = 0; m < minute; m++) {
    if (random() < 0.016) h++
    if (random() < 0.013) a++
  }
  const finished = fraction >= 1
  const { home, away } = teams(name)
  return {
    score: {
      eventId,
      sportCode: SPORT.football,
      home: `${home} ${h}`,
      away: `${away} ${a}`,
      summary: `${h} - ${a}`,
      clock: finished ? "FT" : minute === 0 ? "KO" : `${minute}'`,
      status: finished ? "finished" : fraction > 0 ? "live" : "scheduled"
    },
    home: h,
    away: a,
    goals: h + a,
    finished,
    tick: h * 100 + a
  }
}

const tennis = (seed: number, name: string, eventId: string, fraction: number): MatchState => {
  const random = rng(seed)
  // The whole match as a list of games, each won by "home" or "away".
  const serverEdge = 0.5 + (random() - 0.5) * 0.3
  const sets: Array<[number, number]> = []
  const games: Array<{ set: number; h: number; a: number }> = []
  let won: [number, number] = [0, 0]
  while (won[0] < 2 && won[1] < 2) {
    let h = 0
    let a = 0
    while (!((h >= 6 || a >= 6) && Math.abs(h - a) >= 2) && !(h === 7 || a === 7)) {
      if (random() < serverEdge) h++
      else a++
      games.push({ set: sets.length, h, a })
    }
    sets.push([h, a])
    won = h > a ? [won[0] + 1, won[1]] : [won[0], won[1] + 1]
  }
  const played = Math.floor(Math.min(1, Math.max(0, fraction)) * games.length)
  const finished = fraction >= 1
  const shown = finished ? games.length : played
  const current = shown > 0 ? games[shown - 1] : undefined
  const setScores = sets.slice(0, current?.set ?? 0).map(([h, a]) => `${h}-${a}`)
  if (current) setScores.push(`${current.h}-${current.a}`)
  const setDone = current !== undefined && sets[current.set]![0] === current.h && sets[current.set]![1] === current.a
  const completed = sets.slice(0, (current?.set ?? 0) + (setDone ? 1 : 0))
  const setsHome = completed.filter(([h, a]) => h > a).length
  const setsAway = completed.length - setsHome
  const { home, away } = teams(name)
  return {
    score: {
      eventId,
      sportCode: SPORT.tennis,
      home: `${home} ${setsHome}`,
      away: `${away} ${setsAway}`,
      summary: setScores.join(" ") || "0-0",
      clock: `Set ${(current?.set ?? 0) + 1}`,
      status: finished ? "finished" : fraction > 0 ? "live" : "scheduled"
    },
    home: finished ? won[0] : setsHome,
    away: finished ? won[1] : setsAway,
    finished,
    tick: shown
  }
}

const points = (sportCode: string, perMinute: number, minutes: number) => (seed: number, name: string, eventId: string, fraction: number): MatchState => {
  const random = rng(seed)
  const minute = Math.floor(Math.min(1, Math.max(0, fraction)) * minutes)
  let h = 0
  let a = 0
  for (let m = 0; m < minute; m++) {
    h += Math.round(random() * perMinute)
    a += Math.round(random() * perMinute)
  }
  const finished = fraction >= 1
  const { home, away } = teams(name)
  return {
    score: {
      eventId,
      sportCode,
      home: `${home} ${h}`,
      away: `${away} ${a}`,
      summary: `${h} - ${a}`,
      clock: finished ? "FT" : `${minute}'`,
      status: finished ? "finished" : fraction > 0 ? "live" : "scheduled"
    },
    home: h,
    away: a,
    finished,
    tick: h * 1000 + a
  }
}

const SIMULATORS: Record<string, (seed: number, name: string, eventId: string, fraction: number) => MatchState> = {
  [SPORT.cricket]: cricket,
  [SPORT.football]: football,
  [SPORT.tennis]: tennis,
  [SPORT.kabaddi]: points(SPORT.kabaddi, 1.2, 40),
  [SPORT.basketball]: points(SPORT.basketball, 5, 48)
}

/** The match at `now`, or undefined for racing (a race has no running score). */
export const matchAt = (event: { readonly id: string; readonly name: string; readonly sportCode: string; readonly startsAt: number }, now: number) => {
  const simulate = SIMULATORS[event.sportCode]
  if (!simulate) return undefined
  const fraction = (now - event.startsAt) / matchDuration(event.sportCode)
  return simulate(hash(event.id), event.name, event.id, fraction)
}

/** The chance the home side wins given the match so far (in-play prices lean towards it). */
export const homeChance = (match: MatchState, fraction: number) => {
  if (match.innings && match.score.clock.startsWith("2nd")) {
    // Chasing: runs still needed against balls left.
    const needed = match.home + 1 - match.away
    const ballsLeft = Math.max(1, 240 - match.tick)
    const x = (needed - ballsLeft * 1.35) / 12
    return 1 / (1 + Math.exp(-x))
  }
  const margin = match.home - match.away
  const scale = match.innings ? 0 : match.goals !== undefined ? 1.2 : 0.15
  const x = margin * scale * (0.5 + 2 * Math.min(1, Math.max(0, fraction)))
  return 1 / (1 + Math.exp(-x))
}

/**
 * A fancy market against the first innings so far: its current line, or
 * its result once decided.
 */
export const fancyState = (name: string, match: MatchState | undefined): { line: number; result?: number } => {
  const count = runCountOf(name)
  const innings = match?.innings
  const runsAfter = (balls: number) => (balls <= 0 ? 0 : innings?.runs[Math.min(balls, innings.runs.length) - 1] ?? 0)
  const rate = innings && innings.balls >= 6 ? runsAfter(innings.balls) / innings.balls : 1.35
  if (count.kind === "firstWicket") {
    if (innings?.wicketAt !== undefined) return { line: runsAfter(innings.wicketAt + 1), result: runsAfter(innings.wicketAt + 1) }
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
