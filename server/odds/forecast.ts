/**
 * The chances of a match's outcomes from where it is now, free of I/O:
 * worked out exactly from the sides' strengths and the rules the match is
 * played by (sports.ts), never from its draws. So the prices are the house's
 * honest view of the match: what the one who played it knows, less the
 * future (the bettor who works the same sums finds only the margin).
 * A cricket innings' own sums, ball by ball, are inningsForecast.ts.
 */
import { oddEvenSpace, type RunCount } from "../../src/domain/eventBook.ts"
import { batterFinal } from "./innings.ts"
import { chaseOf, innings, type InningsForecast } from "./inningsForecast.ts"
import { BALL_RUNS, ballChances, type Progress, setOver, type Strengths } from "./sports.ts"

/** The chances of the final result and of what the markets on the match settle by. */
export interface Forecast {
  /** Home win, away win, a draw (a tie, where there is no draw to back, voids). */
  readonly result: readonly [number, number, number]
  /** The chance the match's total (goals, points) ends above `line`. */
  readonly over?: (line: number) => number
  /** The chances a fancy's count reaches each line (index: runs), if it is still open. */
  readonly reach?: (count: RunCount) => ReadonlyArray<number> | undefined
  /** The chances of the outcomes of the match's other spaces (claimOf's NAMED_SPACES), by space and outcome. */
  readonly spaces?: Readonly<Record<string, Readonly<Record<string, number>>>>
}

/** A Yes/No space's chances from the chance of Yes. */
const yesNo = (yes: number) => ({ yes, no: 1 - yes })

/** The result's chances, by outcome (home "0", away "1", the draw "2"). */
const byOutcome = ([home, away, draw]: readonly [number, number, number]) => ({ "0": home, "1": away, "2": draw })

/** Tail sums: tail[r] = chance of r or more. */
const tails = (dist: ArrayLike<number>) => {
  const tail = new Array<number>(dist.length + 1).fill(0)
  for (let r = dist.length - 1; r >= 0; r--) tail[r] = tail[r + 1]! + dist[r]!
  return tail
}

// ---- cricket ----

/** An odd/even space's chances from the chance of odd. */
const oddEven = (odd: number) => ({ odd, even: 1 - odd })

/** The chance a distribution of runs is on an odd number. */
const oddOf = (dist: ArrayLike<number>) => {
  let odd = 0
  for (let r = 1; r < dist.length; r += 2) odd += dist[r]!
  return odd
}

/** The balls at the end of each over: a session's runs can be counted at any of them. */
const EVERY_OVER = Array.from({ length: 20 }, (_, i) => 6 * (i + 1))

/**
 * The chances a fancy's count on the innings being played (`batting`)
 * reaches each line, from its forecast; undefined for a count already
 * decided or on another innings.
 */
const reachOf = (forecast: InningsForecast, batting: string, edge: number, progress: Extract<Progress, { kind: "cricket" }>) => {
  const batters = new Map<number, ReadonlyArray<number> | undefined>()
  return (count: RunCount) => {
    // All out: every count of the innings is known.
    if (count.side !== batting || progress.wickets >= 10) return undefined
    if (count.kind === "batter") {
      // Worked out once per ball (a book is priced many times between balls).
      let reach = batters.get(count.batter)
      if (!batters.has(count.batter)) batters.set(count.batter, (reach = batterReach(forecast, edge, progress, count.batter)))
      return reach
    }
    if (count.kind === "wicket") return count.wicket > progress.wickets ? tails(forecast.falls[count.wicket] ?? forecast.final) : undefined
    if (count.kind === "over") {
      // Only the over being bowled (or about to be): its runs are those at its end less those when it began.
      const ends = Math.min(120, count.over * 6)
      if (progress.balls < ends - 6 || progress.balls >= ends) return undefined
      return tails((forecast.after.get(ends) ?? forecast.final).subarray(progress.overStart))
    }
    if (count.kind !== "overs") return undefined
    const balls = Math.min(120, count.overs * 6)
    return balls > progress.balls ? tails(forecast.after.get(balls) ?? forecast.final) : undefined
  }
}

/**
 * The chances a batter at the crease reaches each line: ball by ball as the
 * innings is forecast (innings.ts). A chase's target can end the innings
 * sooner, which the batter's sum leaves out: capped by the innings' own
 * chances (a batter never has more runs than the innings), it never offers
 * a line the innings' lines contradict.
 */
const batterReach = (forecast: InningsForecast, edge: number, progress: Extract<Progress, { kind: "cricket" }>, batter: number) => {
  const at = progress.crease?.findIndex((b) => b.batter === batter) ?? -1
  if (at === -1) return undefined
  const { wicket, runs } = ballChances(edge)
  const final = batterFinal(
    { wicket, runs: BALL_RUNS.map((r, k) => [r, runs[k]!] as const) },
    { balls: progress.balls, wickets: progress.wickets, runs: progress.crease![at]!.runs, onStrike: at === 0 }
  )
  const innings = tails(forecast.final)
  return tails(final).map((t, r) => Math.min(t, innings[r] ?? 0))
}

const cricket = (edge: number, progress: Extract<Progress, { kind: "cricket" }>): Forecast => {
  const [home, visitors] = progress.sides
  if (progress.innings === 2) {
    const target = progress.target!
    const chase = innings(1 / edge, progress, target, EVERY_OVER)
    const away = tails(chase.final)[target] ?? 0
    const tie = chase.final[target - 1] ?? 0
    return {
      result: [Math.max(0, 1 - away - tie), away, tie],
      spaces: { tie: yesNo(tie), [oddEvenSpace(home)]: oddEven((target - 1) % 2), [oddEvenSpace(visitors)]: oddEven(oddOf(chase.final)) },
      reach: reachOf(chase, visitors, 1 / edge, progress)
    }
  }
  const first = innings(edge, progress, undefined, EVERY_OVER)
  const chaseOfEdge = chaseOf(edge)
  const chase = tails(chaseOfEdge.final)
  let away = 0
  let tie = 0
  let chaseOdd = 0
  for (let r = 0; r < first.final.length; r++) {
    const p = first.final[r]!
    if (p === 0) continue
    away += p * (chase[r + 1] ?? 0)
    tie += p * ((chase[r] ?? 0) - (chase[r + 1] ?? 0))
    chaseOdd += p * (chaseOfEdge.oddBy[r + 1] ?? 0)
  }
  return {
    result: [Math.max(0, 1 - away - tie), away, tie],
    spaces: { tie: yesNo(tie), [oddEvenSpace(home)]: oddEven(oddOf(first.final)), [oddEvenSpace(visitors)]: oddEven(chaseOdd) },
    reach: reachOf(first, home, edge, progress)
  }
}

// ---- football and the points sports: minute by minute ----

/** The chances of what one side adds over `minutes` minutes, each minute's chances `perMinute`. */
const added = (perMinute: ReadonlyArray<number>, minutes: number) => {
  let dist = [1]
  for (let m = 0; m < minutes; m++) {
    const next = new Array<number>(dist.length + perMinute.length - 1).fill(0)
    for (const [i, p] of dist.entries()) for (const [k, q] of perMinute.entries()) next[i + k]! += p * q
    dist = next
  }
  return dist
}

/** round(U x scale): the chances of 0, 1, 2, … */
const roundedChances = (scale: number) => {
  const chances: Array<number> = []
  for (let v = 0; v - 0.5 < scale; v++) chances.push(Math.min(1, Math.max(0, (v + 0.5) / scale)) - Math.min(1, Math.max(0, (v - 0.5) / scale)))
  return chances
}

/** Home win, away win, a draw from two independent chances of what each side adds to a score. */
const resultOf = (score: readonly [number, number], home: ReadonlyArray<number>, away: ReadonlyArray<number>) => {
  const result: [number, number, number] = [0, 0, 0]
  for (const [i, p] of home.entries()) {
    for (const [j, q] of away.entries()) {
      const h = score[0] + i
      const a = score[1] + j
      result[h > a ? 0 : a > h ? 1 : 2] += p * q
    }
  }
  return result
}

const byMinute = (strengths: Extract<Strengths, { kind: "goals" | "points" }>, progress: Extract<Progress, { kind: "minutes" }>): Forecast => {
  const left = strengths.minutes - progress.minute
  const perMinute = (side: number) => (strengths.kind === "goals" ? [1 - side, side] : roundedChances(side))
  const home = added(perMinute(strengths.home), left)
  const away = added(perMinute(strengths.away), left)
  const totals: Array<number> = []
  for (const [i, p] of home.entries()) for (const [j, q] of away.entries()) totals[progress.home + i + progress.away + j] = (totals[progress.home + i + progress.away + j] ?? 0) + p * q
  const forecast = {
    result: resultOf([progress.home, progress.away], home, away),
    over: (line: number) => totals.reduce((sum, p, total) => (total > line ? sum + (p ?? 0) : sum), 0)
  }
  if (strengths.kind !== "goals") return forecast
  // Both score: each side's chance of at least one by the end (they score independently).
  const scores = (now: number, dist: ReadonlyArray<number>) => (now > 0 ? 1 : 1 - (dist[0] ?? 0))
  // Half-time: as it stood, or the first half's minutes still to play.
  const half = strengths.minutes / 2
  const halfTime = progress.halfTime === undefined
    ? resultOf([progress.home, progress.away], added(perMinute(strengths.home), half - progress.minute), added(perMinute(strengths.away), half - progress.minute))
    : resultOf(progress.halfTime, [1], [1])
  return {
    ...forecast,
    spaces: { btts: yesNo(scores(progress.home, home) * scores(progress.away, away)), "half-time": byOutcome(halfTime) }
  }
}

// ---- tennis ----

const tennis = (game: number, progress: Extract<Progress, { kind: "games" }>): Forecast => {
  const setMemo = new Map<string, number>()
  const setWin = (h: number, a: number): number => {
    if (setOver(h, a)) return h > a ? 1 : 0
    const key = `${h}:${a}`
    let p = setMemo.get(key)
    if (p === undefined) setMemo.set(key, (p = game * setWin(h + 1, a) + (1 - game) * setWin(h, a + 1)))
    return p
  }
  const match = (sh: number, sa: number, h: number, a: number): number => {
    if (sh === 2) return 1
    if (sa === 2) return 0
    const s = setWin(h, a)
    return s * match(sh + 1, sa, 0, 0) + (1 - s) * match(sh, sa + 1, 0, 0)
  }
  const home = match(progress.sets[0], progress.sets[1], progress.games[0], progress.games[1])
  const firstSet = progress.firstSet === undefined ? setWin(progress.games[0], progress.games[1]) : progress.firstSet === 0 ? 1 : 0
  return { result: [home, 1 - home, 0], spaces: { "set 1": { "0": firstSet, "1": 1 - firstSet } } }
}

const work = (strengths: Strengths, progress: Progress): Forecast => {
  if (strengths.kind === "cricket" && progress.kind === "cricket") return cricket(strengths.edge, progress)
  if ((strengths.kind === "goals" || strengths.kind === "points") && progress.kind === "minutes") return byMinute(strengths, progress)
  if (strengths.kind === "tennis" && progress.kind === "games") return tennis(strengths.game, progress)
  throw new Error(`no forecast for ${strengths.kind} at ${progress.kind}`)
}

/** Forecasts worked out lately: the same match at the same point (another simulator, a restart) is not worked out twice. */
const recent = new Map<string, Forecast>()
const KEEP = 200

/** The chances from where the match is now. */
export const forecastOf = (strengths: Strengths, progress: Progress): Forecast => {
  const key = JSON.stringify([strengths, progress])
  let forecast = recent.get(key)
  if (!forecast) {
    forecast = work(strengths, progress)
    if (recent.size >= KEEP) recent.delete(recent.keys().next().value!)
    recent.set(key, forecast)
  }
  return forecast
}
