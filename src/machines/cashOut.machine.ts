import { assign, enqueueActions, fromPromise, setup, spawnChild } from "xstate"
import type { Position } from "../domain/betting.ts"
import { autoRuleProblem, type NoQuote, quoteCashOut } from "../domain/cashOut.ts"
import { offersOf } from "../domain/matching.ts"
import { formatRupees, toRupees } from "../domain/money.ts"
import type { BetSetting, MarketBook } from "../schema/betting.ts"
import type { AutoCashOutRule, CashedOut, CashOutAnswer, CashOutQuote, Requoted } from "../schema/cashOut.ts"
import type { Failure } from "../schema/errors.ts"
import { messageOf } from "../schema/failures.ts"
import type { MarketType } from "../schema/sports.ts"
import type { CallFailed } from "./calls.ts"
import { unprovided, unprovidedAction } from "./unprovided.ts"
import { newIdempotencyKey, unanswered, type Written } from "./writes.ts"

/**
 * Cash out (issue 31): the player closes or trims their position on an
 * exchange or bookmaker market at today's prices. The Cash Out button of a
 * market opens the flow: the server quotes the chosen part of the position
 * (25, 50, 75 or 100 %, or any per cent), the player asks to cash out, and
 * confirms, unless they turned confirmations off (one-click betting on: their
 * betting setting); the quote's id goes with the request under an
 * Idempotency-Key. When the book moved beyond the server's tolerance the
 * answer is QuoteChanged: the flow quotes again and the player confirms the
 * new value (always, like the bet slip's odds-change rule). A refusal
 * (suspended market, an account closed to play) says why; a lost answer keeps
 * the key, so trying again is the same cash out. Between server quotes the
 * button shows the live value from the odds books (`liveCashOut`). The
 * market's auto cash out (a target and/or a floor for the whole position) is
 * loaded with it and saved on `cashOut.auto`; the server's answer is a toast.
 */

export interface CashOutMarket {
  readonly eventId: string
  readonly marketId: string
  readonly marketName: string
  readonly marketType: MarketType
}

/** The server's quote (rupees); its `value` is what the part cashed out locks whatever wins (f·G for a part f). */
export type Quote = CashOutQuote

/** A cash out as it is sent, with the key that makes a retry the same cash out. */
export interface CashOutRequest {
  readonly marketId: string
  readonly fraction: number
  readonly quoteId: string
  readonly key: string
}

export interface CashOutContext {
  readonly market: CashOutMarket | undefined
  /** The part of the position to cash out, in whole per cent (1 to 100). */
  readonly percent: number
  readonly quote: Quote | undefined
  /** Confirm before cashing out: the player's setting (one-click betting off), true until it is known. */
  readonly confirm: boolean
  /** The server's value moved since the player asked: they confirm the new one. */
  readonly changed: boolean
  readonly error: string | undefined
  /** Idempotency key of the cash out in flight, or of the one whose answer was lost. */
  readonly key: string | undefined
  /** What the last cash out locked whatever wins (rupees): the value it was taken at. */
  readonly locked: number | undefined
  /** The market's auto cash out: the whole position at a value reached (target) or fallen to (floor), rupees. */
  readonly auto: AutoRule
  /** Why the auto cash out the player last tried to save was refused here (`autoRuleProblem`), until a good one. */
  readonly autoError: string | undefined
}

export interface AutoRule {
  readonly target: number | null
  readonly floor: number | null
}

export type CashOutEvent =
  | { type: "cashOut.open"; market: CashOutMarket }
  | { type: "cashOut.percent"; percent: number }
  | { type: "cashOut.request" }
  | { type: "cashOut.confirm" }
  | { type: "cashOut.back" }
  | { type: "cashOut.retry" }
  | { type: "cashOut.close" }
  /** Sets the market's auto cash out (both null: none). Saved on the server, whose answer shows as a toast. */
  | { type: "cashOut.auto"; target: number | null; floor: number | null }
  /** The auto cash out's save (a spawned child, which XState's types leave out): its answer or failure. */
  | { type: "xstate.done.actor.saveAutoRule"; output: Written<ReadonlyArray<AutoCashOutRule>> }

export const CASH_OUT_PRESETS: ReadonlyArray<number> = [25, 50, 75, 100]

/** What the player is told when the value moved before their cash out went through (`changed`). */
export const QUOTE_CHANGED = "The cash out value changed. Please check the new value and confirm again."

/**
 * What a quote covers, told under it: always the whole position on the market (every matched bet on it), so what an
 * earlier cash out locked (`earlierCashOut`, paise) is in it: said with its amount when all of it is cashed out.
 */
export const quoteCovers = (percent: number, earlier: number | "part" | undefined) => {
  const part = percent === 100 ? "your whole position" : `${percent} % of your whole position`
  const locked = earlier === undefined
    ? ""
    : typeof earlier === "number" && percent === 100
      ? `, with ${earlier < 0 ? "a loss of " : earlier > 0 ? "a profit of " : ""}${formatRupees(Math.abs(toRupees(earlier)))} already locked by your earlier cash out`
      : ", earlier cash outs included"
  return `Covers ${part} on this market: every matched bet on it${locked}.`
}

/** A per cent the flow takes: whole, 1 to 100. */
export const clampPercent = (percent: number) => Math.min(100, Math.max(1, Math.round(Number.isFinite(percent) ? percent : 100)))

const NO_RULE: AutoRule = { target: null, floor: null }

const opened = (market: CashOutMarket) => ({ market, percent: 100, quote: undefined, changed: false, error: undefined, key: undefined, locked: undefined, auto: NO_RULE, autoError: undefined })

/** Whether an auto cash out can be set: amounts with at most two decimals, a floor below the target. */
export const validAuto = (rule: AutoRule) => autoRuleProblem(rule) === undefined

/**
 * The live cash-out value (what is locked whatever wins) of `percent` of a position on a market, from its book in the odds store (rupees), or why
 * there is none. The server's quote is what a cash out is held to; this follows the prices between quotes.
 */
export const liveCashOut = (
  book: MarketBook | undefined,
  runners: ReadonlyArray<string>,
  positions: ReadonlyArray<Position>,
  percent = 100
): { readonly value: number } | NoQuote | "noPrices" => {
  if (!book || book.status !== "OPEN") return "noPrices"
  const ladders = book.runners.map((r) => ({ selectionId: r.selectionId, back: offersOf("back", r.back), lay: offersOf("lay", r.lay) }))
  // As the server quotes it: a part locks that part of the full value, never more than the ladder gives.
  const quote = quoteCashOut(book.marketType, runners, positions, ladders, clampPercent(percent) / 100)
  return typeof quote === "string" ? quote : { value: toRupees(quote.value) }
}

export const cashOutMachine = setup({
  types: { context: {} as CashOutContext, events: {} as CashOutEvent | CallFailed<"cashOut" | "quote" | "saveAutoRule"> },
  actors: {
    /** The player's betting setting: one-click betting on means no confirmation. */
    loadSetting: fromPromise<BetSetting, { eventId: string }>(unprovided("cashOut", "loadSetting")),
    quote: fromPromise<Quote, { marketId: string; fraction: number }>(unprovided("cashOut", "quote")),
    /** The cash out: taken, or quoted again when the value fell beyond the tolerance; a refusal has its reason. */
    cashOut: fromPromise<CashOutAnswer, CashOutRequest>(unprovided("cashOut", "cashOut")),
    /** The market's auto cash out, if the player set one. */
    loadAutoRule: fromPromise<AutoCashOutRule | null, { marketId: string }>(unprovided("cashOut", "loadAutoRule")),
    /** Sets (or, both null, removes) the market's auto cash out; the server's answer or refusal shows as a toast. */
    saveAutoRule: fromPromise<Written<ReadonlyArray<AutoCashOutRule>>, { marketId: string } & AutoRule>(unprovided("cashOut", "saveAutoRule"))
  },
  actions: {
    /** An auto cash out saved: the server's message ('Auto cash out set'), SPEC section 7. */
    toastSuccess: unprovidedAction<{ message: string }>("cashOut", "toastSuccess"),
    /** Why it was not (SPEC section 8). */
    toastFailure: unprovidedAction<{ error: Failure }>("cashOut", "toastFailure"),
    /** The market's open bets changed: the event's list (the flow `bets.<eventId>`, when open) loads again. */
    cashedOut: enqueueActions(({ context, enqueue, system }) => {
      const bets = context.market && system.get(`bets.${context.market.eventId}`)
      if (bets) enqueue.sendTo(bets, { type: "bets.refresh" })
    })
  },
  guards: {
    confirms: ({ context }) => context.confirm || context.changed,
    validAuto: ({ event }) => event.type === "cashOut.auto" && validAuto(event),
    requoted: ({ event }) => "output" in event && (event.output as Partial<CashOutAnswer>).outcome === "requoted",
    /** A lost answer: the same cash out again, with its key. */
    resend: ({ context }) => context.key !== undefined && context.quote !== undefined,
    unanswered
  }
}).createMachine({
  id: "cashOut",
  context: { market: undefined, percent: 100, quote: undefined, confirm: true, changed: false, error: undefined, key: undefined, locked: undefined, auto: NO_RULE, autoError: undefined },
  // The auto cash out's save runs on its own (spawned below), whatever the dialog does meanwhile; its answer is a toast.
  on: {
    "xstate.done.actor.saveAutoRule": { actions: { type: "toastSuccess", params: ({ event }) => ({ message: event.output.message }) } },
    "xstate.error.actor.saveAutoRule": { actions: { type: "toastFailure", params: ({ event }) => ({ error: event.error }) } }
  },
  initial: "Closed",
  states: {
    Closed: {
      tags: ["closed"],
      on: { "cashOut.open": { target: "Open", actions: assign(({ event }) => opened(event.market)) } }
    },
    Open: {
      invoke: [
        {
          id: "loadSetting",
          src: "loadSetting",
          input: ({ context }) => ({ eventId: context.market!.eventId }),
          onDone: { actions: assign({ confirm: ({ event }) => event.output.oneClick === null }) },
          // Unknown: the player confirms.
          onError: { actions: assign({ confirm: true }) }
        },
        {
          id: "loadAutoRule",
          src: "loadAutoRule",
          input: ({ context }) => ({ marketId: context.market!.marketId }),
          onDone: { actions: assign({ auto: ({ event }) => (event.output ? { target: event.output.target, floor: event.output.floor } : NO_RULE) }) },
          // Unknown: the form starts empty; saving still says what the server has.
          onError: {}
        }
      ],
      on: {
        "cashOut.open": { target: "Open", reenter: true, actions: assign(({ event }) => opened(event.market)) },
        "cashOut.close": "Closed",
        "cashOut.auto": [
          {
            guard: "validAuto",
            actions: [
              assign({ auto: ({ event }) => ({ target: event.target, floor: event.floor }), autoError: undefined }),
              spawnChild("saveAutoRule", { id: "saveAutoRule", input: ({ context }) => ({ marketId: context.market!.marketId, ...context.auto }) })
            ]
          },
          // Not sent: the form says why, in the server's words.
          { actions: assign({ autoError: ({ event }) => autoRuleProblem(event) }) }
        ]
      },
      initial: "Quoting",
      states: {
        Quoting: {
          tags: ["quoting"],
          invoke: {
            id: "quote",
            src: "quote",
            input: ({ context }) => ({ marketId: context.market!.marketId, fraction: context.percent / 100 }),
            onDone: { target: "Quoted", actions: assign({ quote: ({ event }) => event.output, error: undefined }) }
          },
          on: {
            "cashOut.percent": { target: "Quoting", reenter: true, actions: assign({ percent: ({ event }) => clampPercent(event.percent), changed: false }) },
            "xstate.error.actor.quote": { target: "Refused", actions: assign({ quote: undefined, error: ({ event }) => messageOf(event.error) }) }
          }
        },
        Quoted: {
          tags: ["quoted"],
          on: {
            "cashOut.percent": { target: "Quoting", actions: assign({ percent: ({ event }) => clampPercent(event.percent), changed: false }) },
            "cashOut.request": [
              { guard: "confirms", target: "Confirming" },
              { target: "Submitting", actions: assign({ key: () => newIdempotencyKey("cash-out") }) }
            ]
          }
        },
        Confirming: {
          tags: ["quoted", "confirm"],
          on: {
            "cashOut.confirm": { target: "Submitting", actions: assign({ key: () => newIdempotencyKey("cash-out") }) },
            "cashOut.back": "Quoted",
            "cashOut.percent": { target: "Quoting", actions: assign({ percent: ({ event }) => clampPercent(event.percent), changed: false }) }
          }
        },
        Submitting: {
          tags: ["busy"],
          invoke: {
            id: "cashOut",
            src: "cashOut",
            input: ({ context }) => ({ marketId: context.market!.marketId, fraction: context.percent / 100, quoteId: context.quote!.quoteId, key: context.key! }),
            onDone: [
              // The value fell beyond the tolerance: nothing was written; the player confirms the new quote.
              {
                guard: "requoted",
                target: "Quoted",
                actions: assign({ quote: ({ event }) => (event.output as Requoted).quote, changed: true, key: undefined })
              },
              {
                target: "Done",
                actions: [
                  assign({ locked: ({ event }) => (event.output as CashedOut).value, key: undefined, error: undefined, changed: false }),
                  "cashedOut"
                ]
              }
            ]
          },
          // On its way: it stays until the server answers.
          on: {
            "cashOut.open": {},
            "cashOut.close": {},
            "xstate.error.actor.cashOut": [
              { guard: "unanswered", target: "Refused", actions: assign({ error: ({ event }) => messageOf(event.error) }) },
              // Suspended, closed, an account closed to play: the server's reason, and a new key next time.
              { target: "Refused", actions: assign({ error: ({ event }) => messageOf(event.error), key: undefined }) }
            ]
          }
        },
        Done: { tags: ["done"] },
        Refused: {
          tags: ["refused"],
          on: {
            "cashOut.retry": [{ guard: "resend", target: "Submitting" }, { target: "Quoting", actions: assign({ key: undefined }) }],
            "cashOut.percent": { target: "Quoting", actions: assign({ percent: ({ event }) => clampPercent(event.percent), changed: false, key: undefined }) }
          }
        }
      }
    }
  }
})
