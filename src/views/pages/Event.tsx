import { useSelector } from "@xstate/react"
import { type ReactNode, useCallback, useEffect, useMemo } from "react"
import { useLocation, useNavigate, useSearchParams } from "react-router"
import { fancyPositions, marketBooks, matchedOnly, type Position, positionsByMarket } from "../../domain/betting.ts"
import { earlierCashOut } from "../../domain/cashOut.ts"
import { findEvent, type ListPick } from "../../domain/catalogue.ts"
import { eventDateLabel } from "../../domain/dates.ts"
import { proposed } from "../../machines/betSlip.machine.ts"
import type { Event, League, Market, Sport } from "../../schema/sports.ts"
import { AppActor } from "../app-actor.ts"
import { useEventBets } from "../bets.ts"
import { formatRupees } from "../../domain/money.ts"
import { useAtLeast } from "../breakpoints.ts"
import { useFlow } from "../flows.ts"
import { useOddsBooks } from "../ports.ts"
import { useOpenAuth, useUser } from "../session.ts"
import { BetSlip, type BetSlipRef } from "../widgets/BetSlip.tsx"
import { EventBets, EventLive } from "../widgets/EventPanels.tsx"
import { CashOutButton, CashOutDialog } from "../widgets/CashOut.tsx"
import { BookmakerMarket, ExchangeMarket, FancyMarkets, type PickHandler } from "../widgets/Markets.tsx"
import { Fairness } from "../widgets/Fairness.tsx"
import { LiveScore, ScoreBoard } from "../widgets/LiveScore.tsx"
import { PageLoading } from "../widgets/PageLoading.tsx"
import { useProgressive } from "../widgets/progressive.ts"

/**
 * The live event on screen (its prices into the odds books, its score, the
 * sports list refreshed when events start or finish): the `liveEvent` flow,
 * while the page shows it.
 */
export const useLiveEvent = (eventId: string | undefined) =>
  useFlow("liveEvent", { id: `live.${eventId}`, input: { eventId: eventId ?? "" }, enabled: eventId !== undefined })

/**
 * Below 1280 px the right sidebar does not show: its panels go around the markets instead (SPEC section 2), the
 * live score and TV above them, the event's My Bets below. They are there from the first paint (their heavy parts,
 * the video and the flows' data, come later inside a box of fixed size): coming after it, the panel above pushed
 * the markets down (a layout shift of 0.2 on a phone).
 */
export const usePagePanels = () => !useAtLeast("xl")

/**
 * The markets of an event with live prices. Clicking a price opens the bet
 * slip under its market; signed-out visitors are asked to log in. `below`
 * (the phone's My Bets) comes once every market is in, so markets arriving
 * never push it down the screen.
 */
export const EventMarkets = (props: { sport: Sport; league: League; event: Event; channel: "sport" | "racing"; below?: ReactNode }) => {
  const slip = useFlow("betSlip", { input: undefined })
  return slip ? <Markets {...props} slip={slip} /> : <PageLoading />
}

const Markets = ({ sport, league, event, channel, below, slip }: { sport: Sport; league: League; event: Event; channel: "sport" | "racing"; below?: ReactNode; slip: BetSlipRef }) => {
  const user = useUser()
  const openAuth = useOpenAuth()
  const odds = useOddsBooks()
  const bets = useEventBets(event._id)
  const slipMarket = useSelector(slip, (s) => (s.hasTag("closed") ? undefined : s.context.selection?.marketId))
  // Known once a slip has opened: a click on a price places this stake at once.
  const oneClick = useSelector(slip, (s) => s.context.setting?.oneClick ?? null)
  // Only what changes the projection: live price ticks do not re-render the page.
  const pending = useSelector(
    slip,
    (s) => {
      // A closed slip keeps its last selection in context; it proposes nothing.
      const bet = s.hasTag("closed") ? undefined : proposed(s.context)
      return bet && s.context.selection ? { marketId: s.context.selection.marketId, bet } : undefined
    },
    (a, b) => JSON.stringify(a) === JSON.stringify(b)
  )

  const onPick = useCallback<PickHandler>((market, runner, pick) => {
    if (!user) {
      openAuth("login")
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
        runners: market.runners,
        inPlay: event.inPlay
      }
    })
  }, [user, openAuth, slip, event._id, event.inPlay, sport._id, league._id, channel])

  // A price picked in an event list (EventList): the slip opens on it once, and the history entry forgets it.
  const location = useLocation()
  const navigate = useNavigate()
  const listPick = (location.state as { pick?: ListPick } | null)?.pick
  useEffect(() => {
    if (!listPick || !odds) return
    const market = event.markets.find((m) => m.marketId === listPick.marketId)
    const runner = market?.runners.find((r) => r.selectionId === listPick.selectionId)
    navigate(`${location.pathname}${location.search}`, { replace: true, state: null })
    if (market && runner) onPick(market, runner, listPick)
  }, [listPick, odds, event.markets, onPick, navigate, location.pathname, location.search])

  const open = useMemo(() => positionsByMarket(bets ?? []), [bets])
  // The open bets' P/L stays the same objects while a price is picked: only the slip's market re-renders.
  const books = useMemo(() => marketBooks(event.markets, open), [event.markets, open])
  const next = useMemo(
    () => (pending ? marketBooks(event.markets.filter((m) => m.marketId === pending.marketId), open, pending).get(pending.marketId)?.next : undefined),
    [event.markets, open, pending]
  )
  const fancy = useMemo(() => fancyPositions(event.markets, open), [event.markets, open])

  // Cash out, for each exchange and bookmaker market where the player holds matched bets.
  const cashOut = useFlow("cashOut", { input: undefined, enabled: user !== undefined })
  const matched = useMemo(() => new Map([...open].map(([marketId, positions]) => [marketId, matchedOnly(positions)] as const).filter(([, p]) => p.length > 0)), [open])
  const cashOutButtons = useMemo(() => {
    const buttons = new Map<string, React.ReactNode>()
    if (!cashOut) return buttons
    for (const market of event.markets) {
      const positions = matched.get(market.marketId)
      if (market.marketType === "FANCY" || !positions) continue
      buttons.set(
        market.marketId,
        <CashOutButton
          market={{ eventId: event._id, marketId: market.marketId, marketName: market.name, marketType: market.marketType }}
          runners={market.runners.map((r) => r.selectionId)}
          positions={positions}
          flow={cashOut}
        />
      )
    }
    return buttons
  }, [cashOut, event._id, event.markets, matched])
  const runnersOf = useCallback((marketId: string) => event.markets.find((m) => m.marketId === marketId)?.runners ?? [], [event.markets])
  const positionsOf = useCallback((marketId: string): ReadonlyArray<Position> => matched.get(marketId) ?? [], [matched])
  // What earlier cash outs left in a market's position: its quote (of the whole position) includes it, and says so.
  const earlierOf = useCallback((marketId: string) => {
    const market = event.markets.find((m) => m.marketId === marketId)
    return market ? earlierCashOut(market.marketType, market.runners.map((r) => r.selectionId), (bets ?? []).filter((bet) => bet.marketId === marketId)) : undefined
  }, [event.markets, bets])

  const slipView = <BetSlip slip={slip} />
  const fancies = useMemo(() => event.markets.filter((m) => m.marketType === "FANCY"), [event.markets])
  const others = useMemo(() => event.markets.filter((m) => m.marketType !== "FANCY"), [event.markets])
  const fancySlip = fancies.some((m) => m.marketId === slipMarket) ? slipMarket : undefined
  // The markets a screenful at a time (the fancy lines, one block, after the others).
  const rendered = useProgressive(others.length + (fancies.length > 0 ? 1 : 0), 2)
  const renderMarket = (market: Market) => {
    const Component = market.marketType === "BOOKMAKER" ? BookmakerMarket : ExchangeMarket
    const slipHere = slipMarket === market.marketId
    return <Component key={market._id} market={market} pl={books.get(market.marketId)?.pl} next={slipHere ? next : undefined} onPick={onPick} slip={slipHere ? slipView : undefined} cashOut={cashOutButtons.get(market.marketId)} />
  }
  // The odds cells wait for the odds books here, without suspending: the page (and the flows it holds) stays mounted.
  if (!odds) return <PageLoading />
  return (
    <>
      {oneClick !== null ? (
        <p role="note" className="card m-0 flex items-center justify-between gap-2 px-3 py-2 text-xs">
          <span>One-click betting is on: a click on a price places {formatRupees(oneClick)}.</span>
          <button type="button" className="btn-ghost px-2 py-1 text-xs" onClick={() => slip.send({ type: "slip.oneClick", on: false })}>Turn off one-click betting</button>
        </p>
      ) : null}
      {cashOut ? <CashOutDialog flow={cashOut} runnersOf={runnersOf} positionsOf={positionsOf} earlierOf={earlierOf} /> : null}
      {others.slice(0, rendered).map(renderMarket)}
      {fancies.length > 0 && rendered > others.length ? (
        // The slip only while it holds a fancy: a new slip element would re-render every fancy's cells on each slip change.
        <FancyMarkets markets={fancies} positions={fancy} onPick={onPick} slipFor={fancySlip} slip={fancySlip ? slipView : undefined} />
      ) : null}
      {rendered >= others.length + (fancies.length > 0 ? 1 : 0) ? below : null}
    </>
  )
}

/** /event?sport=&league=&event=: the event, its live score and its markets. */
const EventPage = () => {
  const sports = AppActor.useSelector((s) => s.context.sports)
  const loading = AppActor.useSelector((s) => s.hasTag("preloader"))
  const [params] = useSearchParams()
  const entry = findEvent(sports, params.get("sport") ?? "", params.get("league") ?? "", params.get("event") ?? "")
  const live = useLiveEvent(entry?.event._id)
  const panels = usePagePanels()
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
        {/* The score's box is there from the first paint, so the score coming in moves nothing below it. */}
        {event.inPlay ? live ? <LiveScore live={live} /> : <ScoreBoard score={undefined} /> : null}
        <Fairness live={live} />
      </header>
      {panels ? <EventLive eventId={event._id} collapsible /> : null}
      <EventMarkets sport={sport} league={league} event={event} channel="sport" below={panels ? <EventBets eventId={event._id} /> : null} />
    </div>
  )
}

export default EventPage
