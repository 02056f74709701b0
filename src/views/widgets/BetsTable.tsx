import { Link } from "react-router"
import { eventHref } from "../../domain/catalogue.ts"
import { priceLabel, sideLabel } from "../../domain/betting.ts"
import { eventDateLabel } from "../../domain/dates.ts"
import { formatAmount } from "../../domain/money.ts"
import type { Bet } from "../../schema/bets.ts"

/** Bets grouped by event, in the order their newest bet was placed. */
export const groupByEvent = (bets: ReadonlyArray<Bet>) => {
  const groups = new Map<string, { event: Bet["eventId"]; sport: string; league: string; bets: Array<Bet> }>()
  for (const bet of bets) {
    const group = groups.get(bet.eventId._id) ?? { event: bet.eventId, sport: bet.sportId.slugName, league: bet.leagueId.slugName, bets: [] }
    group.bets.push(bet)
    groups.set(bet.eventId._id, group)
  }
  return [...groups.values()]
}

/** Selection (with a Back or Lay tag), Odds, Stake, P/L, Market, Created at (SPEC section 2, My Bets). */
export const BetsTable = ({ bets }: { bets: ReadonlyArray<Bet> }) => (
  <div className="max-h-[280px] overflow-auto">
    <table className="w-full border-collapse text-xs">
      <thead className="sticky top-0 bg-surface text-muted">
        <tr>
          <th scope="col" className="px-2 py-1 text-left font-600">Selection</th>
          <th scope="col" className="px-2 py-1 text-right font-600">Odds</th>
          <th scope="col" className="px-2 py-1 text-right font-600">Stake</th>
          <th scope="col" className="px-2 py-1 text-right font-600">P/L</th>
          <th scope="col" className="px-2 py-1 text-left font-600">Market</th>
          <th scope="col" className="px-2 py-1 text-left font-600">Created at</th>
        </tr>
      </thead>
      <tbody>
        {bets.map((bet) => {
          const fancy = bet.marketType === "FANCY"
          // Back or Lay on every market, fancy included (a fancy Back is its Yes, a Lay its No).
          const tag = sideLabel(bet.selectionType)
          return (
            <tr key={bet._id} className={`h-[58px] border-t border-line ${bet.selectionType === "back" ? "bg-back/10" : "bg-lay/10"}`} data-testid="bet-row">
              <td className="px-2 py-1">
                <span className={`mr-1 rounded px-1 py-0.5 text-[10px] font-700 text-[#10151f] ${bet.selectionType === "back" ? "bg-back" : "bg-lay"}`}>{tag}</span>
                {bet.selection}
              </td>
              <td className="px-2 py-1 text-right">{priceLabel(bet.odds, bet.marketType)}{fancy && bet.oddsSize !== null ? ` / ${bet.oddsSize}` : ""}</td>
              <td className="px-2 py-1 text-right">{formatAmount(bet.stake)}</td>
              <td className="px-2 py-1 text-right">
                {/* Settled: the result; open: what it risks. */}
                {bet.profitLoss !== null ? (
                  <span className={bet.profitLoss >= 0 ? "text-ok" : "text-bad"}>{formatAmount(bet.profitLoss)}</span>
                ) : (
                  <span className="text-bad">{formatAmount(-bet.liability)}</span>
                )}
              </td>
              <td className="px-2 py-1">{bet.marketName}</td>
              <td className="whitespace-nowrap px-2 py-1 text-muted">{eventDateLabel(bet.createdAt)}</td>
            </tr>
          )
        })}
      </tbody>
    </table>
  </div>
)

/** Groups of bets by event, collapsible, the first open, each linking to its event page. */
export const BetGroups = ({ bets, onNavigate }: { bets: ReadonlyArray<Bet>; onNavigate?: () => void }) => {
  const groups = groupByEvent(bets)
  if (groups.length === 0) return <p className="m-0 p-4 text-center text-sm text-muted">No Data Available</p>
  return (
    <div className="flex flex-col gap-2">
      {groups.map((group, index) => (
        <details key={group.event._id} open={index === 0} className="rounded-md border border-line" data-testid="bet-group">
          <summary className="flex cursor-pointer items-center justify-between gap-2 bg-raised px-3 py-2 text-sm font-700">
            <span className="truncate">{group.event.name}</span>
            <span className="text-xs font-500 text-muted">{group.bets.length} {group.bets.length === 1 ? "bet" : "bets"}</span>
          </summary>
          <Link
            to={eventHref({ slugName: group.sport }, { slugName: group.league }, { slugName: group.event.slugName })}
            onClick={onNavigate}
            className="block px-3 py-1 text-xs text-brand underline"
          >
            Open {group.event.name}
          </Link>
          <BetsTable bets={group.bets} />
        </details>
      ))}
    </div>
  )
}
