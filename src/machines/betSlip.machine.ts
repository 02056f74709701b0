import { and, assign, or, enqueueActions, type EventObject, fromCallback, fromPromise, setup, spawnChild, stateIn } from "xstate"
import { fancyBook, marketExposure, matchedOnly, type Position, positionsOfBet, runnerBook, slipFigures, validPrice } from "../domain/betting.ts"
import { BET_MESSAGES } from "../domain/betDecision.ts"
import { amountInput, DEFAULT_CHIPS, formatRupees, toPaise, toRupees } from "../domain/money.ts"
import type { Bet } from "../schema/bets.ts"
import type { BetSetting, OddsChangeRule, PlacedBet } from "../schema/betting.ts"
import type { Failure } from "../schema/errors.ts"
import { messageOf } from "../schema/failures.ts"
import type { MarketType } from "../schema/sports.ts"
import { type CallFailed, failedWith } from "./calls.ts"
import { unprovided, unprovidedAction } from "./unprovided.ts"
import { newIdempotencyKey, unanswered, type Written } from "./writes.ts"
import { INSTALL_MOMENT, installFlow } from "./install.machine.ts"

/**
 * The bet slip (ARCHITECTURE section 3): a price is clicked, the player
 * types a stake or picks a chip, sees profit or liability and the projected
 * P/L of every runner, and places the bet. An exchange bet is matched at its
 * price or better and what is not matched waits (the slip says which); a
 * bookmaker or fancy rate that moved is refused, and the slip takes the live
 * price so the player can confirm again. "Take the best available price" is
 * chosen per bet; the player's remembered default (their setting, changed
 * only by "Always") ticks it when the slip opens. Chips are editable.
 * One-click betting (the player's setting, with its stake): a click on a
 * price places that stake at once, as soon as the slip's setting is in, and
 * the outcome is also told as a toast.
 * While open, the slip follows the live price of its selection (the
 * `livePrice` callback actor sends `slip.price`).
 */

export interface SlipSelection {
  readonly eventId: string
  readonly sportId: string
  readonly leagueId: string
  /** The market's feed id. */
  readonly marketId: string
  readonly marketName: string
  readonly marketType: MarketType
  /** Which endpoint takes the bet. */
  readonly channel: "sport" | "racing" | "fancy"
  readonly selectionId: string
  readonly name: string
  readonly side: "back" | "lay"
  readonly odds: number
  /** Fancy: the size of the line. */
  readonly size: number | null
  readonly runners: ReadonlyArray<{ readonly selectionId: string; readonly name: string }>
  /** The event is in play: an exchange bet's unmatched part is kept (before it, the player chooses). */
  readonly inPlay: boolean
}

export interface BetSlipContext {
  readonly selection: SlipSelection | undefined
  /** What the player typed. */
  readonly stake: string
  readonly odds: number
  readonly size: number | null
  /** The price on offer now, from the odds channel. */
  readonly live: { readonly odds: number; readonly size: number | null } | undefined
  readonly chips: ReadonlyArray<number>
  /** Chips being edited, as typed. */
  readonly draft: ReadonlyArray<string>
  readonly setting: BetSetting | undefined
  /** This bet takes the best available price; undefined: as the player's remembered default says. */
  readonly bestPrice: boolean | undefined
  /** Exchange, before in-play: what of the bet waits unmatched is kept when the event goes in play (else cancelled then). */
  readonly keep: boolean
  /** The bet was placed by one click on a price (its outcome is also a toast). */
  readonly oneClickBet: boolean
  /** The player's open bets on this market; once a bet is placed, it is among them. */
  readonly open: ReadonlyArray<Bet>
  readonly error: string | undefined
  readonly placed: PlacedBet | undefined
  /** Idempotency key of the attempt in flight: a retry after a lost answer reuses it. */
  readonly key: string | undefined
}

export type BetSlipEvent =
  | { type: "slip.open"; selection: SlipSelection }
  | { type: "slip.stake"; value: string }
  | { type: "slip.chip"; amount: number }
  | { type: "slip.odds"; value: number }
  | { type: "slip.price"; odds: number; size: number | null }
  | { type: "slip.place" }
  /** This bet takes the best available price, or only its own price or better. */
  | { type: "slip.bestPrice"; value: boolean }
  /** The remembered default ("Always"): every slip starts with the best available price ticked, or not. Saved on the server. */
  | { type: "slip.oddsRule"; rule: OddsChangeRule }
  /** Exchange, before in-play: keep what waits unmatched when the event goes in play. */
  | { type: "slip.keep"; value: boolean }
  /** One-click betting on at the stake typed, or off. Saved on the server. */
  | { type: "slip.oneClick"; on: boolean }
  | { type: "slip.close" }
  | { type: "chips.edit" }
  | { type: "chips.change"; index: number; value: string }
  | { type: "chips.save" }
  | { type: "chips.cancel" }
  /** A save of the setting (a spawned child, which XState's types leave out): its answer or failure. */
  | { type: "xstate.done.actor.saveSetting"; output: Written<BetSetting> }

/** The price the slip follows: one side of one runner of one market. */
export interface PriceWatch {
  readonly marketId: string
  readonly selectionId: string
  readonly side: "back" | "lay"
  /** Fancy lines carry their size with the price. */
  readonly withSize: boolean
}

/** A bet as it is sent, with the key that makes a retry the same bet. */
export interface PlaceRequest {
  readonly selection: SlipSelection
  readonly odds: number
  readonly size: number | null
  readonly stake: number
  /** Take the best available price. */
  readonly bestPrice: boolean
  /** Exchange, before in-play: keep what waits unmatched at in-play (unsent: the server's default). */
  readonly persistence: "keep" | undefined
  readonly key: string
}

/** The server's message when the price moved against the player. */
export const ODDS_CHANGED = BET_MESSAGES.oddsChanged
export const PLACED_CLOSE_MS = 1500

export const MAX_CHIPS = 8

/** Whether the bet takes the best available price: the player's choice for it, else their remembered default. */
export const takesBestPrice = (context: Pick<BetSlipContext, "bestPrice" | "setting">) => context.bestPrice ?? context.setting?.oddsChange === "any"

/** Whether the slip offers "Keep if unmatched at in-play": exchange bets before their event is in play. */
export const offersKeep = (selection: SlipSelection | undefined) => selection !== undefined && selection.marketType === "EXCHANGE" && !selection.inPlay

/** The stake in paise, or undefined while it is not a valid amount. */
export const stakePaise = (context: Pick<BetSlipContext, "stake">) => {
  const value = Number(context.stake)
  if (context.stake.trim() === "" || !Number.isFinite(value) || value <= 0) return undefined
  return toPaise(value)
}

/** The bet as it would be placed; nothing once it is placed (it is among the open bets then). */
export const proposed = (context: BetSlipContext): Position | undefined => {
  const stake = stakePaise(context)
  if (!context.selection || stake === undefined || context.placed) return undefined
  return { selectionId: context.selection.selectionId, side: context.selection.side, odds: context.odds, stake, size: context.size }
}

/** Why the slip cannot be placed yet, or undefined when it can. */
export const stakeProblem = (context: BetSlipContext): string | undefined => {
  const selection = context.selection
  if (!selection) return "Pick a price first."
  const stake = stakePaise(context)
  if (stake === undefined) return "Enter a stake."
  if (!validPrice(selection.marketType, context.odds, selection.marketType === "FANCY" ? context.size : null)) return "Enter valid odds."
  if (context.setting && stake < Math.round(context.setting.minStake * 100)) return `Min stake ${formatRupees(context.setting.minStake)}`
  if (context.setting && stake > Math.round(context.setting.maxStake * 100)) return `Max stake ${formatRupees(context.setting.maxStake)}`
  return undefined
}

/** Profit if it wins and liability if it loses, in rupees, as the player types; once placed, of the bet as it was taken. */
export const figures = (context: BetSlipContext) => {
  const selection = context.selection
  const parts = context.placed ? positionsOfBet(context.placed.bet) : [proposed(context)].filter((bet) => bet !== undefined)
  if (!selection || parts.length === 0) return { profit: 0, liability: 0 }
  const sum = parts.map((part) => slipFigures(selection.marketType, part)).reduce((a, b) => ({ profit: a.profit + b.profit, liability: a.liability + b.liability }))
  return { profit: toRupees(sum.profit), liability: toRupees(sum.liability) }
}

/** The market's open bets with the bet just placed among them once (a copy read back with the market's bets is the newer). */
const withPlaced = (bets: ReadonlyArray<Bet>, placed: PlacedBet | undefined) =>
  placed === undefined || bets.some((bet) => bet._id === placed.bet._id) ? bets : [...bets, placed.bet]

/**
 * Projected P/L: for each runner (or fancy result) what the player ends with
 * now and with this bet, in rupees. Once the bet is placed, "now" counts it,
 * as the market's runners do, and nothing more is proposed.
 */
export const projection = (context: BetSlipContext) => {
  const selection = context.selection
  if (!selection) return { runners: [], fancy: [], exposure: 0 }
  const open = context.open.flatMap(positionsOfBet)
  const bet = proposed(context)
  const withBet = bet ? [...open, bet] : open
  const ids = selection.runners.map((r) => r.selectionId)
  if (selection.marketType === "FANCY") {
    return { runners: [], fancy: fancyBook(withBet).map((row) => ({ result: row.result, pl: toRupees(row.pl) })), exposure: toRupees(marketExposure("FANCY", ids, withBet)) }
  }
  // A runner shows what the matched bets leave (and the slip's bet if matched); the exposure counts what waits too.
  const now = runnerBook(selection.marketType, ids, matchedOnly(open))
  const next = runnerBook(selection.marketType, ids, matchedOnly(withBet))
  return {
    runners: selection.runners.map((r) => ({ selectionId: r.selectionId, name: r.name, now: toRupees(now.get(r.selectionId) ?? 0), next: toRupees(next.get(r.selectionId) ?? 0) })),
    fancy: [],
    exposure: toRupees(marketExposure(selection.marketType, ids, withBet))
  }
}

const cleanChips = (draft: ReadonlyArray<string>, fallback: ReadonlyArray<number>) => {
  const chips = draft.map(Number).filter((n) => Number.isInteger(n) && n > 0 && n <= 10_000_000)
  return chips.length > 0 ? [...new Set(chips)].sort((a, b) => a - b).slice(0, MAX_CHIPS) : [...fallback]
}

export const betSlipMachine = setup({
  types: {
    context: {} as BetSlipContext,
    events: {} as BetSlipEvent | CallFailed<"placeBet" | "saveSetting">
  },
  actors: {
    loadSetting: fromPromise<BetSetting, { sportsId: string; leagueId: string; eventId: string }>(unprovided("betSlip", "loadSetting")),
    loadOpenBets: fromPromise<ReadonlyArray<Bet>, { marketId: string }>(unprovided("betSlip", "loadOpenBets")),
    saveOddsRule: fromPromise<Written<BetSetting>, { rule: OddsChangeRule }>(unprovided("betSlip", "saveOddsRule")),
    /** One-click betting's stake (rupees), or null: off. The server's confirmation shows as a toast. */
    saveOneClick: fromPromise<Written<BetSetting>, { stake: number | null }>(unprovided("betSlip", "saveOneClick")),
    /** The bet, or its refusal with a reason (a toast tells the player either way). */
    placeBet: fromPromise<PlacedBet, PlaceRequest>(unprovided("betSlip", "placeBet")),
    /** The live price of the selection, as `slip.price` events. */
    livePrice: fromCallback<EventObject, PriceWatch>(unprovided("betSlip", "livePrice"))
  },
  actions: {
    /** A saved setting: the server's confirmation as a toast (SPEC section 7). */
    toastSuccess: unprovidedAction<{ message: string }>("betSlip", "toastSuccess"),
    /** Why a setting was not saved (SPEC section 8). */
    toastFailure: unprovidedAction<{ error: Failure }>("betSlip", "toastFailure"),
    /** The player's chips as they last kept them (local storage). */
    restoreChips: unprovidedAction("betSlip", "restoreChips"),
    /** Keeps the player's chips. */
    storeChips: unprovidedAction<{ chips: ReadonlyArray<number> }>("betSlip", "storeChips"),
    /** A one-click bet's outcome as a toast ("Matched ₹500.00 at 1.82"). */
    tellOutcome: unprovidedAction<{ placed: PlacedBet }>("betSlip", "tellOutcome"),
    /**
     * A bet went through: the event's open bets (a flow with the id `bets.<eventId>`, when open) load again, and the
     * install flow hears of a moment to offer the app (it offers once).
     */
    betPlaced: enqueueActions(({ context, enqueue, system }) => {
      const bets = context.selection && system.get(`bets.${context.selection.eventId}`)
      if (bets) enqueue.sendTo(bets, { type: "bets.refresh" })
      const install = installFlow(system)
      if (install) enqueue.sendTo(install, INSTALL_MOMENT)
    })
  },
  guards: {
    canPlace: ({ context }) => stakeProblem(context) === undefined,
    /** The bet's choices change until it is sent. */
    editable: ({ context }) => context.key === undefined,
    /** The settings are loaded and the bet not yet sent: its odds-change rule may become the default. */
    ruleSettable: ({ context }) => context.setting !== undefined && context.key === undefined,
    /** The setting just loaded has one-click betting on (and no bet is in flight). */
    settingOneClick: ({ context, event }) => "output" in event && (event.output as Partial<BetSetting>).oneClick != null && context.key === undefined,
    /** The slip was just opened by a click on a price, and the setting says one click places the bet. */
    oneClick: and([stateIn("#betSlip.Open.Stake"), "settingOneClick"]),
    oneClickOn: ({ context, event }) => event.type === "slip.oneClick" && event.on && context.setting !== undefined && stakeProblem(context) === undefined,
    oneClickOff: ({ context, event }) => event.type === "slip.oneClick" && !event.on && context.setting !== undefined && context.setting.oneClick !== null,
    /** One-click betting can be turned on at a placeable stake in an open slip, and off whenever it is on. */
    canSetOneClick: or([and([stateIn("#betSlip.Open"), "oneClickOn"]), "oneClickOff"]),
    oddsChanged: failedWith("OddsChanged"),
    unanswered
  },
  delays: {
    closeAfterPlaced: PLACED_CLOSE_MS
  }
}).createMachine({
  id: "betSlip",
  context: {
    selection: undefined,
    stake: "",
    odds: 0,
    size: null,
    live: undefined,
    chips: DEFAULT_CHIPS,
    draft: [],
    setting: undefined,
    bestPrice: undefined,
    keep: false,
    oneClickBet: false,
    open: [],
    error: undefined,
    placed: undefined,
    key: undefined
  },
  entry: "restoreChips",
  on: {
    // The setting's saves (one-click, the odds rule) run on their own, whatever the slip does meanwhile; the answer is a toast.
    "xstate.done.actor.saveSetting": { actions: { type: "toastSuccess", params: ({ event }) => ({ message: event.output.message }) } },
    "xstate.error.actor.saveSetting": { actions: { type: "toastFailure", params: ({ event }) => ({ error: event.error }) } },
    // Turned off from the event page too, while the slip is closed (a click on a price would place a bet).
    "slip.oneClick": {
      guard: "canSetOneClick",
      actions: [
        assign({ setting: ({ context, event }) => ({ ...context.setting!, oneClick: event.on ? Number(context.stake) : null }) }),
        spawnChild("saveOneClick", { id: "saveSetting", input: ({ context }) => ({ stake: context.setting!.oneClick }) })
      ]
    }
  },
  initial: "Closed",
  states: {
    Closed: {
      tags: ["closed"],
      on: {
        "slip.open": {
          target: "Open",
          actions: assign(({ event }) => ({
            selection: event.selection,
            odds: event.selection.odds,
            size: event.selection.size,
            live: undefined,
            stake: "",
            bestPrice: undefined,
            keep: false,
            oneClickBet: false,
            open: [],
            error: undefined,
            placed: undefined,
            key: undefined
          }))
        }
      }
    },
    Open: {
      invoke: [
        {
          id: "loadSetting",
          src: "loadSetting",
          input: ({ context }) => ({ sportsId: context.selection!.sportId, leagueId: context.selection!.leagueId, eventId: context.selection!.eventId }),
          onDone: [
            {
              // One click on a price places the one-click stake at once.
              guard: "oneClick",
              target: ".Placing",
              actions: assign({
                setting: ({ event }) => event.output,
                stake: ({ event }) => String(event.output.oneClick),
                oneClickBet: true,
                key: () => newIdempotencyKey("bet")
              })
            },
            { actions: assign({ setting: ({ event }) => event.output }) }
          ],
          // Without limits the server still checks the stake; the slip just cannot hint.
          onError: { actions: assign({ setting: undefined }) }
        },
        {
          id: "loadOpenBets",
          src: "loadOpenBets",
          input: ({ context }) => ({ marketId: context.selection!.marketId }),
          // It can answer after a bet is placed, with that bet or without it.
          onDone: { actions: assign({ open: ({ context, event }) => withPlaced(event.output, context.placed) }) },
          onError: { actions: assign({ open: ({ context }) => withPlaced([], context.placed) }) }
        },
        {
          id: "livePrice",
          src: "livePrice",
          input: ({ context }) => ({
            marketId: context.selection!.marketId,
            selectionId: context.selection!.selectionId,
            side: context.selection!.side,
            withSize: context.selection!.marketType === "FANCY"
          })
        }
      ],
      on: {
        "slip.open": {
          target: "Open",
          reenter: true,
          actions: assign(({ event, context }) => ({
            selection: event.selection,
            odds: event.selection.odds,
            size: event.selection.size,
            live: undefined,
            // Another price of the same market keeps the stake the player typed.
            stake: context.selection?.marketId === event.selection.marketId ? context.stake : "",
            bestPrice: undefined,
            keep: false,
            oneClickBet: false,
            error: undefined,
            placed: undefined,
            key: undefined
          }))
        },
        "slip.close": "Closed",
        "slip.price": { actions: assign({ live: ({ event }) => ({ odds: event.odds, size: event.size }) }) },
        "slip.bestPrice": { guard: "editable", actions: assign({ bestPrice: ({ event }) => event.value }) },
        "slip.keep": { guard: "editable", actions: assign({ keep: ({ event }) => event.value }) },
        "slip.oddsRule": {
          guard: "ruleSettable",
          actions: [
            // The bet follows the default just chosen.
            assign({ setting: ({ context, event }) => ({ ...context.setting!, oddsChange: event.rule }), bestPrice: undefined }),
            spawnChild("saveOddsRule", { id: "saveSetting", input: ({ event }) => ({ rule: (event as Extract<BetSlipEvent, { type: "slip.oddsRule" }>).rule }) })
          ]
        }
      },
      initial: "Stake",
      states: {
        Stake: {
          on: {
            "slip.stake": { actions: assign({ stake: ({ event }) => amountInput(event.value) }) },
            "slip.chip": { actions: assign({ stake: ({ event }) => String(event.amount) }) },
            "slip.odds": { actions: assign({ odds: ({ event }) => event.value }) },
            "chips.edit": { target: "Chips", actions: assign({ draft: ({ context }) => context.chips.map(String) }) },
            "slip.place": { guard: "canPlace", target: "Placing", actions: assign({ key: () => newIdempotencyKey("bet"), error: undefined }) }
          }
        },
        Chips: {
          tags: ["chips"],
          on: {
            "chips.change": {
              actions: assign({
                draft: ({ context, event }) => context.draft.map((value, i) => (i === event.index ? event.value.replace(/\D/g, "").slice(0, 8) : value))
              })
            },
            "chips.save": {
              target: "Stake",
              actions: [
                assign({ chips: ({ context }) => cleanChips(context.draft, context.chips) }),
                { type: "storeChips", params: ({ context }) => ({ chips: context.chips }) }
              ]
            },
            "chips.cancel": "Stake"
          }
        },
        Placing: {
          tags: ["busy"],
          invoke: {
            id: "placeBet",
            src: "placeBet",
            input: ({ context }) => ({
              selection: context.selection!,
              odds: context.odds,
              size: context.size,
              stake: Number(context.stake),
              bestPrice: takesBestPrice(context),
              persistence: offersKeep(context.selection) && context.keep ? "keep" : undefined,
              key: context.key!
            }),
            onDone: {
              target: "Placed",
              actions: [
                // A retry after a refusal went through: the refusal no longer stands.
                // The bet is among the market's open bets now: the slip's "Now" is the position the runners show.
                assign({
                  placed: ({ event }) => event.output,
                  open: ({ context, event }) => withPlaced(context.open, event.output),
                  key: undefined,
                  error: undefined
                }),
                "betPlaced",
                enqueueActions(({ context, event, enqueue }) => {
                  if (context.oneClickBet) enqueue({ type: "tellOutcome", params: { placed: event.output } })
                })
              ]
            }
          },
          on: {
            // The bet is on its way: the slip stays until the server answers.
            "slip.close": {},
            "slip.open": {},
            "xstate.error.actor.placeBet": [
              {
                // The price moved: show the live price and let the player confirm it.
                guard: "oddsChanged",
                target: "Rejected",
                actions: assign({
                  error: ODDS_CHANGED,
                  key: undefined,
                  odds: ({ context }) => context.live?.odds ?? context.odds,
                  size: ({ context }) => (context.live ? context.live.size : context.size)
                })
              },
              { guard: "unanswered", target: "Rejected", actions: assign({ error: ({ event }) => messageOf(event.error) }) },
              // Suspended, closed, the stake out of range, the balance too low: the server's reason, and a new key next time.
              { target: "Rejected", actions: assign({ error: ({ event }) => messageOf(event.error), key: undefined }) }
            ]
          }
        },
        Placed: {
          tags: ["placed"],
          after: { closeAfterPlaced: "#betSlip.Closed" }
        },
        Rejected: {
          on: {
            "slip.stake": { target: "Stake", actions: assign({ stake: ({ event }) => amountInput(event.value), error: undefined }) },
            "slip.chip": { target: "Stake", actions: assign({ stake: ({ event }) => String(event.amount), error: undefined }) },
            "slip.odds": { target: "Stake", actions: assign({ odds: ({ event }) => event.value, error: undefined }) },
            "slip.place": { guard: "canPlace", target: "Placing", actions: assign({ key: ({ context }) => context.key ?? newIdempotencyKey("bet") }) }
          }
        }
      }
    }
  }
})
