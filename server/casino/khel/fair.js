// Khel Originals: the provably fair draw and the rules of its three games.
//
// Plain JavaScript on purpose: the provider's server runs this file to play a
// round, and the game page loads the very same file to verify one. Types are
// in fair.d.ts. Only Web Crypto is used, which Node and browsers both have.
//
// A round is fixed by three values: the server seed (32 random bytes from a
// CSPRNG, as hex), whose SHA-256 is shown to the player before they bet; the
// client seed, chosen by the player's browser; and the nonce, the round's
// number within the game session. Random numbers come from
// HMAC-SHA256(key = server seed, message = "{client seed}:{nonce}:{block}"),
// block = 0, 1, 2, … each giving eight 32-bit words, used in order. An integer
// in [0, n) is a word below the largest multiple of n under 2^32, modulo n
// (words above it are skipped, so there is no modulo bias).

const encoder = new TextEncoder()

const toHex = (buffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("")

export async function sha256Hex(text) {
  return toHex(await crypto.subtle.digest("SHA-256", encoder.encode(text)))
}

/** The commitment shown before a round: SHA-256 of the server seed's hex text. */
export function commitOf(serverSeed) {
  return sha256Hex(serverSeed)
}

export async function randomStream(serverSeed, clientSeed, nonce) {
  const key = await crypto.subtle.importKey("raw", encoder.encode(serverSeed), { name: "HMAC", hash: "SHA-256" }, false, ["sign"])
  let block = 0
  let words = []
  let offset = 0
  const nextWord = async () => {
    if (offset >= words.length) {
      const view = new DataView(await crypto.subtle.sign("HMAC", key, encoder.encode(`${clientSeed}:${nonce}:${block}`)))
      block += 1
      words = Array.from({ length: 8 }, (_, i) => view.getUint32(i * 4))
      offset = 0
    }
    return words[offset++]
  }
  return {
    async int(n) {
      if (!Number.isInteger(n) || n < 1 || n > 2 ** 32) throw new RangeError(`cannot draw from ${n} values`)
      const limit = Math.floor(2 ** 32 / n) * n
      for (;;) {
        const word = await nextWord()
        if (word < limit) return word % n
      }
    }
  }
}

// ---- cards ----

export const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
export const SUITS = ["♠", "♥", "♦", "♣"]

/** Card 0…51: rank = card % 13 (A low, K high), suit = card / 13. */
export const rankOf = (card) => card % 13
export const cardLabel = (card) => `${RANKS[card % 13]}${SUITS[Math.floor(card / 13)]}`

// ---- the slot's reel: 32 stops, the same on all three reels ----

export const SYMBOLS = ["lotus", "seven", "bar", "bell", "mango", "cherry"]
export const REEL = [
  "cherry", "mango", "bell", "cherry", "bar", "mango", "cherry", "seven",
  "bell", "mango", "cherry", "lotus", "mango", "cherry", "bell", "bar",
  "cherry", "mango", "bell", "cherry", "seven", "mango", "cherry", "bar",
  "bell", "mango", "cherry", "bell", "cherry", "bar", "mango", "cherry"
]
/** Three of a kind on the middle line pays this many times the stake; exactly two cherries pay it back once. */
export const SLOT_PAYS = { lotus: 500, seven: 200, bar: 60, bell: 25, mango: 12, cherry: 5 }
export const TWO_CHERRIES_PAY = 1

// ---- the games ----

/**
 * Returns per spot in thousandths of the stake (stake included): 2000 is
 * even money, 1900 pays 0.9 to 1, 500 gives half the stake back, 0 loses.
 */
export const GAMES = {
  "dragon-tiger": {
    title: "Dragon Tiger",
    action: "Deal",
    spots: [
      { id: "dragon", label: "Dragon", pays: "1:1" },
      { id: "tie", label: "Tie", pays: "11:1" },
      { id: "tiger", label: "Tiger", pays: "1:1" }
    ],
    rules: "One card each to Dragon and Tiger, aces low. The higher card wins and pays 1:1; a tie pays 11:1 and returns half of the Dragon and Tiger bets."
  },
  "andar-bahar": {
    title: "Andar Bahar",
    action: "Deal",
    spots: [
      { id: "andar", label: "Andar", pays: "0.9:1" },
      { id: "bahar", label: "Bahar", pays: "1:1" }
    ],
    rules: "A joker card is shown, then cards go to Andar and Bahar in turn, Andar first, from the rest of one shuffled deck. The side that gets the first card of the joker's rank wins: Andar pays 0.9:1, Bahar 1:1."
  },
  "lucky-lotus": {
    title: "Lucky Lotus",
    action: "Spin",
    spots: [{ id: "spin", label: "Stake", pays: "up to 500x" }],
    rules: "Three reels, one line across the middle. Three of a kind pays lotus 500x, seven 200x, bar 60x, bell 25x, mango 12x, cherry 5x the stake; exactly two cherries return the stake."
  }
}

/** The outcome of round `nonce` of a game, from the two seeds. */
export async function draw(game, serverSeed, clientSeed, nonce) {
  const rng = await randomStream(serverSeed, clientSeed, nonce)
  if (game === "dragon-tiger") {
    // Eight-deck shoes are close to an infinite deck: each card is drawn from all 52.
    const dragon = await rng.int(52)
    const tiger = await rng.int(52)
    const d = rankOf(dragon)
    const t = rankOf(tiger)
    return { game, dragon, tiger, winner: d > t ? "dragon" : t > d ? "tiger" : "tie" }
  }
  if (game === "andar-bahar") {
    const joker = await rng.int(52)
    const deck = Array.from({ length: 52 }, (_, i) => i).filter((card) => card !== joker)
    const andar = []
    const bahar = []
    // Cards come off a shuffled deck one at a time: position i takes a card drawn
    // from the ones not dealt yet (Fisher–Yates from the front), until one matches.
    for (let i = 0; i < deck.length; i++) {
      const j = i + (await rng.int(deck.length - i))
      const card = deck[j]
      deck[j] = deck[i]
      deck[i] = card
      const side = i % 2 === 0 ? andar : bahar
      side.push(card)
      if (rankOf(card) === rankOf(joker)) return { game, joker, andar, bahar, winner: i % 2 === 0 ? "andar" : "bahar" }
    }
    throw new Error("a deck always holds three more cards of the joker's rank")
  }
  if (game === "lucky-lotus") {
    const stops = [await rng.int(REEL.length), await rng.int(REEL.length), await rng.int(REEL.length)]
    const at = (stop) => REEL[(stop + REEL.length) % REEL.length]
    const reels = stops.map((stop) => [at(stop - 1), at(stop), at(stop + 1)])
    const line = reels.map((reel) => reel[1])
    const cherries = line.filter((symbol) => symbol === "cherry").length
    const multiplier = line[0] === line[1] && line[1] === line[2] ? SLOT_PAYS[line[0]] : cherries === 2 ? TWO_CHERRIES_PAY : 0
    return { game, stops, reels, line, multiplier }
  }
  throw new RangeError(`unknown game ${game}`)
}

/** What each spot returns, per thousand staked. */
export function returnRates(outcome) {
  if (outcome.game === "dragon-tiger") {
    if (outcome.winner === "tie") return { dragon: 500, tiger: 500, tie: 12000 }
    return { dragon: outcome.winner === "dragon" ? 2000 : 0, tiger: outcome.winner === "tiger" ? 2000 : 0, tie: 0 }
  }
  if (outcome.game === "andar-bahar") {
    return { andar: outcome.winner === "andar" ? 1900 : 0, bahar: outcome.winner === "bahar" ? 2000 : 0 }
  }
  return { spin: outcome.multiplier * 1000 }
}

/** The total returned for `bets` (paise per spot), rounded down to the paisa. */
export function payout(outcome, bets) {
  const rates = returnRates(outcome)
  let total = 0
  for (const [spot, stake] of Object.entries(bets)) total += Math.floor((stake * (rates[spot] ?? 0)) / 1000)
  return total
}

/**
 * Checks a finished round as a player can: the revealed seed must hash to the
 * commitment shown before the bet, and the seeds must give the same outcome.
 */
export async function verifyRound(round) {
  const commitMatches = (await commitOf(round.serverSeed)) === round.commit
  const outcome = await draw(round.game, round.serverSeed, round.clientSeed, round.nonce)
  return { commitMatches, outcomeMatches: canonical(outcome) === canonical(round.outcome), outcome }
}

/** JSON with object keys sorted, so outcomes compare equal whatever order a database kept their keys in. */
export function canonical(value) {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`
  if (value !== null && typeof value === "object") {
    return `{${Object.keys(value).sort().map((key) => `${JSON.stringify(key)}:${canonical(value[key])}`).join(",")}}`
  }
  return JSON.stringify(value)
}
