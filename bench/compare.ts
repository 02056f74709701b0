/**
 * This checkout's server against another's, side by side (BENCH_BASE=<folder of the other checkout>). On a shared
 * virtual machine the speed drifts by a third within minutes, so two whole runs minutes apart cannot say whether
 * a change helped; slices taken in turn can. Both servers are started and their players prepared and warmed up
 * (and two rounds not counted); then each gets ROUNDS flat-out slices of SLICE seconds, the order alternating, on PGlite or, with
 * BENCH_DATABASE_URL (or DATABASE_URL), each on a fresh PostgreSQL database. Prints every pair and the medians.
 */
import { resolve } from "node:path"
import { betLoad, betServer, cpuSeconds } from "./bets.ts"
import { median, table } from "./support.ts"

const ROUNDS = Number(process.env.BENCH_COMPARE_ROUNDS ?? 10)
const SLICE_SECONDS = Number(process.env.BENCH_COMPARE_SLICE ?? 5)
const WARM_UP_ROUNDS = 2

const side = async (label: string, root: string, adminUrl: string | undefined) => {
  const { server, prepared, stop } = await betServer(adminUrl, root)
  const slices: Array<{ readonly perSecond: number; readonly serverMs: number }> = []
  return {
    label,
    slices,
    slice: async (counted = true) => {
      const before = cpuSeconds(server.process.pid!)
      const result = await betLoad(server.url, prepared, "flat out", SLICE_SECONDS)
      const serverMs = result.answered ? ((cpuSeconds(server.process.pid!) - before) * 1000) / result.answered : 0
      if (counted) slices.push({ perSecond: result.perSecond, serverMs })
    },
    stop
  }
}

export const compareBench = async () => {
  const base = process.env.BENCH_BASE
  if (!base) {
    console.log("(skipped: set BENCH_BASE to another checkout, e.g. `git worktree add /tmp/khel-base main && ln -s \"$PWD/node_modules\" /tmp/khel-base/`)")
    return
  }
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL
  const sides = [await side("base", resolve(base), adminUrl), await side("this checkout", process.cwd(), adminUrl)]
  try {
    // Two rounds first, not counted: the side prepared first has sat idle while the other was, and ran a third
    // slower in the first rounds of a comparison of one checkout with itself.
    for (let round = 0; round < WARM_UP_ROUNDS + ROUNDS; round++) {
      for (const s of round % 2 === 0 ? sides : [...sides].reverse()) await s.slice(round >= WARM_UP_ROUNDS)
    }
  } finally {
    for (const s of sides) await s.stop()
  }
  const [before, after] = sides as [typeof sides[0], typeof sides[0]]
  const ahead = before.slices.filter((slice, i) => after.slices[i]!.perSecond > slice.perSecond).length
  table([
    ["round", "base bets/s", "this bets/s", "base server ms/bet", "this server ms/bet"],
    ...before.slices.map((slice, i) => [i + 1, slice.perSecond.toFixed(0), after.slices[i]!.perSecond.toFixed(0), slice.serverMs.toFixed(2), after.slices[i]!.serverMs.toFixed(2)]),
    [
      "median",
      median(before.slices.map((s) => s.perSecond)).toFixed(0),
      median(after.slices.map((s) => s.perSecond)).toFixed(0),
      median(before.slices.map((s) => s.serverMs)).toFixed(2),
      median(after.slices.map((s) => s.serverMs)).toFixed(2)
    ]
  ])
  console.log(`\nthis checkout ahead in ${ahead} of ${ROUNDS} rounds; ${SLICE_SECONDS} s flat-out slices, 100 players, in turn (the order alternating), on ${adminUrl ? "PostgreSQL (a fresh database each)" : "PGlite"}`)
  console.log(`base: ${resolve(base)}; server CPU per answered bet from /proc; BENCH_COMPARE_ROUNDS and BENCH_COMPARE_SLICE change the rounds and the slice`)
}
