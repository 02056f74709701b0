import { useActorRef, useSelector } from "@xstate/react"
import { useCallback, useEffect, useMemo } from "react"
import { useSearchParams } from "react-router"
import { fancyBook, marketExposure, type Position, runnerBook } from "../../domain/betting.ts"
import { findEvent } from "../../domain/catalogue.ts"
import { eventDateLabel } from "../../domain/dates.ts"
import { toRupees } from "../../domain/money.ts"
import { proposed } from "../../machines/betSlip.machine.ts"
import type { Bet } from "../../schema/bets.ts"
import type { Event, League, Market, Sport } from "../../schema/sports.ts"
import { odds } from "../../services/odds.ts"
import { AppActor } from "../app-actor.ts"
import { browserBetSlip, storedChips, useEventBets } from "../betting.ts"
import { useAuthModalRef, useUser } from "../session.ts"
import { BetSlip } from "../widgets/BetSlip.tsx"
import { BookmakerMarket, ExchangeMarket, FancyMarkets, type PickHandler } from "../widgets/Markets.tsx"
import { LiveScore } from "../widgets/LiveScore.tsx"

const toPosition = (bet: Bet): Position => ({ selectionId: bet.selectionId, side: bet.selectionType, odds: bet.odds, stake: Math.round(bet.stake * 100), size: bet.oddsSize })

/** Live prices of an event while its page is open, and the sports list refreshed when events start or finish. */
export const useEventOdds = (eventId: string | undefined) => {
  const app = AppActor.useActorRef()
  useEffect(() => (eventId ? odds.watch(eventId) : undefined), [eventId])
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined
    // Every client hears it at once: spread the reloads over a few seconds.
    const stop = odds.onCatalogue(() => {
      timer ??= setTimeout(() => {
        timer = undefined
        app.send({ type: "sports.refresh" })
      }, Math.random() * 3000)
    })
    return () => {
      stop()
      if (timer) clearTimeout(timer)
    }
  }, [app])
}

/**
 * The markets of an event with live prices. Clicking a price opens the bet
 * slip under its market; signed-out visitors are asked to log in.
 */
export const EventMarkets = ({ sport, league, event, channel }: { sport: Sport; league: League; event: Event; channel: "sport" | "racing" }) => {
  const user = useUser()
  const authModal = useAuthModalRef()
  const slip = useActorRef(browserBetSlip, { input: { chips: storedChips() } })
  const bets = useEventBets(event._id)
  const slipMarket = useSelector(slip, (s) => (s.matches("Closed") ? undefined : s.context.selection?.marketId))
  // Only what changes the projection: live price ticks do not re-render the page.
  const slipKey = useSelector(slip, (s) => {
    // A closed slip keeps its last selection in context; it proposes nothing.
    if (s.matches("Closed")) return ""
    const bet = proposed(s.context)
    return bet ? JSON.stringify([s.context.selection?.marketId, bet]) : ""
  })

  const onPick = useCallback<PickHandler>((market, runner, pick) => {
    if (!user) {
      authModal.send({ type: "auth.openLogin" })
      return
    }
    slip.send({
      type: "slip.open",
      selection: {
        eventId: event._id,
        sportId: sport._id,
        leagueId: league._id,
        marketId: market.marketId,
        marketName: market.name,
        marketType: market.marketType,
        channel: market.marketType === "FANCY" ? "fancy" : channel,
        selectionId: runner.selectionId,
        name: runner.name,
        side: pick.side,
        odds: pick.price,
        size: market.marketType === "FANCY" ? pick.size : null,
        runners: market.runners
      }
    })
  }, [user, authModal, slip, event._id, sport._id, league._id, channel])

  const byMarket = useMemo(() => {
    const map = new Map<string, Array<Position>>()
    for (const bet of bets ?? []) map.set(bet.marketId, [...(map.get(bet.marketId) ?? []), toPosition(bet)])
    return map
  }, [bets])

  const books = useMemo(() => {
    const result = new Map<string, { pl: ReadonlyMap<string, number> | undefined; next: ReadonlyMap<string, number> | undefined }>()
    const pending = slipKey ? (JSON.parse(slipKey) as [string, Position]) : undefined
    for (const market of event.markets) {
      if (market.marketType === "FANCY") continue
      const open = byMarket.get(market.marketId) ?? []
      const ids = market.runners.map((r) => r.selectionId)
      const rupees = (book: Map<string, number>) => new Map([...book].map(([id, paise]) => [id, toRupees(paise)]))
      const pl = open.length > 0 ? rupees(runnerBook(market.marketType, ids, open)) : undefined
      const next = pending && pending[0] === market.marketId ? rupees(runnerBook(market.marketType, ids, [...open, pending[1]])) : undefined
      result.set(market.marketId, { pl, next })
    }
    return result
  }, [event.markets, byMarket, slipKey])

  const fancyPositions = useMemo(() => {
    const map = new Map<string, { exposure: number; book: ReadonlyArray<{ result: number; pl: number }> }>()
    for (const [marketId, open] of byMarket) {
      const market = event.markets.find((m) => m.marketId === marketId)
      if (market?.marketType !== "FANCY") continue
      map.set(marketId, {
        exposure: toRupees(marketExposure("FANCY", [], open)),
        book: fancyBook(open).map((row) => ({ result: row.result, pl: toRupees(row.pl) }))
      })
    }
    return map
  }, [byMarket, event.markets])

  const slipView = <BetSlip slip={slip} />
  const fancies = event.markets.filter((m) => m.marketType === "FANCY")
  const renderMarket = (market: Market) => {
    const { pl, next } = books.get(market.marketId) ?? { pl: undefined, next: undefined }
    const Component = market.marketType === "BOOKMAKER" ? BookmakerMarket : ExchangeMarket
    return <Component key={market._id} market={market} pl={pl} next={next} onPick={onPick} slip={slipMarket === market.marketId ? slipView : undefined} />
  }
  return (
    <>
      {event.markets.filter((m) => m.marketType !== "FANCY").map(renderMarket)}
      {fancies.length > 0 ? (
        <FancyMarkets markets={fancies} positions={fancyPositions} onPick={onPick} slipFor={fancies.some((m) => m.marketId === slipMarket) ? slipMarket : undefined} slip={slipView} />
      ) : null}
    </>
  )
}

/** /event?sport=&league=&event=: the event, its live score and its markets. */
const EventPage = () => {
  const sports = AppActor.useSelector((s) => s.context.sports)
  const loading = AppActor.useSelector((s) => s.hasTag("preloader"))
  const [params] = useSearchParams()
  const entry = findEvent(sports, params.get("sport") ?? "", params.get("league") ?? "", params.get("event") ?? "")
  useEventOdds(entry?.event._id)
  if (!entry) {
    return <p className="card m-0 p-6 text-center text-muted">{loading ? "Loading…" : "This event is not available. It may have finished."}</p>
  }
  const { sport, league, event } = entry
  return (
    <div className="flex flex-col gap-3">
      <header className="card p-4">
        <p className="m-0 text-xs text-muted">{sport.name} · {league.name}</p>
        <h1 className="page-title m-0">{event.name}</h1>
        <p className="m-0 text-sm text-muted">{event.inPlay ? <span className="font-700 text-ok">In-Play</span> : eventDateLabel(event.date)}</p>
        {event.inPlay ? <LiveScore eventId={event._id} /> : null}
      </header>
      <EventMarkets sport={sport} league={league} event={event} channel="sport" />
    </div>
  )
}

export default EventPage
