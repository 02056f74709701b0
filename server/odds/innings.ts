/**
 * A simulated cricket innings as far as it has been played, free of I/O:
 * its runs, wickets and who bats. Batters 1 to 11 come in in order, the
 * first two opening, 1 on strike. The striker scores each ball's runs; odd
 * runs change ends, and so does the end of each over; on a wicket the
 * striker is out and the next batter comes in at that end. Nothing here is
 * drawn: who faces follows from the balls, which are the innings' draws from
 * the event's secret (sports.ts), so a batter's score is known no sooner
 * than the balls that make it. `batterFinal` prices a batter's runs by the
 * same ball chances the innings is played and forecast by (forecast.ts).
 */

/** One ball: a wicket (no runs), or runs. */
export interface Ball {
  readonly runs: number
  readonly wicket: boolean
}

/** A batter who has come in: the runs made so far, and whether out. */
export interface Batter {
  readonly runs: number
  readonly out: boolean
}

/** A cricket innings as far as it has been played. */
export interface InningsSoFar {
  /** The runs after each ball bowled. */
  readonly runs: ReadonlyArray<number>
  /** The balls (0-based) on which its wickets fell so far, in order. */
  readonly wicketsAt: ReadonlyArray<number>
  readonly balls: number
  /** All out, its overs bowled, or the target reached. */
  readonly complete: boolean
  /** Batters 1, 2, … as far as they have come in. */
  readonly batters: ReadonlyArray<Batter>
  /** The two at the crease (batter numbers, from 1), the striker first; empty once all out. */
  readonly crease: ReadonlyArray<number>
}

/** Odd runs and the end of an over (ball 5 of it, from 0) change the batter on strike. */
export const changesEnds = (runs: number, ball: number) => (runs % 2 === 1) !== (ball % 6 === 5)

/** The first `shown` balls of an innings (all of them: it is complete). */
export const soFar = (balls: ReadonlyArray<Ball>, shown: number): InningsSoFar => {
  const runs: Array<number> = []
  const wicketsAt: Array<number> = []
  const batters: Array<{ runs: number; out: boolean }> = [{ runs: 0, out: false }, { runs: 0, out: false }]
  // Indices into `batters`: on strike, at the other end (-1: all out).
  let striker = 0
  let other = 1
  let total = 0
  for (const [i, ball] of balls.slice(0, shown).entries()) {
    runs.push((total += ball.runs))
    if (ball.wicket) {
      wicketsAt.push(i)
      batters[striker]!.out = true
      if (batters.length === 11) {
        striker = -1
        continue
      }
      batters.push({ runs: 0, out: false })
      striker = batters.length - 1
    } else {
      batters[striker]!.runs += ball.runs
    }
    if (changesEnds(ball.runs, i)) [striker, other] = [other, striker]
  }
  return {
    runs,
    wicketsAt,
    balls: shown,
    complete: shown === balls.length,
    batters,
    crease: striker === -1 ? [] : [striker + 1, other + 1]
  }
}

/** Chances below this are dropped (the runs they would add up to are negligible). */
export const NEGLIGIBLE = 1e-15

/**
 * The chances a batter at the crease ends on each number of runs: from
 * `runs` now, on strike or not, with `balls` bowled and `wickets` down; out,
 * or not out when the innings ends (its 120th ball, its 10th wicket). A
 * target is not counted: a chase's caller caps these by the innings' own.
 */
export const batterFinal = (
  chances: { readonly wicket: number; readonly runs: ReadonlyArray<readonly [runs: number, chance: number]> },
  from: { readonly balls: number; readonly wickets: number; readonly runs: number; readonly onStrike: boolean }
) => {
  const size = from.runs + 6 * (120 - from.balls) + 8
  const final = new Float64Array(size)
  const values = Int32Array.from(chances.runs, ([runs]) => runs)
  const odd = values.map((runs) => runs % 2)
  const weights = Float64Array.from(chances.runs, ([, chance]) => chance)
  const out = chances.wicket
  // live[2w + s]: still in, w wickets down, on strike (s 0) or not (s 1), by runs in [low, high].
  let live = Array.from({ length: 20 }, () => new Float64Array(size))
  let next = Array.from({ length: 20 }, () => new Float64Array(size))
  if (from.wickets >= 10) final[from.runs] = 1
  else live[2 * from.wickets + (from.onStrike ? 0 : 1)]![from.runs] = 1
  let low = from.runs
  let high = from.runs
  for (let ball = from.balls; ball < 120 && from.wickets < 10; ball++) {
    // At the over's end the ends change once more: s ^ swap after odd runs, s ^ swap ^ 1 after even ones.
    const swap = ball % 6 === 5 ? 1 : 0
    for (let w = from.wickets; w < 10; w++) next[2 * w]!.fill(0, low, high + 7), next[2 * w + 1]!.fill(0, low, high + 7)
    for (let w = from.wickets; w < 10; w++) {
      const striking = live[2 * w]!
      const waiting = live[2 * w + 1]!
      for (let r = low; r <= high; r++) {
        const p = striking[r]!
        if (p < NEGLIGIBLE) continue
        // On strike: out, or the runs are the batter's.
        final[r]! += p * out
        for (let k = 0; k < values.length; k++) next[2 * w + (odd[k]! ^ swap)]![r + values[k]!]! += p * weights[k]!
      }
      for (let r = low; r <= high; r++) {
        const p = waiting[r]!
        if (p < NEGLIGIBLE) continue
        // At the other end: the partner is out (the new batter takes strike), or scores.
        if (w === 9) final[r]! += p * out
        else next[2 * (w + 1) + (1 ^ swap)]![r]! += p * out
        for (let k = 0; k < values.length; k++) next[2 * w + (1 ^ odd[k]! ^ swap)]![r]! += p * weights[k]!
      }
    }
    ;[live, next] = [next, live]
    high += 6
    const negligible = (r: number) => live.every((row) => row[r]! < NEGLIGIBLE)
    while (high > low && negligible(high)) high--
    while (low < high && negligible(low)) low++
  }
  for (const row of live) for (let r = low; r <= high; r++) final[r]! += row[r]!
  return final
}
