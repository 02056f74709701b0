/** A cricket innings forecast ball by ball: the chances of its runs at the end, after given balls and at each wicket, and a chase's. */
import { NEGLIGIBLE } from "./innings.ts"
import { BALL_RUNS, ballChances } from "./sports.ts"

export interface InningsForecast {
  /** Runs at the end of the innings (the runs they stop at, with a target). */
  readonly final: Float64Array
  /** Runs after each of these balls, by ball count. */
  readonly after: ReadonlyMap<number, Float64Array>
  /** falls[k]: runs when the k-th wicket falls (the innings' runs if it does not), for each wicket still to fall. */
  readonly falls: ReadonlyArray<Float64Array | undefined>
  /** visits[r]: the chance the side is still batting on r runs before a ball, summed over the balls (if asked for). */
  readonly visits: Float64Array | undefined
}

/**
 * An innings from `from` on, ball by ball: the chances of its runs at the
 * end and after the balls in `snapshots`, and at its first wicket. With a
 * target it stops once the target is reached.
 */
export const innings = (
  edge: number,
  from: { balls: number; wickets: number; runs: number },
  target: number | undefined,
  snapshots: ReadonlyArray<number>,
  withVisits = false
): InningsForecast => {
  const { wicket, runs: [c0, c1, c2, c3, c4, c6] } = ballChances(edge)
  const size = from.runs + 6 * (120 - from.balls) + 8
  const stop = target ?? size
  // live[w][r]: still batting with w wickets down and r runs (r in [low, high]); next: after the ball.
  let live = Array.from({ length: 10 }, () => new Float64Array(size))
  let next = Array.from({ length: 10 }, () => new Float64Array(size))
  let low = from.runs
  let high = from.runs
  const final = new Float64Array(size)
  const falls = Array.from({ length: 11 }, (_, k) => (k > from.wickets ? new Float64Array(size) : undefined))
  const after = new Map<number, Float64Array>()
  const visits = withVisits ? new Float64Array(size) : undefined
  const snapshot = () => {
    const dist = Float64Array.from(final)
    for (const row of live) for (let r = low; r <= high; r++) dist[r]! += row[r]!
    return dist
  }
  if (from.wickets >= 10 || from.runs >= stop) final[from.runs] = 1
  else live[from.wickets]![from.runs] = 1
  for (let ball = from.balls; ball < 120; ball++) {
    if (snapshots.includes(ball)) after.set(ball, snapshot())
    const top = high + 6
    if (visits) for (const row of live) for (let r = low; r <= high; r++) visits[r]! += row[r]!
    for (const row of next) row.fill(0, low, top + 1)
    for (let w = 0; w < 10; w++) {
      const row = live[w]!
      const same = next[w]!
      const out = w === 9 ? final : next[w + 1]!
      for (let r = low; r <= high; r++) {
        const p = row[r]!
        if (p < NEGLIGIBLE) continue
        out[r]! += p * wicket
        falls[w + 1]![r]! += p * wicket
        same[r]! += p * c0
        same[r + 1]! += p * c1
        same[r + 2]! += p * c2
        same[r + 3]! += p * c3
        same[r + 4]! += p * c4
        same[r + 6]! += p * c6
      }
    }
    ;[live, next] = [next, live]
    high = top
    // Runs at or past the target end the innings there (the wickets still to fall count its runs).
    if (high >= stop) {
      for (const [w, row] of live.entries()) {
        for (let r = stop; r <= high; r++) {
          final[r]! += row[r]!
          for (let k = Math.max(w, from.wickets) + 1; k <= 10; k++) falls[k]![r]! += row[r]!
          row[r] = 0
        }
      }
      high = stop - 1
    }
    const negligible = (r: number) => live.every((row) => row[r]! < NEGLIGIBLE)
    while (high > low && negligible(high)) high--
    while (low < high && negligible(low)) low++
  }
  for (const ball of snapshots) if (!after.has(ball)) after.set(ball, ball < from.balls ? new Float64Array(size) : snapshot())
  // Still batting at the end: the wickets that did not fall count the innings' runs.
  for (const [w, row] of live.entries()) for (let k = Math.max(w, from.wickets) + 1; k <= 10; k++) for (let r = low; r <= high; r++) falls[k]![r]! += row[r]!
  for (const row of live) for (let r = low; r <= high; r++) final[r]! += row[r]!
  return { final, after, falls, visits }
}

interface Chase {
  /** Its runs with no target. */
  readonly final: Float64Array
  /** oddBy[t]: the chance it ends on an odd total chasing `t`. */
  readonly oddBy: Float64Array
}

/**
 * The second innings from the start (shared by every moment of the first).
 * A chase of `t` is the innings with no target until it reaches `t`: it ends
 * below `t` as that innings does, or on the ball that first takes it to `t`
 * or past, from r runs (below `t`) to r + k; so each target's odd/even comes
 * from the one innings' final runs and visits.
 */
const chases = new Map<number, Chase>()
export const chaseOf = (edge: number): Chase => {
  let chase = chases.get(edge)
  if (!chase) {
    const { final, visits } = innings(1 / edge, { balls: 0, wickets: 0, runs: 0 }, undefined, [], true)
    const { runs: chances } = ballChances(1 / edge)
    const oddBy = new Float64Array(final.length + 1)
    let below = 0
    for (let t = 0; t <= final.length; t++) {
      let past = 0
      for (const [k, runs] of BALL_RUNS.entries()) {
        for (let r = Math.max(0, t - runs); r < t; r++) if ((r + runs) % 2 === 1) past += (visits?.[r] ?? 0) * chances[k]!
      }
      oddBy[t] = below + past
      if (t % 2 === 1) below += final[t] ?? 0
    }
    chase = { final, oddBy }
    if (chases.size > 200) chases.clear()
    chases.set(edge, chase)
  }
  return chase
}
