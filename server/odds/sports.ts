/**
 * The simulated sports, free of I/O: each plays a whole match from its draws
 * (server/odds/fair.ts) once, then answers where it is at any moment. The
 * first draws set the sides' strengths, which the forecast prices from
 * (forecast.ts); the rest play the match. Nothing of the match's future
 * shows before it happens: cricket goes ball by ball and football and the
 * points sports minute by minute, on the clock, and tennis plays a game at a
 * fixed pace (the longest match fits the time), so not even a match's
 * length is told in advance.
 */
import type { Score } from "../../src/schema/betting.ts"
import { type Ball, type InningsSoFar, soFar } from "./innings.ts"
import type { Rng } from "./simulation.ts"

/** Where a match is, as much as its chances depend on. */
export type Progress =
  | {
    readonly kind: "cricket"
    /** The sides' short names, batting first and second ("MI", "CSK"): what a fancy or an innings market names. */
    readonly sides: readonly [string, string]
    readonly innings: 1 | 2
    readonly balls: number
    readonly wickets: number
    readonly runs: number
    /** The runs when the over now being bowled (or about to be) began. */
    readonly overStart: number
    readonly target: number | undefined
    /** The batters at the crease (numbers from 1) and their runs, the striker first. */
    readonly crease?: ReadonlyArray<{ readonly batter: number; readonly runs: number }>
  }
  | {
    readonly kind: "minutes"
    readonly minute: number
    readonly minutes: number
    readonly home: number
    readonly away: number
    /** The score at half-time, once it is past. */
    readonly halfTime: readonly [number, number] | undefined
  }
  | {
    readonly kind: "games"
    readonly sets: readonly [number, number]
    readonly games: readonly [number, number]
    /** Who won the first set (0 home, 1 away), once it is over. */
    readonly firstSet: 0 | 1 | undefined
  }

/** A simulated match at some moment: the score and what the feed needs to price and settle markets. */
export interface MatchState {
  readonly score: Score
  /** The result so far for each side (runs, goals, sets, points). */
  readonly home: number
  readonly away: number
  /** The result is known (the chase is over, the last game played, the time up). */
  readonly finished: boolean
  /** Cricket: the first innings so far, for fancy lines and results. */
  readonly innings?: InningsSoFar
  /** Cricket: the second innings so far, once it has begun. */
  readonly second?: InningsSoFar
  /** Football: total goals (over/under). */
  readonly goals?: number
  /** Changes whenever something happens (a ball, a goal, a game): markets suspend briefly. */
  readonly tick: number
  /** Moves on with the match (a ball, a minute, a game): the chances change with it. */
  readonly step: number
  readonly progress: Progress
}

/** What the draws chose before the match: how strong each side is. */
export type Strengths =
  | { readonly kind: "cricket"; /** The home side's edge with the bat in the first innings (the away side's is its inverse). */ readonly edge: number }
  | { readonly kind: "goals"; /** Each side's chance to score in a minute. */ readonly home: number; readonly away: number; readonly minutes: number }
  | { readonly kind: "points"; /** Each side's points a minute are round(U x this). */ readonly home: number; readonly away: number; readonly minutes: number }
  | { readonly kind: "tennis"; /** The home player's chance to win a game. */ readonly game: number }

/** A match played out: its strengths and the match at any moment (a fraction of its running time). */
export interface Played {
  readonly strengths: Strengths
  at(fraction: number): MatchState
}

const oversOf = (balls: number) => `${Math.floor(balls / 6)}.${balls % 6}`
/** The balls bowled when the over now being bowled (or about to be) began. */
const overBegan = (balls: number) => 6 * Math.floor(balls / 6)

export const shortName = (team: string) => team.replace(/[^A-Z]/g, "").slice(0, 3) || team.slice(0, 3).toUpperCase()

export const teams = (name: string) => {
  const [home = name, away = ""] = name.split(" v ")
  return { home, away }
}

const clamp01 = (fraction: number) => Math.min(1, Math.max(0, fraction))

/** A strength factor from one draw: 1 give or take `spread` (as a factor, both ways alike). */
const factor = (random: Rng, spread: number) => Math.exp((random() - 0.5) * 2 * Math.log(1 + spread))

// ---- cricket: two innings of up to 120 balls ----

/** A ball's outcomes: a wicket, or runs. */
export const BALL_RUNS = [0, 1, 2, 3, 4, 6] as const

/** The chances of a ball (a wicket, then 0, 1, 2, 3, 4, 6 runs) for a batting side with this edge. */
export const ballChances = (edge: number) => {
  const wicket = 0.045 / edge
  const [one, two, three, four, six] = [0.36, 0.1, 0.015, 0.105 * edge, 0.06 * edge]
  return { wicket, runs: [1 - wicket - one - two - three - four - six, one, two, three, four, six] as const }
}

const playInnings = (random: Rng, edge: number, target?: number): ReadonlyArray<Ball> => {
  const { wicket, runs: chances } = ballChances(edge)
  const balls: Array<Ball> = []
  let runs = 0
  let wickets = 0
  while (balls.length < 120 && wickets < 10 && (target === undefined || runs < target)) {
    let r = random()
    let ball: Ball = { runs: 0, wicket: true }
    if (r >= wicket) {
      r -= wicket
      let k = 0
      while (k < chances.length - 1 && r >= chances[k]!) r -= chances[k++]!
      ball = { runs: BALL_RUNS[k]!, wicket: false }
    }
    if (ball.wicket) wickets++
    runs += ball.runs
    balls.push(ball)
  }
  return balls
}

const creaseOf = (innings: InningsSoFar) => innings.crease.map((batter) => ({ batter, runs: innings.batters[batter - 1]!.runs }))

const cricket = (random: Rng, name: string, eventId: string): Played => {
  // Up to 10 % either way: a pre-match favourite at most about 3 to 1, as in real T20 markets.
  const edge = factor(random, 0.1)
  const first = playInnings(random, edge)
  const target = first.reduce((sum, b) => sum + b.runs, 0) + 1
  const second = playInnings(random, 1 / edge, target)
  const sum = (balls: ReadonlyArray<Ball>, n: number) => balls.slice(0, n).reduce((s, b) => s + b.runs, 0)
  const wkts = (balls: ReadonlyArray<Ball>, n: number) => balls.slice(0, n).filter((b) => b.wicket).length
  const { home, away } = teams(name)
  const sides = [shortName(home), shortName(away)] as const
  return {
    strengths: { kind: "cricket", edge },
    at: (fraction) => {
      const slot = Math.floor(clamp01(fraction) * 240)
      const firstBalls = Math.min(slot, first.length)
      const secondBalls = Math.max(0, Math.min(slot - 120, second.length))
      const firstSoFar = soFar(first, firstBalls)
      const secondSoFar = slot >= 120 ? soFar(second, secondBalls) : undefined
      const runs1 = sum(first, firstBalls)
      const runs2 = sum(second, secondBalls)
      const finished = fraction >= 1 || (slot >= 120 && secondBalls === second.length && second.length > 0)
      const live = fraction > 0 && !finished
      const summary = slot < 120
        ? `${shortName(home)} ${runs1}/${wkts(first, firstBalls)} (${oversOf(firstBalls)})`
        : `${shortName(away)} ${runs2}/${wkts(second, secondBalls)} (${oversOf(secondBalls)}) · need ${Math.max(0, target - runs2)}`
      return {
        score: {
          eventId,
          sportCode: "4",
          home: `${shortName(home)} ${runs1}/${wkts(first, firstBalls)}${slot < 120 ? ` (${oversOf(firstBalls)})` : ""}`,
          away: slot >= 120 ? `${shortName(away)} ${runs2}/${wkts(second, secondBalls)} (${oversOf(secondBalls)})` : `${shortName(away)} yet to bat`,
          summary: finished ? (runs2 >= target ? `${away} won` : runs2 === target - 1 ? "Match tied" : `${home} won`) : summary,
          clock: slot < 120 ? `1st inns, over ${oversOf(firstBalls)}` : `2nd inns, over ${oversOf(secondBalls)}`,
          status: finished ? "finished" : live ? "live" : "scheduled"
        },
        home: runs1,
        away: runs2,
        finished,
        innings: firstSoFar,
        ...(secondSoFar ? { second: secondSoFar } : {}),
        tick: slot,
        step: slot,
        progress: slot < 120
          ? { kind: "cricket", sides, innings: 1, balls: firstBalls, wickets: wkts(first, firstBalls), runs: runs1, overStart: sum(first, overBegan(firstBalls)), target: undefined, crease: creaseOf(firstSoFar) }
          : { kind: "cricket", sides, innings: 2, balls: secondBalls, wickets: wkts(second, secondBalls), runs: runs2, overStart: sum(second, overBegan(secondBalls)), target, crease: creaseOf(secondSoFar!) }
      }
    }
  }
}

// ---- sports played minute by minute: football (goals) and the points sports ----

const byMinute = (
  sportCode: string,
  strengths: Extract<Strengths, { kind: "goals" | "points" }>,
  name: string,
  eventId: string,
  scored: (side: number) => number
): Played => {
  const minutes: Array<readonly [number, number]> = []
  for (let m = 0; m < strengths.minutes; m++) minutes.push([scored(strengths.home), scored(strengths.away)])
  const { home, away } = teams(name)
  const goals = strengths.kind === "goals"
  return {
    strengths,
    at: (fraction) => {
      const minute = Math.floor(clamp01(fraction) * strengths.minutes)
      let h = 0
      let a = 0
      let halfTime: readonly [number, number] | undefined
      for (const [m, [x, y]] of minutes.slice(0, minute).entries()) {
        if (m === strengths.minutes / 2) halfTime = [h, a]
        h += x
        a += y
      }
      if (minute === strengths.minutes / 2) halfTime = [h, a]
      const finished = fraction >= 1
      return {
        score: {
          eventId,
          sportCode,
          home: `${home} ${h}`,
          away: `${away} ${a}`,
          summary: `${h} - ${a}`,
          clock: finished ? "FT" : goals && minute === 0 ? "KO" : `${minute}'`,
          status: finished ? "finished" : fraction > 0 ? "live" : "scheduled"
        },
        home: h,
        away: a,
        ...(goals ? { goals: h + a } : {}),
        finished,
        tick: goals ? h * 100 + a : h * 1000 + a,
        step: minute,
        progress: { kind: "minutes", minute, minutes: strengths.minutes, home: h, away: a, halfTime }
      }
    }
  }
}

const football = (random: Rng, name: string, eventId: string): Played => {
  const strengths = { kind: "goals", home: 0.016 * factor(random, 0.4), away: 0.013 * factor(random, 0.4), minutes: 90 } as const
  return byMinute("1", strengths, name, eventId, (chance) => (random() < chance ? 1 : 0))
}

const points = (sportCode: string, perMinute: number, minutes: number) => (random: Rng, name: string, eventId: string): Played => {
  const strengths = { kind: "points", home: perMinute * factor(random, 0.04), away: perMinute * factor(random, 0.04), minutes } as const
  return byMinute(sportCode, strengths, name, eventId, (scale) => Math.round(random() * scale))
}

// ---- tennis: best of three sets, a game at a time ----

/** The most games a best-of-three match can take (7-6, 6-7, 7-6): games come at this pace. */
export const MOST_GAMES = 39

/** Whether a set at these games is over: 6 with a lead of two, or 7. */
export const setOver = (h: number, a: number) => ((h >= 6 || a >= 6) && Math.abs(h - a) >= 2) || h === 7 || a === 7

const tennis = (random: Rng, name: string, eventId: string): Played => {
  // 0.44 to 0.56 a game: the favourite wins the match at most about three times in four.
  const game = 0.5 + (random() - 0.5) * 0.12
  // The whole match as a list of games, each won by "home" or "away".
  const sets: Array<[number, number]> = []
  const games: Array<{ set: number; h: number; a: number }> = []
  let won: [number, number] = [0, 0]
  while (won[0] < 2 && won[1] < 2) {
    let h = 0
    let a = 0
    while (!setOver(h, a)) {
      if (random() < game) h++
      else a++
      games.push({ set: sets.length, h, a })
    }
    sets.push([h, a])
    won = h > a ? [won[0] + 1, won[1]] : [won[0], won[1] + 1]
  }
  const { home, away } = teams(name)
  return {
    strengths: { kind: "tennis", game },
    at: (fraction) => {
      const shown = fraction >= 1 ? games.length : Math.min(games.length, Math.floor(clamp01(fraction) * MOST_GAMES))
      const finished = shown === games.length
      const current = shown > 0 ? games[shown - 1] : undefined
      const setScores = sets.slice(0, current?.set ?? 0).map(([h, a]) => `${h}-${a}`)
      if (current) setScores.push(`${current.h}-${current.a}`)
      const setDone = current !== undefined && setOver(current.h, current.a)
      const completed = sets.slice(0, (current?.set ?? 0) + (setDone ? 1 : 0))
      const setsHome = completed.filter(([h, a]) => h > a).length
      const setsAway = completed.length - setsHome
      return {
        score: {
          eventId,
          sportCode: "2",
          home: `${home} ${setsHome}`,
          away: `${away} ${setsAway}`,
          summary: setScores.join(" ") || "0-0",
          clock: `Set ${Math.min(3, completed.length + (finished ? 0 : 1))}`,
          status: finished ? "finished" : fraction > 0 ? "live" : "scheduled"
        },
        home: setsHome,
        away: setsAway,
        finished,
        tick: shown,
        step: shown,
        progress: {
          kind: "games",
          sets: [setsHome, setsAway],
          games: setDone || !current ? [0, 0] : [current.h, current.a],
          firstSet: completed.length === 0 ? undefined : completed[0]![0] > completed[0]![1] ? 0 : 1
        }
      }
    }
  }
}

/** The sports a match is simulated for, by feed code; any other is drawn like a race. */
export const SPORTS: Readonly<Record<string, (random: Rng, name: string, eventId: string) => Played>> = {
  "4": cricket,
  "1": football,
  "2": tennis,
  "99994": points("99994", 1.2, 40),
  "7522": points("7522", 5, 48)
}
