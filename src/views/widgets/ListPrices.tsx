import { useCallback, useEffect } from "react"
import { useNavigate } from "react-router"
import { eventHref, type EventEntry, listMarketOf, type ListPick } from "../../domain/catalogue.ts"
import { useOddsBooks } from "../ports.ts"
import { OddsCell, type PickHandler } from "./OddsCell.tsx"

/**
 * An event row's Match Odds, best back and lay of each runner, live: shown while the row is on screen, when the
 * row watches that one market on the odds channel (one watch per visible row, prices once a second at most). A click opens the event with the slip on
 * that price. Its own chunk: the home page's first one does not carry the cells.
 */
const ListPrices = ({ sport, league, event }: EventEntry) => {
  const odds = useOddsBooks()
  const navigate = useNavigate()
  const market = listMarketOf(event)
  const marketId = market?.marketId
  useEffect(() => (odds && marketId ? odds.watchMarket(event._id, marketId) : undefined), [odds, event._id, marketId])
  const onPick = useCallback<PickHandler>((_market, _runner, pick) => {
    if (!market) return
    const state: { pick: ListPick } = { pick: { marketId: market.marketId, ...pick } }
    navigate(eventHref(sport, league, event), { state })
  }, [navigate, sport, league, event, market])
  if (!market || !odds) return null
  return (
    <>
      {market.runners.map((runner) => (
        <div key={runner.selectionId} className="grid grid-cols-2 gap-0.5" role="group" aria-label={runner.name}>
          <OddsCell market={market} runner={runner} side="back" onPick={onPick} />
          <OddsCell market={market} runner={runner} side="lay" onPick={onPick} />
        </div>
      ))}
    </>
  )
}

export default ListPrices
