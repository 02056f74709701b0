import { createHash, createHmac } from "node:crypto"
import { describe, expect, it } from "vitest"
import {
  canonical,
  commitOf,
  draw,
  type Outcome,
  payout,
  randomStream,
  rankOf,
  REEL,
  SLOT_PAYS,
  TWO_CHERRIES_PAY,
  verifyRound
} from "../../server/casino/khel/fair.js"

/**
 * Khel Originals' draws, checked statistically over many rounds. The server
 * seeds are fixed (SHA-256 of "seed-i") so the figures are reproducible and
 * the tests never flake; the chi-square bounds are the 0.1 % critical values.
 */

const seed = (i: number) => createHash("sha256").update(`seed-${i}`).digest("hex")

/** Pearson's chi-square statistic of observed counts against expected probabilities. */
const chiSquare = (observed: ReadonlyArray<number>, probabilities: ReadonlyArray<number>) => {
  const n = observed.reduce((a, b) => a + b, 0)
  return observed.reduce((sum, o, i) => sum + (o - n * probabilities[i]!) ** 2 / (n * probabilities[i]!), 0)
}

/** Critical values at p = 0.001 by degrees of freedom. */
const CRITICAL: Record<number, number> = { 1: 10.83, 2: 13.82, 12: 32.91, 31: 61.1, 51: 87.97 }

const rounds = async <O extends Outcome>(game: O["game"], n: number) => {
  const outcomes: Array<O> = []
  for (let i = 0; i < n; i++) outcomes.push((await draw(game, seed(i), "stats", i)) as O)
  return outcomes
}

describe("the provably fair draw", () => {
  it("commits to the server seed with SHA-256 and derives numbers with HMAC-SHA256", async () => {
    const s = seed(1)
    expect(await commitOf(s)).toBe(createHash("sha256").update(s).digest("hex"))
    // The first number is the first 32-bit word of HMAC(seed, "client:nonce:0"), as the docs say.
    const word = createHmac("sha256", s).update("client:7:0").digest().readUInt32BE(0)
    const stream = await randomStream(s, "client", 7)
    const limit = Math.floor(2 ** 32 / 52) * 52
    if (word < limit) expect(await stream.int(52)).toBe(word % 52)
  })

  it("gives the same outcome for the same seeds, and verifies only the true seed and outcome", async () => {
    const s = seed(2)
    const commit = await commitOf(s)
    const outcome = (await draw("andar-bahar", s, "abc", 3)) as Extract<Outcome, { game: "andar-bahar" }>
    expect(await draw("andar-bahar", s, "abc", 3)).toEqual(outcome)
    expect(await draw("andar-bahar", s, "abd", 3)).not.toEqual(outcome)
    const round = { game: "andar-bahar" as const, serverSeed: s, clientSeed: "abc", nonce: 3, commit, outcome }
    expect(await verifyRound(round)).toMatchObject({ commitMatches: true, outcomeMatches: true })
    // Key order does not matter (a database may reorder them); values do.
    expect(await verifyRound({ ...round, outcome: JSON.parse(canonical(outcome)) })).toMatchObject({ outcomeMatches: true })
    expect(await verifyRound({ ...round, outcome: { ...outcome, winner: outcome.winner === "andar" ? "bahar" : "andar" } })).toMatchObject({ outcomeMatches: false })
    expect(await verifyRound({ ...round, serverSeed: seed(3) })).toMatchObject({ commitMatches: false })
  })

  it("draws integers without bias (chi-square over 60,000 draws of 0…12)", async () => {
    const counts = Array<number>(13).fill(0)
    for (let i = 0; i < 600; i++) {
      const stream = await randomStream(seed(i), "ints", 0)
      for (let j = 0; j < 100; j++) counts[await stream.int(13)]!++
    }
    expect(chiSquare(counts, Array(13).fill(1 / 13))).toBeLessThan(CRITICAL[12]!)
  })
})

describe("Dragon Tiger over 26,000 rounds", () => {
  it("deals each of the 52 cards equally often, and wins in the proportions the rules give", async () => {
    const outcomes = await rounds<Extract<Outcome, { game: "dragon-tiger" }>>("dragon-tiger", 26_000)
    const dragon = Array<number>(52).fill(0)
    const tiger = Array<number>(52).fill(0)
    const winners = { dragon: 0, tiger: 0, tie: 0 }
    for (const o of outcomes) {
      dragon[o.dragon]!++
      tiger[o.tiger]!++
      winners[o.winner]++
    }
    expect(chiSquare(dragon, Array(52).fill(1 / 52))).toBeLessThan(CRITICAL[51]!)
    expect(chiSquare(tiger, Array(52).fill(1 / 52))).toBeLessThan(CRITICAL[51]!)
    // Ranks equal with probability 1/13; otherwise either side is as likely to be higher.
    expect(chiSquare([winners.dragon, winners.tiger, winners.tie], [6 / 13, 6 / 13, 1 / 13])).toBeLessThan(CRITICAL[2]!)
    for (const o of outcomes.slice(0, 500)) {
      expect(o.winner).toBe(rankOf(o.dragon) > rankOf(o.tiger) ? "dragon" : rankOf(o.tiger) > rankOf(o.dragon) ? "tiger" : "tie")
    }
  })

  it("pays 1:1, 11:1 on a tie, and half back on Dragon and Tiger bets when they tie", () => {
    const bets = { dragon: 100_00, tiger: 50_00, tie: 10_00 }
    expect(payout({ game: "dragon-tiger", dragon: 12, tiger: 3, winner: "dragon" }, bets)).toBe(200_00)
    expect(payout({ game: "dragon-tiger", dragon: 3, tiger: 12, winner: "tiger" }, bets)).toBe(100_00)
    expect(payout({ game: "dragon-tiger", dragon: 4, tiger: 17, winner: "tie" }, bets)).toBe(50_00 + 25_00 + 120_00)
  })
})

describe("Andar Bahar over 20,000 rounds", () => {
  /** P(first card of the joker's rank falls at an odd position), three such cards among 51, Andar dealt first. */
  const andarProbability = (() => {
    const choose3 = (n: number) => (n * (n - 1) * (n - 2)) / 6
    let p = 0
    for (let k = 1; k <= 49; k += 2) p += ((51 - k) * (50 - k)) / 2 / choose3(51)
    return p
  })()

  it("shows each joker equally often, and Andar wins as often as a fair shuffle makes it", async () => {
    const outcomes = await rounds<Extract<Outcome, { game: "andar-bahar" }>>("andar-bahar", 20_000)
    const jokers = Array<number>(52).fill(0)
    let andar = 0
    for (const o of outcomes) {
      jokers[o.joker]!++
      if (o.winner === "andar") andar++
    }
    expect(andarProbability).toBeCloseTo(0.5147, 3)
    expect(chiSquare(jokers, Array(52).fill(1 / 52))).toBeLessThan(CRITICAL[51]!)
    expect(chiSquare([andar, outcomes.length - andar], [andarProbability, 1 - andarProbability])).toBeLessThan(CRITICAL[1]!)
  })

  it("deals distinct cards from one deck and stops at the first card of the joker's rank", async () => {
    for (const o of await rounds<Extract<Outcome, { game: "andar-bahar" }>>("andar-bahar", 300)) {
      const dealt = [...o.andar, ...o.bahar]
      expect(new Set([o.joker, ...dealt]).size).toBe(dealt.length + 1)
      const matches = dealt.filter((card) => rankOf(card) === rankOf(o.joker))
      expect(matches).toHaveLength(1)
      expect(o.andar.length - o.bahar.length).toBe(o.winner === "andar" ? 1 : 0)
      const last = o.winner === "andar" ? o.andar.at(-1)! : o.bahar.at(-1)!
      expect(rankOf(last)).toBe(rankOf(o.joker))
    }
    expect(payout({ game: "andar-bahar", joker: 0, andar: [13], bahar: [], winner: "andar" }, { andar: 100_00, bahar: 100_00 })).toBe(190_00)
  })
})

describe("Lucky Lotus over 30,000 spins", () => {
  const exactReturn = () => {
    let total = 0
    const n = REEL.length
    for (let a = 0; a < n; a++) {
      for (let b = 0; b < n; b++) {
        for (let c = 0; c < n; c++) {
          const line = [REEL[a]!, REEL[b]!, REEL[c]!]
          const cherries = line.filter((s) => s === "cherry").length
          total += line[0] === line[1] && line[1] === line[2] ? SLOT_PAYS[line[0]!] : cherries === 2 ? TWO_CHERRIES_PAY : 0
        }
      }
    }
    return total / n ** 3
  }

  it("stops each reel at every position equally often, and returns what the pay table says", async () => {
    const rtp = exactReturn()
    expect(rtp).toBeGreaterThan(0.95)
    expect(rtp).toBeLessThan(0.98)
    const outcomes = await rounds<Extract<Outcome, { game: "lucky-lotus" }>>("lucky-lotus", 30_000)
    for (let reel = 0; reel < 3; reel++) {
      const stops = Array<number>(REEL.length).fill(0)
      for (const o of outcomes) stops[o.stops[reel]!]!++
      expect(chiSquare(stops, Array(REEL.length).fill(1 / REEL.length))).toBeLessThan(CRITICAL[31]!)
    }
    const mean = outcomes.reduce((sum, o) => sum + o.multiplier, 0) / outcomes.length
    // The standard deviation of one spin's return is about 5x; of the mean over 30,000 spins about 0.03.
    expect(Math.abs(mean - rtp)).toBeLessThan(0.15)
    for (const o of outcomes.slice(0, 200)) {
      expect(o.line).toEqual(o.reels.map((r) => r[1]))
      expect(payout(o, { spin: 100_00 })).toBe(o.multiplier * 100_00)
    }
  })
})
