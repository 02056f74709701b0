/**
 * Whether a bet is taken and how, decided from what the server read (the
 * player's inputs, the market, the book on offer) and the request: no
 * database, no clock. Placement (server/betting/Betting.ts) reads, calls
 * `decideBet`, checks the player's loss limits with what it returns, and
 * writes the outcome. The formulas are betting.ts's, matching matching.ts's,
 * so the slip and the server agree. Amounts are integer paise.
 */
import type { Persistence } from "../schema/bets.ts"
import type { PlaceBetPayload } from "../schema/betting.ts"
import type { ErrorTag } from "../schema/errors.ts"
import type { MarketType } from "../schema/sports.ts"
import { isSameOrBetter, marketExposure, type Position, type Side, validPrice } from "./betting.ts"
import { type BetParts, type Match, matchOffers, offersOf, positionsOf } from "./matching.ts"
import { formatRupees, toPaise, toRupees } from "./money.ts"

/** Which endpoint a bet came through: each takes its own kind of market. */
export type BetChannel = "sport" | "racing" | "fancy"

export const BET_MESSAGES = {
  unknownMarket: "This market is not available.",
  unknownSelection: "That selection is not part of this market.",
  suspended: "This market is suspended. Please try again when it reopens.",
  closed: "This market is closed for betting.",
  badPrice: "Those odds are not valid for this market.",
  badStake: "Stake must be an amount in rupees with at most two decimals.",
  noPrice: "There is no price on offer for that selection right now.",
  // Bookmaker and fancy rates are fixed: a changed one is refused unless the player takes the best available price.
  oddsChanged: "Odds changed. Please check the new price and place your bet again.",
  insufficient: "Insufficient balance to place this bet.",
  notPlayer: "Only player accounts can place bets.",
  busy: "Your account changed while this bet was being placed. Please place it again.",
  wrongChannelFancy: "Fancy markets take bets through fancy-bet-sport.",
  wrongChannelNotFancy: "This is not a fancy market.",
  wrongChannelRacing: "Racing markets take bets through bet-racing.",
  wrongChannelNotRacing: "This is not a racing market."
} as const

export const minStakeMessage = (paise: bigint) => `Minimum stake is ${formatRupees(toRupees(paise))}.`
export const maxStakeMessage = (paise: bigint) => `Maximum stake is ${formatRupees(toRupees(paise))}.`

/** The wallet a bet's money comes from: 1 main, 2 bonus. */
export type Wallet = 1 | 2

/** What was read about the player and the market's state. */
export interface BetInputs {
  readonly channel: BetChannel
  /** A credit player only has the main wallet. */
  readonly creditPlayer: boolean
  readonly userStatus: string
  /** Null when there is no such market. */
  readonly marketStatus: string | null
  readonly eventStatus: string | null
  /** The wallet the player plays from now. */
  readonly wallet: Wallet
  /** The player's open bets on the market as positions. */
  readonly positions: ReadonlyArray<Position>
  /** What the market holds of theirs already, and in which wallet. */
  readonly held: { readonly wallet: Wallet; readonly exposure: number } | undefined
}

/** The market as placement reads it; the stake limits are the most specific that apply. */
export interface BetMarket {
  readonly marketType: MarketType
  readonly isRacing: boolean
  readonly runners: ReadonlyArray<{ readonly selectionId: string; readonly name: string }>
  readonly limits: { readonly minStake: bigint; readonly maxStake: bigint }
}

/** The book on offer (the one the feed's source published last); sizes in rupees as the ladder shows them. */
export interface BetBook {
  readonly status: string
  readonly runners: ReadonlyArray<{
    readonly selectionId: string
    readonly back?: ReadonlyArray<{ readonly price: number; readonly size: number }> | undefined
    readonly lay?: ReadonlyArray<{ readonly price: number; readonly size: number }> | undefined
  }>
}

/** A refusal: its reason (the HTTP edge gives it its status) and what the player reads. */
export interface Refused {
  readonly _tag: "Refused"
  readonly reason: Extract<ErrorTag, "InvalidInput" | "Refused" | "MarketSuspended" | "MarketClosed" | "StakeOutOfRange" | "OddsChanged">
  readonly message: string
}

/** A bet taken: its parts, what the market holds after it and by how much that grew, and where the money sits. */
export interface Taken {
  readonly _tag: "Taken"
  readonly runner: { readonly selectionId: string; readonly name: string }
  readonly stake: number
  readonly persistence: Persistence
  /** Placed while the event is in play. */
  readonly live: boolean
  /** Matched parts, what waits unmatched, what was cancelled at once, and the fancy size taken. */
  readonly parts: BetParts & { readonly cancelled: number; readonly size: number | null }
  /** The market's worst case with the bet, and its change (negative: the bet released some). */
  readonly exposure: number
  readonly delta: number
  readonly wallet: Wallet
  /** Nothing matched and nothing waits (cancelled at once, in play): recorded as cancelled. */
  readonly closed: boolean
}

export type BetDecision = Refused | Taken

const refuse = (reason: Refused["reason"], message: string): Refused => ({ _tag: "Refused", reason, message })

/** The request against the market: endpoint, selection, price shape, stake shape. */
const checkRequest = (market: BetMarket, channel: BetChannel, payload: PlaceBetPayload) => {
  if (channel === "fancy" && market.marketType !== "FANCY") return refuse("Refused", BET_MESSAGES.wrongChannelNotFancy)
  if (channel !== "fancy" && market.marketType === "FANCY") return refuse("Refused", BET_MESSAGES.wrongChannelFancy)
  if (channel === "racing" && !market.isRacing) return refuse("Refused", BET_MESSAGES.wrongChannelNotRacing)
  if (channel === "sport" && market.isRacing) return refuse("Refused", BET_MESSAGES.wrongChannelRacing)
  const runner = market.runners.find((r) => r.selectionId === payload.selectionId)
  if (!runner) return refuse("Refused", BET_MESSAGES.unknownSelection)
  if (!validPrice(market.marketType, payload.odds, market.marketType === "FANCY" ? payload.size ?? null : null)) {
    return refuse("InvalidInput", BET_MESSAGES.badPrice)
  }
  const stake = toPaise(payload.stake)
  if (stake === undefined || stake <= 0) return refuse("InvalidInput", BET_MESSAGES.badStake)
  return { runner, stake }
}

/** The prices on offer now for this side, best first (fancy: the Yes or No line with its size). */
const priceIn = (book: BetBook | undefined, selectionId: string, side: Side) => {
  if (!book) return { status: "CLOSED", levels: [] }
  const runner = book.runners.find((r) => r.selectionId === selectionId)
  return { status: book.status, levels: (side === "back" ? runner?.back : runner?.lay) ?? [] }
}

/**
 * How the bet is taken from what is on offer. Exchange: matched level by level at the asked price or better (at any
 * price when the player takes the best available one); the rest waits, or is cancelled at once (`cancelNow`: in play,
 * by the player's choice). Bookmaker and fancy: all of it at the rate on offer, if that is the one asked or better (or
 * any, by choice), else refused.
 */
const take = (type: MarketType, payload: PlaceBetPayload, stake: number, levels: ReadonlyArray<{ readonly price: number; readonly size: number }>, cancelNow: boolean) => {
  const side = payload.selectionType
  if (type === "EXCHANGE") {
    const matched = matchOffers(offersOf(side, levels), side, payload.bestPrice ? undefined : payload.odds, stake)
    const waits = cancelNow ? 0 : matched.unmatched
    return { matches: matched.matches, unmatched: waits, cancelled: matched.unmatched - waits, size: null }
  }
  const level = levels[0]
  if (!level) return refuse("Refused", BET_MESSAGES.noPrice)
  const current = { odds: level.price, size: type === "FANCY" ? level.size : null }
  if (payload.bestPrice !== true && !isSameOrBetter(type, side, { odds: payload.odds, size: payload.size ?? null }, current)) {
    return refuse("OddsChanged", BET_MESSAGES.oddsChanged)
  }
  const matches: ReadonlyArray<Match> = [{ odds: current.odds, stake }]
  return { matches, unmatched: 0, cancelled: 0, size: current.size }
}

/**
 * Decides a bet: refused (the first rule it breaks, in the order the player is told them: the request, the account,
 * the market's state, the stake limits, the price), or taken with what the market's worst case grows by, which is
 * moved from the player's balance to their exposure (a bet that does not add risk is taken whatever the balance).
 */
export const decideBet = (inputs: BetInputs, market: BetMarket, book: BetBook | undefined, payload: PlaceBetPayload): BetDecision => {
  const request = checkRequest(market, inputs.channel, payload)
  if ("_tag" in request) return request
  const { runner, stake } = request
  if (inputs.userStatus !== "active") return refuse("Refused", BET_MESSAGES.notPlayer)
  if (inputs.marketStatus === "SUSPENDED") return refuse("MarketSuspended", BET_MESSAGES.suspended)
  if (inputs.marketStatus !== "OPEN" || !["scheduled", "live"].includes(inputs.eventStatus ?? "")) return refuse("MarketClosed", BET_MESSAGES.closed)

  if (BigInt(stake) < market.limits.minStake) return refuse("StakeOutOfRange", minStakeMessage(market.limits.minStake))
  if (BigInt(stake) > market.limits.maxStake) return refuse("StakeOutOfRange", maxStakeMessage(market.limits.maxStake))

  const price = priceIn(book, payload.selectionId, payload.selectionType)
  if (price.status === "SUSPENDED") return refuse("MarketSuspended", BET_MESSAGES.suspended)
  if (price.status === "CLOSED") return refuse("MarketClosed", BET_MESSAGES.closed)
  const live = inputs.eventStatus === "live"
  // Kept in play unless the player chose otherwise; cancelled at in-play by default before it.
  const persistence: Persistence = payload.persistence ?? (live ? "keep" : "cancel")
  const taken = take(market.marketType, payload, stake, price.levels, live && persistence === "cancel")
  if ("_tag" in taken) return taken

  const parts = { selectionId: payload.selectionId, side: payload.selectionType, odds: payload.odds, ...taken }
  const selections = market.runners.map((r) => r.selectionId)
  const before = inputs.held ? inputs.held.exposure : marketExposure(market.marketType, selections, inputs.positions)
  const exposure = marketExposure(market.marketType, selections, [...inputs.positions, ...positionsOf(parts)])
  return {
    _tag: "Taken",
    runner,
    stake,
    persistence,
    live,
    parts,
    exposure,
    delta: exposure - before,
    // A market's exposure stays in the wallet it started in; a credit player only has the main wallet.
    wallet: inputs.held?.wallet ?? (inputs.creditPlayer ? 1 : inputs.wallet),
    closed: parts.matches.length === 0 && parts.unmatched === 0
  }
}
