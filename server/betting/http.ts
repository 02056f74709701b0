import { Effect, Exit } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../../src/schema/api.ts"
import { CurrentStaff, CurrentUser } from "../../src/schema/middleware.ts"
import { Audit } from "../desk/Audit.ts"
import { actorOf } from "../desk/Staff.ts"
import type { PlaceBetPayload, PlacedBet } from "../../src/schema/betting.ts"
import { ok } from "../../src/schema/envelope.ts"
import { betOutcome } from "../../src/domain/matching.ts"
import type { BetChannel } from "../../src/domain/betDecision.ts"
import { Betting } from "./Betting.ts"
import { Preferences, preferencesMessage } from "./Preferences.ts"
import { Waiting } from "./Waiting.ts"
import { Bets } from "./Bets.ts"
import { Markets } from "../desk/Markets.ts"
import { Catalogue } from "../catalogue/Catalogue.ts"
import { idempotencyKeyOf } from "../ledger/Idempotency.ts"
import { OddsFeed } from "../odds/OddsFeed.ts"
import { sqlDefects } from "../edge/defects.ts"
import { marketTypeLabel, recordBet, refusalOf } from "../observability/metrics.ts"
import type { HttpServerRequest } from "effect/http"

export const BettingHandlers = HttpApiBuilder.group(Api, "betting", Effect.fn(function*(handlers) {
  const betting = yield* Betting
  const bets = yield* Bets
  const catalogue = yield* Catalogue
  const waiting = yield* Waiting
  const preferences = yield* Preferences
  const feed = yield* OddsFeed

  const place = (channel: BetChannel) => ({ payload, request }: { payload: PlaceBetPayload; request: HttpServerRequest.HttpServerRequest }) =>
    Effect.gen(function*() {
      const user = yield* CurrentUser
      const key = yield* idempotencyKeyOf(request)
      const placed = yield* betting.place(user, channel, payload, key)
      return ok(placed, betOutcome(placed.bet))
    }).pipe(observeBet(payload.marketId))

  /** Every bet answered is counted (placed, or refused and why) and timed, by its market's type. */
  const observeBet = (marketId: string) => <A extends { readonly data: PlacedBet }, E, R>(answer: Effect.Effect<A, E, R>) => {
    const book = feed.book(marketId)
    const start = performance.now()
    return Effect.onExit(answer, (exit) =>
      recordBet(
        refusalOf(exit),
        marketTypeLabel(Exit.isSuccess(exit) ? exit.value.data.bet.marketType : book?.marketType),
        book?.inPlay ?? false,
        (performance.now() - start) / 1000
      ))
  }

  return handlers.handleAll(sqlDefects(handlers, {
    sportsDataAuthenticate: () => Effect.map(catalogue.sportsData, (data) => ok(data)),
    setting: ({ query }) =>
      Effect.gen(function*() {
        const user = yield* CurrentUser
        return ok(yield* preferences.setting(user.id, query))
      }),
    updateSetting: ({ payload }) =>
      Effect.gen(function*() {
        const user = yield* CurrentUser
        yield* preferences.update(user.id, payload)
        return ok(yield* preferences.setting(user.id, {}), preferencesMessage(payload))
      }),
    betSport: place("sport"),
    betRacing: place("racing"),
    fancyBetSport: place("fancy"),
    cancelBet: ({ payload, request }) =>
      Effect.gen(function*() {
        const user = yield* CurrentUser
        const changed = yield* waiting.cancel(user.id, payload, yield* idempotencyKeyOf(request))
        return ok(changed, `${changed.bet.selection}: ${betOutcome(changed.bet)}`)
      }),
    editBet: ({ payload, request }) =>
      Effect.gen(function*() {
        const user = yield* CurrentUser
        const changed = yield* waiting.edit(user.id, payload, yield* idempotencyKeyOf(request))
        return ok(changed, `${changed.bet.selection}: ${betOutcome(changed.bet)}`)
      }),
    betsByMarket: ({ query }) =>
      Effect.gen(function*() {
        const user = yield* CurrentUser
        return ok(yield* bets.open(user.id, { marketId: query.marketId, eventId: query.eventId }))
      })
  }))
}))

export const BettingAdminHandlers = HttpApiBuilder.group(Api, "bettingAdmin", Effect.fn(function*(handlers) {
  const markets = yield* Markets
  const feed = yield* OddsFeed
  const audit = yield* Audit
  return handlers.handleAll(sqlDefects(handlers, {
    // The same path as the desk's (four eyes): above the liability threshold these are refused, to be asked on the desk.
    settleMarket: ({ payload }) =>
      Effect.gen(function*() {
        const staff = yield* CurrentStaff
        const done = yield* markets.decide(actorOf(staff), payload.marketId, { result: payload.result }, "refuse")
        return ok(done.settlement!, "Market settled")
      }),
    voidMarket: ({ payload }) =>
      Effect.gen(function*() {
        const staff = yield* CurrentStaff
        const done = yield* markets.decide(actorOf(staff), payload.marketId, { reason: payload.reason ?? "Voided by the operator" }, "refuse")
        return ok(done.settlement!, "Market voided")
      }),
    marketPrice: ({ payload }) =>
      Effect.gen(function*() {
        const staff = yield* CurrentStaff
        const before = feed.book(payload.marketId) ?? null
        const book = yield* feed.setPrice(payload)
        // The price is the feed's (memory, or the leader's), not a row: its line is written once it took.
        yield* audit.record(actorOf(staff), { action: "market.price", subject: { kind: "market", id: payload.marketId }, before, after: { ...payload, status: book.status } })
        return ok(book, "Price updated")
      })
  }))
}))
